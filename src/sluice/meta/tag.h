// Tag: the content of `tag/tag-<name>` (Java Tag): the JSON of the tagged snapshot plus two
// optional keys written after the snapshot's keys:
//
//   tagCreateTime    Jackson's array form of a LocalDateTime: [year, month, day, hour, minute]
//                    then second when second or nanos != 0, then nanos when != 0.
//   tagTimeRetained  Jackson's number form of a Duration: seconds with 9 fraction digits
//                    ("86400.000000000"), "0.0" for zero, BigDecimal scientific notation below
//                    one microsecond ("5.00E-7").
//
// Tags written before 0.9 are plain snapshot JSON; they read with both keys absent.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"

namespace sluice {

// A java.time.Duration as Java normalizes it: 0 <= nanos < 1e9.
struct TagDuration {
  int64_t seconds = 0;
  int32_t nanos = 0;

  // The JSON number text Jackson writes for this duration.
  std::string ToJacksonNumber() const;

  bool operator==(const TagDuration&) const = default;
};

struct Tag {
  Snapshot snapshot;
  // Elements as in the file; see LocalDateTimeArray() to build one.
  std::optional<std::vector<int64_t>> create_time;
  std::optional<TagDuration> time_retained;

  // Parses the JSON text of a tag file. Errors (Corruption) name the field; callers add the
  // file path.
  static Result<Tag> FromJson(std::string_view json_text);
  static Result<Tag> FromJsonValue(const Json& json);
  // The file content Java writes (Jackson pretty printer, no final newline).
  std::string ToJson() const;

  // Jackson's array for a LocalDateTime (trailing second / nanos dropped when zero).
  static std::vector<int64_t> LocalDateTimeArray(int32_t year, int32_t month, int32_t day,
                                                 int32_t hour, int32_t minute, int32_t second,
                                                 int32_t nanos);

  bool operator==(const Tag&) const = default;
};

}  // namespace sluice
