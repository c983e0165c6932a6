import Foundation
internal import SystemSupport

/// The file formats the decoders understand.
public enum ImageFileFormat: String, Sendable {
    /// Portable Network Graphics.
    case png
    /// JPEG (JFIF or Exif).
    case jpeg

    /// The format named by a file's first bytes, if it is PNG or JPEG.
    /// - Parameter bytes: the start of the file (8 bytes are enough).
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }
}

/// How to decode an image file.
public struct DecodingOptions: Sendable {
    /// For JPEG: the smallest size the caller needs. The decoder picks the smallest DCT
    /// scale (1/8, 2/8, ... 8/8) that keeps both sides at least this large, so a 12 MP
    /// photo decodes straight to about the size a model needs. `nil` decodes full size.
    public var draftSize: Size?
    /// For JPEG draft decoding: choose the scale among 1/1, 1/2, 1/4, 1/8 the way Pillow's
    /// `Image.draft` does, so the decoded pixels match Pillow's.
    public var pillowCompatibleDraft: Bool
    /// Rotate or flip the pixels as the JPEG's Exif orientation tag says (on by default).
    public var appliesExifOrientation: Bool
    /// Refuse files that declare more pixels than this (before DCT scaling).
    public var maxPixelCount: Int

    /// Creates decoding options.
    /// - Parameters:
    ///   - draftSize: the smallest JPEG size needed, or `nil` for full size.
    ///   - pillowCompatibleDraft: restrict draft scaling to what Pillow's `draft` does.
    ///   - appliesExifOrientation: apply the Exif orientation tag.
    ///   - maxPixelCount: the largest pixel count accepted.
    public init(draftSize: Size? = nil, pillowCompatibleDraft: Bool = false,
                appliesExifOrientation: Bool = true, maxPixelCount: Int = 1 << 27) {
        self.draftSize = draftSize
        self.pillowCompatibleDraft = pillowCompatibleDraft
        self.appliesExifOrientation = appliesExifOrientation
        self.maxPixelCount = maxPixelCount
    }
}

extension Image {
    /// Decodes a PNG or JPEG file held in memory.
    ///
    /// PNG: 1-16 bit gray, gray+alpha, palette, RGB, RGBA become 8-bit ``PixelFormat/gray``,
    /// ``PixelFormat/grayAlpha``, ``PixelFormat/rgb`` or ``PixelFormat/rgba``
    /// (16-bit samples keep their high byte; a `tRNS` chunk becomes alpha).
    /// JPEG: gray or RGB, optionally DCT-scaled (see ``DecodingOptions/draftSize``), with the
    /// Exif orientation applied.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - options: draft size, orientation and limits.
    /// - Throws: ``ImageError/unsupportedFormat(_:)``, ``ImageError/corruptFile(format:reason:)``
    ///   or ``ImageError/tooLarge(_:)``.
    public init(data: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) throws(ImageError) {
        let bytes: [UInt8]
        if let array = data as? [UInt8] {
            bytes = array
        } else if let foundationData = data as? Data {
            bytes = foundationData.withUnsafeBytes { [UInt8]($0) }
        } else {
            bytes = Array(data)
        }
        guard let format = ImageFileFormat(sniffing: bytes) else {
            let head = bytes.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw .unsupportedFormat(bytes.isEmpty ? "the data is empty" : "the file starts with bytes \(head)")
        }
        switch format {
        case .png:
            self = try PNGDecoder(data: bytes, maxPixelCount: options.maxPixelCount).decode()
        case .jpeg:
            self = try Self.decodeJPEG(bytes, options: options)
        }
    }

    /// Decodes a PNG or JPEG file from disk.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - options: draft size, orientation and limits.
    /// - Throws: ``ImageError/unreadableFile(path:reason:)`` when it cannot be read, and
    ///   the errors of ``init(data:options:)``.
    public init(contentsOfFile path: String, options: DecodingOptions = DecodingOptions()) throws(ImageError) {
        try self.init(data: try readFileBytes(path), options: options)
    }

    /// Decodes a JPEG file straight to about the size a model needs (DCT scaling).
    /// - Parameters:
    ///   - path: the file's path.
    ///   - draftSize: the smallest size needed; the result is at least this large on both
    ///     sides when the photo is.
    /// - Throws: the errors of ``init(data:options:)``.
    public init(contentsOfFile path: String, draftSize: Size) throws(ImageError) {
        try self.init(contentsOfFile: path, options: DecodingOptions(draftSize: draftSize))
    }

    /// Picks the DCT scale in eighths for a draft size.
    static func draftScaleEighths(width: Int, height: Int, draft: Size?, pillowCompatible: Bool) -> Int {
        guard let draft, draft.width > 0, draft.height > 0 else { return 8 }
        if pillowCompatible {
            // Pillow: the largest reduction 1, 2, 4 or 8 not above min(W / w, H / h).
            let allowed = min(width / draft.width, height / draft.height)
            var reduction = 1
            for candidate in [1, 2, 4, 8] where candidate <= allowed { reduction = candidate }
            return 8 / reduction
        }
        for eighths in 1...8 {
            // libjpeg rounds scaled sizes up: ceil(size * eighths / 8).
            let scaledWidth = (width * eighths + 7) / 8
            let scaledHeight = (height * eighths + 7) / 8
            if scaledWidth >= draft.width && scaledHeight >= draft.height { return eighths }
        }
        return 8
    }

    private static func decodeJPEG(_ bytes: [UInt8], options: DecodingOptions) throws(ImageError) -> Image {
        var eighths = 8
        if options.draftSize != nil {
            let probe = try JPEGDecoder(data: bytes, scaleEighths: 8, fast: false, maxPixelCount: options.maxPixelCount)
            eighths = draftScaleEighths(width: probe.header.sourceWidth, height: probe.header.sourceHeight,
                                        draft: options.draftSize, pillowCompatible: options.pillowCompatibleDraft)
        }
        let decoder = try JPEGDecoder(data: bytes, scaleEighths: eighths, fast: false, maxPixelCount: options.maxPixelCount)
        let image = try decoder.decode()
        guard options.appliesExifOrientation, let orientation = ExifOrientation(rawValue: decoder.header.exifOrientation) else {
            return image
        }
        return image.oriented(orientation)
    }
}

/// Reads a whole file into bytes with one allocation (no `Data` bridging).
/// - Throws: ``ImageError/unreadableFile(path:reason:)``.
func readFileBytes(_ path: String) throws(ImageError) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw .unreadableFile(path: path, reason: SystemError("open").message)
    }
    defer { fclose(file) }
    var status = stat()
    guard fstat(fileno(file), &status) == 0 else {
        throw .unreadableFile(path: path, reason: SystemError("fstat").message)
    }
    let size = Int(status.st_size)
    var readCount = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        readCount = size > 0 ? fread(buffer.baseAddress, 1, size, file) : 0
        count = readCount
    }
    guard readCount == size else {
        throw .unreadableFile(path: path, reason: "read \(readCount) of \(size) bytes")
    }
    return bytes
}
