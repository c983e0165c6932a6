"""What every student's container of a Benchbook class mounts, shared by the DockerSpawner and
SwarmSpawner configurations (deploy/kubernetes/values.yaml says the same in the chart's terms):

- the student's home, /home/student, is a named volume of their own, `benchbook-home-<user>`:
  the first start copies the image's home (the course notebooks and their data) into it, and it
  outlives the container, so a saved notebook (and the student's own cell cache,
  ~/.cache/benchbook/cells) is there at the next start. It goes only when the teacher removes
  it: `make forget-student STUDENT=<user>` (`docker volume rm benchbook-home-<user>`).
- the class's cell cache, filled by the teacher with `make warm-cache` (the course notebooks
  executed in this image), read-only at /opt/benchbook/class-cache; every kernel reads it after
  the student's own cache (BENCHBOOK_CELL_CACHE_READONLY) and never writes it. Its place on the
  machine is BENCHBOOK_CLASS_CACHE in the Hub's environment (default /srv/benchbook/class-cache);
  when that directory does not exist, nothing is mounted and every student compiles.
"""
import os

HOME_VOLUME = "benchbook-home-{username}"
HOME = "/home/student"
CLASS_CACHE = os.environ.get("BENCHBOOK_CLASS_CACHE", "/srv/benchbook/class-cache")
CLASS_CACHE_MOUNT = "/opt/benchbook/class-cache"


def mount(spawner):
    """Sets the volumes and the cache's environment on a spawner's section (c.DockerSpawner,
    c.SwarmSpawner)."""
    spawner.volumes = {HOME_VOLUME: HOME}
    if os.path.isdir(CLASS_CACHE):
        spawner.read_only_volumes = {CLASS_CACHE: CLASS_CACHE_MOUNT}
        spawner.environment = {"BENCHBOOK_CELL_CACHE_READONLY": CLASS_CACHE_MOUNT}
