# Run-to-run spread of latency figures (issue 45): the band a comparison with an earlier run
# must clear, measured on this processor instead of assumed.
#
#   make bench-spread [SPREAD_RUNS=5] [SPREAD_PAUSE=45] [SPREAD_PROCESSES=3]
#
# SPREAD_RUNS separate runs, SPREAD_PAUSE seconds apart; each measures EfficientNet-Lite0
# (TFLite fp32, PyTorch Lite fp32, TFLite int8, 1 thread) across SPREAD_PROCESSES fresh
# worker processes in turns, and the record for this processor model is merged into
# results/latency-spread.json (RunSpread). About 5 minutes with the defaults.

SPREAD_RUNS      ?= 5
SPREAD_PAUSE     ?= 45
SPREAD_PROCESSES ?= 3
SPREAD_FILE      := results/latency-spread.json

bench-worker: setup ## build the benchmark worker (benchbook-bench-worker) and the model tool
	$(SWIFT_BUILD) --product benchbook-bench-worker
	$(SWIFT_BUILD) --product benchbook-models

bench-spread: bench-worker $(EFFICIENTNET_MODELS) ## measure the run-to-run spread on this processor (results/latency-spread.json)
	$(MODELS_BIN) spread --runs $(SPREAD_RUNS) --pause $(SPREAD_PAUSE) --processes $(SPREAD_PROCESSES) \
		--out $(SPREAD_FILE) "TFLite fp32=$(GENERATED_DIR)/efficientnet_lite0.tflite" \
		"PyTorch Lite fp32=$(GENERATED_DIR)/efficientnet_lite0.ptl" "TFLite int8=$(GENERATED_DIR)/efficientnet_lite0_int8.tflite"

.PHONY: bench-worker bench-spread
