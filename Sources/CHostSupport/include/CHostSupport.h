#ifndef CHOST_SUPPORT_H
#define CHOST_SUPPORT_H

/// Asks the kernel to SIGKILL this process when its parent (the kernel) exits, so a
/// cell host never outlives its kernel. Returns 0 on success.
int bb_host_die_with_parent(void);

#endif
