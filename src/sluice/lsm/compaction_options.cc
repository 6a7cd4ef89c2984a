#include "sluice/lsm/compaction_options.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <string>

#include "sluice/table/option_value.h"

namespace sluice {
namespace {

Result<double> ParseDouble(std::string_view key, const std::string& text) {
  size_t begin = text.find_first_not_of(" \t");
  size_t end = text.find_last_not_of(" \t");
  double value = 0;
  if (begin != std::string::npos) {
    const char* first = text.data() + begin;
    const char* last = text.data() + end + 1;
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && ptr == last) return value;
  }
  return Status::InvalidArgument("option '" + std::string(key) + "': '" + text +
                                 "' is not a number");
}

}  // namespace

Result<CompactionOptions> CompactionOptions::Make(const CoreOptions& options,
                                                  bool has_primary_key) {
  CompactionOptions c;
  c.num_sorted_run_compaction_trigger = options.num_sorted_run_compaction_trigger();
  c.num_sorted_run_stop_trigger = options.num_sorted_run_stop_trigger();
  c.num_levels = options.num_levels();
  c.max_size_amplification_percent = options.compaction_max_size_amplification_percent();
  c.size_ratio = options.compaction_size_ratio();
  c.full_compaction_delta_commits = options.full_compaction_delta_commits();
  c.write_only = options.write_only();
  c.target_file_size = options.TargetFileSize(has_primary_key);
  bool force_lookup = false;
  if (const std::string* v = options.Find("force-lookup")) {
    SLUICE_ASSIGN_OR_RETURN(force_lookup, ParseBooleanOption("force-lookup", *v));
  }
  c.need_lookup = options.merge_engine() == MergeEngine::kFirstRow ||
                  options.changelog_producer() == ChangelogProducer::kLookup ||
                  options.deletion_vectors_enabled() || force_lookup;
  for (const char* key : {"lookup-wait", "changelog-producer.lookup-wait"}) {
    if (const std::string* v = options.Find(key)) {
      SLUICE_ASSIGN_OR_RETURN(c.lookup_wait, ParseBooleanOption(key, *v));
      break;
    }
  }
  if (const std::string* v = options.Find("lookup-compact")) {
    std::string mode = *v;
    for (char& ch : mode) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (mode != "radical" && mode != "gentle") {
      return Status::InvalidArgument("option 'lookup-compact': '" + *v +
                                     "' is not radical or gentle");
    }
    c.lookup_compact_gentle = mode == "gentle";
  }
  if (const std::string* v = options.Find("lookup-compact.max-interval")) {
    SLUICE_ASSIGN_OR_RETURN(c.lookup_compact_max_interval,
                            ParseIntOption("lookup-compact.max-interval", *v));
  }
  if (const std::string* v = options.Find("compaction.force-up-level-0")) {
    SLUICE_ASSIGN_OR_RETURN(c.force_up_level0,
                            ParseBooleanOption("compaction.force-up-level-0", *v));
  }
  if (const std::string* v = options.Find("compaction.optimization-interval")) {
    SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds ms,
                            ParseDurationOption("compaction.optimization-interval", *v));
    c.optimization_interval_millis = ms.count();
  }
  if (const std::string* v = options.Find("compaction.total-size-threshold")) {
    SLUICE_ASSIGN_OR_RETURN(c.total_size_threshold,
                            ParseMemorySizeOption("compaction.total-size-threshold", *v));
  }
  if (const std::string* v = options.Find("compaction.incremental-size-threshold")) {
    SLUICE_ASSIGN_OR_RETURN(c.incremental_size_threshold,
                            ParseMemorySizeOption("compaction.incremental-size-threshold", *v));
  }
  if (const std::string* v = options.Find("compaction.offpeak.start.hour")) {
    SLUICE_ASSIGN_OR_RETURN(c.offpeak_start_hour,
                            ParseIntOption("compaction.offpeak.start.hour", *v));
  }
  if (const std::string* v = options.Find("compaction.offpeak.end.hour")) {
    SLUICE_ASSIGN_OR_RETURN(c.offpeak_end_hour, ParseIntOption("compaction.offpeak.end.hour", *v));
  }
  if (const std::string* v = options.Find("compaction.offpeak-ratio")) {
    SLUICE_ASSIGN_OR_RETURN(c.offpeak_ratio, ParseIntOption("compaction.offpeak-ratio", *v));
  }
  if (const std::string* v = options.Find("compaction.small-file-ratio")) {
    SLUICE_ASSIGN_OR_RETURN(c.small_file_ratio, ParseDouble("compaction.small-file-ratio", *v));
  }
  if (const std::string* v = options.Find("compaction.min.file-num")) {
    SLUICE_ASSIGN_OR_RETURN(c.min_file_num, ParseIntOption("compaction.min.file-num", *v));
  }
  return c;
}

bool IsFullCompactionCommit(int64_t identifier, int32_t delta_commits) {
  if (identifier == std::numeric_limits<int64_t>::max()) return true;
  // Java GlobalFullCompactionSinkWrite takes max(delta-commits, 1).
  const int64_t delta = delta_commits < 1 ? 1 : delta_commits;
  return identifier % delta == 0;
}

}  // namespace sluice
