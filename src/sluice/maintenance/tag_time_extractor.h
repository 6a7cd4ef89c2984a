// TagTimeExtractor: the time of a snapshot that decides its automatic tag (Java
// TagTimeExtractor), as local millis (see tag_period_handler.h).
//
//   process-time  the snapshot's commit time in `sink.process-time-zone` (default: the
//                 process's zone, TimeZone::Process, as Java's default is the JVM's)
//   watermark     the snapshot's watermark in `sink.watermark-time-zone` (default UTC); a
//                 snapshot without one (or with Long.MIN_VALUE) has no tag time
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sluice/meta/core_options.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"

namespace sluice {

class TagTimeExtractor {
 public:
  enum class Source : unsigned char { kProcessTime, kWatermark };

  // The extractor of `tag.automatic-creation`: none for `none` and `batch`. InvalidArgument
  // naming the option for an unknown mode or time zone.
  static Result<std::optional<TagTimeExtractor>> ForAutoTag(const CoreOptions& options);

  std::optional<int64_t> Extract(const Snapshot& snapshot) const;

  Source source() const { return source_; }

 private:
  TagTimeExtractor(Source source, std::shared_ptr<const TimeZone> zone)
      : source_(source), zone_(std::move(zone)) {}

  Source source_;
  std::shared_ptr<const TimeZone> zone_;
};

enum class TagCreationMode : unsigned char { kNone, kProcessTime, kWatermark, kBatch };

// `tag.automatic-creation` (default none); InvalidArgument naming the value.
Result<TagCreationMode> TagCreationModeOf(const CoreOptions& options);

}  // namespace sluice
