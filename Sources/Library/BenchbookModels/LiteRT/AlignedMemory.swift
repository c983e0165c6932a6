import BenchbookTensor
import Foundation

/// 64-byte-aligned host memory for one LiteRT tensor buffer (LiteRT requires the alignment).
final class AlignedMemory {
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int
    let shape: [Int]
    let elementType: ElementType

    /// Allocates zeroed memory for a tensor of this shape and element type.
    init(shape: [Int], elementType: ElementType) {
        self.shape = shape
        self.elementType = elementType
        byteCount = max(shape.reduce(1, *) * Self.size(of: elementType), 1)
        let rounded = (byteCount + 63) / 64 * 64
        pointer = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: 64)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: rounded)
    }

    deinit { pointer.deallocate() }

    /// The size in bytes of one element.
    static func size(of type: ElementType) -> Int {
        switch type {
        case .float32, .int32: 4
        case .uint8, .int8: 1
        case .int64: 8
        }
    }

    /// Copies a tensor's elements in (the caller checked shape and type).
    func copy(from tensor: Tensor) {
        func write(_ bytes: UnsafeRawBufferPointer) {
            pointer.copyMemory(from: bytes.baseAddress!, byteCount: min(bytes.count, byteCount))
        }
        switch tensor.storage {
        case .float32(let values): values.withUnsafeBytes(write)
        case .uint8(let values): values.withUnsafeBytes(write)
        case .int8(let values): values.withUnsafeBytes(write)
        case .int32(let values): values.withUnsafeBytes(write)
        case .int64(let values): values.withUnsafeBytes(write)
        }
    }

    /// Copies the memory out as a tensor.
    func tensor(shape: [Int], elementType: ElementType) -> Tensor {
        let count = shape.reduce(1, *)
        func read<T>(_: T.Type) -> [T] {
            Array(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: T.self), count: count))
        }
        let storage: Tensor.Storage
        switch elementType {
        case .float32: storage = .float32(read(Float.self))
        case .uint8: storage = .uint8(read(UInt8.self))
        case .int8: storage = .int8(read(Int8.self))
        case .int32: storage = .int32(read(Int32.self))
        case .int64: storage = .int64(read(Int64.self))
        }
        return try! Tensor(shape: shape, storage: storage, layout: nil)
    }
}
