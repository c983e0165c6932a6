# Images and tensors (issue 4): Pillow/NumPy goldens for the Swift tests, Python-side
# checks, and the preprocessing benchmark against Pillow + NumPy.

IMAGE_GOLDENS := $(CURDIR)/.build/goldens/images

.PHONY: image-goldens test-images bench-preprocessing fuzz-images-asan

# Goldens must exist before `swift test` runs, so this is a set-up step.
image-goldens: venv ## Pillow/NumPy golden values for the image tests
	$(PYTHON) scripts/images/make_goldens.py --out $(IMAGE_GOLDENS)

test-images: image-goldens ## Python-side image checks
	$(PYTHON) -m pytest -q Tests/python/test_images_goldens.py

bench-preprocessing: venv ## our preprocessing against Pillow + NumPy (results/)
	$(SWIFT_BUILD) --product benchbook-preprocess-bench
	$(PYTHON) scripts/images/bench_preprocessing.py --swift-bench $(RELEASE_DIR)/benchbook-preprocess-bench --out results

# Optional, not part of `make test`: the decoder fuzz test under AddressSanitizer, in its
# own build directory (a full sanitized build takes a few minutes).
fuzz-images-asan: image-goldens ## decoder fuzz test under AddressSanitizer (slow)
	swift test --scratch-path $(CURDIR)/.build/asan --sanitize=address --filter DecoderFuzzTests

SETUP_TARGETS += image-goldens
TEST_TARGETS  += test-images
BENCH_TARGETS += bench-preprocessing
