#include "sluice/maintenance/tag_auto_manager.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "sluice/maintenance/tag_deletion.h"
#include "sluice/maintenance/tag_operations.h"
#include "sluice/meta/option_value.h"

namespace sluice {

namespace {

constexpr char kBatchWriteTagPrefix[] = "batch-write-";

// Tag names by tagged snapshot id, ascending (Java TagManager.tags(filter)); names sorted.
template <typename Filter>
Result<std::map<int64_t, std::vector<std::string>>> TagsBySnapshot(const TagManager& tags,
                                                                   Filter keep) {
  SLUICE_ASSIGN_OR_RETURN(auto all, tags.ListTags());
  std::map<int64_t, std::vector<std::string>> out;
  for (const auto& [name, tag] : all) {
    if (keep(name)) out[tag.snapshot.id].push_back(name);
  }
  return out;
}

// Java checkAndGetOneAutoTag.
Result<std::string> OneAutoTag(const std::vector<std::string>& names) {
  if (names.size() == 1) return names.front();
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ",") + name;
  return Status::Corruption("there are more than 1 auto-created tags of the same snapshot: " +
                            joined);
}

}  // namespace

Result<TagAutoConfig> TagAutoConfig::FromOptions(const CoreOptions& options) {
  TagAutoConfig config;
  SLUICE_ASSIGN_OR_RETURN(config.mode, TagCreationModeOf(options));
  if (const std::string* v = options.Find("tag.creation-delay")) {
    SLUICE_ASSIGN_OR_RETURN(auto delay, ParseDurationOption("tag.creation-delay", *v));
    config.delay_millis = delay.count();
  }
  config.num_retained_max = options.tag_num_retained_max();
  config.default_time_retained = options.tag_default_time_retained_millis();
  if (const std::string* v = options.Find("tag.automatic-completion")) {
    SLUICE_ASSIGN_OR_RETURN(config.automatic_completion,
                            ParseBooleanOption("tag.automatic-completion", *v));
  }
  if (const std::string* v = options.Find("tag.time-expire-enabled")) {
    SLUICE_ASSIGN_OR_RETURN(config.time_expire_enabled,
                            ParseBooleanOption("tag.time-expire-enabled", *v));
  }
  if (const std::string* v = options.Find("tag.batch.customized-name")) {
    config.batch_customized_name = *v;
  }
  return config;
}

Result<std::unique_ptr<TagAutoManager>> TagAutoManager::Make(
    std::shared_ptr<const FileStoreTable> table) {
  SLUICE_ASSIGN_OR_RETURN(TagAutoConfig config, TagAutoConfig::FromOptions(table->options()));
  SLUICE_ASSIGN_OR_RETURN(std::optional<TagTimeExtractor> extractor,
                          TagTimeExtractor::ForAutoTag(table->options()));
  SLUICE_ASSIGN_OR_RETURN(TagPeriodHandler period, TagPeriodHandler::FromOptions(table->options()));
  std::unique_ptr<TagAutoManager> manager(new TagAutoManager(
      std::move(table), std::move(config), std::move(extractor), std::move(period)));
  if (manager->extractor_) SLUICE_RETURN_NOT_OK(manager->Init());
  return manager;
}

Status TagAutoManager::Init() {
  SLUICE_RETURN_NOT_OK(period_.ValidateDelay(config_.delay_millis));
  SLUICE_ASSIGN_OR_RETURN(auto tags,
                          TagsBySnapshot(table_->tag_manager(), [this](const std::string& name) {
                            return period_.IsAutoTag(name);
                          }));
  if (tags.empty()) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest,
                            table_->snapshot_manager().EarliestSnapshotId());
    next_snapshot_ = earliest.value_or(1);
    return Status::OK();
  }
  const auto& [last_id, names] = *tags.rbegin();
  next_snapshot_ = last_id + 1;
  SLUICE_ASSIGN_OR_RETURN(std::string name, OneAutoTag(names));
  next_tag_ = period_.NextTagTime(*period_.TagToTime(name));
  return Status::OK();
}

Result<std::vector<std::string>> TagAutoManager::Run(int64_t now_millis) {
  std::vector<std::string> created;
  const SnapshotManager& snapshots = table_->snapshot_manager();
  while (extractor_) {
    SLUICE_ASSIGN_OR_RETURN(bool exists, snapshots.SnapshotExists(next_snapshot_));
    if (exists) {
      SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots.LoadSnapshot(next_snapshot_));
      SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> tag, TryToCreateTag(snapshot, now_millis));
      if (tag) created.push_back(*std::move(tag));
      ++next_snapshot_;
      continue;
    }
    // The snapshot expired before its turn: go on from the earliest one left.
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, snapshots.EarliestSnapshotId());
    if (!earliest || *earliest <= next_snapshot_) break;
    next_snapshot_ = *earliest;
  }
  if (config_.time_expire_enabled) {
    ExpireTagsOptions expire;
    expire.now_millis = now_millis;
    SLUICE_RETURN_NOT_OK(ExpireTags(*table_, expire).status());
  }
  return created;
}

