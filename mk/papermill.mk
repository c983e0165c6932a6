# papermill parameters for Swift notebooks (issue 15): the translator package in
# python/benchbook-papermill, installed into .venv at set-up (again whenever it changes),
# and its tests (pure translator tests, then papermill running notebooks in the kernel).
#
#   papermill notebooks/05-timing.ipynb out.ipynb --cwd notebooks -p threads 2
#   papermill --help-notebook notebooks/05-timing.ipynb

PAPERMILL_PACKAGE := python/benchbook-papermill
PAPERMILL_SOURCES := $(PAPERMILL_PACKAGE)/pyproject.toml $(wildcard $(PAPERMILL_PACKAGE)/benchbook_papermill/*.py)

.PHONY: papermill-translator test-papermill

$(STAMPS)/benchbook-papermill: $(PAPERMILL_SOURCES) | venv
	$(PYTHON) -m pip install -q ./$(PAPERMILL_PACKAGE)
	rm -rf $(PAPERMILL_PACKAGE)/build
	touch $@

papermill-translator: $(STAMPS)/benchbook-papermill ## install papermill's Swift translator into .venv

test-papermill: kernelspec papermill-translator ## the Swift translator, then papermill running notebooks in the kernel
	$(PYTHON) -m pytest -q Tests/python/test_papermill_translator.py Tests/python/test_papermill_notebooks.py

SETUP_TARGETS += papermill-translator
TEST_TARGETS  += test-papermill
