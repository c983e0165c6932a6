// The runtime's log lines (ET_LOG), through the platform layer's log hook: kept in a buffer
// while quiet (the default) instead of printed, and their error-level lines kept apart, so a
// failure the runtime reports as a bare code (0x20, NotFound) can be explained in its words
// ("Backend XnnpackBackend is not registered.").

#include "internal.hpp"

#include <executorch/runtime/platform/platform.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {

std::mutex log_mutex;
std::string kept_lines;   // every line while quiet (bbe_take_log)
std::string error_lines;  // error-level lines since the last take_errors()
std::atomic<bool> quiet{true};

void emit(et_timestamp_t, et_pal_log_level_t level, const char *filename, const char *, size_t line,
          const char *message, size_t length) {
  std::string text(message, length);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const char *base = filename ? std::strrchr(filename, '/') : nullptr;
  std::string located = "[" + std::string(base ? base + 1 : (filename ? filename : "?")) + ":" +
                        std::to_string(line) + "] " + text;
  std::lock_guard<std::mutex> lock(log_mutex);
  if (level == kError || level == kFatal) {
    if (error_lines.size() < 8192) error_lines += (error_lines.empty() ? "" : "; ") + text;
  }
  if (quiet.load()) {
    if (kept_lines.size() < (1 << 20)) kept_lines += located + "\n";
  } else {
    std::fprintf(stderr, "%s\n", located.c_str());
  }
}

// Installed when the shim's library is opened, after the runtime's own libraries initialised.
const bool registered = executorch::runtime::register_pal(executorch::runtime::PalImpl::create(emit, __FILE__));

}  // namespace

namespace bbe {

std::string take_errors() {
  std::lock_guard<std::mutex> lock(log_mutex);
  std::string lines;
  lines.swap(error_lines);
  return lines;
}

void set_error(char **error, const std::string &text) {
  if (error) *error = copy_string(text);
}

char *copy_string(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

std::string describe(executorch::runtime::Error error) {
  return std::string(executorch::runtime::to_string(error)) + " (0x" +
         [&] { char hex[8]; std::snprintf(hex, sizeof hex, "%x", unsigned(error)); return std::string(hex); }() + ")";
}

}  // namespace bbe

extern "C" {

void bbe_free_string(char *text) { std::free(text); }

void bbe_set_quiet(int enabled) {
  (void)registered;
  quiet.store(enabled != 0);
}

char *bbe_take_log(void) {
  std::lock_guard<std::mutex> lock(log_mutex);
  char *lines = bbe::copy_string(kept_lines);
  kept_lines.clear();
  return lines;
}

}  // extern "C"
