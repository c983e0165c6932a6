#ifndef CCONNECTION_FILE_H
#define CCONNECTION_FILE_H

// The one reading of a Jupyter connection file, shared by benchbook-kernel-launcher (C,
// before the kernel's Swift libraries load) and the kernel (JupyterWire's ConnectionInfo),
// so the two can never read one file two ways.
//
// The file is strict JSON (RFC 8259) in UTF-8: one object, nothing after it. Names are
// compared after their escapes are decoded ("i\u0070" is "ip"), and a name that appears
// twice at the top level refuses the file: jupyter_client keeps the last of two, a reader
// that kept the first would sign, bind or listen otherwise than the client believes.
//
// Fields: shell_port, control_port, stdin_port, iopub_port, hb_port (whole numbers written
// in digits; 1 to 65535 for tcp), ip (default "127.0.0.1"), transport ("tcp", the default,
// or "ipc"), key (default "": no signing; null is refused), signature_scheme (default
// "hmac-sha256"), curve_publickey and curve_secretkey (null or absent: none). Any other
// field may hold any JSON value (nested at most 64 deep); it is read past and ignored.
//
// An error says which field and what was wrong, never the value of key, curve_publickey
// or curve_secretkey.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How many ports a connection file names.
#define BB_CONNECTION_PORT_COUNT 5

/// What a connection file holds. Strings are NUL-terminated and owned by the value
/// (bb_connection_file_free releases them); a string field is never NULL after a
/// successful read except the two curve keys, which are NULL when absent.
typedef struct {
    /// shell_port, control_port, stdin_port, iopub_port, hb_port, in that order.
    long ports[BB_CONNECTION_PORT_COUNT];
    char *transport;
    char *ip;
    char *key;
    char *signature_scheme;
    char *curve_publickey;
    char *curve_secretkey;
    /// Why the file was refused (empty after a successful read): the field and what was wrong.
    char error[384];
} bb_connection_file;

/// The JSON name of port `index` (0 to BB_CONNECTION_PORT_COUNT - 1): "shell_port", ...
const char *bb_connection_port_name(int index);

/// Reads the connection file at `path`. Returns 0, or -1 with `out->error` saying why
/// (then no string field is set). Either way, call bb_connection_file_free afterwards.
/// Opens without blocking: a FIFO or other special file is refused, not waited on.
int bb_connection_file_read(const char *path, bb_connection_file *out);

/// Reads connection-file text of `length` bytes (it need not end in NUL). Returns 0, or
/// -1 with `out->error` set.
int bb_connection_file_parse(const char *text, size_t length, bb_connection_file *out);

/// Releases the strings of a connection file read by one of the functions above.
void bb_connection_file_free(bb_connection_file *file);

#ifdef __cplusplus
}
#endif

#endif
