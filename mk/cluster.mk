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
#   make warm-cache      the teacher's step: the course notebooks executed in the image into the
#                        class's cell cache (BENCHBOOK_CLASS_CACHE, default /srv/benchbook/class-cache),
#                        which every student's container mounts read-only
#   make forget-student STUDENT=<name>   removes that student's home volume (their saved work)
#   make bench-cluster   N = 1..32 students in containers and bare, each without a cell cache
#                        and with the teacher-warmed class cache, CPU per role, the start storm
#                        before/after (CUT_STUDENTS=8 adds the memory cuts of 2026-12-02):
#                        results/cluster-class.{json,md,png} (about an hour on 2 cores; run it
#                        on a quiet machine)

CLUSTER_STUDENTS ?= 1,2,4,8,16,32
CUT_STUDENTS     ?= 0
# More options of scripts/hub/bench_cluster.py, e.g. "--passes 1 --rest 65".
BENCH_CLUSTER_ARGS ?=
IMAGE_ARGS := $(if $(BASE_IMAGE),--base-image $(BASE_IMAGE)) $(if $(TOOLCHAIN),--toolchain $(TOOLCHAIN))

# The class's cell cache (make warm-cache): where the Hub's configuration mounts it from.
BENCHBOOK_CLASS_CACHE ?= /srv/benchbook/class-cache
WARM_NOTEBOOKS ?= 01-loading.ipynb,02-normalising.ipynb,03-classifying.ipynb,04-preprocessing-for-photos.ipynb

.PHONY: docker-engine image test-cluster bench-cluster warm-cache forget-student

docker-engine: venv ## install Debian's docker.io and debootstrap if missing, start dockerd
	$(PYTHON) scripts/hub/docker_engine.py

image: build models notebook-data docker-engine ## the single-user image of a class (BASE_IMAGE=, TOOLCHAIN=)
	$(PYTHON) scripts/hub/build_image.py $(IMAGE_ARGS)

warm-cache: image ## the teacher fills the class's cell cache: the course notebooks run in the image into BENCHBOOK_CLASS_CACHE
	$(PYTHON) scripts/hub/warm_cache.py --out $(BENCHBOOK_CLASS_CACHE) --notebooks $(WARM_NOTEBOOKS)

forget-student: docker-engine ## removes a student's home volume, their saved work with it (STUDENT=<name>)
	@test -n "$(STUDENT)" || { echo "name the student: make forget-student STUDENT=<name>"; exit 2; }
	docker volume rm benchbook-home-$(STUDENT)

test-cluster: image ## JupyterHub with DockerSpawner and SwarmSpawner: a student in a container, nothing left
	$(PYTHON) -m pytest -q Tests/python/test_spawner_ports.py Tests/python/test_cluster.py

bench-cluster: image kernelspec ## a class of N students in containers and bare, and the cuts (results/)
	$(PYTHON) scripts/hub/bench_cluster.py --students $(CLUSTER_STUDENTS) --cut-students $(CUT_STUDENTS) $(BENCH_CLUSTER_ARGS) --out results

TEST_TARGETS += test-cluster
