#define _GNU_SOURCE
#include "CConnectionFile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// A strict JSON reader for one object, with the connection file's rules on top (see the
// header). Every byte is looked at a bounded number of times; nesting is at most
// max_depth deep; names are checked for repeats with a hash set, so a file of many short
// names costs linear time.

enum { max_depth = 64, max_file_bytes = 1 << 20, shown_bytes = 40 };

static const char *const port_names[BB_CONNECTION_PORT_COUNT] = {
    "shell_port", "control_port", "stdin_port", "iopub_port", "hb_port",
};

const char *bb_connection_port_name(int index) {
    return index >= 0 && index < BB_CONNECTION_PORT_COUNT ? port_names[index] : "";
}

// ---- Errors --------------------------------------------------------------------------

struct reader {
    const unsigned char *start;
    const unsigned char *p;
    const unsigned char *end;
    bb_connection_file *out;
    /// A value nested past the limit was met (the error then names its field).
    bool too_deep;
};

static int refuse(bb_connection_file *out, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(out->error, sizeof out->error, format, arguments);
    va_end(arguments);
    return -1;
}

/// "not valid JSON at line L, column C (byte B): <what>".
static int invalid(struct reader *r, const char *what) {
    size_t line = 1, column = 1;
    for (const unsigned char *q = r->start; q < r->p && q < r->end; ++q) {
        if (*q == '\n') {
            ++line;
            column = 1;
        } else if ((*q & 0xC0) != 0x80) {
            ++column;
        }
    }
    return refuse(r->out, "not valid JSON at line %zu, column %zu (byte %zu): %s", line, column,
                  (size_t)(r->p - r->start), what);
}

/// Writes at most shown_bytes of `bytes` into `text` (capacity > 4 * shown_bytes + 4), with
/// bytes that are not printable ASCII as \xNN, and "..." when cut.
static void shown(const unsigned char *bytes, size_t length, char *text, size_t capacity) {
    size_t used = 0;
    for (size_t i = 0; i < length && i < shown_bytes && used + 5 < capacity; ++i) {
        unsigned char byte = bytes[i];
        if (byte >= 0x20 && byte < 0x7F && byte != '\'') {
            text[used++] = (char)byte;
        } else {
            used += (size_t)snprintf(text + used, capacity - used, "\\x%02X", byte);
        }
    }
    if (length > shown_bytes && used + 4 < capacity) {
        memcpy(text + used, "...", 3);
        used += 3;
    }
    text[used] = '\0';
}

// ---- Names seen at the top level (a hash set of byte strings) -------------------------

struct name_set {
    struct slot { const unsigned char *bytes; size_t length; uint64_t hash; } *slots;
    size_t capacity;
    size_t count;
};

static uint64_t hash_bytes(const unsigned char *bytes, size_t length) {
    uint64_t hash = 1469598103934665603ull;
    for (size_t i = 0; i < length; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
    return hash;
}

/// Adds a name; 1 when it was new, 0 when it was there already, -1 when out of memory.
/// The set keeps the pointer: the bytes must outlive it.
static int name_set_add(struct name_set *set, const unsigned char *bytes, size_t length) {
    if ((set->count + 1) * 2 > set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 64;
        struct slot *slots = calloc(capacity, sizeof *slots);
        if (slots == NULL) return -1;
        for (size_t i = 0; i < set->capacity; ++i) {
            if (set->slots[i].bytes == NULL) continue;
            size_t j = set->slots[i].hash & (capacity - 1);
            while (slots[j].bytes != NULL) j = (j + 1) & (capacity - 1);
            slots[j] = set->slots[i];
        }
        free(set->slots);
        set->slots = slots;
        set->capacity = capacity;
    }
    uint64_t hash = hash_bytes(bytes, length);
    size_t j = hash & (set->capacity - 1);
    while (set->slots[j].bytes != NULL) {
        struct slot *slot = &set->slots[j];
        if (slot->hash == hash && slot->length == length && memcmp(slot->bytes, bytes, length) == 0) return 0;
        j = (j + 1) & (set->capacity - 1);
    }
    // A zero-length name still needs a non-NULL marker.
    set->slots[j] = (struct slot){bytes ? bytes : (const unsigned char *)"", length, hash};
    ++set->count;
    return 1;
}

// ---- JSON ----------------------------------------------------------------------------

static void skip_space(struct reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) ++r->p;
}

