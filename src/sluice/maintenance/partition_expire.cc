#include "sluice/maintenance/partition_expire.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

#include "sluice/base/string_util.h"
#include "sluice/maintenance/used_files.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/option_value.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/types/time_zone.h"
#include "sluice/value.h"

namespace sluice {
namespace {

struct LocalDateTime {
  int64_t year = 0;
  int64_t month = 1;
  int64_t day = 1;
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t nanos = 0;
};

Status BadTime(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("cannot read a partition time from '" + std::string(text) +
                                 "': " + std::string(why));
}

// Reads `min`..`max` digits at `*pos`.
bool ReadDigits(std::string_view text, size_t* pos, size_t min, size_t max, int64_t* out) {
  size_t n = 0;
  int64_t v = 0;
  while (*pos + n < text.size() && n < max &&
         std::isdigit(static_cast<unsigned char>(text[*pos + n]))) {
    v = v * 10 + (text[*pos + n] - '0');
    ++n;
  }
  if (n < min) return false;
  *pos += n;
  *out = v;
  return true;
}

// A java.time pattern: letters y M d H m s S (a run of n letters reads n digits, one letter one
// or two, `y` one to four), 'quoted' and other characters as literals.
Result<LocalDateTime> ParseWithPattern(std::string_view text, std::string_view pattern) {
  LocalDateTime t;
  size_t pos = 0;
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      const size_t close = pattern.find('\'', i + 1);
      const std::string_view literal =
          pattern.substr(i + 1, (close == std::string_view::npos ? pattern.size() : close) - i - 1);
      if (text.substr(pos, literal.size()) != literal) return BadTime(text, "literal mismatch");
      pos += literal.size();
      i = close == std::string_view::npos ? pattern.size() : close + 1;
      continue;
    }
    size_t run = 1;
    while (i + run < pattern.size() && pattern[i + run] == c) ++run;
    int64_t* field = nullptr;
    switch (c) {
      case 'y':
      case 'u':
        field = &t.year;
        break;
      case 'M':
        field = &t.month;
        break;
      case 'd':
        field = &t.day;
        break;
      case 'H':
        field = &t.hour;
        break;
      case 'm':
        field = &t.minute;
        break;
      case 's':
        field = &t.second;
        break;
      case 'S': {
        int64_t fraction = 0;
        if (!ReadDigits(text, &pos, run, run, &fraction)) return BadTime(text, "fraction");
        for (size_t d = run; d < 9; ++d) fraction *= 10;
        t.nanos = fraction;
        i += run;
        continue;
      }
      default:
        if (std::isalpha(static_cast<unsigned char>(c))) {
          return BadTime(text, "pattern letter '" + std::string(1, c) + "' is not supported");
        }
        for (size_t k = 0; k < run; ++k) {
          if (pos >= text.size() || text[pos] != c) return BadTime(text, "literal mismatch");
          ++pos;
        }
        i += run;
        continue;
    }
    const size_t min = run;
    const size_t max = run == 1 ? (c == 'y' || c == 'u' ? 4 : 2) : run;
    if (!ReadDigits(text, &pos, min, max, field)) return BadTime(text, "digits expected");
    i += run;
  }
  if (pos != text.size()) return BadTime(text, "trailing text");
  return t;
}

// Java's default: `Y-M-D`, optionally ` H:M:S`, optionally a fraction (1-9 digits).
Result<LocalDateTime> ParseDefault(std::string_view text) {
  LocalDateTime t;
  size_t pos = 0;
  auto expect = [&](char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  };
  if (!ReadDigits(text, &pos, 1, 10, &t.year) || !expect('-') ||
      !ReadDigits(text, &pos, 1, 2, &t.month) || !expect('-') ||
      !ReadDigits(text, &pos, 1, 2, &t.day)) {
    return BadTime(text, "expected yyyy-MM-dd");
  }
  if (pos < text.size()) {
    if (!expect(' ') || !ReadDigits(text, &pos, 1, 2, &t.hour) || !expect(':') ||
        !ReadDigits(text, &pos, 1, 2, &t.minute) || !expect(':') ||
        !ReadDigits(text, &pos, 1, 2, &t.second)) {
      return BadTime(text, "expected yyyy-MM-dd HH:mm:ss");
    }
    if (expect('.')) {
      const size_t start = pos;
      int64_t fraction = 0;
      if (!ReadDigits(text, &pos, 1, 9, &fraction)) return BadTime(text, "fraction");
      for (size_t d = pos - start; d < 9; ++d) fraction *= 10;
      t.nanos = fraction;
    }
    if (pos != text.size()) return BadTime(text, "trailing text");
  }
  return t;
}

// Every `from` in `text` replaced by `to`, left to right (Java String.replaceAll of a literal).
std::string ReplaceAll(std::string text, std::string_view from, std::string_view to) {
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

}  // namespace

