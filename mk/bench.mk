# Benchmarks, records and charts (issue 6).
#
# The Swift unit tests need nothing generated: the NumPy reference values
# (Tests/Fixtures/benchmark/statistics-reference.json) and the chart goldens
# (Tests/Fixtures/charts/*.png) are committed. `make bench-fixtures` regenerates the former;
# see Tests/Fixtures/charts/README.md for the latter.

BENCH_BIN := $(RELEASE_DIR)/benchbook-bench

.PHONY: bench-tool bench-fixtures test-bench bench-overhead bench-messages notebook-benchmarks

bench-tool: setup ## build the benchmark tool (benchbook-bench)
	$(SWIFT_BUILD) --product benchbook-bench

bench-fixtures: venv ## regenerate the NumPy statistics reference
	$(PYTHON) scripts/bench/make_statistics_fixture.py Tests/Fixtures/benchmark/statistics-reference.json

# A record and a sweep written by Swift, read back with Python's csv/json, NumPy and hashlib;
# then charts, progress, interrupt and records inside the installed kernel.
test-bench: bench-tool kernelspec ## benchmark records and charts, from Swift and in the kernel
	BENCHBOOK_BENCH_BIN=$(BENCH_BIN) $(PYTHON) -m pytest -q Tests/python/test_benchmark_records.py \
	  Tests/python/test_benchmark_kernel.py Tests/python/test_benchmark_processes.py

# Harness overhead figures: results/benchmark-overhead.{txt,json}.
bench-overhead: bench-tool ## harness overhead figures (results/benchmark-overhead.*)
	$(BENCH_BIN) overhead results

# The messages of one cell between the kernel and its parser and compiler: JSONCore against
# the Codable records they replaced, same run: results/helper-messages.md.
bench-messages: setup ## per-cell cost of the helpers' messages (results/helper-messages.md)
	$(SWIFT_BUILD) --product benchbook-message-bench
	$(RELEASE_DIR)/benchbook-message-bench Tests/Corpus results/helper-messages.md

# The notebook that shows every chart and the benchmark workflow; its records go to results/.
notebook-benchmarks: kernelspec ## execute only benchmarks-and-charts.ipynb
	$(PYTHON) -m jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
	  --output-dir results/executed notebooks/benchmarks-and-charts.ipynb

TEST_TARGETS += test-bench
# benchmarks-and-charts.ipynb runs with the course notebooks (mk/notebooks.mk: run-notebooks).
BENCH_TARGETS += bench-overhead bench-messages
