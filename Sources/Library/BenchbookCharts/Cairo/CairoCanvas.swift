import Foundation
internal import CCairo

/// A drawing surface backed by a cairo image surface and context. The only place that
/// makes cairo drawing calls; charts draw through it in points (1/72 inch at 1×), and the
/// canvas scales to pixels.
///
/// Owns its cairo objects and releases them in `deinit`. Not thread-safe: one chart
/// renders on one thread.
final class CairoCanvas {
    /// Logical width in points.
    let width: Double
    /// Logical height in points.
    let height: Double
    /// Pixels per point.
    let scale: Double
    private let surface: OpaquePointer
    private let context: OpaquePointer

    /// Creates a canvas filled with `background`.
    init(width: Double, height: Double, scale: Double, background: ChartColor = .white) throws {
        let pixelWidth = Int32((width * scale).rounded())
        let pixelHeight = Int32((height * scale).rounded())
        guard pixelWidth > 0, pixelHeight > 0, pixelWidth <= 16384, pixelHeight <= 16384 else {
            throw ChartError.invalidSize(width: width, height: height, scale: scale)
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelWidth, pixelHeight),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw ChartError.drawingFailed("cannot create a \(pixelWidth)×\(pixelHeight) surface") }
        guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw ChartError.drawingFailed("cannot create a cairo context")
        }
        self.width = width
        self.height = height
        self.scale = scale
        self.surface = surface
        self.context = context
        cairo_scale(context, scale, scale)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
        fill(ChartRect(x: 0, y: 0, width: width, height: height), background)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    // MARK: Shapes

    /// Fills a rectangle.
    func fill(_ rect: ChartRect, _ color: ChartColor) {
        setSource(color)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(context)
    }

    /// Outlines a rectangle.
    func stroke(_ rect: ChartRect, _ color: ChartColor, lineWidth: Double = 1) {
        setSource(color)
        cairo_set_line_width(context, lineWidth)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_stroke(context)
    }

    /// Draws a straight line. A `dash` length draws it dashed.
    func line(from start: ChartPoint, to end: ChartPoint, _ color: ChartColor, lineWidth: Double = 1, dash: Double? = nil) {
        setSource(color)
        cairo_set_line_width(context, lineWidth)
        if let dash {
            var pattern = [dash, dash]
            cairo_set_dash(context, &pattern, 2, 0)
        }
        cairo_move_to(context, start.x, start.y)
        cairo_line_to(context, end.x, end.y)
        cairo_stroke(context)
        if dash != nil { cairo_set_dash(context, nil, 0, 0) }
    }

    /// Fills a circle.
    func fillCircle(center: ChartPoint, radius: Double, _ color: ChartColor) {
        setSource(color)
        cairo_new_sub_path(context)
        cairo_arc(context, center.x, center.y, radius, 0, 2 * Double.pi)
        cairo_fill(context)
    }

    // MARK: Text

    /// Measures text set in the chart font.
    func textWidth(_ text: String, size: Double, weight: FontWeight = .regular, italic: Bool = false) -> Double {
        selectFont(size: size, weight: weight, italic: italic)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    /// Draws one line of text anchored at `point`, optionally rotated (radians, clockwise
    /// on screen) around that point.
    func text(
        _ text: String, at point: ChartPoint, size: Double, color: ChartColor = .text,
        weight: FontWeight = .regular, italic: Bool = false,
        horizontal: HorizontalAnchor = .leading, vertical: VerticalAnchor = .baseline, rotation: Double = 0
    ) {
        guard !text.isEmpty else { return }
        ChartRenderer.textRecorder?.record(text)
        selectFont(size: size, weight: weight, italic: italic)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(context, &fontExtents)
        let dx: Double
        switch horizontal {
        case .leading: dx = 0
        case .center: dx = -extents.x_advance / 2
        case .trailing: dx = -extents.x_advance
        }
        // Anchor on the font's ascent and descent, not the string's ink, so labels line up.
        let ascent = fontExtents.ascent * 0.78
        let dy: Double
        switch vertical {
        case .baseline: dy = 0
        case .top: dy = ascent
        case .middle: dy = ascent / 2
        case .bottom: dy = -fontExtents.descent
        }
        cairo_save(context)
        setSource(color)
        cairo_translate(context, point.x, point.y)
        if rotation != 0 { cairo_rotate(context, rotation) }
        cairo_move_to(context, dx, dy)
        cairo_show_text(context, text)
        cairo_restore(context)
    }

    // MARK: Images

    /// Draws pixels scaled into `rect`. Small images scaled up a lot keep hard pixel
    /// edges (so a 28×28 input looks like what the model sees); others are smoothed.
    func draw(_ image: ChartImage, in rect: ChartRect) {
        guard image.width > 0, image.height > 0,
              let source = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))
        else { return }
        defer { cairo_surface_destroy(source) }
        cairo_surface_flush(source)
        let stride = Int(cairo_image_surface_get_stride(source))
        guard let base = cairo_image_surface_get_data(source) else { return }
        image.withPremultipliedARGB { row, words in
            let destination = UnsafeMutableRawPointer(base + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<words.count { destination[column] = words[column] }
        }
        cairo_surface_mark_dirty(source)
        cairo_save(context)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(context)
        cairo_translate(context, rect.x, rect.y)
        let sx = rect.width / Double(image.width), sy = rect.height / Double(image.height)
        cairo_scale(context, sx, sy)
        cairo_set_source_surface(context, source, 0, 0)
        let pattern = cairo_get_source(context)
        let enlargement = min(sx, sy) * scale
        cairo_pattern_set_filter(pattern, enlargement >= 2 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_restore(context)
    }

    // MARK: Output

    /// The canvas as a PNG file.
    func pngData() throws -> Data {
        cairo_surface_flush(surface)
        return try CairoPNG.encode(surface)
    }

    /// Pixel width and height.
    var pixelSize: (width: Int, height: Int) {
        (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)))
    }

    // MARK: Private

    private func setSource(_ color: ChartColor) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    private func selectFont(size: Double, weight: FontWeight, italic: Bool) {
        cairo_select_font_face(
            context, ChartStyle.fontFamily, italic ? CAIRO_FONT_SLANT_OBLIQUE : CAIRO_FONT_SLANT_NORMAL,
            weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
    }
}

/// Font weights the charts use.
enum FontWeight { case regular, bold }
/// Horizontal text anchor.
enum HorizontalAnchor { case leading, center, trailing }
/// Vertical text anchor (top and middle use the font's cap height).
enum VerticalAnchor { case top, middle, baseline, bottom }
