#ifndef CEXECUTORCH_H
#define CEXECUTORCH_H

/* The ExecuTorch interface the notebook library calls (the bbe_ functions of CExecuTorchShim.h),
 * loaded on first use.
 *
 * The shim and the runtime it links (the `executorch` wheel's libexecutorch*.so: the runtime,
 * the XNNPACK backend, the kernel libraries, the thread pool, ETDump) live in their own library,
 * libBenchbookExecuTorch.so, beside the notebook library, as libtorch does (CTorch): a process
 * that never loads a .pte file never maps them. The bbe_ functions here forward to it and open
 * it the first time one is called; bbe_open opens it explicitly and says why it could not. */
#include "../../CExecuTorchShim/include/CExecuTorchShim.h"

/* Opens libBenchbookExecuTorch.so (once; thread-safe). Returns 0 when it is open; otherwise -1
 * and, when `error` is not NULL, a message naming the path tried and the loader's reason (free
 * it with bbe_free_string). Other bbe_ functions called while it cannot be opened return their
 * failure value (NULL, -1, 0) and set their error argument, if they have one. */
int bbe_open(char **error);

#endif
