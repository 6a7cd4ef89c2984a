#include "sluice/service/service_log.h"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "sluice/secret_mask.h"

namespace sluice::service {
namespace {

std::string_view LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarn:
      return "WARN";
    case LogLevel::kError:
      return "ERROR";
  }
  return "INFO";
}

// The time in UTC, as "2026-12-07 14:05:01" (text) or "2026-12-07T14:05:01.123Z" (JSON).
std::string Now(bool iso) {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[40];
  std::strftime(text, sizeof(text), iso ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
  if (!iso) return text;
  auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  char fraction[8];
  std::snprintf(fraction, sizeof(fraction), ".%03dZ", static_cast<int>(millis.count()));
  return std::string(text) + fraction;
}

}  // namespace

void ServiceLog::SetFormat(LogFormat format) {
  std::lock_guard<std::mutex> lock(mu_);
  format_ = format;
}

void ServiceLog::Write(LogLevel level, std::string_view job, std::string_view raw_message) {
  // A job's error may quote its arguments or a source's configuration: credentials never reach
  // the log.
  const std::string message = MaskSecrets(raw_message);
  std::lock_guard<std::mutex> lock(mu_);
  std::string line;
  if (format_ == LogFormat::kJson) {
    nlohmann::ordered_json object;
    object["time"] = Now(true);
    object["level"] = LevelName(level);
    if (!job.empty()) object["job"] = job;
    object["message"] = message;
    // Messages may quote bytes from a source; replace what is not UTF-8 rather than throw.
    line = object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } else {
    line = Now(false) + " " + std::string(LevelName(level));
    line.append(6 - LevelName(level).size(), ' ');
    if (!job.empty()) line += "[" + std::string(job) + "] ";
    line += message;
  }
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace sluice::service
