import EngineTestSupport
import Foundation
@testable import JupyterWire
import XCTest

/// The launcher (C, `benchbook-kernel-launcher --check`) and the kernel (Swift,
/// ``ConnectionInfo``) share one reader (`CConnectionFile`); this checks that the two
/// programs as built read every file the same: the same transport, address and ports, or
/// the same refusal with the same reason. Issue 37: they used to have a reader each, and a
/// name written twice was read first by the kernel and last by jupyter_client.
final class ConnectionFileReadersTests: XCTestCase {
    static let base = #"{"shell_port": 41001, "iopub_port": 41002, "stdin_port": 41003, "control_port": 41004, "hb_port": 41005, "ip": "127.0.0.1", "key": "a0b1c2", "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "swift"}"#

    /// What a reader made of a file.
    enum Reading: Equatable, CustomStringConvertible {
        case read(transport: String, ip: String, ports: [Int])
        case refused(String)
        var description: String {
            switch self {
            case .read(let transport, let ip, let ports): "\(transport) \(ip) \(ports.map(String.init).joined(separator: " "))"
            case .refused(let reason): "refused: \(reason)"
            }
        }
        var isRead: Bool { if case .read = self { true } else { false } }
    }

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("connection-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    func testTheLauncherNeverBindsWhatTheKernelWouldReadOtherwise() throws {
        let launcher = buildDirectory().appendingPathComponent("benchbook-kernel-launcher")
        guard FileManager.default.isExecutableFile(atPath: launcher.path) else {
            try skipOrFail("build the products first (swift build) so \(launcher.path) exists")
        }
        let inputs = Self.realisticFiles + Self.trickyFiles + Self.readableTrickyFiles + Self.mutations(of: Array(Self.base.utf8))
        var files: [URL] = []
        for (index, input) in inputs.enumerated() {
            files.append(directory.appendingPathComponent("\(index).json"))
            try Data(input).write(to: files[index])
        }
        let launcherReadings = try Self.launcherReadings(launcher, files)
        var disagreements: [String] = []
        var accepted = 0
        for (index, input) in inputs.enumerated() {
            let kernel = Self.kernelReading(files[index])
            if launcherReadings[index] != kernel {
                disagreements.append("\(String(decoding: input, as: UTF8.self)) -> launcher: \(launcherReadings[index]); kernel: \(kernel)")
            }
            if kernel.isRead { accepted += 1 }
        }
        XCTAssertEqual(disagreements, [], "\(disagreements.count) of \(inputs.count) files read differently")
        XCTAssertEqual(launcherReadings.prefix(Self.realisticFiles.count).filter { !$0.isRead }, [],
                       "a file as clients write them was refused")
        // Every tricky file is refused, with a reason that names what was wrong.
        for (index, reading) in launcherReadings.enumerated().dropFirst(Self.realisticFiles.count).prefix(Self.trickyFiles.count) {
            guard case .refused(let reason) = reading else {
                XCTFail("accepted: \(String(decoding: inputs[index], as: UTF8.self))")
                continue
            }
            XCTAssertFalse(reason.isEmpty)
        }
        let readable = launcherReadings.dropFirst(Self.realisticFiles.count + Self.trickyFiles.count).prefix(Self.readableTrickyFiles.count)
        XCTAssertEqual(readable.filter { !$0.isRead }, [], "an odd but valid file was refused")
        print("connection files: \(inputs.count) read; \(accepted) accepted by both, the rest refused by both for the same reason")
    }

