# The Swift kernel on JupyterHub (issue 15). PyPI jupyterhub with Debian's
# configurable-http-proxy (scripts/apt-packages.txt), started by the scripts on 127.0.0.1.
#
#   make test-hub    one student through the Hub: a Swift cell over the kernel websocket,
#                    then the server stopped through the Hub, and another killed; no orphans;
#                    a server's start imports no rfc3987-syntax (Tests/python/test_server_start.py)
#   make bench-hub   a class of N = 1, 2, 4, 8 students, and 16 to see where it breaks: memory
#                    per student and cell latency, written to results/hub-class.{json,md,png}
#                    (a measurement, not a test; run it on a quiet machine: about 6 minutes
#                    on 2 cores). The lesson reads notebooks/models and notebooks/data only.

HUB_STUDENTS ?= 1,2,4,8,16

.PHONY: test-hub bench-hub

test-hub: kernelspec ## one student through a JupyterHub on 127.0.0.1, then no orphans
	$(PYTHON) -m pytest -q Tests/python/test_hub.py Tests/python/test_server_start.py

bench-hub: kernelspec ## a class of N students on JupyterHub: memory and cell latency (results/)
	$(PYTHON) scripts/hub/bench_class.py --students $(HUB_STUDENTS) --out results

TEST_TARGETS += test-hub
