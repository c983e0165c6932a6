// The cell host: the process that owns a notebook's state.
//
//   benchbook-cell-host <path of libBenchbook.so>
//
// The kernel starts it with commands on descriptor 3 and events on descriptor 4 (see
// HostChannel); standard output and error are pipes the kernel streams to the notebook.
// This launcher loads the notebook library with RTLD_GLOBAL (cells link against it) and
// enters the serving loop that lives in the library, so the loop, the library and every
// cell share one event channel. A trap in a cell ends this process; the kernel notices,
// reports it and starts a new host.

import SystemSupport
import HostProtocol
#if canImport(Glibc)
import Glibc
#endif

let events = HostEventWriter(descriptor: FileDescriptor(rawValue: HostChannel.eventDescriptor))

/// Reports why the library could not be entered, then ends the process.
func fail(_ library: String, _ message: String) -> Never {
    try? events.send(.loadFailed(library: library, message: message))
    exit(3)
}

// A host never outlives its kernel. The watch's descriptor is above the host's channels,
// which the library checks only later (a host started without one must find it closed).
_ = try? CurrentProcess.whenParentExits(descriptorsFrom: Int32(HostChannel.descriptorCount)) { CurrentProcess.exitNow(status: 0) }
// SIGINT means "interrupt the running cell"; the library installs its handler when a cell
// starts. Until then an interrupt must not end the host.
signal(SIGINT, SIG_IGN)
setvbuf(stdout, nil, _IOLBF, 0)

guard CommandLine.arguments.count == 2 else { fail("", "usage: benchbook-cell-host <libBenchbook.so>") }
let library = CommandLine.arguments[1]
guard let handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL) else {
    fail(library, dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error")
}
guard let address = dlsym(handle, HostChannel.serveSymbol) else {
    fail(library, "the library has no \(HostChannel.serveSymbol); rebuild it with `make build`")
}
typealias Serve = @convention(c) () -> Int32
exit(unsafeBitCast(address, to: Serve.self)())
