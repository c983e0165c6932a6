# A class on Docker (issue 24): the single-user image, JupyterHub with DockerSpawner and
# SwarmSpawner (deploy/jupyterhub/), and the class measured in containers and on bare
# processes. The Docker engine is Debian's docker.io, installed and started by
# scripts/hub/docker_engine.py like any other dependency.
#
#   make image           benchbook-singleuser: debootstrap + docker import base (BASE_IMAGE=<a
#                        Debian 12 image> to use another), this machine's Swift toolchain
#                        (TOOLCHAIN=<tarball> for another), the release build, the course;
#                        reused when its inputs are unchanged (label org.benchbook.inputs)
#   make test-cluster    a student on DockerSpawner, then on SwarmSpawner (one-node swarm)
#   make bench-cluster   N = 1..16 students in containers and bare, and the memory cuts
#                        before/after: results/cluster-class.{json,md,png} (about 25 minutes
#                        on 2 cores; run it on a quiet machine)

CLUSTER_STUDENTS ?= 1,2,4,8,16
CUT_STUDENTS     ?= 8
# More options of scripts/hub/bench_cluster.py, e.g. "--passes 1 --rest 65".
BENCH_CLUSTER_ARGS ?=
IMAGE_ARGS := $(if $(BASE_IMAGE),--base-image $(BASE_IMAGE)) $(if $(TOOLCHAIN),--toolchain $(TOOLCHAIN))

.PHONY: docker-engine image test-cluster bench-cluster

docker-engine: venv ## install Debian's docker.io and debootstrap if missing, start dockerd
	$(PYTHON) scripts/hub/docker_engine.py

image: build models notebook-data docker-engine ## the single-user image of a class (BASE_IMAGE=, TOOLCHAIN=)
	$(PYTHON) scripts/hub/build_image.py $(IMAGE_ARGS)

test-cluster: image ## JupyterHub with DockerSpawner and SwarmSpawner: a student in a container, nothing left
	$(PYTHON) -m pytest -q Tests/python/test_cluster.py

bench-cluster: image kernelspec ## a class of N students in containers and bare, and the cuts (results/)
	$(PYTHON) scripts/hub/bench_cluster.py --students $(CLUSTER_STUDENTS) --cut-students $(CUT_STUDENTS) $(BENCH_CLUSTER_ARGS) --out results

TEST_TARGETS += test-cluster
