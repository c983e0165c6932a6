# JupyterHub for a Benchbook class on a Docker swarm: each student's server is a swarm
# service of the single-user image, placed on any node (SwarmSpawner), with host
# networking. `make test-cluster` runs this file on a one-node swarm (the same engine a
# school joins more nodes to with `docker swarm join`), adding only its own ports, database
# and a test login.
#
#   docker swarm init                              (on the Hub's node, a manager)
#   jupyterhub -f deploy/jupyterhub/jupyterhub_swarm_config.py
#
# Every node needs the image (built there with `make image`, or from the school's registry:
# set c.SwarmSpawner.image to its name there).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchbook_class  # noqa: E402
import benchbook_limits  # noqa: E402
from benchbook_spawners import HostNetworkSwarmSpawner  # noqa: E402

c = get_config()  # noqa: F821

c.JupyterHub.spawner_class = HostNetworkSwarmSpawner
c.SwarmSpawner.image = "benchbook-singleuser:latest"
c.SwarmSpawner.name_template = "benchbook-{username}"
c.SwarmSpawner.notebook_dir = "/home/student/course/notebooks"
# The student's home in a named volume of their own, and the class's cell cache read-only
# (benchbook_class.py). A named volume is local to the node that made it: on more than one
# node, give the volumes a shared driver (NFS) or keep each student on one node.
benchbook_class.mount(c.SwarmSpawner)
# Host networking: each server listens on a free port of the node it runs on, and the Hub
# reaches it at that node's advertised address. The Hub must listen where every node can
# reach it: the manager's address (127.0.0.1 on a one-node swarm).
c.JupyterHub.hub_ip = "0.0.0.0"
c.SwarmSpawner.ip = "0.0.0.0"
# Limits and reservations of each student's service (the scheduler places a service only
# on a node with the reserved memory and CPU free).
benchbook_limits.apply(c.SwarmSpawner)
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180

c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
