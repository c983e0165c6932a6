# Kernel security and lifetime (issue 15): CurveZMQ over TCP and IPC through jupyter_client,
# replayed and undecodable signed messages from a raw ZeroMQ client, keys kept out of the
# log, the private cell directory and its sweep, no orphans when the kernel's parent dies.

.PHONY: test-kernel-security

test-kernel-security: kernelspec ## CurveZMQ, replays, undecodable requests, cell directory, no orphans
	$(PYTHON) -m pytest -q Tests/python/test_kernel_security.py Tests/python/test_kernel_lifecycle.py

TEST_TARGETS += test-kernel-security
