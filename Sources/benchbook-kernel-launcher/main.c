// benchbook-kernel-launcher: what the kernelspec starts; binds the kernel's ports at once,
// then becomes benchbook-kernel (exec: same process, same pid, same signals).
//
//   benchbook-kernel-launcher -f <connection_file>
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

/// Reads a JSON string at `p` into `out` (escapes are kept as written: the fields read
/// here never hold any). Returns the position after it, or NULL.
static const char *read_string(const char *p, char *out, size_t capacity) {
    if (*p != '"') return NULL;
    size_t length = 0;
    for (++p; *p != '"'; ++p) {
        if (*p == '\0') return NULL;
        if (*p == '\\' && p[1] != '\0') {
            if (length + 1 < capacity) out[length++] = *p;
            ++p;
        }
        if (length + 1 < capacity) out[length++] = *p;
    }
    out[length] = '\0';
    return p + 1;
}

/// Skips one JSON value of any kind. Returns the position after it, or NULL.
static const char *skip_value(const char *p) {
    char ignored[8];
    if (*p == '"') return read_string(p, ignored, sizeof ignored);
    int depth = 0;
    for (; *p != '\0'; ++p) {
        if (*p == '"') {
            p = read_string(p, ignored, sizeof ignored);
            if (p == NULL) return NULL;
            --p;
        } else if (*p == '{' || *p == '[') {
            ++depth;
        } else if (*p == '}' || *p == ']') {
            if (depth == 0) return p;
            if (--depth == 0) return p + 1;
        } else if (*p == ',' && depth == 0) {
            return p;
        }
    }
    return depth == 0 ? p : NULL;
}

/// Reads the top-level members of the connection file. Returns false when a needed field
/// is missing or the text is not a JSON object.
static bool parse_connection(const char *text, struct connection *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < port_count; ++i) out->ports[i] = -1;
    const char *p = skip_space(text);
    if (*p++ != '{') return false;
    for (;;) {
        p = skip_space(p);
        if (*p == '}') break;
        char key[text_capacity];
        if ((p = read_string(p, key, sizeof key)) == NULL) return false;
        p = skip_space(p);
        if (*p++ != ':') return false;
        p = skip_space(p);
        bool read = false;
        for (int i = 0; i < port_count; ++i) {
            if (strcmp(key, port_keys[i]) != 0) continue;
            char *end;
            long value = strtol(p, &end, 10);
            if (end == p || value <= 0 || value > 65535) return false;
            out->ports[i] = value;
            p = end;
            read = true;
        }
        if (!read && strcmp(key, "ip") == 0) {
            read = (p = read_string(p, out->ip, sizeof out->ip)) != NULL;
        } else if (!read && strcmp(key, "transport") == 0) {
            read = (p = read_string(p, out->transport, sizeof out->transport)) != NULL;
        } else if (!read) {
            read = (p = skip_value(p)) != NULL;
        }
        if (!read) return false;
        p = skip_space(p);
        if (*p == ',') { ++p; continue; }
        if (*p == '}') break;
        return false;
    }
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

static void read_and_bind(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) return;
    static char text[file_capacity];
    size_t length = fread(text, 1, sizeof text - 1, file);
    bool complete = feof(file);
    fclose(file);
    if (!complete) return;
    text[length] = '\0';
    struct connection connection;
    if (parse_connection(text, &connection)) bind_ports(&connection);
}

int main(int argc, char **argv) {
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
