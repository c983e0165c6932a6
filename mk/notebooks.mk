# The course notebooks (issue 7): executed headlessly through the installed "swift" kernel
# with nbclient (cwd notebooks/); executed copies go to results/executed/ (gitignored).
# The run fails, naming the notebook and cell, on any error output or a notebook over its
# 3-minute budget. The notebooks' benchmark records and figures go to results/.
#
# `make run` and `make test` both end with run-notebooks: the same execution is the main
# job's output and the course's test.
#
#   make notebook-data    the images the notebooks read (notebooks/data/; the photo-style
#                         evaluation set and the ImageNet photos in data/photos/ are made at
#                         set-up, not committed)
#   make run-notebooks    execute every notebook (numbered ones and benchmarks-and-charts)
#   make test-claims      the claim checker's tests, and every notebook's markdown through it;
#                         the README's and docs/' links resolve (test_docs_links.py); every
#                         Python test file runs in one target of `make test`, as docs/tests.md
#                         says (test_make_targets.py); what tests and scripts share is in
#                         python/benchbook_kit, once (test_python_kit.py); docs/settings.md lists
#                         every BENCHBOOK_* variable the sources read (test_settings_table.py)

NOTEBOOK_RUNNER := $(PYTHON) scripts/notebooks/run_notebooks.py

.PHONY: notebook-data run-notebooks test-claims logos label-fixture

notebook-data: venv $(SOURCES_RECORD) ## the images the course notebooks read
	$(PYTHON) scripts/notebooks/make_notebook_data.py

# The notebooks' records (BenchmarkRecord files, their CSV tables) go to RECORDS_DIR, by
# default results/latest/ (gitignored), so a plain `make run` leaves the published copies in
# results/ as they are; `make run RECORDS_DIR=$(CURDIR)/results` refreshes those.
RECORDS_DIR ?= $(CURDIR)/results/latest

run-notebooks: kernelspec models notebook-data ## execute every course notebook into results/executed/ (fails on any error output)
	@mkdir -p $(RECORDS_DIR)
	BENCHBOOK_RESULTS_DIR=$(RECORDS_DIR) $(NOTEBOOK_RUNNER)

# The claim checker's own tests, and every notebook's markdown through it; the links of the
# README and docs/, the committed files a script makes, every Python test file in a target of
# `make test`, the kit's rules, and docs/settings.md against the BENCHBOOK_* variables the sources read (fast: no kernel).
test-claims: venv ## the claim checker's tests and every notebook's own words through it; the docs' links; generated files; every test file in a target; the kit's rules; the settings table
	$(PYTHON) -m pytest -q Tests/python/test_check_claims.py Tests/python/test_docs_links.py Tests/python/test_generated_files.py \
	    Tests/python/test_make_targets.py Tests/python/test_python_kit.py Tests/python/test_package_imports.py \
	    Tests/python/test_settings_table.py

logos: venv ## draw the kernelspec's logos again (kernels/swift/logo-*.png)
	$(PYTHON) scripts/make_logos.py

label-fixture: ## write the chart label test's ImageNet class names again (Debian's python3-torchvision)
	/usr/bin/python3 scripts/charts/make_label_fixture.py

SETUP_TARGETS += notebook-data
RUN_TARGETS   += run-notebooks
TEST_TARGETS  += test-claims run-notebooks
