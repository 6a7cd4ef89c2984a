#include "sluice/types/time_zone.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "sluice/base/coding.h"
#include "sluice/value.h"

namespace sluice {

namespace {

std::shared_ptr<const TimeZone> MakeUtc() {
  auto tz = TimeZone::Parse("UTC", std::string_view());
  return tz.ok() ? *tz : nullptr;
}

}  // namespace

Result<std::shared_ptr<const TimeZone>> TimeZone::Parse(std::string name, std::string_view tzif) {
  auto tz = std::shared_ptr<TimeZone>(new TimeZone());
  tz->name_ = std::move(name);
  if (tzif.empty()) {
    tz->offsets_.push_back(0);
    return std::shared_ptr<const TimeZone>(tz);
  }
  auto bad = [&](const char* what) {
    return Status::Corruption("time zone " + tz->name_ + ": " + what);
  };
  const auto* base = reinterpret_cast<const uint8_t*>(tzif.data());
  size_t size = tzif.size();
  constexpr size_t kHeader = 44;
  if (size < kHeader || tzif.substr(0, 4) != "TZif") return bad("not a TZif file");
  auto counts = [&](size_t at, uint32_t c[6]) {
    for (int i = 0; i < 6; ++i) c[i] = DecodeFixed32BE(base + at + 20 + 4 * i);
  };
  uint32_t c[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  counts(0, c);
  char version = tzif[4];
  size_t at = kHeader;
  int time_size = 4;
  auto block_size = [&](int ts) {
    return uint64_t{c[3]} * ts + c[3] + uint64_t{c[4]} * 6 + c[5] + uint64_t{c[2]} * (ts + 4) +
           c[1] + c[0];
  };
  if (version >= '2') {
    uint64_t skip = block_size(4);
    if (skip + kHeader > size - at) return bad("truncated");
    at += skip;
    if (tzif.substr(at, 4) != "TZif") return bad("missing second header");
    counts(at, c);
    at += kHeader;
    time_size = 8;
  }
  if (block_size(time_size) > size - at) return bad("truncated");
  if (c[4] == 0) return bad("no local time types");
  const uint8_t* times = base + at;
  const uint8_t* idx = times + uint64_t{c[3]} * time_size;
  const uint8_t* types = idx + c[3];
  for (uint32_t i = 0; i < c[3]; ++i) {
    int64_t t = time_size == 8 ? static_cast<int64_t>(DecodeFixed64BE(times + 8 * i))
                               : static_cast<int32_t>(DecodeFixed32BE(times + 4 * i));
    if (idx[i] >= c[4]) return bad("transition type out of range");
    tz->transitions_.push_back(t);
    tz->transition_type_.push_back(idx[i]);
  }
  for (uint32_t i = 0; i < c[4]; ++i) {
    tz->offsets_.push_back(static_cast<int32_t>(DecodeFixed32BE(types + 6 * i)));
  }
  // Before the first transition: the first standard-time type (RFC 8536 3.2).
  tz->initial_offset_ = tz->offsets_[0];
  for (uint32_t i = 0; i < c[4]; ++i) {
    if (types[6 * i + 4] == 0) {
      tz->initial_offset_ = tz->offsets_[i];
      break;
    }
  }
  if (!std::is_sorted(tz->transitions_.begin(), tz->transitions_.end())) {
    return bad("transitions out of order");
  }
  if (version >= '2') {
    size_t footer = at + block_size(time_size);
    if (footer < size && tzif[footer] == '\n') {
      size_t end = tzif.find('\n', footer + 1);
      if (end != std::string_view::npos) {
        tz->has_posix_ = tz->ParsePosix(tzif.substr(footer + 1, end - footer - 1));
      }
    }
  }
  return std::shared_ptr<const TimeZone>(tz);
}

std::string TimeZone::ProcessZoneName() {
  std::string name = "UTC";
  if (const char* tz = std::getenv("TZ"); tz != nullptr && *tz != '\0') {
    name = tz[0] == ':' ? tz + 1 : tz;
  } else {
    std::error_code error;
    const std::string target = std::filesystem::read_symlink("/etc/localtime", error).string();
    constexpr std::string_view kZoneinfo = "zoneinfo/";
    const size_t at = target.rfind(kZoneinfo);
    if (!error && at != std::string::npos) name = target.substr(at + kZoneinfo.size());
  }
  // A zone the tz database does not have (a POSIX rule such as "EST5EDT4" without its file):
  // UTC, as the JVM falls back to GMT.
  return Load(name).ok() ? name : "UTC";
}

std::shared_ptr<const TimeZone> TimeZone::Process() {
  Result<std::shared_ptr<const TimeZone>> zone = Load(ProcessZoneName());
  return zone.ok() ? *zone : *Load("UTC");
}

namespace {

int64_t FloorSeconds(int64_t millis) {
  return millis >= 0 ? millis / 1000 : -((-millis + 999) / 1000);
}

}  // namespace

int64_t TimeZone::LocalMillis(int64_t epoch_millis) const {
  return epoch_millis + OffsetAt(FloorSeconds(epoch_millis)) * 1000;
}

int64_t TimeZone::UtcMillis(int64_t local_millis) const {
  const int64_t seconds = FloorSeconds(local_millis);
  return LocalToUtc(seconds) * 1000 + (local_millis - seconds * 1000);
}

Result<std::shared_ptr<const TimeZone>> TimeZone::Load(const std::string& name) {
  if (name.empty() || name == "UTC" || name == "GMT" || name == "Z" || name == "Etc/UTC" ||
      name == "Etc/GMT") {
    static const std::shared_ptr<const TimeZone> utc = MakeUtc();
    return utc;
  }
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const TimeZone>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  if (name.find("..") != std::string::npos || name.front() == '/') {
    return Status::InvalidArgument("bad time zone name '" + name + "'");
  }
  const char* dir = std::getenv("TZDIR");
  std::string path = std::string(dir != nullptr ? dir : "/usr/share/zoneinfo") + "/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("time zone '" + name + "' not found at " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  SLUICE_ASSIGN_OR_RETURN(auto tz, Parse(name, ss.str()));
  cache.emplace(name, tz);
  return tz;
}

namespace {

// A POSIX TZ parsing cursor.
struct PosixCursor {
  std::string_view s;
  size_t i = 0;
  bool at(char c) const { return i < s.size() && s[i] == c; }
  bool Name() {
    if (at('<')) {
      size_t end = s.find('>', i);
      if (end == std::string_view::npos) return false;
      i = end + 1;
      return true;
    }
    size_t start = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    return i - start >= 3;
  }
  bool Number(int64_t* v) {
    size_t start = i;
    int64_t r = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
      r = r * 10 + (s[i++] - '0');
    *v = r;
    return i > start;
  }
  // [+-]hh[:mm[:ss]] in seconds.
  bool Time(int64_t* v) {
    int sign = 1;
    if (at('+') || at('-')) sign = s[i++] == '-' ? -1 : 1;
    int64_t h, m = 0, sec = 0;
    if (!Number(&h)) return false;
    if (at(':')) {
      ++i;
      if (!Number(&m)) return false;
      if (at(':')) {
        ++i;
        if (!Number(&sec)) return false;
      }
    }
    *v = sign * (h * 3600 + m * 60 + sec);
    return true;
  }
};

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

}  // namespace

bool TimeZone::ParsePosix(std::string_view spec) {
  PosixCursor c{spec};
  int64_t std_off;
  if (!c.Name() || !c.Time(&std_off)) return false;
  posix_std_offset_ = -std_off;  // POSIX offsets are west of UTC
  if (c.i == spec.size()) return true;
  if (!c.Name()) return false;
  posix_dst_offset_ = posix_std_offset_ + 3600;
  if (!c.at(',')) {
    int64_t dst_off;
    if (!c.Time(&dst_off)) return false;
    posix_dst_offset_ = -dst_off;
  }
  auto rule = [&](PosixRule* r) {
    if (!c.at(',')) return false;
    ++c.i;
    int64_t a, b, d;
    if (c.at('M')) {
      ++c.i;
      if (!c.Number(&a) || !c.at('.')) return false;
      ++c.i;
      if (!c.Number(&b) || !c.at('.')) return false;
      ++c.i;
      if (!c.Number(&d)) return false;
      if (a < 1 || a > 12 || b < 1 || b > 5 || d > 6) return false;
      r->kind = PosixRule::Kind::kMonthWeekDay;
      r->month = static_cast<int>(a);
      r->week = static_cast<int>(b);
      r->weekday = static_cast<int>(d);
    } else if (c.at('J')) {
      ++c.i;
      if (!c.Number(&a) || a < 1 || a > 365) return false;
      r->kind = PosixRule::Kind::kJulianNoLeap;
      r->day = static_cast<int>(a);
    } else {
      if (!c.Number(&a) || a > 365) return false;
      r->kind = PosixRule::Kind::kZeroBasedDay;
      r->day = static_cast<int>(a);
    }
    r->time = 7200;
    if (c.at('/')) {
      ++c.i;
      if (!c.Time(&r->time)) return false;
    }
    return true;
  };
  if (!rule(&posix_start_) || !rule(&posix_end_)) return false;
  posix_has_dst_ = true;
  return true;
}

namespace {

// Local seconds (since the epoch, in local time) at which `rule` falls in `year`.
int64_t RuleLocalSeconds(int64_t year, int kind, int month, int week, int weekday, int day,
                         int64_t time) {
  int64_t days;
  if (kind == 0) {  // Jn: 1..365, February 29 never counted
    days = DaysFromCivil(year, 1, 1) + day - 1;
    if (IsLeap(year) && day >= 60) ++days;
  } else if (kind == 1) {  // n: 0..365
    days = DaysFromCivil(year, 1, 1) + day;
  } else {
    int64_t first = DaysFromCivil(year, static_cast<unsigned>(month), 1);
    int64_t first_weekday = ((first + 4) % 7 + 7) % 7;  // 1970-01-01 was a Thursday
    int64_t dom = 1 + (weekday - first_weekday + 7) % 7 + (week - 1) * 7;
    while (dom > DaysInMonth(year, month)) dom -= 7;
    days = first + dom - 1;
  }
  return days * 86400 + time;
}

}  // namespace

int64_t TimeZone::PosixOffsetAt(int64_t utc_seconds) const {
  if (!posix_has_dst_) return posix_std_offset_;
  int64_t local_days = FloorDiv(utc_seconds + posix_std_offset_, 86400);
  // Civil year of local_days.
  int64_t z = local_days + 719468;
  int64_t era = FloorDiv(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t month = mp < 10 ? mp + 3 : mp - 9;
  int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  auto local = [&](const PosixRule& r) {
    return RuleLocalSeconds(year, static_cast<int>(r.kind), r.month, r.week, r.weekday, r.day,
                            r.time);
  };
  int64_t start = local(posix_start_) - posix_std_offset_;  // UTC of the switch to DST
  int64_t end = local(posix_end_) - posix_dst_offset_;      // UTC of the switch back
  bool dst = start < end ? (utc_seconds >= start && utc_seconds < end)
                         : !(utc_seconds >= end && utc_seconds < start);
  return dst ? posix_dst_offset_ : posix_std_offset_;
}

int64_t TimeZone::OffsetAt(int64_t utc_seconds) const {
  if (transitions_.empty()) return has_posix_ ? PosixOffsetAt(utc_seconds) : initial_offset_;
  if (has_posix_ && utc_seconds > transitions_.back()) return PosixOffsetAt(utc_seconds);
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  if (it == transitions_.begin()) return initial_offset_;
  return offsets_[transition_type_[static_cast<size_t>(it - transitions_.begin()) - 1]];
}

int64_t TimeZone::LocalToUtc(int64_t local_seconds) const {
  // Offsets a day before and after (zones change offset at most once within a day): the local
  // time may exist under either, both (an overlap: the earlier offset wins) or neither (a gap:
  // read with the offset before it, which moves the time forward by the gap).
  const int64_t before = OffsetAt(local_seconds - 86400);
  const int64_t after = OffsetAt(local_seconds + 86400);
  if (OffsetAt(local_seconds - before) == before) return local_seconds - before;
  if (OffsetAt(local_seconds - after) == after) return local_seconds - after;
  return local_seconds - before;
}

}  // namespace sluice
