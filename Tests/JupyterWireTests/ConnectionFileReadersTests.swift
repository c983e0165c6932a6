import EngineTestSupport
import Foundation
@testable import JupyterWire
import XCTest

/// The launcher (C, `benchbook-kernel-launcher --check`) and the kernel (Swift,
/// ``ConnectionInfo``) read the same connection files: whenever the launcher would bind
/// ports, the kernel accepts the file and reads the same transport, address and ports.
/// The launcher may refuse more (the kernel then binds itself); never less.
final class ConnectionFileReadersTests: XCTestCase {
    static let base = #"{"shell_port": 41001, "iopub_port": 41002, "stdin_port": 41003, "control_port": 41004, "hb_port": 41005, "ip": "127.0.0.1", "key": "a0b1c2", "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "swift"}"#

    /// What a reader made of a file: nil for refused.
    struct Reading: Equatable, CustomStringConvertible {
        var transport: String
        var ip: String
        var ports: [Int]
        var description: String { "\(transport) \(ip) \(ports.map(String.init).joined(separator: " "))" }
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
        let inputs = Self.realisticFiles + Self.trickyFiles + Self.mutations(of: Array(Self.base.utf8))
        var files: [URL] = []
        for (index, input) in inputs.enumerated() {
            files.append(directory.appendingPathComponent("\(index).json"))
            try Data(input).write(to: files[index])
        }
        let launcherReadings = try Self.launcherReadings(launcher, files)
        var disagreements: [String] = []
        var bothAccepted = 0, onlyKernelAccepted = 0
        for (index, input) in inputs.enumerated() {
            switch (launcherReadings[index], Self.kernelReading(files[index])) {
            case (let c?, let swift?) where c == swift: bothAccepted += 1
            case (let c?, let swift):
                disagreements.append("\(String(decoding: input, as: UTF8.self)) -> launcher: \(c); kernel: \(swift.map(\.description) ?? "refused")")
            case (nil, _?): onlyKernelAccepted += 1
            case (nil, nil): break
            }
        }
        XCTAssertEqual(disagreements, [], "\(disagreements.count) of \(inputs.count) files read differently")
        // The launcher is of use only if it reads the files clients write.
        XCTAssertEqual(launcherReadings.prefix(Self.realisticFiles.count).filter { $0 == nil }.count, 0,
                       "the launcher refused a file as clients write them")
        print("connection files: \(inputs.count) read; both readers accepted \(bothAccepted), only the kernel \(onlyKernelAccepted)")
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

    /// Files that once read differently, or could: repeated fields, escapes, numbers in
    /// forms JSON does not allow or the kernel reads otherwise, a null key, trailing text.
    static let trickyFiles: [[UInt8]] = {
        let ports = #""shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5"#
        let address = #""ip": "127.0.0.1", "transport": "tcp""#
        return [
            "{\(ports), \(address), \"shell_port\": 9}", "{\(ports), \(address), \"ip\": \"10.0.0.1\"}",
            "{\(ports), \(address), \"shell\\u005fport\": 9}", "{\(ports), \"ip\": \"127.0.0.\\u0031\", \"transport\": \"tcp\"}",
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
            "{\(ports), \(address), \"x\": \"a\tb\"}", "{\(ports), \(address), \"x\": \"caf\u{e9}\"}",
            "{\(ports), \"ip\": \"127.0.0.1\", \"transport\": \"ipc\"}", "{\(ports), \"ip\": \"\", \"transport\": \"tcp\"}",
            "{\(ports)}", "{\(ports), \(address), \"x\": [1,]}", "{\(ports), \(address), \"x\": {\"a\" 1}}",
        ].map { Array($0.utf8) } + [Array("{\(ports), \(address)}".utf8) + [0]]
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
    static func launcherReadings(_ launcher: URL, _ files: [URL]) throws -> [Reading?] {
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
            guard fields.count == 3 else { return nil }
            return Reading(transport: String(fields[0]), ip: String(fields[1]),
                           ports: fields[2].split(separator: " ").compactMap { Int($0) })
        }
    }

    static func kernelReading(_ file: URL) -> Reading? {
        guard let info = try? ConnectionInfo(contentsOf: file.path) else { return nil }
        return Reading(transport: info.transport, ip: info.ip,
                       ports: [info.shellPort, info.controlPort, info.stdinPort, info.iopubPort, info.heartbeatPort])
    }
}
