# ExecuTorch programs (issue 46): the course's two networks as .pte files, exported from the same
# weights as the other formats by scripts/models/export_executorch.py in its own environment.
#
# notebooks/models/executorch/ holds the four programs and EXECUTORCH.json (versions, size and
# SHA-256 of each, the Python ExecuTorch runtime's logits on the course photos), committed:
# exporting needs torch 2.x in a second environment (.venv-export, about 313 MB from PyPI, 1.6 GB
# installed) and takes minutes, and `make run` never exports.
#
#   make executorch-venv          create .venv-export from requirements-export.txt (CPU-only torch)
#   make executorch-models        export again into notebooks/models/executorch/ (rewrites the record)
#   make test-executorch-export   export again into a scratch directory; each file must be
#                                 byte-identical to the record and the committed file; and each
#                                 program's profile (Model.profile) must be what ExecuTorch's own
#                                 Inspector reads from the ETDump that profile wrote

EXPORT_VENV     := $(CURDIR)/.venv-export
EXPORT_PYTHON   := $(EXPORT_VENV)/bin/python
# Recursive (=): models.mk, included after this file, defines the directories and MODELS_PY. The
# export took 18 minutes at a load average of 15-18 on 2 cores (1.5 CPU-minutes), so its limit is an hour.
EXECUTORCH_DIR     = $(MODELS_DIR)/executorch
EXECUTORCH_EXPORT  = $(MODELS_PY) timeout 3600 $(EXPORT_PYTHON) scripts/models/export_executorch.py \
	--out $(EXECUTORCH_DIR) --generated $(GENERATED_DIR) --fashion $(MODELS_DIR)

.PHONY: executorch-venv executorch-models test-executorch-export

$(STAMPS)/venv-export: requirements-export.txt
	@mkdir -p $(STAMPS)
	test -x $(EXPORT_PYTHON) || $(SYSTEM_PY) -m venv $(EXPORT_VENV)
	$(EXPORT_PYTHON) -m pip install -q --upgrade pip
	$(EXPORT_PYTHON) -m pip install -q -r requirements-export.txt
	touch $@

executorch-venv: $(STAMPS)/venv-export ## the export environment .venv-export (CPU-only torch 2.13, executorch 1.5.1)

# The EfficientNet weights, calibration crops and photos come from `make models` (idempotent).
executorch-models: executorch-venv models ## export the .pte programs again (notebooks/models/executorch/)
	$(EXECUTORCH_EXPORT)

test-executorch-export: executorch-venv models models-tool ## export again and compare with the record; profiles against ExecuTorch's Inspector
	$(EXECUTORCH_EXPORT) --check
	$(MODELS_PY) $(EXPORT_PYTHON) scripts/models/check_etdump.py --bin $(MODELS_BIN) $(EXECUTORCH_DIR)/*.pte

test-executorch-kernel: kernelspec models ## .pte programs from notebook cells: load, classify, bad input keeps every variable
	$(PYTHON) -m pytest -q Tests/python/test_kernel_executorch.py

TEST_TARGETS += test-executorch-kernel