Result<std::optional<std::string>> TagAutoManager::TryToCreateTag(const Snapshot& snapshot,
                                                                  int64_t now_millis) {
  const std::optional<int64_t> time = extractor_->Extract(snapshot);
  if (!time) return std::optional<std::string>();
  if (next_tag_ && *time - config_.delay_millis < period_.NextTagTime(*next_tag_)) {
    return std::optional<std::string>();
  }
  int64_t this_tag = period_.NormalizeToPreviousTag(*time);
  if (config_.automatic_completion && next_tag_) this_tag = *next_tag_;
  const std::string name = period_.TimeToTag(this_tag);
  TagRequest request;
  request.snapshot_id = snapshot.id;
  request.time_retained_millis = config_.default_time_retained;
  request.ignore_if_exists = true;
  request.now_millis = now_millis;
  SLUICE_RETURN_NOT_OK(CreateTag(*table_, name, request).status());
  next_tag_ = period_.NextTagTime(this_tag);
  if (config_.num_retained_max) SLUICE_RETURN_NOT_OK(ExpireAutoTags());
  return std::optional<std::string>(name);
}

Status TagAutoManager::ExpireAutoTags() {
  SLUICE_ASSIGN_OR_RETURN(auto tags,
                          TagsBySnapshot(table_->tag_manager(), [this](const std::string& name) {
                            return period_.IsAutoTag(name);
                          }));
  const size_t max = static_cast<size_t>(std::max(0, *config_.num_retained_max));
  size_t excess = tags.size() > max ? tags.size() - max : 0;
  for (auto it = tags.begin(); excess > 0 && it != tags.end(); ++it, --excess) {
    SLUICE_ASSIGN_OR_RETURN(std::string name, OneAutoTag(it->second));
    SLUICE_RETURN_NOT_OK(DeleteTagAndUnusedFiles(*table_, name).status());
  }
  return Status::OK();
}

Result<std::optional<std::string>> TagAutoManager::CreateBatchTag(int64_t now_millis) {
  if (config_.mode != TagCreationMode::kBatch) return std::optional<std::string>();
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table_->snapshot_manager().LatestSnapshot());
  if (!latest) return std::optional<std::string>();
  std::string name;
  if (config_.batch_customized_name) {
    name = *config_.batch_customized_name;
  } else {
    const std::string* zone_name = table_->options().Find("sink.process-time-zone");
    std::shared_ptr<const TimeZone> zone = TimeZone::Process();
    if (zone_name != nullptr) {
      SLUICE_ASSIGN_OR_RETURN(zone, TimeZone::Load(*zone_name));
    }
    const LocalDateTimeFields day = LocalFieldsOf(zone->LocalMillis(latest->time_millis));
    char date[16];
    std::snprintf(date, sizeof(date), "%04d-%02d-%02d", day.year, day.month, day.day);
    name = kBatchWriteTagPrefix + std::string(date);
  }
  // A tag of that name is replaced: the batch job's last run wins (Java deletes, then creates).
  Result<int64_t> deleted = DeleteTagAndUnusedFiles(*table_, name);
  if (!deleted.ok() && !deleted.status().IsNotFound()) return deleted.status();
  TagRequest request;
  request.snapshot_id = latest->id;
  request.time_retained_millis = config_.default_time_retained;
  request.now_millis = now_millis;
  SLUICE_RETURN_NOT_OK(CreateTag(*table_, name, request).status());
  if (config_.num_retained_max) SLUICE_RETURN_NOT_OK(ExpireAllTags());
  return std::optional<std::string>(name);
}

Status TagAutoManager::ExpireAllTags() {
  const TagManager& tag_manager = table_->tag_manager();
  SLUICE_ASSIGN_OR_RETURN(auto tags,
                          TagsBySnapshot(tag_manager, [](const std::string&) { return true; }));
  size_t count = 0;
  for (const auto& [id, names] : tags) count += names.size();
  const size_t max = static_cast<size_t>(std::max(0, *config_.num_retained_max));
  for (auto it = tags.begin(); count > max && it != tags.end(); ++it) {
    std::vector<std::string> names = it->second;
    if (count - names.size() < max) {
      // Part of this snapshot's tags: the oldest files first (Java sortTagsOfOneSnapshot).
      std::vector<std::pair<int64_t, std::string>> by_age;
      for (const std::string& name : names) {
        SLUICE_ASSIGN_OR_RETURN(FileStatus status,
                                table_->io()->GetStatus(tag_manager.tag_path(name)));
        by_age.emplace_back(status.modification_time_ms, name);
      }
      std::stable_sort(by_age.begin(), by_age.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      names.clear();
      for (auto& [age, name] : by_age) names.push_back(std::move(name));
      names.resize(count - max);
    }
    for (const std::string& name : names) {
      SLUICE_RETURN_NOT_OK(DeleteTagAndUnusedFiles(*table_, name).status());
      --count;
    }
  }
  return Status::OK();
}

}  // namespace sluice
