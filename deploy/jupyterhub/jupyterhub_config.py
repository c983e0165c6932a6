# JupyterHub for a class on several machines, each student in a container of the image
# built from deploy/jupyterhub/Dockerfile. UNTESTED here (no Docker on this project's
# machines); the limits come from results/hub-class.md, measured on one 2-core machine.
#
#   pip install jupyterhub dockerspawner   (and an authenticator for your school)
#   jupyterhub -f deploy/jupyterhub/jupyterhub_config.py
#
# On Kubernetes, the Zero to JupyterHub chart takes the same numbers:
#   singleuser.image.name: benchbook-singleuser
#   singleuser.memory.limit: 1G, singleuser.memory.guarantee: 600M
#   singleuser.cpu.limit: 1, singleuser.cpu.guarantee: 0.25

c = get_config()  # noqa: F821

c.JupyterHub.spawner_class = "dockerspawner.DockerSpawner"
c.DockerSpawner.image = "benchbook-singleuser:latest"
c.DockerSpawner.notebook_dir = "/home/student/course/notebooks"
c.DockerSpawner.remove = True
# The containers reach the Hub on the Docker network.
c.JupyterHub.hub_ip = "0.0.0.0"

# One student measured 0.47-0.64 GB (PSS, each role's peak summed: server, kernel, cell
# host, cell parser, compiler, SourceKit-LSP) on the course's first lesson; 1 GB leaves room
# for the bigger MobileNetV2 notebooks. Cells are compiled, and the cores were the limit
# (cell p90 under 10 s up to 8 students on 2 cores): at least a quarter of a core each.
c.DockerSpawner.mem_limit = "1G"
c.DockerSpawner.cpu_limit = 1.0

# Replace with your school's login (OAuthenticator, LDAPAuthenticator, ...).
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
