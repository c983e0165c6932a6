internal import GeneratedNames

/// A value that shows itself in the debugger's Variables panel (JupyterLab's rich
/// inspection, `richInspectVariables`) with more than its notebook display: a tensor's
/// statistics, say. Values that do not adopt it show their ``NotebookDisplayable`` bundle,
/// or their description.
public protocol DebuggerInspectable {
    /// The representations the debugger's rich view shows, `text/plain` included.
    var debuggerBundle: MimeBundle { get }
}

/// The MIME type of the variables listing the cell host sends the kernel's debugger (a
/// JSON array of `{name, type, value, cell, members}`); never shown to a user.
public let debuggerVariablesMimeType = RuntimeNames.debuggerVariablesMimeType
