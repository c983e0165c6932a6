internal import CImageCodecs
import Foundation

/// Turns a C status code and message into an ``ImageError``.
func imageError(status: Int32, format: String, message: [CChar]) -> ImageError {
    let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch status {
    case CIC_ERROR_UNSUPPORTED: return .unsupportedFormat(text)
    case CIC_ERROR_TOO_LARGE: return .tooLarge(text)
    case CIC_ERROR_USAGE: return .invalidArgument(text)
    case CIC_ERROR_OUT_OF_MEMORY: return .tooLarge("out of memory while decoding (\(text))")
    default: return .corruptFile(format: format, reason: text.isEmpty ? "unknown decoder error" : text)
    }
}

/// What a decoder found in a file's header.
struct DecodedHeader {
    var width: Int
    var height: Int
    var channels: Int
    var sourceWidth: Int
    var sourceHeight: Int
    var exifOrientation: Int
}

/// Owns a libpng decoder (C handle) and a copy of the file it reads; frees both in deinit.
final class PNGDecoder {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var handle: OpaquePointer?
    let header: DecodedHeader

    init(data: [UInt8], maxPixelCount: Int) throws(ImageError) {
        bytes = ownedCopy(of: data)
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        var info = cic_image_info()
        var decoder: OpaquePointer?
        let status = cic_png_open(bytes.baseAddress, data.count, UInt64(maxPixelCount), &decoder, &info, &message)
        guard status == CIC_OK, let decoder else {
            bytes.deallocate()  // deinit does not run when init throws
            throw imageError(status: status, format: "PNG", message: message)
        }
        handle = decoder
        header = DecodedHeader(width: Int(info.width), height: Int(info.height), channels: Int(info.channels),
                               sourceWidth: Int(info.source_width), sourceHeight: Int(info.source_height),
                               exifOrientation: 1)
    }

    deinit {
        cic_png_free(handle)
        bytes.deallocate()
    }

    /// Decodes the pixels into a new image.
    func decode() throws(ImageError) -> Image {
        try decodePixels(header: header, format: "PNG") { pixels, stride, message in
            cic_png_decode(handle, pixels, stride, message)
        }
    }
}

/// Owns a libjpeg-turbo decoder (C handle) and a copy of the file it reads; frees both in deinit.
final class JPEGDecoder {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var handle: OpaquePointer?
    let header: DecodedHeader

    init(data: [UInt8], scaleEighths: Int, fast: Bool, maxPixelCount: Int) throws(ImageError) {
        bytes = ownedCopy(of: data)
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        var info = cic_image_info()
        var decoder: OpaquePointer?
        let status = cic_jpeg_open(bytes.baseAddress, data.count, Int32(scaleEighths), fast ? 1 : 0,
                                   UInt64(maxPixelCount), &decoder, &info, &message)
        guard status == CIC_OK, let decoder else {
            bytes.deallocate()  // deinit does not run when init throws
            throw imageError(status: status, format: "JPEG", message: message)
        }
        handle = decoder
        header = DecodedHeader(width: Int(info.width), height: Int(info.height), channels: Int(info.channels),
                               sourceWidth: Int(info.source_width), sourceHeight: Int(info.source_height),
                               exifOrientation: Int(info.exif_orientation))
    }

    deinit {
        cic_jpeg_free(handle)
        bytes.deallocate()
    }

    /// Decodes the pixels into a new image (before any Exif orientation).
    func decode() throws(ImageError) -> Image {
        try decodePixels(header: header, format: "JPEG") { pixels, stride, message in
            cic_jpeg_decode(handle, pixels, stride, message)
        }
    }
}

/// A heap copy of the file that stays put while a C decoder reads it (at least one byte,
/// so the pointer is never null).
private func ownedCopy(of data: [UInt8]) -> UnsafeMutableBufferPointer<UInt8> {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, data.count))
    _ = buffer.initialize(from: data)
    return UnsafeMutableBufferPointer(rebasing: buffer[0..<max(1, data.count)])
}

/// Allocates the pixel array and lets a C decoder fill it.
private func decodePixels(
    header: DecodedHeader, format: String,
    fill: (UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<CChar>) -> Int32
) throws(ImageError) -> Image {
    guard header.width > 0, header.height > 0, let pixelFormat = PixelFormat(channelCount: header.channels) else {
        throw .corruptFile(format: format, reason: "the header declares \(header.width)x\(header.height) pixels with \(header.channels) channels")
    }
    let stride = header.width * header.channels
    var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
    var status: Int32 = CIC_OK
    let pixels = [UInt8](unsafeUninitializedCapacity: stride * header.height) { buffer, count in
        buffer.initialize(repeating: 0)
        status = message.withUnsafeMutableBufferPointer { fill(buffer.baseAddress!, stride, $0.baseAddress!) }
        count = buffer.count
    }
    guard status == CIC_OK else { throw imageError(status: status, format: format, message: message) }
    return Image(uncheckedWidth: header.width, height: header.height, format: pixelFormat, pixels: pixels)
}

/// Copies a C buffer into Swift bytes and frees it.
func takeBuffer(_ buffer: inout cic_buffer) -> [UInt8] {
    defer { cic_buffer_free(&buffer) }
    guard let bytes = buffer.bytes else { return [] }
    return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
}
