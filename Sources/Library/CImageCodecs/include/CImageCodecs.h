#ifndef CIMAGE_CODECS_H
#define CIMAGE_CODECS_H

/*
 * A thin C layer over libpng, libjpeg-turbo and zlib for Benchbook's image module.
 *
 * Both image libraries report fatal errors with longjmp. Every function here that
 * calls into them does its own setjmp, so a jump never crosses a Swift frame: the
 * function returns a CIC_* status code and writes a message into `message`.
 * Decoders are opaque handles: open (reads the header), decode into caller memory,
 * free. No libpng or libjpeg header is exposed here.
 */

#include <stddef.h>
#include <stdint.h>

#define CIC_OK 0
#define CIC_ERROR_CORRUPT 1
#define CIC_ERROR_TOO_LARGE 2
#define CIC_ERROR_UNSUPPORTED 3
#define CIC_ERROR_OUT_OF_MEMORY 4
#define CIC_ERROR_USAGE 5

#define CIC_MESSAGE_CAPACITY 256

/// An opaque PNG decoder over an in-memory file.
typedef struct cic_png_decoder cic_png_decoder;
/// An opaque JPEG decoder over an in-memory file.
typedef struct cic_jpeg_decoder cic_jpeg_decoder;

/// What a decoder will produce: 8-bit samples, `channels` per pixel (1 gray, 2 gray+alpha,
/// 3 RGB, 4 RGBA), plus facts about the source.
typedef struct cic_image_info {
    int width;
    int height;
    int channels;
    int source_bit_depth;
    int source_color_type;   /* PNG color type, or JPEG color space */
    int source_width;        /* before JPEG DCT scaling */
    int source_height;
    int exif_orientation;    /* 1...8 from the JPEG APP1 Exif block, 1 when absent */
    int interlaced;
} cic_image_info;

/// Reads the PNG header; on success `*decoder` must be freed with `cic_png_free`.
int cic_png_open(const uint8_t *data, size_t size, uint64_t max_pixels,
                 cic_png_decoder **decoder, cic_image_info *info, char *message);
/// Decodes every row into `pixels` (height rows of `stride` bytes). Call once.
int cic_png_decode(cic_png_decoder *decoder, uint8_t *pixels, size_t stride, char *message);
/// Releases a PNG decoder (NULL is allowed).
void cic_png_free(cic_png_decoder *decoder);

/// Reads the JPEG header and Exif orientation, and sets DCT scaling to
/// `scale_num / 8` (1...8; 8 means full size). `fast` selects the fast integer DCT and
/// plain upsampling (what Pillow's `draft` uses). On success free with `cic_jpeg_free`.
int cic_jpeg_open(const uint8_t *data, size_t size, int scale_num, int fast,
                  uint64_t max_pixels, cic_jpeg_decoder **decoder, cic_image_info *info,
                  char *message);
/// Decodes every scanline into `pixels` (height rows of `stride` bytes). Call once.
int cic_jpeg_decode(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t stride, char *message);
/// Releases a JPEG decoder (NULL is allowed).
void cic_jpeg_free(cic_jpeg_decoder *decoder);

/// A malloc'd byte buffer returned by the encoders and gunzip; free with `cic_buffer_free`.
typedef struct cic_buffer {
    uint8_t *bytes;
    size_t count;
} cic_buffer;

/// Releases a buffer's bytes (safe on an empty buffer).
void cic_buffer_free(cic_buffer *buffer);

/// Encodes 8-bit pixels (1...4 channels, rows of `stride` bytes) as a PNG file.
int cic_png_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride,
                   int compression_level, cic_buffer *out, char *message);

/// Encodes 8-bit gray or RGB pixels as a baseline JPEG file with 4:2:0 chroma subsampling.
int cic_jpeg_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride,
                    int quality, cic_buffer *out, char *message);

/// Inflates gzip (or zlib) data into a new buffer; fails beyond `max_output` bytes.
int cic_gunzip(const uint8_t *data, size_t size, size_t max_output, cic_buffer *out,
               char *message);

#endif
