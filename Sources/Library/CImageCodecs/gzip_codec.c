// gzip / zlib inflation over zlib, for the Fashion-MNIST IDX files.
#include "CImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int cic_gunzip(const uint8_t *data, size_t size, size_t max_output, cic_buffer *out,
               char *message) {
    out->bytes = NULL;
    out->count = 0;
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (inflateInit2(&stream, 15 + 32) != Z_OK) {  // 32: detect gzip or zlib headers
        snprintf(message, CIC_MESSAGE_CAPACITY, "zlib could not start");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    size_t capacity = size * 4 + 1024;
    if (size >= 4) {  // the gzip trailer holds the input size modulo 2^32
        size_t hinted = (size_t)data[size - 4] | ((size_t)data[size - 3] << 8) |
                        ((size_t)data[size - 2] << 16) | ((size_t)data[size - 1] << 24);
        if (hinted > 0 && hinted <= max_output) capacity = hinted + 1;
    }
    if (capacity > max_output + 1) capacity = max_output + 1;
    uint8_t *bytes = malloc(capacity);
    if (bytes == NULL) {
        inflateEnd(&stream);
        snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory");
        return CIC_ERROR_OUT_OF_MEMORY;
    }
    stream.next_in = (Bytef *)data;
    size_t remaining_in = size;
    int status = Z_OK;
    size_t count = 0;
    while (status != Z_STREAM_END) {
        if (count == capacity) {
            if (capacity > max_output) {
                free(bytes);
                inflateEnd(&stream);
                snprintf(message, CIC_MESSAGE_CAPACITY, "inflated data exceeds %zu bytes", max_output);
                return CIC_ERROR_TOO_LARGE;
            }
            size_t grown_capacity = capacity * 2 > max_output + 1 ? max_output + 1 : capacity * 2;
            uint8_t *grown = realloc(bytes, grown_capacity);
            if (grown == NULL) {
                free(bytes);
                inflateEnd(&stream);
                snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory");
                return CIC_ERROR_OUT_OF_MEMORY;
            }
            bytes = grown;
            capacity = grown_capacity;
        }
        uInt chunk_in = remaining_in > 0x40000000u ? 0x40000000u : (uInt)remaining_in;
        size_t room = capacity - count;
        uInt chunk_out = room > 0x40000000u ? 0x40000000u : (uInt)room;
        stream.avail_in = chunk_in;
        stream.next_out = bytes + count;
        stream.avail_out = chunk_out;
        status = inflate(&stream, Z_NO_FLUSH);
        remaining_in -= chunk_in - stream.avail_in;
        count += chunk_out - stream.avail_out;
        if (status == Z_STREAM_END) break;
        if (status != Z_OK && !(status == Z_BUF_ERROR && count == capacity)) {
            const char *reason = status == Z_BUF_ERROR ? "the compressed data ends early (truncated)"
                                                       : (stream.msg ? stream.msg : "corrupt compressed data");
            snprintf(message, CIC_MESSAGE_CAPACITY, "%s", reason);
            free(bytes);
            inflateEnd(&stream);
            return CIC_ERROR_CORRUPT;
        }
        if (remaining_in == 0 && stream.avail_out > 0 && status == Z_OK) {
            // zlib wants more input but there is none.
            snprintf(message, CIC_MESSAGE_CAPACITY, "the compressed data ends early (truncated)");
            free(bytes);
            inflateEnd(&stream);
            return CIC_ERROR_CORRUPT;
        }
    }
    inflateEnd(&stream);
    out->bytes = bytes;
    out->count = count;
    return CIC_OK;
}
