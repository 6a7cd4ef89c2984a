// Progress: a one-line status of a long `sluice write` / `sluice compact` on a terminal
// (rows, input bytes, files, elapsed time), redrawn at most a few times a second on stderr.
// When stderr is not a terminal it prints nothing, so piped and scripted runs stay quiet.
//
// Thread safety: not thread-safe; one thread reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace sluice::cli {

class Progress {
 public:
  // `verb` starts the line ("writing", "compacting").
  explicit Progress(std::string verb);

  bool enabled() const { return enabled_; }
  double elapsed_seconds() const;

  // Draws "<verb>..." (work whose amount is not known as it runs).
  void Start();
  // Redraws the line unless it was drawn less than a moment ago.
  void Update(int64_t rows, int64_t bytes_read);
  // Replaces the line with `summary` and ends it.
  void Finish(const std::string& summary);

 private:
  std::string verb_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// "12.3 MB", "512 B".
std::string FormatBytes(int64_t bytes);

}  // namespace sluice::cli
