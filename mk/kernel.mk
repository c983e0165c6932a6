# The kernel and the cell engine (issues 2 and 3): tests through real Jupyter clients
# (jupyter-kernel-test, jupyter_client, nbconvert, jupyter console) and the latency
# benchmark, all against the installed kernelspec (the release build).

.PHONY: test-kernel test-kernel-browser test-completion-idle bench-run-all test-corpus bench-kernel bench-completion bench-recovery bench-normalize bench-output bench-preload

test-kernel: kernelspec notebook-data ## the kernel through real Jupyter clients (the doc examples read the course photos)
	$(PYTHON) -m pytest -q Tests/python/test_kernel_conformance.py Tests/python/test_kernel_protocol.py \
	    Tests/python/test_cell_engine_notebook.py Tests/python/test_cell_model.py Tests/python/test_one_file.py Tests/python/test_kernel_seam.py Tests/python/test_frontends.py \
	    Tests/python/test_kernel_completion.py Tests/python/test_recovery.py Tests/python/test_kernel_launcher.py \
	    Tests/python/test_kernel_output.py Tests/python/test_doc_examples.py Tests/python/test_cell_cache.py \
	    Tests/python/test_debugger.py

# Completion and inspection in JupyterLab through Debian's Chromium (issue 23), and the
# debugger's Variables panel (issue 50); screenshots in .build/test-artifacts/browser-*/.
test-kernel-browser: kernelspec notebook-data ## Tab and Shift-Tab, the debugger's Variables panel, in JupyterLab + Chromium
	$(PYTHON) -m pytest -q -s Tests/python/test_browser_completion.py Tests/python/test_browser_debugger.py

# A student's first Tab after reading (issue 34): the default idle stop (60 s), 90 s idle
# before each Tab, five tries; IDLE_LOAD=1 runs it beside two busy loops. 15-20 minutes, so
# not in test-kernel-browser (which idles past a 3 s stop).
test-completion-idle: kernelspec notebook-data ## the first Tab after 90 s idle in JupyterLab + Chromium, five tries (IDLE_LOAD=1: under load)
	$(if $(IDLE_LOAD),yes > /dev/null & yes > /dev/null & trap 'kill %1 %2' EXIT;) \
	BENCHBOOK_IDLE_TEST_STOP= BENCHBOOK_IDLE_TEST_SECONDS=90 BENCHBOOK_IDLE_TEST_TRIES=5 \
	  $(PYTHON) -m pytest -q -s Tests/python/test_browser_completion.py -k idle_stop

# Restart & Run All with the cell cache (issue 34): notebooks 01-04 each run in a fresh kernel
# with an empty user cache, then again in another with the same cache, in one run:
# results/cell-cache-run-all.{json,md}.
bench-run-all: kernelspec notebook-data ## notebooks 01-04 run twice with one user cell cache (results/)
	$(PYTHON) scripts/kernel/bench_run_all.py --out results

# Whole Swift programs (Tests/Corpus) as notebooks, output against swiftc (issue 23);
# BENCHBOOK_RECORD_RESULTS=1 writes results/swift-corpus.{json,md}.
test-corpus: kernelspec ## the Swift corpus as notebooks, output for output against swiftc
	$(PYTHON) -m pytest -q Tests/python/test_swift_corpus.py

# Start-up and per-cell latency through jupyter_client: results/kernel-latency.{json,md}.
# COMPARE_KERNEL=<kernelspec> (an earlier build, see the script's docstring) adds a
# before/after table from the same run; COMPARE_LABEL says what that build is.
bench-kernel: kernelspec ## kernel start, first cell, per-cell latency (results/)
	$(PYTHON) scripts/kernel/bench_latency.py --out results \
	  $(if $(COMPARE_KERNEL),--compare-kernel $(COMPARE_KERNEL)) $(if $(COMPARE_LABEL),--compare-label "$(COMPARE_LABEL)")

# Completion latency (SourceKit-LSP, issue 8): results/completion-latency.{json,md}.
bench-completion: kernelspec ## completion latency (results/)
	$(PYTHON) scripts/kernel/bench_completion.py --out results

# What recovery costs (issue 13): loop checks on a 10^8 loop, snapshots on notebook 03:
# results/recovery.{json,md}.
bench-recovery: kernelspec ## cost of loop interrupt checks and host snapshots (results/)
	$(PYTHON) scripts/bench/recovery_bench.py

# The seed 000 normalisation (the app's pointer loop, a function over [UInt8], the seed's three
# nested loops) and the corpus's matrix product as notebook cells against the same file built
# with swiftc -O, and how fast `while true {}` stops (issues 23, 35, 48):
# results/normalize-loop.{json,md}. NORMALIZE_LOAD=2 runs two busy loops beside it. Then what the
# release assert configuration costs in compile time: results/cell-compile-assert-config.{json,md}.
bench-normalize: kernelspec ## the normalisation loop in a cell against swiftc -O (results/)
	$(PYTHON) scripts/bench/normalize_bench.py --out results $(if $(NORMALIZE_LOAD),--load $(NORMALIZE_LOAD) --name normalize-loop-loaded)
	$(if $(NORMALIZE_LOAD),,$(PYTHON) scripts/bench/assert_config_compile_bench.py --out results)

# The first model cell of a fresh kernel with the runtimes loaded in the background, and
# without (issue 35): results/model-preload.{json,md}.
bench-preload: kernelspec ## first Model(contentsOf:) of a fresh kernel, preload on/off (results/)
	$(PYTHON) scripts/bench/preload_bench.py --out results


# Output throughput (issue 27): a cell printing 1 to 200 MB to stdout and stderr, as one line
# and as short lines, against ipykernel's print in the same run: results/output-throughput.{json,md}.
# COMPARE_KERNEL=<kernelspec> adds an earlier build on the same cases. About 15 minutes.
bench-output: kernelspec ## output throughput, MB/s against ipykernel (results/)
	$(PYTHON) scripts/kernel/bench_output.py --out results \
	  $(if $(COMPARE_KERNEL),--compare-kernel $(COMPARE_KERNEL)) $(if $(COMPARE_LABEL),--compare-label "$(COMPARE_LABEL)")

TEST_TARGETS += test-kernel test-kernel-browser test-corpus
BENCH_TARGETS += bench-kernel
BENCH_TARGETS += bench-completion
BENCH_TARGETS += bench-recovery
BENCH_TARGETS += bench-output
BENCH_TARGETS += bench-normalize
BENCH_TARGETS += bench-preload
