// JPEG decode (with DCT scaling and Exif orientation) and encode over libjpeg-turbo.
// libjpeg's error_exit is replaced by a longjmp back into the entry point of this
// file that made the call; it never reaches Swift and never calls exit().
#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

struct jump_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[CIC_MESSAGE_CAPACITY];
};

struct cic_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jump_error_manager error;
    int created;
    int decoded;
    int output_channels;
    uint8_t *cmyk_row;
};

static void copy_text(char *destination, const char *source) {
    if (destination != NULL) snprintf(destination, CIC_MESSAGE_CAPACITY, "%s", source);
}

static void jump_on_error(j_common_ptr cinfo) {
    struct jump_error_manager *error = (struct jump_error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    copy_text(error->message, text);
    longjmp(error->jump, 1);
}

static void ignore_message(j_common_ptr cinfo) { (void)cinfo; }

// Warnings about damaged entropy data are tolerated (libjpeg recovers, as Pillow does),
// but running out of data is an error: libjpeg would pad the rest of the image with gray.
static void handle_warning(j_common_ptr cinfo, int level) {
    int rows_pending = 1;
    if (cinfo->is_decompressor) {
        j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
        // A missing EOI after the last scanline is harmless.
        rows_pending = decompress->output_height == 0 || decompress->output_scanline < decompress->output_height;
    }
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF && rows_pending) {
        struct jump_error_manager *error = (struct jump_error_manager *)cinfo->err;
        copy_text(error->message, "the file ends early (truncated JPEG data)");
        longjmp(error->jump, 1);
    }
    if (level < 0) cinfo->err->num_warnings++;
}

static void use_jump_errors(struct jump_error_manager *error) {
    jpeg_std_error(&error->base);
    error->base.error_exit = jump_on_error;
    error->base.output_message = ignore_message;
    error->base.emit_message = handle_warning;
}

// Reads the Orientation tag (0x0112) from IFD0 of an Exif APP1 payload; 1 when absent.
static int exif_orientation(const uint8_t *p, size_t n) {
    if (n < 14 || memcmp(p, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = p + 6;
    size_t size = n - 6;
    int little;
    if (tiff[0] == 'I' && tiff[1] == 'I') little = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M') little = 0;
    else return 1;
#define U16(q) (little ? (uint32_t)((q)[0] | ((q)[1] << 8)) : (uint32_t)(((q)[0] << 8) | (q)[1]))
#define U32(q) (little ? ((uint32_t)(q)[0] | ((uint32_t)(q)[1] << 8) | ((uint32_t)(q)[2] << 16) | ((uint32_t)(q)[3] << 24)) \
                       : (((uint32_t)(q)[0] << 24) | ((uint32_t)(q)[1] << 16) | ((uint32_t)(q)[2] << 8) | (uint32_t)(q)[3]))
    if (U16(tiff + 2) != 42) return 1;
    uint32_t ifd = U32(tiff + 4);
    if (ifd > size || size - ifd < 2) return 1;
    uint32_t count = U16(tiff + ifd);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > size) return 1;
        if (U16(tiff + entry) == 0x0112) {
            uint32_t type = U16(tiff + entry + 2);
            uint32_t value = type == 3 ? U16(tiff + entry + 8) : (type == 4 ? U32(tiff + entry + 8) : 1);
            return (value >= 1 && value <= 8) ? (int)value : 1;
        }
    }
#undef U16
#undef U32
    return 1;
}

void cic_jpeg_free(cic_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->cmyk_row);
    free(decoder);
}

