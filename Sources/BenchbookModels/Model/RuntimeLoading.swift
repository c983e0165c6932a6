internal import CTorch
import BenchbookRuntime

/// Opens libtorch and LiteRT, as the first model of each kind would; the cell host calls
/// it in the background once it is ready (see `RuntimePreload` in BenchbookRuntime).
/// A runtime that cannot be opened is left for the first model to report.
@_cdecl("benchbook_preload_runtimes")
public func _benchbookPreloadRuntimes() {
    var error: UnsafeMutablePointer<CChar>?
    if bbt_open(&error) != 0 { bbt_free_string(error) }
    _ = try? LiteRTLibrary.load()
}
