"""Per-student limits of a Benchbook class, shared by the DockerSpawner and SwarmSpawner
configurations (and copied into deploy/kubernetes/values.yaml).

From results/cluster-class.md (make bench-cluster, 2026-12-02, the 2-core machine to itself):
a student's container peaked at 451-566 MB (its cgroup: every process and the page cache it
touched) over the lesson, and held 356 MB at rest with the memory cuts; the sum of each role's
peak PSS was 547-808 MB. The first container of a fresh engine peaked at 1447 MB; after its lesson 1059 MB
of it was the image's files in page cache (charged to the first cgroup that reads them, and reclaimed
before the limit kills anything). The limit leaves room for the notebooks' bigger models
(EfficientNet-Lite0 in four formats, not in the measured lesson); the guarantee is about a
lesson's peak. Every cell is compiled, so one core at most per student, a quarter guaranteed:
the cores, not memory, are what a class runs out of (cell p90 3.6 s at 8 students in
containers, 23.8 s at 16, on 2 cores).
"""
MEM_LIMIT = "1536M"
MEM_GUARANTEE = "768M"
CPU_LIMIT = 1.0
CPU_GUARANTEE = 0.25


def apply(spawner):
    """Sets the limits on a spawner's configuration section (c.DockerSpawner, c.SwarmSpawner)."""
    spawner.mem_limit = MEM_LIMIT
    spawner.mem_guarantee = MEM_GUARANTEE
    spawner.cpu_limit = CPU_LIMIT
    spawner.cpu_guarantee = CPU_GUARANTEE
