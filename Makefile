# Benchbook: the two commands a fresh Debian 12 machine needs.
#   make run   set up, build (release), install the kernelspec, execute the notebooks, write results/
#   make test  set up, build, run every test (Swift unit tests, then Python tests against real Jupyter clients)
#
# Each area of the project adds its own steps in mk/<area>.mk by appending to
# SETUP_TARGETS (after the build: models, data), TEST_TARGETS and RUN_TARGETS.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV        := $(CURDIR)/.venv
PYTHON      := $(VENV)/bin/python
SYSTEM_PY   := /usr/bin/python3
SWIFT_BUILD := swift build -c release
RELEASE_DIR := $(CURDIR)/.build/release
STAMPS      := $(CURDIR)/.build/stamps

SETUP_TARGETS :=
TEST_TARGETS  :=
RUN_TARGETS   :=

include $(sort $(wildcard mk/*.mk))

.PHONY: help setup apt venv build kernelspec run test swift-test

help:
	@echo "make run   - set up, build, install the kernelspec, execute the notebooks into results/"
	@echo "make test  - set up, build, run all tests"

## --- set-up ----------------------------------------------------------------

APT_PACKAGES := $(shell cat scripts/apt-packages.txt)

# Installs Debian packages only when one is missing (fast when nothing changed).
apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

$(STAMPS)/venv: requirements.txt | apt
	@mkdir -p $(STAMPS)
	test -x $(PYTHON) || $(SYSTEM_PY) -m venv $(VENV)
	$(PYTHON) -m pip install -q --upgrade pip
	$(PYTHON) -m pip install -q -r requirements.txt
	touch $@

venv: $(STAMPS)/venv

setup: apt venv

build: setup
	$(SWIFT_BUILD)

kernelspec: build
	$(PYTHON) scripts/install_kernelspec.py --kernel $(RELEASE_DIR)/benchbook-kernel

## --- main job and tests ----------------------------------------------------

run: kernelspec $(SETUP_TARGETS) $(RUN_TARGETS)

swift-test: setup
	swift build --build-tests
	swift test --skip-build 2>&1 | tee .build/swift-test.log; exit $${PIPESTATUS[0]}

test: kernelspec $(SETUP_TARGETS) swift-test $(TEST_TARGETS)
