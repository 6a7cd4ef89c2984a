#include "sluice/maintenance/tag_time_extractor.h"

#include <limits>
#include <string>

namespace sluice {

namespace {

// The zone option `key` names; without it the process's zone (Java's JVM default) for the
// process time, UTC for the watermark.
Result<std::shared_ptr<const TimeZone>> ZoneOf(const CoreOptions& options, const char* key,
                                               bool process_default) {
  const std::string* name = options.Find(key);
  if (name == nullptr && process_default) return TimeZone::Process();
  Result<std::shared_ptr<const TimeZone>> zone = TimeZone::Load(name ? *name : "UTC");
  if (!zone.ok()) {
    return Status::InvalidArgument("option '" + std::string(key) + "': unknown time zone '" +
                                   *name + "': " + zone.status().message());
  }
  return zone;
}

}  // namespace

Result<TagCreationMode> TagCreationModeOf(const CoreOptions& options) {
  const std::string* v = options.Find("tag.automatic-creation");
  if (v == nullptr || *v == "none") return TagCreationMode::kNone;
  if (*v == "process-time") return TagCreationMode::kProcessTime;
  if (*v == "watermark") return TagCreationMode::kWatermark;
  if (*v == "batch") return TagCreationMode::kBatch;
  return Status::InvalidArgument(
      "option 'tag.automatic-creation' must be none, process-time, watermark or batch: '" + *v +
      "'");
}

Result<std::optional<TagTimeExtractor>> TagTimeExtractor::ForAutoTag(const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(TagCreationMode mode, TagCreationModeOf(options));
  if (mode == TagCreationMode::kProcessTime) {
    SLUICE_ASSIGN_OR_RETURN(auto zone,
                            ZoneOf(options, "sink.process-time-zone", /*process_default=*/true));
    return TagTimeExtractor(Source::kProcessTime, std::move(zone));
  }
  if (mode == TagCreationMode::kWatermark) {
    SLUICE_ASSIGN_OR_RETURN(auto zone,
                            ZoneOf(options, "sink.watermark-time-zone", /*process_default=*/false));
    return TagTimeExtractor(Source::kWatermark, std::move(zone));
  }
  return std::optional<TagTimeExtractor>();
}

std::optional<int64_t> TagTimeExtractor::Extract(const Snapshot& snapshot) const {
  if (source_ == Source::kProcessTime) return zone_->LocalMillis(snapshot.time_millis);
  if (!snapshot.watermark || *snapshot.watermark == std::numeric_limits<int64_t>::min()) {
    return std::nullopt;
  }
  return zone_->LocalMillis(*snapshot.watermark);
}

}  // namespace sluice
