# JupyterHub for a Benchbook class on one machine: each student's server in a container of
# the single-user image (`make image`: benchbook-singleuser), started by DockerSpawner with
# host networking. `make test-cluster` runs this file (Tests/python/test_cluster.py), adding
# only its own ports, database and a test login; `make bench-cluster` measures a class on it.
#
#   pip install jupyterhub dockerspawner          (the versions of requirements.txt)
#   jupyterhub -f deploy/jupyterhub/jupyterhub_config.py
#
# jupyterhub_swarm_config.py is the same class on a Docker swarm (SwarmSpawner);
# deploy/kubernetes/values.yaml the same limits for Zero to JupyterHub (not run here).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchbook_class  # noqa: E402
import benchbook_limits  # noqa: E402
from benchbook_spawners import HostNetworkDockerSpawner  # noqa: E402

c = get_config()  # noqa: F821

c.JupyterHub.spawner_class = HostNetworkDockerSpawner
c.DockerSpawner.image = "benchbook-singleuser:latest"
# The image is built on this machine (make image); there is no registry to pull from.
c.DockerSpawner.pull_policy = "never"
c.DockerSpawner.name_template = "benchbook-{username}"
# A stopped server's container is removed; the student's home is a named volume of its own
# (benchbook_class.py), kept until the teacher removes it (deploy/README.md, "Students' work"),
# with the class's cell cache mounted read-only beside it.
c.DockerSpawner.remove = True
benchbook_class.mount(c.DockerSpawner)
c.DockerSpawner.notebook_dir = "/home/student/course/notebooks"
# Host networking: the containers share the machine's network, so the Hub, its proxy and
# every server listen on the loopback, each server on a free port of its own.
c.JupyterHub.hub_ip = "127.0.0.1"
c.DockerSpawner.ip = "127.0.0.1"
# The image's command makes every kernel encrypt its sockets (CurveZMQ,
# --KernelManager.transport_encryption=required); the spawner adds no arguments to it.
# Per-student limits, measured (benchbook_limits.py says where from).
benchbook_limits.apply(c.DockerSpawner)
# A class starting together on two cores: allow for the queue.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180

# Replace with the school's login (OAuthenticator, LDAPAuthenticator, ...).
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
