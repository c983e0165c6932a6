#ifndef CSOURCEKIT_H
#define CSOURCEKIT_H

#include <stddef.h>

/// Opens the toolchain's in-process SourceKit (`libsourcekitdInProc.so`) and initialises it.
/// Returns 0, or -1 with a reason in `failure` (at most `capacity` bytes).
int bbsk_open(const char *library_path, char *failure, size_t capacity);

/// Compiles with swift-frontend arguments (without `-frontend`), in this process.
///
/// Returns 0 when the compile succeeded, 1 when it reported errors, -1 when SourceKit
/// could not run it. `*output` receives the diagnostics as the compiler prints them
/// (`file:line:column: error: message`, one per line) or the reason for -1; free it
/// with `free`.
int bbsk_compile(const char *const *arguments, int count, char **output);

#endif