int cic_jpeg_open(const uint8_t *data, size_t size, int scale_num, int fast,
                  uint64_t max_pixels, cic_jpeg_decoder **out, cic_image_info *info,
                  char *message) {
    *out = NULL;
    memset(info, 0, sizeof(*info));
    if (size < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) {
        copy_text(message, "not a JPEG file (SOI marker missing)");
        return CIC_ERROR_UNSUPPORTED;
    }
    if (scale_num < 1 || scale_num > 8) {
        copy_text(message, "the DCT scale must be 1/8 ... 8/8");
        return CIC_ERROR_USAGE;
    }
    struct cic_jpeg_decoder *decoder = calloc(1, sizeof(*decoder));
    if (decoder == NULL) {
        copy_text(message, "out of memory");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    decoder->cinfo.err = &decoder->error.base;
    use_jump_errors(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        copy_text(message, decoder->error.message);
        cic_jpeg_free(decoder);
        return CIC_ERROR_CORRUPT;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&decoder->cinfo, TRUE);
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if ((uint64_t)cinfo->image_width * (uint64_t)cinfo->image_height > max_pixels) {
        snprintf(message, CIC_MESSAGE_CAPACITY,
                 "%ux%u pixels is more than the limit of %llu pixels", cinfo->image_width,
                 cinfo->image_height, (unsigned long long)max_pixels);
        cic_jpeg_free(decoder);
        return CIC_ERROR_TOO_LARGE;
    }
    int orientation = 1;
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1) {
            orientation = exif_orientation(marker->data, marker->data_length);
            if (orientation != 1) break;
        }
    }
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo->out_color_space = JCS_GRAYSCALE;
        decoder->output_channels = 1;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        decoder->output_channels = 3;
        break;
    default:
        cinfo->out_color_space = JCS_RGB;
        decoder->output_channels = 3;
        break;
    }
    cinfo->scale_num = (unsigned)scale_num;
    cinfo->scale_denom = 8;
    if (fast) {
        cinfo->dct_method = JDCT_IFAST;
        cinfo->do_fancy_upsampling = FALSE;
    }
    jpeg_calc_output_dimensions(cinfo);
    info->width = (int)cinfo->output_width;
    info->height = (int)cinfo->output_height;
    info->channels = decoder->output_channels;
    info->source_bit_depth = cinfo->data_precision;
    info->source_color_type = (int)cinfo->jpeg_color_space;
    info->source_width = (int)cinfo->image_width;
    info->source_height = (int)cinfo->image_height;
    info->exif_orientation = orientation;
    info->interlaced = cinfo->progressive_mode ? 1 : 0;
    *out = decoder;
    return CIC_OK;
}

int cic_jpeg_decode(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t stride, char *message) {
    if (decoder == NULL || decoder->decoded) {
        copy_text(message, "a JPEG decoder decodes once");
        return CIC_ERROR_USAGE;
    }
    decoder->decoded = 1;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->error.jump)) {
        copy_text(message, decoder->error.message);
        return CIC_ERROR_CORRUPT;
    }
    jpeg_start_decompress(cinfo);
    int cmyk = cinfo->out_color_space == JCS_CMYK;
    if (cmyk) {
        decoder->cmyk_row = malloc((size_t)cinfo->output_width * 4);
        if (decoder->cmyk_row == NULL) {
            copy_text(message, "out of memory");
            return CIC_ERROR_OUT_OF_MEMORY;
        }
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        uint8_t *row = pixels + (size_t)cinfo->output_scanline * stride;
        JSAMPROW target = cmyk ? decoder->cmyk_row : row;
        if (jpeg_read_scanlines(cinfo, &target, 1) != 1) {
            copy_text(message, "the JPEG data ended before the last scanline");
            return CIC_ERROR_CORRUPT;
        }
        if (cmyk) {
            // Adobe writes inverted CMYK: each stored value is already 255 - ink.
            const uint8_t *source = decoder->cmyk_row;
            for (JDIMENSION x = 0; x < cinfo->output_width; x++) {
                unsigned k = source[4 * x + 3];
                for (int c = 0; c < 3; c++) row[3 * x + c] = (uint8_t)((source[4 * x + c] * k + 127) / 255);
            }
        }
    }
    jpeg_finish_decompress(cinfo);
    return CIC_OK;
}

int cic_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride,
                    int quality, cic_buffer *out, char *message) {
    out->bytes = NULL;
    out->count = 0;
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3)) {
        copy_text(message, "JPEG needs a non-empty gray or RGB image");
        return CIC_ERROR_USAGE;
    }
    struct jpeg_compress_struct cinfo;
    struct jump_error_manager error;
    unsigned char *bytes = NULL;
    unsigned long count = 0;
    cinfo.err = &error.base;
    use_jump_errors(&error);
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(bytes);
        copy_text(message, error.message);
        return CIC_ERROR_CORRUPT;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &bytes, &count);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    out->bytes = bytes;
    out->count = count;
    return CIC_OK;
}