    /// A name written twice, however it is escaped, refuses the file and is named.
    func testARepeatedNameIsRefusedAndNamedHoweverItIsWritten() {
        let ports = #""shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5"#
        for (text, name) in [(#"{"key": "", \#(ports), "key": "second"}"#, "key"),
                             (#"{"ip": "0.0.0.0", \#(ports), "ip": "127.0.0.1"}"#, "ip"),
                             (#"{\#(ports), "hb_port": 5}"#, "hb_port"),
                             (#"{\#(ports), "extra": 1, "extra": [2]}"#, "extra")] {
            XCTAssertThrowsError(try ConnectionInfo(text: Array(text.utf8)), text) {
                XCTAssertTrue("\($0)".contains("'\(name)' appears more than once"), "\($0)")
            }
        }
    }

    /// Errors name the field and what was wrong (issue 37, item 9).
    func testErrorsSayWhatIsWrongWithWhichField() {
        let ports = #""control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5"#
        for (shell, expected) in [("99999999999999999999", "'shell_port' is 99999999999999999999, not a port number from 1 to 65535"),
                                  ("5555.5", "'shell_port' is 5555.5, not a whole number"),
                                  (#""5555""#, "'shell_port' is a string, not a number"),
                                  ("null", "'shell_port' is null, not a number"),
                                  ("[1]", "'shell_port' is an array, not a number"),
                                  ("0", "with 0, ZeroMQ would pick a port")] {
            let text = #"{"shell_port": \#(shell), \#(ports)}"#
            XCTAssertThrowsError(try ConnectionInfo(text: Array(text.utf8)), text) {
                XCTAssertTrue("\($0)".contains(expected), "\($0)")
            }
        }
        for (text, expected) in [("", "it is empty"), ("[]", "it holds an array, not a JSON object"),
                                 (#"{"shell_port": 1,}"#, "not valid JSON at line 1, column 18 (byte 17): a ',' before '}'"),
                                 (#"{"transport": "udp", "shell_port": 1, \#(ports)}"#, "'transport' is \"udp\"; the kernel speaks"),
                                 (#"{"ip": "", "shell_port": 1, \#(ports)}"#, "'ip' is empty"),
                                 (#"{"x": \#(String(repeating: "[", count: 70))"#, "'x' is nested more than 64 levels deep")] {
            XCTAssertThrowsError(try ConnectionInfo(text: Array(text.utf8)), text) {
                XCTAssertTrue("\($0)".contains(expected), "\($0)")
            }
        }
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: "/dev/null")) {
            XCTAssertTrue("\($0)".contains("/dev/null is not usable: it is empty (0 bytes)"), "\($0)")
        }
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: "/tmp")) {
            XCTAssertTrue("\($0)".contains("it is a directory, not a file"), "\($0)")
        }
    }

    /// Files as jupyter_client and other clients write them: indented, reordered, with
    /// extra fields.
    static let realisticFiles: [[UInt8]] = {
        let pretty = """
        {
          "shell_port": 41001,
          "iopub_port": 41002,
          "stdin_port": 41003,
          "control_port": 41004,
          "hb_port": 41005,
          "ip": "127.0.0.1",
          "key": "6a1f0c1e-2b44c1d8a1d5e0c3a7b3f0e2",
          "transport": "tcp",
          "signature_scheme": "hmac-sha256",
          "kernel_name": "swift",
          "jupyter_session": "/home/student/course/01.ipynb"
        }
        """
        return [base, pretty, pretty.replacingOccurrences(of: "\n", with: "\r\n"),
                #"{"transport":"tcp","ip":"0.0.0.0","hb_port":5,"control_port":4,"iopub_port":3,"stdin_port":2,"shell_port":1,"key":""}"#,
                #"{"ip": "127.0.0.1", "transport": "tcp", "shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 65535, "extra": {"nested": [1, 2.5e-3, "x", null, false]}}"#]
            .map { Array($0.utf8) }
    }()

    /// Files that once read differently, or could, each refused: repeated fields (escaped
    /// or not), numbers in forms JSON does not allow or that are not ports, a null key,
    /// trailing text.
    static let trickyFiles: [[UInt8]] = {
        let ports = #""shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5"#
        let address = #""ip": "127.0.0.1", "transport": "tcp""#
        return [
            "{\(ports), \(address), \"shell_port\": 9}", "{\(ports), \(address), \"ip\": \"10.0.0.1\"}",
            "{\(ports), \(address), \"shell\\u005fport\": 9}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": +1,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": 01,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": 1.0,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": 1e0,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": -1,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": 65536,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": 100000,")), \(address)}",
            "{\(ports.replacingOccurrences(of: ": 1,", with: ": \"1\",")), \(address)}",
            "{\(ports), \(address), \"key\": null}", "{\(ports), \(address), \"key\": 5}",
            "{\(ports), \(address), \"signature_scheme\": []}", "{\(ports), \(address),}", "{\(ports), \(address)} x",
            "{\(ports), \(address)}{}", "[{\(ports), \(address)}]", "{\(ports), \(address), \"x\": tru}",
            "{\(ports), \(address), \"x\": \"a\tb\"}", "{\(ports), \"ip\": \"\", \"transport\": \"tcp\"}",
            "{\(ports), \(address), \"x\": [1,]}", "{\(ports), \(address), \"x\": {\"a\" 1}}",
            "{\(ports), \(address), \"x\": \"\\ud800\"}", "{\(ports), \"ip\": \"127.0.0.1\\u0000\"}",
            "{\(ports), \(address), \"transport\": \"udp\"}",
        ].map { Array($0.utf8) } + [Array("{\(ports), \(address)}".utf8) + [0], Array("{\(ports), \"x\": \"".utf8) + [0xC3, 0x28, 0x22, 0x7D]]
    }()

    /// Files in forms a strict reader may find odd, each read (and read the same by both):
    /// an escaped address, non-ASCII text, the ipc transport, the defaults.
    static let readableTrickyFiles: [[UInt8]] = {
        let ports = #""shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5"#
        return [
            "{\(ports), \"ip\": \"127.0.0.\\u0031\", \"transport\": \"tcp\"}", "{\(ports), \"x\": \"caf\u{e9} \\ud83d\\ude00\"}",
            "{\(ports), \"ip\": \"/tmp/k\", \"transport\": \"ipc\"}", "{\(ports)}", "{\(ports), \"ip\": \"::1\"}",
        ].map { Array($0.utf8) }
    }()

    /// Every one-byte damage of `base`: each byte deleted, doubled, or replaced with each
    /// of the bytes that change how JSON reads.
    static func mutations(of base: [UInt8]) -> [[UInt8]] {
        let replacements = Array(#""{}[],:09-+e. \x"#.utf8) + [UInt8(ascii: "\n"), 0x7F, 0xC3]
        var files: [[UInt8]] = []
        for index in base.indices {
            var deleted = base
            deleted.remove(at: index)
            var doubled = base
            doubled.insert(base[index], at: index)
            files += [deleted, doubled]
            for byte in replacements where byte != base[index] {
                var replaced = base
                replaced[index] = byte
                files.append(replaced)
            }
        }
        return files
    }

    /// The launcher's reading of each file, in one run of `--check`.
    static func launcherReadings(_ launcher: URL, _ files: [URL]) throws -> [Reading] {
        let process = Process()
        process.executableURL = launcher
        process.arguments = ["--check"] + files.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(lines.count, files.count, "one line per file")
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 2, fields[0] == "refused" { return .refused(String(fields[1])) }
            guard fields.count == 3 else { return .refused("unreadable line: \(line)") }
            return .read(transport: String(fields[0]), ip: String(fields[1]),
                         ports: fields[2].split(separator: " ").compactMap { Int($0) })
        }
    }

    static func kernelReading(_ file: URL) -> Reading {
        do throws(ConnectionFileError) {
            let info = try ConnectionInfo(contentsOf: file.path)
            return .read(transport: info.transport, ip: info.ip,
                         ports: [info.shellPort, info.controlPort, info.stdinPort, info.iopubPort, info.heartbeatPort])
        } catch {
            switch error {
            case .invalid(_, let reason): return .refused(reason)
            }
        }
    }
}
