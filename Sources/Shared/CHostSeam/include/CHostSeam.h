#ifndef CHOST_SEAM_H
#define CHOST_SEAM_H

// The seam between the kernel and a cell host: every number, name and message both
// sides must agree on, defined here once. The kernel and the notebook library read them
// in Swift through HostProtocol's HostChannel; the library's C support (snapshot.c,
// cell_thread.c) includes this header.

#include <stdint.h>

/// The descriptor the host reads commands from (framed JSON, HostCommand).
#define BB_SEAM_COMMAND_DESCRIPTOR 3
/// The descriptor the host and the notebook library write events to (framed JSON, HostEvent).
#define BB_SEAM_EVENT_DESCRIPTOR 4
/// The descriptor on which the host announces each snapshot (a SOCK_SEQPACKET socket;
/// see bb_seam_snapshot_message).
#define BB_SEAM_SNAPSHOT_DESCRIPTOR 5
/// The descriptor the host's crash handler writes its report to (a pipe): only the
/// handler writes there, so nothing a cell prints can be taken for a crash, and a cell
/// that closes or redirects its standard error loses no report. See the records below.
#define BB_SEAM_CRASH_DESCRIPTOR 6
/// How many descriptors connect a host: standard input, output and error, then the four
/// above. The host's own channels never depend on descriptors 0 to 2, which cells may
/// close or redirect.
#define BB_SEAM_DESCRIPTOR_COUNT 7

/// The environment variable that names BB_SEAM_COMMAND_DESCRIPTOR for the library.
#define BB_SEAM_COMMAND_VARIABLE "BENCHBOOK_COMMAND_FD"
/// The environment variable that names BB_SEAM_EVENT_DESCRIPTOR for the library.
#define BB_SEAM_EVENT_VARIABLE "BENCHBOOK_EVENT_FD"

/// The C symbol of the host's serving loop in the notebook library. Swift's `@_cdecl`
/// takes only a literal, so BenchbookCellHost's CellHostLoop.swift spells it again; the
/// host looks it up by this name and stops with a message when it is missing, and the
/// runtime tests start a host through it.
#define BB_SEAM_SERVE_SYMBOL "benchbook_cell_host_serve"

/// The records of a crash report on BB_SEAM_CRASH_DESCRIPTOR, one line each (`\n`):
///     `signal <number>`                    the signal that ended the host
///     `message <byte count>`               then that many bytes, then `\n`: the Swift
///                                          runtime's fatal message, as it wrote it to
///                                          standard error (swift_getFatalErrorMessageBuffer)
///     `frame <offset in hex> <library>`    one per frame of the crashing thread, innermost first
#define BB_SEAM_CRASH_SIGNAL "signal"
#define BB_SEAM_CRASH_MESSAGE "message"
#define BB_SEAM_CRASH_FRAME "frame"

/// `kind` of the message a host sends on BB_SEAM_SNAPSHOT_DESCRIPTOR for each snapshot,
/// with the socket to that copy attached (SCM_RIGHTS).
#define BB_SEAM_SNAPSHOT_TAKEN 0x62625301u
/// `kind` of the message the kernel sends on a copy's socket, with BB_SEAM_DESCRIPTOR_COUNT
/// descriptors attached, to make the copy the host (they become its descriptors 0 to 6).
#define BB_SEAM_SNAPSHOT_PROMOTE 0x62625302u

/// A message of the snapshot channel, sent whole as one packet (the socket keeps
/// message boundaries); a packet of another size or kind is not a message of this seam.
typedef struct {
    /// BB_SEAM_SNAPSHOT_TAKEN or BB_SEAM_SNAPSHOT_PROMOTE.
    uint32_t kind;
    /// The copy's process id (TAKEN; 0 in PROMOTE).
    int32_t pid;
    /// The execution whose state the copy holds, 0 for none (TAKEN; 0 in PROMOTE).
    int64_t after_cell;
} bb_seam_snapshot_message;

#endif
