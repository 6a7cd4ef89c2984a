#include "sluice/maintenance/tag_period_handler.h"

#include <chrono>

#include "sluice/meta/option_value.h"

namespace sluice {

namespace {

constexpr int64_t kHour = 3600 * 1000;
constexpr int64_t kDay = 24 * kHour;

int WidthOf(char letter) { return letter == 'y' ? 4 : 2; }

bool IsField(char c) { return c == 'y' || c == 'M' || c == 'd' || c == 'H' || c == 'm'; }

}  // namespace

LocalDateTimeFields LocalFieldsOf(int64_t local_millis) {
  using namespace std::chrono;
  const sys_time<milliseconds> tp{milliseconds{local_millis}};
  const sys_days day = floor<days>(tp);
  const year_month_day ymd{day};
  const int64_t ms = (tp - day).count();
  return {static_cast<int32_t>(static_cast<int>(ymd.year())),
          static_cast<int32_t>(static_cast<unsigned>(ymd.month())),
          static_cast<int32_t>(static_cast<unsigned>(ymd.day())),
          static_cast<int32_t>(ms / kHour),
          static_cast<int32_t>(ms / 60000 % 60),
          static_cast<int32_t>(ms / 1000 % 60),
          static_cast<int32_t>(ms % 1000)};
}

int64_t LocalMillisOf(const LocalDateTimeFields& f) {
  using namespace std::chrono;
  const sys_days day = year_month_day{year{f.year}, month{static_cast<unsigned>(f.month)},
                                      std::chrono::day{static_cast<unsigned>(f.day)}};
  return duration_cast<milliseconds>(day.time_since_epoch()).count() + f.hour * kHour +
         f.minute * 60000LL + f.second * 1000LL + f.millis;
}

Result<TagPeriodHandler> TagPeriodHandler::FromOptions(const CoreOptions& options) {
  if (const std::string* v = options.Find("tag.creation-period-duration")) {
    SLUICE_ASSIGN_OR_RETURN(auto period, ParseDurationOption("tag.creation-period-duration", *v));
    if (period.count() <= 0) {
      return Status::InvalidArgument("option 'tag.creation-period-duration' must be positive: '" +
                                     *v + "'");
    }
    return TagPeriodHandler(period.count(), "yyyyMMddHHmm", false);
  }
  std::string formatter = "with_dashes";
  if (const std::string* v = options.Find("tag.period-formatter")) formatter = *v;
  if (formatter != "with_dashes" && formatter != "without_dashes" &&
      formatter != "without_dashes_and_spaces") {
    return Status::InvalidArgument(
        "option 'tag.period-formatter' must be with_dashes, without_dashes or "
        "without_dashes_and_spaces: '" +
        formatter + "'");
  }
  std::string period = "daily";
  if (const std::string* v = options.Find("tag.creation-period")) period = *v;
  if (period == "daily") {
    return TagPeriodHandler(kDay, formatter == "with_dashes" ? "yyyy-MM-dd" : "yyyyMMdd", true);
  }
  if (period == "hourly") {
    const char* pattern = formatter == "with_dashes"      ? "yyyy-MM-dd HH"
                          : formatter == "without_dashes" ? "yyyyMMdd HH"
                                                          : "yyyyMMddHH";
    return TagPeriodHandler(kHour, pattern, false);
  }
  if (period == "two-hours") return TagPeriodHandler(2 * kHour, "yyyy-MM-dd HH", false);
  return Status::InvalidArgument(
      "option 'tag.creation-period' must be daily, hourly or two-hours: '" + period + "'");
}

Status TagPeriodHandler::ValidateDelay(int64_t delay_millis) const {
  if (delay_millis < period_millis_) return Status::OK();
  return Status::InvalidArgument("option 'tag.creation-delay' (" + std::to_string(delay_millis) +
                                 " ms) must be shorter than the tag period (" +
                                 std::to_string(period_millis_) + " ms)");
}

std::optional<int64_t> TagPeriodHandler::TagToTime(std::string_view tag_name) const {
  if (daily_) tag_name = tag_name.substr(0, tag_name.find(' '));
  LocalDateTimeFields f;
  size_t pos = 0;
  for (size_t i = 0; i < pattern_.size();) {
    const char c = pattern_[i];
    if (!IsField(c)) {
      if (pos >= tag_name.size() || tag_name[pos] != c) return std::nullopt;
      ++pos;
      ++i;
      continue;
    }
    const int width = WidthOf(c);
    if (pos + width > tag_name.size()) return std::nullopt;
    int32_t value = 0;
    for (int k = 0; k < width; ++k) {
      const char d = tag_name[pos + k];
      if (d < '0' || d > '9') return std::nullopt;
      value = value * 10 + (d - '0');
    }
    pos += width;
    i += width;
    switch (c) {
      case 'y':
        f.year = value;
        break;
      case 'M':
        f.month = value;
        break;
      case 'd':
        f.day = value;
        break;
      case 'H':
        f.hour = value;
        break;
      default:
        f.minute = value;
        break;
    }
  }
  if (pos != tag_name.size()) return std::nullopt;
  using namespace std::chrono;
  // STRICT resolution: a real date and time.
  if (f.month < 1 || f.month > 12 || f.day < 1 || f.hour > 23 || f.minute > 59 ||
      !year_month_day{year{f.year}, month{static_cast<unsigned>(f.month)},
                      day{static_cast<unsigned>(f.day)}}
           .ok()) {
    return std::nullopt;
  }
  return LocalMillisOf(f);
}

int64_t TagPeriodHandler::NormalizeToPreviousTag(int64_t local_millis) const {
  // Java's long division, truncating toward zero, as C++'s does.
  return local_millis / period_millis_ * period_millis_ - period_millis_;
}

std::string TagPeriodHandler::TimeToTag(int64_t local_millis) const {
  const LocalDateTimeFields f = LocalFieldsOf(local_millis);
  std::string out;
  for (size_t i = 0; i < pattern_.size();) {
    const char c = pattern_[i];
    if (!IsField(c)) {
      out.push_back(c);
      ++i;
      continue;
    }
    const int width = WidthOf(c);
    const int32_t value = c == 'y'   ? f.year
                          : c == 'M' ? f.month
                          : c == 'd' ? f.day
                          : c == 'H' ? f.hour
                                     : f.minute;
    std::string digits = std::to_string(value);
    if (digits.size() < static_cast<size_t>(width)) digits.insert(0, width - digits.size(), '0');
    out += digits;
    i += width;
  }
  return out;
}

}  // namespace sluice
