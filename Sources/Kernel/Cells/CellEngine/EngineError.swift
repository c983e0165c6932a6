/// Failures of the engine itself (not of a user's cell).
public enum EngineError: Error, CustomStringConvertible {
    /// The cell host could not be started; the text says why.
    case hostStartFailed(String)
    /// The compiler or linker could not be started; the text says why.
    case toolFailed(String)

    public var description: String {
        switch self {
        case .hostStartFailed(let why):
            "The cell host could not be started (\(why)). Build it with `make build` and check the kernelspec's argv."
        case .toolFailed(let why):
            "A compiler tool could not be run (\(why)). Check that the Swift toolchain is installed (see README)."
        }
    }
}
