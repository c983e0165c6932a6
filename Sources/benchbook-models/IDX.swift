import BenchbookTensor
import Foundation

/// Reads the gzip-compressed IDX files of Fashion-MNIST (Debian's dataset-fashion-mnist).
/// The notebook library's own reader is BenchbookImage's FashionMNIST; this small copy
/// keeps the model tool independent of it.
enum IDX {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The decompressed bytes of a `.gz` file (through `gzip -dc`).
    static func gunzip(_ path: String) throws -> Data {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(description: "\(path) is missing; install Debian's dataset-fashion-mnist (make setup)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "gzip could not read \(path)") }
        return data
    }

    /// Images `[N, 28, 28]` as float32 in [0, 1] and their labels.
    static func testSet(directory: String, split: String = "t10k") throws -> (images: Tensor, labels: [Int]) {
        let images = [UInt8](try gunzip("\(directory)/\(split)-images-idx3-ubyte.gz"))
        let labels = [UInt8](try gunzip("\(directory)/\(split)-labels-idx1-ubyte.gz"))
        func int(_ bytes: [UInt8], _ offset: Int) -> Int {
            bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        guard images.count > 16, int(images, 0) == 0x803, labels.count > 8, int(labels, 0) == 0x801 else {
            throw Failure(description: "\(directory) does not hold IDX image/label files")
        }
        let (count, rows, columns) = (int(images, 4), int(images, 8), int(images, 12))
        guard images.count == 16 + count * rows * columns, labels.count == 8 + count else {
            throw Failure(description: "the IDX files in \(directory) are truncated")
        }
        let pixels = images[16...].map { Float($0) / 255 }
        return (try Tensor(shape: [count, rows, columns], float32: pixels), labels[8...].map(Int.init))
    }
}
