// TagPeriodHandler: the periods of automatic tags and their names (Java TagPeriodHandler).
//
// Times here are java.time LocalDateTimes held as "local millis": the epoch millis the wall-clock
// time would have if it were UTC, so that a period is plain arithmetic, as Java's
// LocalDateTime.plus(Duration) is. A period is `tag.creation-period-duration` when set (tags
// named yyyyMMddHHmm), else `tag.creation-period`:
//
//   daily      one day, "yyyy-MM-dd" (without_dashes: "yyyyMMdd"); a tag name is read up to
//              its first blank, so an hourly name also reads as a daily tag (Java split(" "))
//   hourly     one hour, by `tag.period-formatter`: with_dashes "yyyy-MM-dd HH", without_dashes
//              "yyyyMMdd HH", without_dashes_and_spaces "yyyyMMddHH"
//   two-hours  two hours, "yyyy-MM-dd HH"
//
// A tag is automatic when its name parses with the period's format (STRICT: every field its
// exact width, a real calendar date).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sluice/meta/core_options.h"
#include "sluice/result.h"

namespace sluice {

class TagPeriodHandler {
 public:
  // InvalidArgument naming `tag.creation-period`, `tag.period-formatter` or
  // `tag.creation-period-duration` and the bad value.
  static Result<TagPeriodHandler> FromOptions(const CoreOptions& options);

  // InvalidArgument unless the delay is shorter than one period (Java validateDelay).
  Status ValidateDelay(int64_t delay_millis) const;

  // The period's start a tag name stands for; none when the name is not an automatic tag.
  std::optional<int64_t> TagToTime(std::string_view tag_name) const;
  bool IsAutoTag(std::string_view tag_name) const { return TagToTime(tag_name).has_value(); }
  // The tag a time belongs in: the period before the one `local_millis` is in.
  int64_t NormalizeToPreviousTag(int64_t local_millis) const;
  std::string TimeToTag(int64_t local_millis) const;
  int64_t NextTagTime(int64_t local_millis) const { return local_millis + period_millis_; }

  int64_t period_millis() const { return period_millis_; }

 private:
  TagPeriodHandler(int64_t period_millis, std::string pattern, bool daily)
      : period_millis_(period_millis), pattern_(std::move(pattern)), daily_(daily) {}

  int64_t period_millis_;
  // Letters y (4 digits), M, d, H, m (2 digits each); anything else is a literal.
  std::string pattern_;
  bool daily_;
};

// A local-millis time as a LocalDateTime's fields, and back (proleptic Gregorian, as java.time).
struct LocalDateTimeFields {
  int32_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millis = 0;
};
LocalDateTimeFields LocalFieldsOf(int64_t local_millis);
int64_t LocalMillisOf(const LocalDateTimeFields& fields);

}  // namespace sluice
