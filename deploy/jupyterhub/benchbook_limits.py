"""Per-student limits of a Benchbook class, shared by the DockerSpawner and SwarmSpawner
configurations (and copied into deploy/kubernetes/values.yaml).

From results/cluster-class.md (make bench-cluster): provisional until that run.
"""
MEM_LIMIT = "1536M"
MEM_GUARANTEE = "768M"
CPU_LIMIT = 1.0
CPU_GUARANTEE = 0.25
