// The cell host: the process that owns a notebook's state.
//
// The kernel starts it with two extra descriptors: 3, from which it reads commands
// (one per line), and 4, to which it writes events as frames of a 4-byte little-endian
// length and a JSON object. Standard output and error are pipes the kernel streams to
// the notebook as they are written.
//
// Commands:
//   load <TAB> path              dlopen a library with RTLD_GLOBAL (no reply unless it fails)
//   run <TAB> path <TAB> symbol  dlopen it, call `Int32 symbol(void)`, reply {"event":"done"}
//
// A trap in a cell ends this process; the kernel notices, reports it and starts a new
// host. Libraries are never unloaded: their types and values stay valid for later cells.

import CHostSupport
#if canImport(Glibc)
import Glibc
#endif

let commandDescriptor: Int32 = 3
let eventDescriptor: Int32 = 4

/// Escapes text for a JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// Writes one event frame.
func sendEvent(_ json: String) {
    fflush(nil)
    let body = Array(json.utf8)
    let length = UInt32(body.count)
    var frame: [UInt8] = [UInt8(length & 0xff), UInt8((length >> 8) & 0xff), UInt8((length >> 16) & 0xff), UInt8(length >> 24)]
    frame += body
    var offset = 0
    while offset < frame.count {
        let written = frame[offset...].withUnsafeBytes { write(eventDescriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            exit(3)
        }
        offset += written
    }
}

/// Reads one command line, byte by byte so that nothing after it is consumed (a cell may
/// read the next line itself, as the answer to an input request).
func readCommand() -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
        let count = read(commandDescriptor, &byte, 1)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return nil }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
}

func lastLoaderError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
}

typealias CellEntry = @convention(c) () -> Int32

_ = bb_host_exit_with_parent()
signal(SIGINT, SIG_IGN)
setvbuf(stdout, nil, _IOLBF, 0)

while let command = readCommand() {
    let fields = command.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    switch fields.first {
    case "load" where fields.count == 2:
        if dlopen(fields[1], RTLD_NOW | RTLD_GLOBAL) == nil {
            sendEvent("{\"event\":\"load_failed\",\"error\":\(jsonString(lastLoaderError()))}")
        }
    case "run" where fields.count == 3:
        guard let handle = dlopen(fields[1], RTLD_NOW | RTLD_GLOBAL) else {
            sendEvent("{\"event\":\"done\",\"status\":-1,\"error\":\(jsonString(lastLoaderError()))}")
            continue
        }
        guard let symbol = dlsym(handle, fields[2]) else {
            sendEvent("{\"event\":\"done\",\"status\":-1,\"error\":\(jsonString(lastLoaderError()))}")
            continue
        }
        let entry = unsafeBitCast(symbol, to: CellEntry.self)
        let status = entry()
        sendEvent("{\"event\":\"done\",\"status\":\(status)}")
    default:
        sendEvent("{\"event\":\"done\",\"status\":-1,\"error\":\(jsonString("unknown command: " + command))}")
    }
}
exit(0)
