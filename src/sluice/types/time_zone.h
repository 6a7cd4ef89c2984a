// TimeZone: UTC offsets of an IANA zone, read from the system tz database (TZif files under
// /usr/share/zoneinfo, or $TZDIR). GCC 12's libstdc++ has no <chrono> tzdb, hence this reader.
// Used to turn ORC TIMESTAMP values, stored relative to the writer's zone, into wall-clock time,
// and by the read path's casts for the session time zone.
//
// Instants after the last transition follow the POSIX TZ rule in the file's footer (e.g.
// "PST8PDT,M3.2.0,M11.1.0"), as RFC 8536 prescribes.
//
// Thread safety: TimeZone objects are immutable; Load is thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

class TimeZone {
 public:
  // "UTC", "GMT", "Z" and "" are UTC; other names are looked up in the tz database. Cached.
  static Result<std::shared_ptr<const TimeZone>> Load(const std::string& name);
  // The name of the process's time zone, where Java takes its JVM default zone from
  // (TimeZone.getDefault: the TZ variable, then the system's zone): TZ without a leading ':'
  // when set and not empty, else the zone /etc/localtime links to; "UTC" when neither names a
  // zone Load finds (the JVM falls back to GMT). Read at each call.
  static std::string ProcessZoneName();
  // The zone ProcessZoneName names (UTC when it cannot be read).
  static std::shared_ptr<const TimeZone> Process();
  // Parses a TZif file's content.
  static Result<std::shared_ptr<const TimeZone>> Parse(std::string name, std::string_view tzif);

  const std::string& name() const { return name_; }
  bool is_utc() const { return transitions_.empty() && offsets_.size() == 1 && offsets_[0] == 0; }
  // Seconds east of UTC in effect at `utc_seconds`.
  int64_t OffsetAt(int64_t utc_seconds) const;
  // The UTC instant of a local wall-clock time (seconds since the epoch as if local were UTC),
  // as java.time resolves LocalDateTime.atZone: in an overlap the earlier offset, in a gap the
  // offset before the gap (the time moves forward by the gap).
  int64_t LocalToUtc(int64_t local_seconds) const;
  // The wall clock of an instant as millis since the epoch as if local were UTC (Java
  // LocalDateTime.ofInstant), and back (LocalToUtc's resolution of gaps and overlaps).
  int64_t LocalMillis(int64_t epoch_millis) const;
  int64_t UtcMillis(int64_t local_millis) const;

 private:
  std::string name_;
  std::vector<int64_t> transitions_;      // UTC seconds, ascending
  std::vector<uint8_t> transition_type_;  // index into offsets_, one per transition
  std::vector<int64_t> offsets_;          // per local time type
  int64_t initial_offset_ = 0;            // before the first transition

  // The footer's POSIX rule: standard / daylight offsets (seconds east of UTC) and the local
  // dates the daylight period starts and ends.
  struct PosixRule {
    enum class Kind : uint8_t { kJulianNoLeap, kZeroBasedDay, kMonthWeekDay };
    Kind kind = Kind::kMonthWeekDay;
    int month = 0, week = 0, weekday = 0, day = 0;
    int64_t time = 7200;  // seconds after local midnight
  };
  bool has_posix_ = false;
  bool posix_has_dst_ = false;
  int64_t posix_std_offset_ = 0;
  int64_t posix_dst_offset_ = 0;
  PosixRule posix_start_, posix_end_;
  bool ParsePosix(std::string_view spec);
  int64_t PosixOffsetAt(int64_t utc_seconds) const;
};

}  // namespace sluice
