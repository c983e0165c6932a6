#include "CMallocTuning.h"

#include <malloc.h>

int bb_retain_freed_memory(int mmap_threshold, int trim_threshold) {
    // mallopt returns 1 on success.
    if (mallopt(M_MMAP_THRESHOLD, mmap_threshold) != 1) return -1;
    return mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1 ? 0 : -1;
}

int bb_release_freed_memory(void) {
    return malloc_trim(0);
}
