/// The descriptors and environment that connect a cell host to its kernel.
///
/// The kernel starts the host with commands on descriptor 3 and events on descriptor 4
/// (and the same numbers in the environment, for the notebook library inside the host).
/// Standard output and error are pipes the kernel streams to the notebook.
public enum HostChannel {
    /// The descriptor the host reads commands from.
    public static let commandDescriptor: Int32 = 3
    /// The descriptor the host and the notebook library write events to.
    public static let eventDescriptor: Int32 = 4
    /// The environment variable naming ``commandDescriptor``.
    public static let commandVariable = "BENCHBOOK_COMMAND_FD"
    /// The environment variable naming ``eventDescriptor``.
    public static let eventVariable = "BENCHBOOK_EVENT_FD"
    /// The C symbol of the host's serving loop in the notebook library.
    public static let serveSymbol = "benchbook_cell_host_serve"
}
