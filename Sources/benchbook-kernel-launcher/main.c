// benchbook-kernel-launcher: what the kernelspec starts; binds the kernel's ports at once,
// then becomes benchbook-kernel (exec: same process, same pid, same signals).
//
//   benchbook-kernel-launcher -f <connection_file>
//   benchbook-kernel-launcher --check <connection_file>...
//
// The second form reads each file as the first would and prints one line for each, what
// it read (`<transport>\t<ip>\t<shell> <control> <stdin> <iopub> <hb>`) or `refused`, and
// starts nothing: the tests compare it with the kernel's own reader.
//
// Why: a Jupyter client connects to the five ports as soon as it has started the kernel.
// A connection tried before the port is bound is refused, and ZeroMQ retries it only
// after its reconnect interval (100 ms by default) - longer than the kernel takes to
// start (its Swift libraries take about 8 ms to load before any code runs, and it binds
// about 12 ms after it is started). This program is C: it reads the connection file and
// listens on each TCP port about 3 ms after it is started, then hands the listening sockets
// to the kernel, which adopts them (ZMQ_USE_FD) instead of binding again.
//
// The sockets are passed as inherited descriptors named in BENCHBOOK_LISTENING_SOCKETS
// ("<port>:<fd>,..."). Anything this program does not understand (another transport, an
// address that is not IPv4, a malformed file, a port already taken) makes it start the
// kernel without sockets: the kernel then binds them itself and reports any problem.

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { port_count = 5, file_capacity = 64 * 1024, text_capacity = 256 };

static const char *const port_keys[port_count] = {"shell_port", "control_port", "stdin_port", "iopub_port", "hb_port"};
/// Fields the kernel reads as strings: a value of another kind (a null key) makes the
/// kernel refuse the file, so this program must not bind for it.
static const char *const string_keys[] = {"key", "signature_scheme", "curve_publickey", "curve_secretkey"};

/// The fields of a connection file this program needs.
struct connection {
    long ports[port_count];
    char ip[text_capacity];
    char transport[text_capacity];
};

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
    return p;
}

// The reader below is stricter than JSON, never looser: whatever it accepts, the kernel's
// own reader (Foundation's JSONDecoder, ConnectionInfo) reads as the same fields. What it
// does not accept (escapes, non-ASCII bytes, a number with a sign, fraction or exponent, a
// repeated field, anything after the object) it leaves to the kernel, which binds the
// ports itself and reports any problem. JupyterWireTests' ConnectionFileReadersTests
// checks the two readers against each other on thousands of damaged files.

/// Reads a JSON string without escapes at `p` into `out` (at most `capacity` - 1 bytes).
/// Returns the position after it, or NULL for an escape, a control or non-ASCII byte, or
/// a string too long.
static const char *read_string(const char *p, char *out, size_t capacity) {
    if (*p != '"') return NULL;
    size_t length = 0;
    for (++p; *p != '"'; ++p) {
        unsigned char byte = (unsigned char)*p;
        if (byte < 0x20 || byte >= 0x80 || byte == '\\' || length + 1 >= capacity) return NULL;
        out[length++] = (char)byte;
    }
    out[length] = '\0';
    return p + 1;
}

/// Reads a port: JSON's integer form (no sign, no leading zero, no fraction or exponent)
/// from 1 to 65535. Returns the position after it, or NULL.
static const char *read_port(const char *p, long *port) {
    if (*p < '1' || *p > '9') return NULL;
    long value = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
        value = value * 10 + (*p - '0');
        if (value > 65535) return NULL;
    }
    if (*p == '.' || *p == 'e' || *p == 'E') return NULL;
    *port = value;
    return p;
}

/// Skips a JSON number. Returns the position after it, or NULL.
static const char *skip_number(const char *p) {
    if (*p == '-') ++p;
    if (*p == '0') ++p;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') ++p;
    else return NULL;
    if (*p == '.') {
        if (*++p < '0' || *p > '9') return NULL;
        while (*p >= '0' && *p <= '9') ++p;
    }
    if (*p == 'e' || *p == 'E') {
        if (*++p == '+' || *p == '-') ++p;
        if (*p < '0' || *p > '9') return NULL;
        while (*p >= '0' && *p <= '9') ++p;
    }
    return p;
}

/// Skips one JSON value (nested at most `depth` deep). Returns the position after it, or NULL.
static const char *skip_value(const char *p, int depth) {
    char ignored[text_capacity];
    if (depth <= 0) return NULL;
    if (*p == '"') return read_string(p, ignored, sizeof ignored);
    if (strncmp(p, "true", 4) == 0) return p + 4;
    if (strncmp(p, "false", 5) == 0) return p + 5;
    if (strncmp(p, "null", 4) == 0) return p + 4;
    if (*p == '[' || *p == '{') {
        char close = *p == '[' ? ']' : '}';
        p = skip_space(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                if ((p = read_string(p, ignored, sizeof ignored)) == NULL) return NULL;
                p = skip_space(p);
                if (*p++ != ':') return NULL;
                p = skip_space(p);
            }
            if ((p = skip_value(p, depth - 1)) == NULL) return NULL;
            p = skip_space(p);
            if (*p == close) return p + 1;
            if (*p++ != ',') return NULL;
            p = skip_space(p);
        }
    }
    return skip_number(p);
}

