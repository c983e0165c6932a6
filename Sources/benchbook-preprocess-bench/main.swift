print("benchbook-preprocess-bench: not built yet")
