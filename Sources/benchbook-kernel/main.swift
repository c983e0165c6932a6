print("kernel")