static int hex_digit(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Reads four hex digits at r->p; -1 when they are not.
static long read_hex4(struct reader *r) {
    if (r->end - r->p < 4) return -1;
    long value = 0;
    for (int i = 0; i < 4; ++i) {
        int digit = hex_digit(r->p[i]);
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    r->p += 4;
    return value;
}

/// The length of the UTF-8 sequence at `p` (1 to 4), or 0 when it is not valid UTF-8
/// (overlong forms, surrogates and values past U+10FFFF are not).
static size_t utf8_length(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t length;
    uint32_t minimum, value;
    if ((c & 0xE0) == 0xC0) { length = 2; minimum = 0x80; value = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { length = 3; minimum = 0x800; value = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { length = 4; minimum = 0x10000; value = c & 0x07; }
    else return 0;
    if ((size_t)(end - p) < length) return 0;
    for (size_t i = 1; i < length; ++i) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        value = (value << 6) | (p[i] & 0x3F);
    }
    if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    return length;
}

static size_t put_utf8(unsigned char *out, uint32_t value) {
    if (value < 0x80) { out[0] = (unsigned char)value; return 1; }
    if (value < 0x800) {
        out[0] = (unsigned char)(0xC0 | (value >> 6));
        out[1] = (unsigned char)(0x80 | (value & 0x3F));
        return 2;
    }
    if (value < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (value >> 12));
        out[1] = (unsigned char)(0x80 | ((value >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (value & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (value >> 18));
    out[1] = (unsigned char)(0x80 | ((value >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((value >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (value & 0x3F));
    return 4;
}

/// Reads a string at r->p (its opening quote). With `decoded`, stores a malloc'd copy with
/// the escapes decoded (NUL-terminated; `*length` bytes, which may include NULs); without,
/// only checks it. Returns 0, or -1 with the error set.
static int read_string(struct reader *r, unsigned char **decoded, size_t *length) {
    if (r->p >= r->end || *r->p != '"') return invalid(r, "expected a string");
    ++r->p;
    const unsigned char *begin = r->p;
    unsigned char *out = NULL;
    size_t used = 0;
    if (decoded) {
        // The decoded text is never longer than the written text; find its end first.
        const unsigned char *q = begin;
        while (q < r->end && *q != '"') q += (*q == '\\' && q + 1 < r->end) ? 2 : 1;
        out = malloc((size_t)(q - begin) + 1);
        if (out == NULL) return refuse(r->out, "the reader ran out of memory");
    }
    for (;;) {
        if (r->p >= r->end) {
            free(out);
            return invalid(r, "a string that does not end");
        }
        unsigned char c = *r->p;
        if (c == '"') break;
        if (c < 0x20) {
            free(out);
            return invalid(r, "a control character inside a string (write it as an escape)");
        }
        if (c != '\\') {
            size_t size = utf8_length(r->p, r->end);
            if (size == 0) {
                free(out);
                return invalid(r, "bytes that are not UTF-8");
            }
            if (out) memcpy(out + used, r->p, size);
            used += size;
            r->p += size;
            continue;
        }
        ++r->p;
        if (r->p >= r->end) {
            free(out);
            return invalid(r, "a string that does not end");
        }
        unsigned char escape = *r->p++;
        unsigned char simple = 0;
        switch (escape) {
        case '"': simple = '"'; break;
        case '\\': simple = '\\'; break;
        case '/': simple = '/'; break;
        case 'b': simple = '\b'; break;
        case 'f': simple = '\f'; break;
        case 'n': simple = '\n'; break;
        case 'r': simple = '\r'; break;
        case 't': simple = '\t'; break;
        case 'u': {
            long value = read_hex4(r);
            if (value < 0) {
                free(out);
                return invalid(r, "a \\u escape without four hex digits");
            }
            if (value >= 0xDC00 && value <= 0xDFFF) {
                free(out);
                return invalid(r, "a lone UTF-16 surrogate in a \\u escape");
            }
            if (value >= 0xD800 && value <= 0xDBFF) {
                if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u') {
                    free(out);
                    return invalid(r, "a lone UTF-16 surrogate in a \\u escape");
                }
                r->p += 2;
                long low = read_hex4(r);
                if (low < 0xDC00 || low > 0xDFFF) {
                    free(out);
                    return invalid(r, "a lone UTF-16 surrogate in a \\u escape");
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
            }
            if (out) used += put_utf8(out + used, (uint32_t)value);
            else used += 1;
            continue;
        }
        default:
            --r->p;
            free(out);
            return invalid(r, "an unknown escape in a string");
        }
        if (out) out[used] = simple;
        ++used;
    }
    ++r->p;  // The closing quote.
    if (decoded) {
        out[used] = '\0';
        *decoded = out;
        *length = used;
    }
    return 0;
}

/// Checks a number at r->p against JSON's grammar. Sets `*whole` when it has no fraction
/// or exponent. Returns 0, or -1 with the error set.
static int read_number(struct reader *r, bool *whole) {
    *whole = true;
    if (r->p < r->end && *r->p == '-') ++r->p;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') return invalid(r, "expected a value");
    if (*r->p == '0') {
        ++r->p;
        if (r->p < r->end && *r->p >= '0' && *r->p <= '9') return invalid(r, "a number with a leading zero");
    } else {
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') ++r->p;
    }
    if (r->p < r->end && *r->p == '.') {
        *whole = false;
        ++r->p;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return invalid(r, "no digits after a decimal point");
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') ++r->p;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        *whole = false;
        ++r->p;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-')) ++r->p;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return invalid(r, "no digits in an exponent");
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') ++r->p;
    }
    return 0;
}

static bool read_word(struct reader *r, const char *word) {
    size_t length = strlen(word);
    if ((size_t)(r->end - r->p) < length || memcmp(r->p, word, length) != 0) return false;
    r->p += length;
    return true;
}

/// Reads past one value of any kind, nested at most `depth` deep. Returns 0 or -1.
static int skip_value(struct reader *r, int depth, const char *field) {
    skip_space(r);
    if (r->p >= r->end) return invalid(r, "the text ends where a value should be");
    unsigned char c = *r->p;
    if (c == '"') return read_string(r, NULL, NULL);
    if (c == 't') return read_word(r, "true") ? 0 : invalid(r, "expected a value");
    if (c == 'f') return read_word(r, "false") ? 0 : invalid(r, "expected a value");
    if (c == 'n') return read_word(r, "null") ? 0 : invalid(r, "expected a value");
    if (c == '[' || c == '{') {
        if (depth <= 0) {
            r->too_deep = true;
            char name[4 * shown_bytes + 8];
            shown((const unsigned char *)field, strlen(field), name, sizeof name);
            return refuse(r->out, "'%s' is nested more than %d levels deep", name, max_depth);
        }
        unsigned char close = c == '[' ? ']' : '}';
        ++r->p;
        skip_space(r);
        if (r->p < r->end && *r->p == close) {
            ++r->p;
            return 0;
        }
        for (;;) {
            skip_space(r);
            if (close == '}') {
                if (read_string(r, NULL, NULL) != 0) return -1;
                skip_space(r);
                if (r->p >= r->end || *r->p != ':') return invalid(r, "expected ':' after a name");
                ++r->p;
            }
            if (skip_value(r, depth - 1, field) != 0) return -1;
            skip_space(r);
            if (r->p < r->end && *r->p == close) {
                ++r->p;
                return 0;
            }
            if (r->p >= r->end || *r->p != ',') {
                return invalid(r, close == ']' ? "expected ',' or ']' in an array" : "expected ',' or '}' in an object");
            }
            ++r->p;
            skip_space(r);
            if (r->p < r->end && *r->p == close) return invalid(r, close == ']' ? "a ',' before ']'" : "a ',' before '}'");
        }
    }
    bool whole;
    return read_number(r, &whole);
}

/// The kind of the value that starts at r->p, as an error names it; NULL when no JSON
/// value starts with that byte.
static const char *kind_at(const struct reader *r) {
    if (r->p >= r->end) return NULL;
    switch (*r->p) {
    case '"': return "a string";
    case '{': return "an object";
    case '[': return "an array";
    case 't': case 'f': return "a boolean";
    case 'n': return "null";
    default: return *r->p == '-' || (*r->p >= '0' && *r->p <= '9') ? "a number" : NULL;
    }
}

/// Refuses a field whose value is of the wrong kind (after checking that it is JSON).
static int wrong_kind(struct reader *r, const char *field, const char *wanted) {
    const char *kind = kind_at(r);
    if (kind == NULL) return invalid(r, "expected a value");
    if (skip_value(r, max_depth, field) != 0) return -1;
    return refuse(r->out, "'%s' is %s, not %s", field, kind, wanted);
}

// ---- The connection file's fields ----------------------------------------------------

enum { field_transport, field_ip, field_key, field_scheme, field_curve_public, field_curve_secret, string_field_count };
static const char *const string_names[string_field_count] = {
    "transport", "ip", "key", "signature_scheme", "curve_publickey", "curve_secretkey",
};

/// What the reader found for each port: its text, and its value when it is whole digits.
struct port_reading {
    bool present;
    bool whole;
    bool overflow;
    long value;
    const unsigned char *text;
    size_t text_length;
};

static char **string_slot(bb_connection_file *out, int field) {
    switch (field) {
    case field_transport: return &out->transport;
    case field_ip: return &out->ip;
    case field_key: return &out->key;
    case field_scheme: return &out->signature_scheme;
    case field_curve_public: return &out->curve_publickey;
    default: return &out->curve_secretkey;
    }
}

static int read_port_value(struct reader *r, int index, struct port_reading *port) {
    if (r->p >= r->end) return invalid(r, "the text ends where a value should be");
    if (!(*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))) {
        return wrong_kind(r, port_names[index], "a number");
    }
    const unsigned char *begin = r->p;
    bool whole;
    if (read_number(r, &whole) != 0) return -1;
    *port = (struct port_reading){.present = true, .whole = whole, .text = begin, .text_length = (size_t)(r->p - begin)};
    if (!whole) return 0;
    const unsigned char *digits = begin + (*begin == '-');
    long value = 0;
    for (const unsigned char *q = digits; q < r->p; ++q) {
        if (value > (LONG_MAX - 9) / 10) {
            port->overflow = true;
            break;
        }
        value = value * 10 + (*q - '0');
    }
    port->value = *begin == '-' ? -value : value;
    return 0;
}

static int read_string_value(struct reader *r, int field) {
    char **slot = string_slot(r->out, field);
    if (r->p >= r->end) return invalid(r, "the text ends where a value should be");
    if (*r->p == 'n' && (field == field_curve_public || field == field_curve_secret)) {
        if (!read_word(r, "null")) return invalid(r, "expected a value");
        return 0;  // null: no key pair.
    }
    if (*r->p != '"') {
        if (field == field_key && *r->p == 'n') {
            return refuse(r->out, "'key' is null; write \"\" for a kernel that does not sign its messages, or a key");
        }
        return wrong_kind(r, string_names[field], "a string");
    }
    unsigned char *text;
    size_t length;
    if (read_string(r, &text, &length) != 0) return -1;
    if (memchr(text, '\0', length) != NULL) {
        free(text);
        return refuse(r->out, "'%s' contains a NUL character (\\u0000)", string_names[field]);
    }
    *slot = (char *)text;
    return 0;
}

/// The members of the top-level object, then the rules that span fields.
static int read_object(struct reader *r, struct port_reading ports[BB_CONNECTION_PORT_COUNT]) {
    skip_space(r);
    if (r->p >= r->end || *r->p != '{') {
        const char *kind = kind_at(r);
        if (kind == NULL) return invalid(r, "expected '{'");
        if (skip_value(r, max_depth, "the file") != 0) return -1;
        return refuse(r->out, "it holds %s, not a JSON object", kind);
    }
    ++r->p;
    struct name_set names = {0};
    // The decoded names, kept while the set points at them.
    unsigned char **kept = NULL;
    size_t kept_count = 0, kept_capacity = 0;
    int status = 0;
    skip_space(r);
    if (r->p < r->end && *r->p == '}') {
        ++r->p;
    } else {
        for (;;) {
            skip_space(r);
            unsigned char *name;
            size_t length;
            if (read_string(r, &name, &length) != 0) { status = -1; break; }
            if (kept_count == kept_capacity) {
                size_t capacity = kept_capacity ? kept_capacity * 2 : 16;
                unsigned char **grown = realloc(kept, capacity * sizeof *grown);
                if (grown == NULL) {
                    free(name);
                    status = refuse(r->out, "the reader ran out of memory");
                    break;
                }
                kept = grown;
                kept_capacity = capacity;
            }
            kept[kept_count++] = name;
            int added = name_set_add(&names, name, length);
            if (added < 0) { status = refuse(r->out, "the reader ran out of memory"); break; }
            if (added == 0) {
                char text[4 * shown_bytes + 8];
                shown(name, length, text, sizeof text);
                status = refuse(r->out, "'%s' appears more than once (a Jupyter client reads the last one, so the kernel "
                                        "will not guess); write each field once", text);
                break;
            }
            skip_space(r);
            if (r->p >= r->end || *r->p != ':') { status = invalid(r, "expected ':' after a name"); break; }
            ++r->p;
            skip_space(r);
            int known = -1;
            for (int i = 0; i < BB_CONNECTION_PORT_COUNT && known < 0; ++i) {
                if (length == strlen(port_names[i]) && memcmp(name, port_names[i], length) == 0) known = i;
            }
            if (known >= 0) {
                if (read_port_value(r, known, &ports[known]) != 0) { status = -1; break; }
            } else {
                int field = -1;
                for (int i = 0; i < string_field_count && field < 0; ++i) {
                    if (length == strlen(string_names[i]) && memcmp(name, string_names[i], length) == 0) field = i;
                }
                if (field >= 0) {
                    if (read_string_value(r, field) != 0) { status = -1; break; }
                } else if (skip_value(r, max_depth, (const char *)name) != 0) {
                    status = -1;
                    break;
                }
            }
            skip_space(r);
            if (r->p < r->end && *r->p == '}') {
                ++r->p;
                break;
            }
            if (r->p >= r->end || *r->p != ',') { status = invalid(r, "expected ',' or '}' in an object"); break; }
            ++r->p;
            skip_space(r);
            if (r->p < r->end && *r->p == '}') { status = invalid(r, "a ',' before '}'"); break; }
        }
    }
    for (size_t i = 0; i < kept_count; ++i) free(kept[i]);
    free(kept);
    free(names.slots);
    if (status != 0) return status;
    skip_space(r);
    if (r->p < r->end) return invalid(r, "text after the object");
    return 0;
}

/// Checks that the text is one JSON value and nothing after it. Returns 0, or -1 with the
/// error set; nesting deeper than the limit ends the check early with 0.
static int check_syntax(struct reader *r) {
    bb_connection_file *out = r->out;
    if (skip_value(r, max_depth + 1, "") != 0) {
        // A depth refusal is not a syntax error: forget it.
        if (r->too_deep) {
            out->error[0] = '\0';
            r->too_deep = false;
            return 0;
        }
        return -1;
    }
    skip_space(r);
    if (r->p < r->end) return invalid(r, "text after the value");
    return 0;
}

static char *copy_text(const char *text) {
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (copy) memcpy(copy, text, length + 1);
    return copy;
}

/// Applies defaults and the rules that span fields.
static int check_fields(bb_connection_file *out, const struct port_reading ports[BB_CONNECTION_PORT_COUNT]) {
    const char *defaults[string_field_count] = {"tcp", "127.0.0.1", "", "hmac-sha256", NULL, NULL};
    for (int field = 0; field < string_field_count; ++field) {
        char **slot = string_slot(out, field);
        if (*slot == NULL && defaults[field] != NULL && (*slot = copy_text(defaults[field])) == NULL) {
            return refuse(out, "the reader ran out of memory");
        }
    }
    bool tcp = strcmp(out->transport, "tcp") == 0;
    if (!tcp && strcmp(out->transport, "ipc") != 0) {
        char text[4 * shown_bytes + 8];
        shown((const unsigned char *)out->transport, strlen(out->transport), text, sizeof text);
        return refuse(out, "'transport' is \"%s\"; the kernel speaks \"tcp\" or \"ipc\"", text);
    }
    if (out->ip[0] == '\0') return refuse(out, "'ip' is empty; write an address such as \"127.0.0.1\"");
    for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) {
        const struct port_reading *port = &ports[i];
        if (!port->present) return refuse(out, "'%s' is missing", port_names[i]);
        char text[4 * shown_bytes + 8];
        shown(port->text, port->text_length, text, sizeof text);
        if (!port->whole) {
            return refuse(out, "'%s' is %s, not a whole number (a port is written in digits alone)", port_names[i], text);
        }
        long lowest = tcp ? 1 : 0, highest = tcp ? 65535 : INT_MAX;
        if (port->overflow || port->value < lowest || port->value > highest) {
            if (tcp) {
                return refuse(out, "'%s' is %s, not a port number from 1 to 65535%s", port_names[i], text,
                              port->value == 0 && !port->overflow ? " (with 0, ZeroMQ would pick a port the client cannot know)" : "");
            }
            return refuse(out, "'%s' is %s, not a whole number from 0 to %d (it names the ipc socket)", port_names[i], text,
                          INT_MAX);
        }
        out->ports[i] = port->value;
    }
    return 0;
}

int bb_connection_file_parse(const char *text, size_t length, bb_connection_file *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) out->ports[i] = -1;
    struct reader r = {(const unsigned char *)text, (const unsigned char *)text, (const unsigned char *)text + length, out, false};
    struct port_reading ports[BB_CONNECTION_PORT_COUNT];
    memset(ports, 0, sizeof ports);
    if (length == 0) return refuse(out, "it is empty (0 bytes); a Jupyter client writes the connection file before it starts the kernel");
    // The syntax first, so that a broken file is called broken before any of its fields is
    // judged; nesting past the limit is left to the second pass, which names the field.
    int status = check_syntax(&r);
    r.p = r.start;
    if (status == 0) status = read_object(&r, ports);
    if (status == 0) status = check_fields(out, ports);
    if (status != 0) {
        char error[sizeof out->error];
        memcpy(error, out->error, sizeof error);
        bb_connection_file_free(out);
        memcpy(out->error, error, sizeof error);
        for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) out->ports[i] = -1;
        return -1;
    }
    out->error[0] = '\0';
    return 0;
}

int bb_connection_file_read(const char *path, bb_connection_file *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) out->ports[i] = -1;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return refuse(out, "it cannot be opened: %s", strerror(errno));
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int code = errno;
        close(fd);
        return refuse(out, "it cannot be read: %s", strerror(code));
    }
    if (!S_ISREG(info.st_mode) && !S_ISCHR(info.st_mode)) {
        close(fd);
        const char *kind = S_ISDIR(info.st_mode) ? "a directory" : S_ISFIFO(info.st_mode) ? "a FIFO"
            : S_ISSOCK(info.st_mode) ? "a socket" : "a block device";
        return refuse(out, "it is %s, not a file", kind);
    }
    char *text = malloc(max_file_bytes + 1);
    if (text == NULL) {
        close(fd);
        return refuse(out, "the reader ran out of memory");
    }
    size_t length = 0;
    while (length <= max_file_bytes) {
        ssize_t got = read(fd, text + length, max_file_bytes + 1 - length);
        if (got > 0) {
            length += (size_t)got;
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && errno != EAGAIN) {
            int code = errno;
            close(fd);
            free(text);
            return refuse(out, "it cannot be read: %s", strerror(code));
        }
        break;  // End of file (or nothing more to read now from a device).
    }
    close(fd);
    if (length > max_file_bytes) {
        free(text);
        return refuse(out, "it is larger than %d KiB; a connection file is a small JSON object", max_file_bytes / 1024);
    }
    const char *nul = memchr(text, '\0', length);
    int status;
    if (nul != NULL) {
        status = refuse(out, "it contains a NUL byte at byte %zu; a connection file is JSON text", (size_t)(nul - text));
    } else {
        status = bb_connection_file_parse(text, length, out);
    }
    free(text);
    return status;
}

void bb_connection_file_free(bb_connection_file *file) {
    free(file->transport);
    free(file->ip);
    free(file->key);
    free(file->signature_scheme);
    free(file->curve_publickey);
    free(file->curve_secretkey);
    file->transport = file->ip = file->key = file->signature_scheme = NULL;
    file->curve_publickey = file->curve_secretkey = NULL;
}
