import Foundation

/// The machine a benchmark ran on, as recorded with every result.
public struct MachineDescription: Sendable, Equatable, Codable {
    /// CPU model name from `/proc/cpuinfo` (`model name`), or "unknown".
    public var cpuModel: String
    /// Logical cores available to the process.
    public var coreCount: Int
    /// Operating system from `/etc/os-release` (`PRETTY_NAME`), with the kernel release.
    public var operatingSystem: String
    /// Machine architecture (`uname -m`).
    public var architecture: String

    /// Creates a description.
    public init(cpuModel: String, coreCount: Int, operatingSystem: String, architecture: String) {
        self.cpuModel = cpuModel
        self.coreCount = coreCount
        self.operatingSystem = operatingSystem
        self.architecture = architecture
    }

    /// The machine this process runs on.
    public static var current: MachineDescription {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let release = field(names.release)
        let os = osReleaseName() ?? field(names.sysname)
        return MachineDescription(
            cpuModel: cpuModelName() ?? "unknown",
            coreCount: ProcessInfo.processInfo.activeProcessorCount,
            operatingSystem: "\(os) (kernel \(release))",
            architecture: field(names.machine))
    }

    private static func cpuModelName() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            if key == "model name" || key == "Model" || key == "Hardware" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    private static func osReleaseName() -> String? {
        guard let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
