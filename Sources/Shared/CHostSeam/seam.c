#include "CHostSeam.h"

#include <stddef.h>

// The snapshot message is a wire format between two builds of one source: its layout
// must not depend on the compiler's padding choices.
_Static_assert(sizeof(bb_seam_snapshot_message) == 16, "bb_seam_snapshot_message is 16 bytes");
_Static_assert(offsetof(bb_seam_snapshot_message, after_cell) == 8, "after_cell at offset 8");
_Static_assert(BB_SEAM_CRASH_DESCRIPTOR == BB_SEAM_DESCRIPTOR_COUNT - 1, "the crash channel is the last descriptor");
_Static_assert(BB_SEAM_COMMAND_DESCRIPTOR == 3, "the host's own channels follow standard input, output and error");
