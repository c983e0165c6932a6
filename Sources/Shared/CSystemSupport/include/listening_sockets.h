#ifndef BB_LISTENING_SOCKETS_H
#define BB_LISTENING_SOCKETS_H

// How benchbook-kernel-launcher hands the kernel's listening sockets to benchbook-kernel,
// defined here once: the launcher (C) writes the variable before it execs the kernel, and
// SystemSupport's InheritedListeners (Swift) reads it and adopts the sockets.
//
// The value is one item per socket, `<port>:<fd>`, joined by commas, for example
// `9001:3,9002:4,9003:5,9004:6,9005:7`: the TCP port the socket listens on and the
// descriptor it is inherited as. Nothing else is in it.

/// The environment variable that names the inherited listening sockets.
#define BB_LISTENING_SOCKETS_VARIABLE "BENCHBOOK_LISTENING_SOCKETS"
/// Between two items.
#define BB_LISTENING_SOCKETS_SEPARATOR ","
/// Between an item's port and its descriptor.
#define BB_LISTENING_SOCKETS_PORT_SEPARATOR ":"

#endif
