// benchbook-kernel-launcher: what the kernelspec starts; binds the kernel's ports at once,
// then becomes benchbook-kernel (exec: same process, same pid, same signals).
//
//   benchbook-kernel-launcher -f <connection_file>
//   benchbook-kernel-launcher --check <connection_file>...
//
// The second form reads each file as the first would and prints one line for each, what
// it read (`<transport>\t<ip>\t<shell> <control> <stdin> <iopub> <hb>`) or `refused\t<why>`,
// and starts nothing: the tests compare it with the kernel's reading.
//
// Why: a Jupyter client connects to the five ports as soon as it has started the kernel.
// A connection tried before the port is bound is refused, and ZeroMQ retries it only
// after its reconnect interval (100 ms by default) - longer than the kernel takes to
// start (its Swift libraries load before any code runs, and it binds after them; the
// start-up figures are in results/kernel-latency.md). This program is C: it reads the connection
// file and listens on each TCP port before any library loads, then hands the listening sockets
// to the kernel, which adopts them (ZMQ_USE_FD) instead of binding again.
//
// The sockets are passed as inherited descriptors named in BENCHBOOK_LISTENING_SOCKETS
// ("<port>:<fd>,...", defined once in CSystemSupport's listening_sockets.h, which the
// kernel's reader uses too). The file is read with the kernel's own reader (CConnectionFile), so
// the two never read one file two ways. A file it refuses, another transport, an address
// it cannot bind or a port already taken make it start the kernel without sockets: the
// kernel then reads the file again, binds the ports itself and reports any problem.

#define _GNU_SOURCE
#include "CConnectionFile.h"
#include "listening_sockets.h"

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

/// An address to listen on: IPv4 or IPv6, as ZeroMQ would bind the connection file's `ip`.
struct address {
    int family;
    struct in_addr v4;
    struct in6_addr v6;
};

/// The address ZeroMQ binds for `ip` ("*" and "0.0.0.0" every IPv4 interface, "localhost"
/// the IPv4 loopback, as the kernel binds them); false for a name ZeroMQ would resolve
/// otherwise (an interface name), which is left to the kernel.
static bool parse_address(const char *ip, struct address *out) {
    if (strcmp(ip, "*") == 0) ip = "0.0.0.0";
    if (strcmp(ip, "localhost") == 0) ip = "127.0.0.1";
    if (inet_pton(AF_INET, ip, &out->v4) == 1) {
        out->family = AF_INET;
        return true;
    }
    if (inet_pton(AF_INET6, ip, &out->v6) == 1) {
        out->family = AF_INET6;
        return true;
    }
    return false;
}

/// A listening TCP socket on `address:port` that survives exec, as ZeroMQ would set it up
/// (SO_REUSEADDR, its default backlog of 100; IPv6 sockets take IPv4 too, as with
/// ZMQ_IPV6); -1 when it cannot be made.
static int listen_on(const struct address *address, long port) {
    int fd = socket(address->family, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int on = 1, off = 0;
    struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = address->v4};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port), .sin6_addr = address->v6};
    const struct sockaddr *name = address->family == AF_INET ? (const struct sockaddr *)&v4 : (const struct sockaddr *)&v6;
    socklen_t length = address->family == AF_INET ? sizeof v4 : sizeof v6;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
        || (address->family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off) != 0)
        || bind(fd, name, length) != 0 || listen(fd, 100) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Binds every port, or none: a port that cannot be bound leaves it all to the kernel.
static void bind_ports(const bb_connection_file *connection) {
    struct address address;
    if (strcmp(connection->transport, "tcp") != 0 || !parse_address(connection->ip, &address)) return;
    int fds[BB_CONNECTION_PORT_COUNT];
    char list[BB_CONNECTION_PORT_COUNT * 24] = "";
    for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) {
        fds[i] = listen_on(&address, connection->ports[i]);
        if (fds[i] < 0) {
            for (int j = 0; j < i; ++j) close(fds[j]);
            return;
        }
        char item[24];
        snprintf(item, sizeof item, "%s%ld" BB_LISTENING_SOCKETS_PORT_SEPARATOR "%d",
                 i == 0 ? "" : BB_LISTENING_SOCKETS_SEPARATOR, connection->ports[i], fds[i]);
        strcat(list, item);
    }
    setenv(BB_LISTENING_SOCKETS_VARIABLE, list, 1);
}

static void read_and_bind(const char *path) {
    bb_connection_file connection;
    if (bb_connection_file_read(path, &connection) == 0) bind_ports(&connection);
    bb_connection_file_free(&connection);
}

/// `--check`: prints what each file reads as, one line each: the fields, or `refused` and why.
static int check(int count, char **paths) {
    for (int file = 0; file < count; ++file) {
        bb_connection_file connection;
        if (bb_connection_file_read(paths[file], &connection) != 0) {
            printf("refused\t%s\n", connection.error);
        } else {
            printf("%s\t%s\t", connection.transport, connection.ip);
            for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) printf(i == 0 ? "%ld" : " %ld", connection.ports[i]);
            putchar('\n');
        }
        bb_connection_file_free(&connection);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--check") == 0) return check(argc - 2, argv + 2);
    unsetenv(BB_LISTENING_SOCKETS_VARIABLE);
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
