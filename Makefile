# Benchbook: the two commands a fresh Debian 12 machine needs.
#   make run   set up, build (release), install the kernelspec, execute the notebooks, write their records
#   make test  set up, build, run every test (Swift unit tests, then Python tests against real Jupyter clients)
# and the engine's own measurements:
#   make bench every benchmark that writes the published figures in results/
#
# Each area of the project adds its own steps in mk/<area>.mk by appending to
# SETUP_TARGETS (after the build: models, data), TEST_TARGETS, RUN_TARGETS and BENCH_TARGETS.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV        := $(CURDIR)/.venv
PYTHON      := $(VENV)/bin/python
# The Python kit that scripts/ and Tests/python share (python/benchbook_kit): on the path of
# every command run from here, not installed in the venv; the root's pytest.ini puts it on
# the path of a pytest run by hand too.
export PYTHONPATH := $(CURDIR)/python$(if $(PYTHONPATH),:$(PYTHONPATH))
SYSTEM_PY   := /usr/bin/python3
SWIFT_BUILD := swift build -c release
RELEASE_DIR := $(CURDIR)/.build/release
STAMPS      := $(CURDIR)/.build/stamps

SETUP_TARGETS :=
TEST_TARGETS  :=
RUN_TARGETS   :=
BENCH_TARGETS :=

include $(sort $(wildcard mk/*.mk))

.PHONY: help setup apt venv build kernelspec run bench test swift-test

# Every target with a `## ` comment on its rule line, from this file and mk/*.mk.
help: ## list the targets and what each does
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) \
	  | sed -E 's/^([a-zA-Z0-9_-]+):.*## (.*)/\1\t\2/' | sort \
	  | awk -F'\t' '{ printf "  make %-20s %s\n", $$1, $$2 }'

## --- set-up ----------------------------------------------------------------

APT_PACKAGES := $(shell cat scripts/apt-packages.txt)

# Installs Debian packages only when one is missing (fast when nothing changed).
apt: ## install the Debian packages in scripts/apt-packages.txt that are missing
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The PyPI side (Jupyter clients, TensorFlow, LiteRT, Pillow, NumPy, the ExecuTorch runtime's wheel
# without its exporter's requirements: requirements-no-deps.txt) in .venv; redone only when a
# requirements file changes. Debian's /usr/bin/python3 (torch 1.13, matching the
# libtorch the kernel links) is the other Python: see docs/setup-and-layout.md.
# rfc3987-syntax (brought by nbformat's jsonschema[format-nongpl]) builds Lark parsers for the
# `iri` formats when jsonschema is imported: 0.7-0.9 CPU-s in every Jupyter server, nbclient
# and papermill start (results/server-start.md). No Jupyter schema uses those formats; without the module jsonschema leaves
# them unchecked, so it is removed (docs/class-on-jupyterhub.md).
$(STAMPS)/venv: requirements.txt requirements-no-deps.txt | apt
	@mkdir -p $(STAMPS)
	test -x $(PYTHON) || $(SYSTEM_PY) -m venv $(VENV)
	$(PYTHON) -m pip install -q --upgrade pip
	$(PYTHON) -m pip install -q -r requirements.txt
	$(PYTHON) -m pip install -q --no-deps -r requirements-no-deps.txt
	$(PYTHON) -m pip uninstall -q -y rfc3987-syntax
	touch $@

venv: $(STAMPS)/venv ## create or update the Python virtual environment in .venv

setup: apt venv ## install everything the build and tests need

# The kernel, the cell host, the cell parser, the notebook library and the tools.
# After the build, the API that completion answers from while SourceKit-LSP starts (the
# notebook library's and the standard library's, read by each kernel at start), written
# again when the library or the kernel changed.
COMPLETION_INDEX := $(RELEASE_DIR)/Modules/benchbook-completion-index.json

build: setup ## build every product (release)
	$(SWIFT_BUILD)
	@if [ ! $(COMPLETION_INDEX) -nt $(RELEASE_DIR)/libBenchbook.so ] || [ ! $(COMPLETION_INDEX) -nt $(RELEASE_DIR)/benchbook-kernel ]; then \
		$(RELEASE_DIR)/benchbook-kernel --write-completion-index; fi

# Installs the "swift" kernelspec for this user, pointing at this checkout's build
# (JUPYTER_DATA_DIR chooses where, as for any Jupyter install).
kernelspec: build ## install the "swift" kernelspec pointing at this build
	$(PYTHON) scripts/install_kernelspec.py --kernel $(RELEASE_DIR)/benchbook-kernel

## --- main job and tests ----------------------------------------------------

run: kernelspec $(SETUP_TARGETS) $(RUN_TARGETS) ## set up, build, execute the notebooks, write their records (results/latest/)

# The engine's benchmarks (kernel, completion, recovery, models, preprocessing, widgets):
# they rewrite the tracked figures in results/, so they are not part of `make run`.
bench: kernelspec $(SETUP_TARGETS) $(BENCH_TARGETS) ## every benchmark: rewrites the published figures in results/

# The Swift unit tests (XCTest and Swift Testing), log in .build/swift-test.log.
swift-test: setup ## run the Swift unit tests
	swift build --build-tests
	swift test --skip-build 2>&1 | tee .build/swift-test.log; exit $${PIPESTATUS[0]}

test: kernelspec $(SETUP_TARGETS) swift-test $(TEST_TARGETS) ## set up, build, run every test
