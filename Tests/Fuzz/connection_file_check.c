// Reads each file named on the command line with the connection-file reader and prints one
// line per file: `ok <transport> <ip> <ports...>` with the two strings in hex (they may hold
// any character), or `refused`. `make test-hostile` builds it with AddressSanitizer and
// compares every line with a reference reader written in Python (scripts/hostile).

#include "CConnectionFile.h"

#include <stdio.h>
#include <string.h>

static void hex(const char *text) {
    if (*text == '\0') fputs("-", stdout);
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) printf("%02x", *p);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
        bb_connection_file file;
        if (bb_connection_file_read(argv[i], &file) != 0) {
            puts("refused");
        } else {
            fputs("ok ", stdout);
            hex(file.transport);
            putchar(' ');
            hex(file.ip);
            for (int port = 0; port < BB_CONNECTION_PORT_COUNT; ++port) printf(" %ld", file.ports[port]);
            putchar('\n');
        }
        bb_connection_file_free(&file);
    }
    return 0;
}
