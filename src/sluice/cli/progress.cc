#include "sluice/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace sluice::cli {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(200);

}  // namespace

Progress::Progress(std::string verb)
    : verb_(std::move(verb)),
      enabled_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_ - kRedrawInterval) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::Start() {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s...", verb_.c_str());
  std::fflush(stderr);
}

void Progress::Update(int64_t rows, int64_t bytes_read) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  std::fprintf(stderr, "\r\033[K%s: %lld rows, %s read, %.1f s", verb_.c_str(),
               static_cast<long long>(rows), FormatBytes(bytes_read).c_str(), elapsed_seconds());
  std::fflush(stderr);
}

void Progress::Finish(const std::string& summary) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s\n", summary.c_str());
  std::fflush(stderr);
}

std::string FormatBytes(int64_t bytes) {
  char buf[32];
  if (bytes < 1024) {
    std::snprintf(buf, sizeof(buf), "%lld B", static_cast<long long>(bytes));
  } else if (bytes < 1024 * 1024) {
    std::snprintf(buf, sizeof(buf), "%.1f KB", static_cast<double>(bytes) / 1024);
  } else if (bytes < 1024LL * 1024 * 1024) {
    std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / (1024 * 1024));
  } else {
    std::snprintf(buf, sizeof(buf), "%.2f GB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  }
  return buf;
}

}  // namespace sluice::cli
