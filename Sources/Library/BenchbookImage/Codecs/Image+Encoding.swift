internal import CImageCodecs
import Foundation

extension Image {
    /// Encodes the image as a PNG file (8-bit, same pixel format).
    /// - Parameter compressionLevel: zlib level 0 (fastest) to 9 (smallest).
    /// - Throws: ``ImageError/encodingFailed(_:)`` when libpng reports an error.
    public func pngData(compressionLevel: Int = 6) throws(ImageError) -> Data {
        var buffer = cic_buffer()
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        let status = pixels.withUnsafeBufferPointer { samples in
            cic_png_encode(samples.baseAddress, Int32(width), Int32(height), Int32(channelCount),
                           width * channelCount, Int32(max(0, min(9, compressionLevel))), &buffer, &message)
        }
        guard status == CIC_OK else {
            throw .encodingFailed("PNG: " + String(cString: message.map { UInt8(bitPattern: $0) } + [0]))
        }
        return Data(takeBuffer(&buffer))
    }

    /// Encodes the image as a baseline JPEG file (4:2:0 chroma for colour).
    /// Alpha is not stored: flatten it first with ``flattened(onto:)``.
    /// - Parameter quality: 1 (smallest) to 100 (best).
    /// - Throws: ``ImageError/unsupportedPixelFormat(operation:format:)`` for images with
    ///   alpha, ``ImageError/encodingFailed(_:)`` when libjpeg reports an error.
    public func jpegData(quality: Int = 90) throws(ImageError) -> Data {
        guard !format.hasAlpha else { throw .unsupportedPixelFormat(operation: "JPEG encoding", format: format) }
        var buffer = cic_buffer()
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        let status = pixels.withUnsafeBufferPointer { samples in
            cic_jpeg_encode(samples.baseAddress, Int32(width), Int32(height), Int32(channelCount),
                            width * channelCount, Int32(max(1, min(100, quality))), &buffer, &message)
        }
        guard status == CIC_OK else {
            throw .encodingFailed("JPEG: " + String(cString: message.map { UInt8(bitPattern: $0) } + [0]))
        }
        return Data(takeBuffer(&buffer))
    }

    /// Writes the image as a PNG file.
    /// - Parameter path: where to write; an existing file is replaced.
    /// - Throws: ``ImageError/encodingFailed(_:)`` when encoding or writing fails.
    public func writePNG(toFile path: String) throws(ImageError) {
        let data = try pngData()
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw .encodingFailed("cannot write \(path): \(error)")
        }
    }
}
