# The teacher's tools (issue 25): an nbgrader course, notebook 04 as a Voilà dashboard,
# Quarto/MyST cell options with a MyST-NB render, usage_request for jupyter-resource-usage,
# and %who/%whos. Every test keeps Jupyter's directories under its temporary folder.
#
#   make lab            JupyterLab on your own copy of the course in workspace/ (ignored by git;
#                       missing notebooks copied, none overwritten), Formgrader finding course/;
#                       LAB_ARGS go to JupyterLab (LAB_ARGS=--no-browser over SSH)
#   make test-teacher   the tests below (about 6 minutes on 2 cores)
#   make voila          notebook 04 as a dashboard, no code shown: http://$(VOILA_IP):$(VOILA_PORT)/
#   make voila-figure   the dashboard test, keeping its screenshot in results/figures/voila-explorer.png
#   make bench-teacher  %who, %whos and usage_request on notebook 04's namespace against a trivial
#                       cell, and the kernel's memory per process: results/teacher-tools.{json,md}
#
# nbgrader itself runs in course/ (see course/README.md).

VOILA_IP   ?= 127.0.0.1
VOILA_PORT ?= 8866
VOILA_NOTEBOOK ?= 04-preprocessing-for-photos.ipynb

TEACHER_TESTS := Tests/python/test_cell_options.py Tests/python/test_who.py Tests/python/test_resource_usage.py \
                 Tests/python/test_nbgrader_course.py Tests/python/test_voila_dashboard.py \
                 Tests/python/test_student_copy.py

LAB_ARGS ?=

.PHONY: test-teacher lab voila voila-figure bench-teacher

lab: kernelspec notebook-data models ## JupyterLab on your copy of the course in workspace/ (ignored by git), Formgrader finding course/
	$(PYTHON) scripts/notebooks/lab.py $(LAB_ARGS)

test-teacher: kernelspec notebook-data models ## nbgrader round trip, Voilà in Chromium, cell options + MyST-NB, usage_request, %who
	$(PYTHON) -m pytest -q $(TEACHER_TESTS)

voila: kernelspec notebook-data models ## serve notebook 04 as a Voilà dashboard (widgets, no code)
	cd notebooks && $(VENV)/bin/voila $(VOILA_NOTEBOOK) --no-browser --Voila.ip=$(VOILA_IP) --port=$(VOILA_PORT)

voila-figure: kernelspec notebook-data models ## the Voilà test, writing results/figures/voila-explorer.png
	BENCHBOOK_RECORD_RESULTS=1 $(PYTHON) -m pytest -q Tests/python/test_voila_dashboard.py

bench-teacher: kernelspec notebook-data models ## cost of %who, %whos, usage_request; kernel memory per process (results/)
	$(PYTHON) scripts/teacher/bench_teacher.py --out results

TEST_TARGETS += test-teacher
