// PNG decode and encode over libpng. Every entry point that calls libpng does its own
// setjmp, so libpng's longjmp on error lands in this file and never in Swift.
#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int height;
    png_bytep *rows;
    int decoded;
    char message[CIC_MESSAGE_CAPACITY];
};

static void copy_message(char *destination, const char *source) {
    if (destination == NULL) return;
    snprintf(destination, CIC_MESSAGE_CAPACITY, "%s", source ? source : "");
}

static void png_fail(png_structp png, png_const_charp text) {
    char *message = (char *)png_get_error_ptr(png);
    if (message != NULL) copy_message(message, text);
    png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;  // warnings (bad ancillary chunks, CRCs) are not errors for a decoder
}

static void png_read_memory(png_structp png, png_bytep out, png_size_t length) {
    struct cic_png_decoder *decoder = (struct cic_png_decoder *)png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) {
        png_error(png, "the file ends early (truncated PNG data)");
    }
    memcpy(out, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

void cic_png_free(cic_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->png != NULL) png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->rows);
    free(decoder);
}

int cic_png_open(const uint8_t *data, size_t size, uint64_t max_pixels,
                 cic_png_decoder **out, cic_image_info *info, char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        copy_message(message, "not a PNG file (signature missing)");
        return CIC_ERROR_UNSUPPORTED;
    }
    struct cic_png_decoder *decoder = calloc(1, sizeof(*decoder));
    if (decoder == NULL) {
        copy_message(message, "out of memory");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder->message, png_fail, png_warn);
    if (decoder->png == NULL || (decoder->info = png_create_info_struct(decoder->png)) == NULL) {
        cic_png_free(decoder);
        copy_message(message, "out of memory");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        copy_message(message, decoder->message);
        cic_png_free(decoder);
        return CIC_ERROR_CORRUPT;
    }
    png_set_read_fn(decoder->png, decoder, png_read_memory);
    png_read_info(decoder->png, decoder->info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(decoder->png, decoder->info, &width, &height, &bit_depth, &color_type,
                 &interlace, NULL, NULL);
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        snprintf(message, CIC_MESSAGE_CAPACITY,
                 "%ux%u pixels is more than the limit of %llu pixels", (unsigned)width,
                 (unsigned)height, (unsigned long long)max_pixels);
        cic_png_free(decoder);
        return CIC_ERROR_TOO_LARGE;
    }
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(decoder->png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(decoder->png);
    if (png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(decoder->png);
    if (bit_depth == 16) png_set_strip_16(decoder->png);  // keeps the high byte, as Pillow does
    (void)png_set_interlace_handling(decoder->png);
    png_read_update_info(decoder->png, decoder->info);
    int channels = png_get_channels(decoder->png, decoder->info);
    if (channels < 1 || channels > 4 || png_get_rowbytes(decoder->png, decoder->info) != (size_t)width * channels) {
        copy_message(message, "unexpected PNG row layout after conversion to 8-bit samples");
        cic_png_free(decoder);
        return CIC_ERROR_UNSUPPORTED;
    }
    info->width = (int)width;
    info->height = (int)height;
    info->channels = channels;
    info->source_bit_depth = bit_depth;
    info->source_color_type = color_type;
    info->source_width = (int)width;
    info->source_height = (int)height;
    info->exif_orientation = 1;
    info->interlaced = interlace != PNG_INTERLACE_NONE;
    decoder->height = (int)height;
    *out = decoder;
    return CIC_OK;
}

int cic_png_decode(cic_png_decoder *decoder, uint8_t *pixels, size_t stride, char *message) {
    if (decoder == NULL || decoder->decoded) {
        copy_message(message, "a PNG decoder decodes once");
        return CIC_ERROR_USAGE;
    }
    decoder->decoded = 1;
    decoder->rows = malloc(sizeof(png_bytep) * (size_t)(decoder->height > 0 ? decoder->height : 1));
    if (decoder->rows == NULL) {
        copy_message(message, "out of memory");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    for (int y = 0; y < decoder->height; y++) decoder->rows[y] = pixels + (size_t)y * stride;
    if (setjmp(png_jmpbuf(decoder->png))) {
        copy_message(message, decoder->message);
        return CIC_ERROR_CORRUPT;
    }
    png_read_image(decoder->png, decoder->rows);
    return CIC_OK;
}

// MARK: - Encoding

struct png_sink {
    cic_buffer buffer;
    size_t capacity;
    int failed;
};

static void png_write_memory(png_structp png, png_bytep bytes, png_size_t length) {
    struct png_sink *sink = (struct png_sink *)png_get_io_ptr(png);
    if (sink->buffer.count + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < sink->buffer.count + length) capacity *= 2;
        uint8_t *grown = realloc(sink->buffer.bytes, capacity);
        if (grown == NULL) {
            sink->failed = 1;
            png_error(png, "out of memory while encoding PNG");
        }
        sink->buffer.bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->buffer.bytes + sink->buffer.count, bytes, length);
    sink->buffer.count += length;
}

static void png_flush_memory(png_structp png) { (void)png; }

void cic_buffer_free(cic_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = 0;
}

int cic_png_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride,
                   int compression_level, cic_buffer *out, char *message) {
    static const int color_types[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                      PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    out->bytes = NULL;
    out->count = 0;
    if (width <= 0 || height <= 0 || channels < 1 || channels > 4) {
        copy_message(message, "PNG needs a non-empty image with 1 to 4 channels");
        return CIC_ERROR_USAGE;
    }
    char error_text[CIC_MESSAGE_CAPACITY] = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, error_text, png_fail, png_warn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        if (png) png_destroy_write_struct(&png, NULL);
        copy_message(message, "out of memory");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    struct png_sink sink = {{NULL, 0}, 0, 0};
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink.buffer.bytes);
        copy_message(message, error_text);
        return CIC_ERROR_CORRUPT;
    }
    png_set_write_fn(png, &sink, png_write_memory, png_flush_memory);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, color_types[channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = sink.buffer;
    return CIC_OK;
}
