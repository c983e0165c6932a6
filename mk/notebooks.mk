# The course notebooks (issue 7): executed headlessly through the installed "swift" kernel
# with nbclient (cwd notebooks/); executed copies go to results/executed/ (gitignored).
# The run fails, naming the notebook and cell, on any error output or a notebook over its
# 3-minute budget. The notebooks' benchmark records and figures go to results/.
#
#   make notebook-data    the images the notebooks read (notebooks/data/; the photo-style
#                         evaluation set and the ImageNet photos in data/photos/ are made at
#                         set-up, not committed)
#   make run-notebooks    execute every notebook (numbered ones and benchmarks-and-charts)
#   make test-notebooks   the same run, as a test

NOTEBOOK_RUNNER := $(PYTHON) scripts/notebooks/run_notebooks.py

.PHONY: notebook-data run-notebooks test-notebooks

notebook-data: venv $(SOURCES_RECORD)
	$(PYTHON) scripts/notebooks/make_notebook_data.py

run-notebooks: kernelspec models notebook-data
	$(NOTEBOOK_RUNNER)

test-notebooks: kernelspec models notebook-data
	$(NOTEBOOK_RUNNER)

SETUP_TARGETS += notebook-data
RUN_TARGETS   += run-notebooks
TEST_TARGETS  += test-notebooks
