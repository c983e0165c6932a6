import Foundation
internal import CCairo

/// PNG encoding and decoding through cairo's stream functions (the only cairo PNG calls).
enum CairoPNG {
    /// Encodes an image surface as PNG bytes.
    static func encode(_ surface: OpaquePointer) throws -> Data {
        let sink = Sink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let status = cairo_surface_write_to_png_stream(surface, { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
            sink.data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, unmanaged.toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ChartError.drawingFailed("PNG encoding failed: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.data
    }

    /// Decodes PNG bytes into straight (not premultiplied) RGBA pixels.
    static func decode(_ data: Data) throws -> ChartImage {
        let source = Source(data: data)
        let unmanaged = Unmanaged.passRetained(source)
        defer { unmanaged.release() }
        guard let surface = cairo_image_surface_create_from_png_stream({ closure, buffer, length in
            guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
            let source = Unmanaged<Source>.fromOpaque(closure).takeUnretainedValue()
            let count = Int(length)
            guard source.offset + count <= source.data.count else { return CAIRO_STATUS_READ_ERROR }
            source.data.copyBytes(to: buffer, from: source.offset..<(source.offset + count))
            source.offset += count
            return CAIRO_STATUS_SUCCESS
        }, unmanaged.toOpaque()) else { throw ChartError.notPNG("cairo returned no surface") }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ChartError.notPNG(String(cString: cairo_status_to_string(status)))
        }
        // Draw onto a known ARGB32 surface so every PNG flavour reads the same way.
        let width = cairo_image_surface_get_width(surface)
        let height = cairo_image_surface_get_height(surface)
        guard let argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else {
            throw ChartError.drawingFailed("cannot create a surface to decode into")
        }
        defer { cairo_surface_destroy(argb) }
        if let context = cairo_create(argb) {
            cairo_set_source_surface(context, surface, 0, 0)
            cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
            cairo_paint(context)
            cairo_destroy(context)
        }
        cairo_surface_flush(argb)
        let stride = Int(cairo_image_surface_get_stride(argb))
        guard let base = cairo_image_surface_get_data(argb) else { throw ChartError.notPNG("no pixel data") }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        for row in 0..<Int(height) {
            let words = UnsafeRawPointer(base + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<Int(width) {
                let word = words[column]
                let alpha = UInt32(word >> 24)
                var red = (word >> 16) & 0xFF, green = (word >> 8) & 0xFF, blue = word & 0xFF
                if alpha > 0 && alpha < 255 {
                    red = min(255, (red * 255 + alpha / 2) / alpha)
                    green = min(255, (green * 255 + alpha / 2) / alpha)
                    blue = min(255, (blue * 255 + alpha / 2) / alpha)
                }
                let index = (row * Int(width) + column) * 4
                pixels[index] = UInt8(red)
                pixels[index + 1] = UInt8(green)
                pixels[index + 2] = UInt8(blue)
                pixels[index + 3] = UInt8(alpha)
            }
        }
        return try ChartImage(width: Int(width), height: Int(height), rgba: pixels)
    }

    private final class Sink {
        var data = Data()
    }

    private final class Source {
        let data: Data
        var offset = 0
        init(data: Data) { self.data = Data(data) }
    }
}
