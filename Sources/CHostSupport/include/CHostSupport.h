#ifndef CHOST_SUPPORT_H
#define CHOST_SUPPORT_H

/// Starts a watcher thread that ends this process when its parent (the kernel) exits,
/// so a cell host (or the cell compiler) never outlives its kernel. (PR_SET_PDEATHSIG is not used: it fires
/// when the parent *thread* that spawned the host exits, which a thread pool may do at
/// any time.) Returns 0 on success.
int bb_host_exit_with_parent(void);

#endif
