#ifndef CTORCH_H
#define CTORCH_H

/* The libtorch interface the notebook library calls (the bbt_ functions of CTorchShim.h),
 * loaded on first use.
 *
 * libtorch takes most of the time a process needs to load the notebook library (its
 * relocations; results/model-preload.md has what loading it costs a cell), and most notebooks never
 * touch it before their first model. So the C++ shim and libtorch live in their own
 * library, libBenchbookTorch.so, beside the notebook library; the bbt_ functions here
 * forward to it and open it the first time one is called. bbt_open opens it explicitly
 * and says why it could not be opened. */
#include "../../CTorchShim/include/CTorchShim.h"

/* Opens libBenchbookTorch.so (once; thread-safe). Returns 0 when it is open; otherwise -1
 * and, when `error` is not NULL, a message naming the path tried and the loader's reason
 * (free it with bbt_free_string). Other bbt_ functions called while it cannot be opened
 * return their failure value (NULL, -1, 0) and set their error argument, if they have one. */
int bbt_open(char **error);

#endif
