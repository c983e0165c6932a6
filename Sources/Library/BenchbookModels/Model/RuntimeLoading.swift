internal import CTorch
import BenchbookRuntime

/// Opens libtorch and LiteRT, as the first model of each kind would, and with `warmUp` set
/// (non-zero) also does libtorch's one-time work of a first load and run on a small network
/// made in memory (`bbt_warm_up`: TorchScript and PyTorch Lite, one thread, no thread pool
/// left behind). The cell host calls it in the background once it is ready (see
/// `RuntimePreload` in BenchbookRuntime). A runtime that cannot be opened, or a warm-up
/// that fails, is left for the first model to report.
@_cdecl("benchbook_preload_runtimes")
public func _benchbookPreloadRuntimes(_ warmUp: Int32) {
    var error: UnsafeMutablePointer<CChar>?
    let torchOpened = bbt_open(&error) == 0
    if !torchOpened { bbt_free_string(error) }
    _ = try? LiteRTLibrary.load()
    guard torchOpened, warmUp != 0 else { return }
    RuntimeLogs.prepareTorch()
    if bbt_warm_up(&error) != 0 { bbt_free_string(error) }
}
