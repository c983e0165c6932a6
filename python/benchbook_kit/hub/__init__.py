"""A class on JupyterHub: the Hub (hub.py), simulated students (student.py), their processes
by role and memory (processes.py), the Docker engine (docker_engine.py), the class cache
(class_cache.py) and the deploy files' per-student limits (limits.py)."""
from .hub import Hub, HubError, wait_for
from ..waiting import alive
from .processes import MemorySampler, memory_available, memory_by_role, role, usage_by_role
from .student import Student

__all__ = ["Hub", "HubError", "MemorySampler", "Student", "alive", "memory_available", "memory_by_role", "role",
           "usage_by_role", "wait_for"]
