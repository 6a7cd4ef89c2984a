// ServiceLog: the service's log on stderr, one line per event, as text
// ("2026-12-07 14:05:01 INFO  [shop-cdc] table shop.orders created") or, on request, as JSON
// lines ({"time":"2026-12-07T14:05:01.123Z","level":"INFO","job":"shop-cdc","message":...})
// for log shippers.
//
// Thread safety: Write may be called from any thread; lines never interleave.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

#include "sluice/service/service_config.h"

namespace sluice::service {

enum class LogLevel { kInfo, kWarn, kError };

class ServiceLog {
 public:
  explicit ServiceLog(LogFormat format, std::FILE* out = stderr) : format_(format), out_(out) {}

  void SetFormat(LogFormat format);
  // `job` is empty for the service's own lines.
  void Write(LogLevel level, std::string_view job, std::string_view message);

 private:
  std::mutex mu_;
  LogFormat format_;
  std::FILE* out_;
};

}  // namespace sluice::service
