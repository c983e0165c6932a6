#ifndef CMALLOC_TUNING_H
#define CMALLOC_TUNING_H

/// Fixes glibc malloc's thresholds so that memory freed at the end of one compile stays in
/// the process for the next (the cell compiler, see its main.swift): blocks up to
/// `mmap_threshold` bytes come from the heap instead of their own mapping, and the heap's
/// free top is given back to the system only beyond `trim_threshold` bytes. Setting them
/// also stops glibc from moving them as the process ages. Returns 0 on success.
int bb_retain_freed_memory(int mmap_threshold, int trim_threshold);

/// Gives the memory malloc keeps free back to the system (malloc_trim), as the cell
/// compiler does once it has been idle for a while. Returns 1 when some was given back.
int bb_release_freed_memory(void);

#endif
