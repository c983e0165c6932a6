// libFuzzer target for the connection-file reader (Sources/Kernel/Jupyter/CConnectionFile), built with
// AddressSanitizer and UndefinedBehaviorSanitizer by `make test-hostile`. Besides memory
// errors it aborts on a reading that breaks the reader's promises: a refusal without a
// reason, or an accepted file with a missing field or a port out of range.

#include "CConnectionFile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bb_connection_file file;
    int status = bb_connection_file_parse((const char *)data, size, &file);
    if (memchr(file.error, '\0', sizeof file.error) == NULL) abort();
    if (status != 0) {
        if (file.error[0] == '\0' || file.transport != NULL || file.ip != NULL || file.key != NULL) abort();
    } else {
        if (file.error[0] != '\0' || file.transport == NULL || file.ip == NULL || file.key == NULL
            || file.signature_scheme == NULL || file.ip[0] == '\0') abort();
        int tcp = strcmp(file.transport, "tcp") == 0;
        if (!tcp && strcmp(file.transport, "ipc") != 0) abort();
        for (int i = 0; i < BB_CONNECTION_PORT_COUNT; ++i) {
            if (file.ports[i] < (tcp ? 1 : 0) || (tcp && file.ports[i] > 65535)) abort();
        }
    }
    bb_connection_file_free(&file);
    return 0;
}
