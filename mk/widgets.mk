# Comms and widgets (issue 14): the comm and widget protocol through jupyter_client, and the
# notebook 04 explorer in JupyterLab through Debian's Chromium (Playwright, no browser
# download). Screenshots of the browser test go to .build/test-artifacts/browser-widgets/.

.PHONY: test-widgets test-widgets-browser bench-widgets jupyterlab-figure

test-widgets: kernelspec ## comms and widgets through jupyter_client (echo, buffers, comm_info, crashes)
	$(PYTHON) -m pytest -q Tests/python/test_comms_widgets.py

test-widgets-browser: kernelspec notebook-data models ## notebook 04's explorer in JupyterLab + Chromium
	$(PYTHON) -m pytest -q -s Tests/python/test_browser_widgets.py

# Median slider-to-image latency of the explorer in the browser: results/widget-latency.json;
# the kernel's share of it through jupyter_client: results/widget-kernel-latency.json.
bench-widgets: kernelspec notebook-data models ## slider-to-image latency in the browser and in the kernel (results/)
	BENCHBOOK_RECORD_RESULTS=1 BENCHBOOK_BROWSER_STEPS=30 $(PYTHON) -m pytest -q -s Tests/python/test_browser_widgets.py
	$(PYTHON) scripts/widgets/bench_kernel_side.py --out results

# The README's picture: the browser test's first screenshot (notebook 04 run in JupyterLab).
jupyterlab-figure: test-widgets-browser ## the browser test, keeping its first screenshot in results/figures/jupyterlab-notebook-04.png
	cp .build/test-artifacts/browser-widgets/1-after-run.png results/figures/jupyterlab-notebook-04.png

TEST_TARGETS += test-widgets test-widgets-browser
BENCH_TARGETS += bench-widgets