/// Reads the top-level members of the connection file. Returns false when a needed field
/// is missing, repeated or written in a form this reader leaves to the kernel, or the
/// text is not one JSON object.
static bool parse_connection(const char *text, struct connection *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < port_count; ++i) out->ports[i] = -1;
    const char *p = skip_space(text);
    if (*p++ != '{') return false;
    p = skip_space(p);
    bool empty = *p == '}';
    while (!empty) {
        char key[text_capacity];
        if ((p = read_string(p, key, sizeof key)) == NULL) return false;
        p = skip_space(p);
        if (*p++ != ':') return false;
        p = skip_space(p);
        bool known = false;
        for (int i = 0; i < port_count && !known; ++i) {
            if (strcmp(key, port_keys[i]) != 0) continue;
            if (out->ports[i] >= 0) return false;
            known = true;
            p = read_port(p, &out->ports[i]);
        }
        if (!known && (strcmp(key, "ip") == 0 || strcmp(key, "transport") == 0)) {
            char *field = key[0] == 'i' ? out->ip : out->transport;
            if (field[0] != '\0') return false;
            known = true;
            p = read_string(p, field, text_capacity);
            if (p != NULL && field[0] == '\0') return false;
        }
        for (size_t i = 0; i < sizeof string_keys / sizeof *string_keys && !known; ++i) {
            char ignored[text_capacity];
            if (strcmp(key, string_keys[i]) != 0) continue;
            known = true;
            p = read_string(p, ignored, sizeof ignored);
        }
        if (!known) p = skip_value(p, 32);
        if (p == NULL) return false;
        p = skip_space(p);
        if (*p == '}') break;
        if (*p++ != ',') return false;
        p = skip_space(p);
    }
    if (*skip_space(p + 1) != '\0') return false;
    for (int i = 0; i < port_count; ++i) if (out->ports[i] < 0) return false;
    return out->ip[0] != '\0' && strcmp(out->transport, "tcp") == 0;
}

/// A listening TCP socket on `address:port` that survives exec, as ZeroMQ would set it up
/// (SO_REUSEADDR, its default backlog of 100); -1 when it cannot be made.
static int listen_on(const struct in_addr *address, long port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int on = 1;
    struct sockaddr_in socket_address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = *address};
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
        || bind(fd, (struct sockaddr *)&socket_address, sizeof socket_address) != 0 || listen(fd, 100) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Binds every port, or none: a port that cannot be bound leaves it all to the kernel.
static void bind_ports(const struct connection *connection) {
    struct in_addr address;
    const char *ip = strcmp(connection->ip, "*") == 0 ? "0.0.0.0" : connection->ip;
    if (inet_pton(AF_INET, ip, &address) != 1) return;
    int fds[port_count];
    char list[port_count * 24] = "";
    for (int i = 0; i < port_count; ++i) {
        fds[i] = listen_on(&address, connection->ports[i]);
        if (fds[i] < 0) {
            for (int j = 0; j < i; ++j) close(fds[j]);
            return;
        }
        char item[24];
        snprintf(item, sizeof item, "%s%ld:%d", i == 0 ? "" : ",", connection->ports[i], fds[i]);
        strcat(list, item);
    }
    setenv("BENCHBOOK_LISTENING_SOCKETS", list, 1);
}

/// Reads and parses the connection file; false when it cannot be read whole or parsed.
static bool read_connection(const char *path, struct connection *out) {
    FILE *file = fopen(path, "r");
    if (file == NULL) return false;
    static char text[file_capacity];
    size_t length = fread(text, 1, sizeof text - 1, file);
    bool complete = feof(file);
    fclose(file);
    if (!complete || memchr(text, '\0', length) != NULL) return false;
    text[length] = '\0';
    return parse_connection(text, out);
}

static void read_and_bind(const char *path) {
    struct connection connection;
    if (read_connection(path, &connection)) bind_ports(&connection);
}

/// `--check`: prints what each file reads as, one line each.
static int check(int count, char **paths) {
    for (int file = 0; file < count; ++file) {
        struct connection connection;
        if (!read_connection(paths[file], &connection)) {
            puts("refused");
            continue;
        }
        printf("%s\t%s\t", connection.transport, connection.ip);
        for (int i = 0; i < port_count; ++i) printf(i == 0 ? "%ld" : " %ld", connection.ports[i]);
        putchar('\n');
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--check") == 0) return check(argc - 2, argv + 2);
    unsetenv("BENCHBOOK_LISTENING_SOCKETS");
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "-f") == 0 || strcmp(argv[i], "--connection-file") == 0) read_and_bind(argv[i + 1]);
    }
    // The kernel is beside this program.
    char kernel[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", kernel, sizeof kernel - 1);
    if (length <= 0) {
        fprintf(stderr, "benchbook-kernel-launcher: cannot find its own path: %s\n", strerror(errno));
        return 2;
    }
    kernel[length] = '\0';
    char *slash = strrchr(kernel, '/');
    const char name[] = "benchbook-kernel";
    if (slash == NULL || (size_t)(slash + 1 - kernel) + sizeof name > sizeof kernel) return 2;
    memcpy(slash + 1, name, sizeof name);
    argv[0] = kernel;
    execv(kernel, argv);
    fprintf(stderr, "benchbook-kernel-launcher: cannot start %s: %s\n", kernel, strerror(errno));
    return 2;
}
