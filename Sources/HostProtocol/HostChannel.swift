/// The descriptors and environment that connect a cell host to its kernel.
///
/// The kernel starts the host with commands on descriptor 3, events on descriptor 4 (and
/// the same numbers in the environment, for the notebook library inside the host) and
/// snapshot announcements on descriptor 5.
/// Standard output and error are pipes the kernel streams to the notebook.
public enum HostChannel {
    /// The descriptor the host reads commands from.
    public static let commandDescriptor: Int32 = 3
    /// The descriptor the host and the notebook library write events to.
    public static let eventDescriptor: Int32 = 4
    /// The descriptor on which the host announces each snapshot (a forked copy of itself)
    /// with a socket to that copy (`SOCK_SEQPACKET`, the socket attached with
    /// `SCM_RIGHTS`, the text `snapshot <pid> <cell>`). Sending `promote` with six
    /// descriptors on that socket makes the copy the host, with them as its 0–5.
    public static let snapshotDescriptor: Int32 = 5
    /// The environment variable naming ``commandDescriptor``.
    public static let commandVariable = "BENCHBOOK_COMMAND_FD"
    /// The environment variable naming ``eventDescriptor``.
    public static let eventVariable = "BENCHBOOK_EVENT_FD"
    /// The C symbol of the host's serving loop in the notebook library.
    public static let serveSymbol = "benchbook_cell_host_serve"
}