Result<PartitionExpireStrategy> PartitionExpireStrategyFromName(std::string_view name) {
  const std::string lower = AsciiToLower(name);
  if (lower == "values-time") return PartitionExpireStrategy::kValuesTime;
  if (lower == "update-time") return PartitionExpireStrategy::kUpdateTime;
  return Status::InvalidArgument(
      "option 'partition.expiration-strategy' must be values-time or update-time: '" +
      std::string(name) + "'");
}

Result<PartitionExpireConfig> PartitionExpireConfig::FromOptions(const CoreOptions& options) {
  PartitionExpireConfig config;
  if (const std::string* v = options.Find("partition.expiration-time")) {
    SLUICE_ASSIGN_OR_RETURN(auto ms, ParseDurationOption("partition.expiration-time", *v));
    config.expiration_millis = ms.count();
  }
  if (const std::string* v = options.Find("partition.expiration-check-interval")) {
    SLUICE_ASSIGN_OR_RETURN(auto ms,
                            ParseDurationOption("partition.expiration-check-interval", *v));
    config.check_interval_millis = ms.count();
  }
  if (const std::string* v = options.Find("partition.timestamp-formatter")) {
    config.timestamp_formatter = *v;
  }
  if (const std::string* v = options.Find("partition.timestamp-pattern")) {
    config.timestamp_pattern = *v;
  }
  if (const std::string* v = options.Find("partition.expiration-strategy")) {
    SLUICE_ASSIGN_OR_RETURN(config.strategy, PartitionExpireStrategyFromName(*v));
  }
  if (const std::string* v = options.Find("partition.expiration-max-num")) {
    SLUICE_ASSIGN_OR_RETURN(config.max_expires, ParseIntOption("partition.expiration-max-num", *v));
  }
  return config;
}

Result<int64_t> ParsePartitionTime(std::string_view text,
                                   const std::optional<std::string>& formatter) {
  SLUICE_ASSIGN_OR_RETURN(LocalDateTime t,
                          formatter ? ParseWithPattern(text, *formatter) : ParseDefault(text));
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 ||
      t.second > 59) {
    return BadTime(text, "field out of range");
  }
  const int64_t days =
      DaysFromCivil(t.year, static_cast<unsigned>(t.month), static_cast<unsigned>(t.day));
  return ((days * 24 + t.hour) * 60 + t.minute) * 60000 + t.second * 1000 + t.nanos / 1000000;
}

Result<std::vector<PartitionSpec>> PartitionExpire::ExpiredPartitions(int64_t now_millis) const {
  std::vector<PartitionSpec> expired;
  if (!config_.expiration_millis || table_->schema().partition_keys().empty()) return expired;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table_->snapshot_manager().LatestSnapshot());
  if (!latest) return expired;
  FileEntryMerger merger;
  for (const std::string* list : {&latest->base_manifest_list, &latest->delta_manifest_list}) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                            ReadManifestListEntries(*table_, *list));
    SLUICE_RETURN_NOT_OK(merger.AddAll(std::move(entries)));
  }
  // Serialized partition -> the latest creation time of its live files.
  std::map<std::string, int64_t> partitions;
  for (const ManifestEntry& entry : std::move(merger).Finish()) {
    if (entry.kind != FileKind::kAdd) continue;
    const int64_t created = entry.file.creation_time ? entry.file.creation_time->millisecond : 0;
    auto [it, inserted] = partitions.emplace(entry.partition, created);
    if (!inserted) it->second = std::max(it->second, created);
  }
  // Partition times and file creation times are wall clocks of the process's zone (Java's
  // LocalDateTime.now() in the JVM's), so `now` is too.
  const int64_t expire_before =
      TimeZone::Process()->LocalMillis(now_millis) - *config_.expiration_millis;
  std::vector<std::pair<int64_t, PartitionSpec>> candidates;
  for (const auto& [partition, last_created] : partitions) {
    SLUICE_ASSIGN_OR_RETURN(PartitionSpec spec,
                            table_->path_factory().PartitionSpecOfSerialized(partition));
    int64_t time = last_created;
    if (config_.strategy == PartitionExpireStrategy::kValuesTime) {
      std::string text = spec.front().second;
      if (config_.timestamp_pattern) {
        text = *config_.timestamp_pattern;
        for (const auto& [key, value] : spec) text = ReplaceAll(text, "$" + key, value);
      }
      Result<int64_t> parsed = ParsePartitionTime(text, config_.timestamp_formatter);
      if (!parsed.ok()) continue;  // Java: a partition without a readable time never expires
      time = *parsed;
    }
    if (time < expire_before) candidates.emplace_back(time, std::move(spec));
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [time, spec] : candidates) {
    if (static_cast<int32_t>(expired.size()) >= config_.max_expires) break;
    expired.push_back(std::move(spec));
  }
  return expired;
}

Result<std::vector<PartitionSpec>> PartitionExpire::Expire(int64_t now_millis,
                                                           const std::string& commit_user) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<PartitionSpec> expired, ExpiredPartitions(now_millis));
  if (expired.empty()) return expired;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                          FileStoreCommit::Make(table_, commit_user));
  SLUICE_RETURN_NOT_OK(commit->DropPartitions(expired).status());
  return expired;
}

}  // namespace sluice
