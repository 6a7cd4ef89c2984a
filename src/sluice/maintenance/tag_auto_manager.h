// TagAutoManager: the tags a table makes and expires by itself at commit (Java TagAutoManager
// with TagAutoCreation, TagBatchCreation and TagTimeExpire).
//
// `tag.automatic-creation`:
//   process-time / watermark  every new snapshot's time (TagTimeExtractor) is checked: once it
//       is, less `tag.creation-delay`, at or past the end of the period after the last
//       automatic tag, the snapshot is tagged with the name of the period before the one its
//       time is in (TagPeriodHandler); with `tag.automatic-completion` the name is instead the
//       period right after the last tag's, so no period is skipped. The first tag goes on the
//       first snapshot checked. The walk starts after the newest automatic tag's snapshot (or
//       at the earliest snapshot) and jumps over expired snapshots.
//   batch  after a batch commit the latest snapshot is tagged `tag.batch.customized-name` or
//       "batch-write-<yyyy-MM-dd of its commit time>", replacing a tag of that name.
// New tags carry `tag.default-time-retained`. After each new tag, `tag.num-retained-max`:
// automatic tags (in batch mode, all tags) beyond the newest that many go, oldest snapshot first
// (DeleteTagAndUnusedFiles). Whatever the mode, with `tag.time-expire-enabled` (default true)
// every tag whose retention has passed goes after each commit (TagTimeExpire).
//
// The clock (epoch millis) is passed in: it stamps `tagCreateTime` and decides retention.
//
// Thread safety: not thread-safe; one per committer (it remembers the next tag and snapshot).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/maintenance/tag_period_handler.h"
#include "sluice/maintenance/tag_time_extractor.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct TagAutoConfig {
  TagCreationMode mode = TagCreationMode::kNone;
  int64_t delay_millis = 0;                          // tag.creation-delay
  std::optional<int32_t> num_retained_max;           // tag.num-retained-max
  std::optional<int64_t> default_time_retained;      // tag.default-time-retained (millis)
  bool automatic_completion = false;                 // tag.automatic-completion
  bool time_expire_enabled = true;                   // tag.time-expire-enabled
  std::optional<std::string> batch_customized_name;  // tag.batch.customized-name

  // InvalidArgument naming the option and the value.
  static Result<TagAutoConfig> FromOptions(const CoreOptions& options);
};

class TagAutoManager {
 public:
  // InvalidArgument naming a bad option; Corruption when the newest automatic tag's snapshot
  // carries two automatic tags (Java checkAndGetOneAutoTag).
  static Result<std::unique_ptr<TagAutoManager>> Make(std::shared_ptr<const FileStoreTable> table);

  // What runs after every commit (Java TableCommitImpl.maintain): tags the snapshots committed
  // since the last run (process-time / watermark), then expires the tags past their retention.
  // Returns the tags created.
  Result<std::vector<std::string>> Run(int64_t now_millis);
  // After a batch commit, in batch mode (Java TagBatchCreation.createTag, which the engines call
  // once a batch job committed): tags the latest snapshot. Returns the tag, none without a
  // snapshot or in another mode.
  Result<std::optional<std::string>> CreateBatchTag(int64_t now_millis);

  const TagAutoConfig& config() const { return config_; }

 private:
  TagAutoManager(std::shared_ptr<const FileStoreTable> table, TagAutoConfig config,
                 std::optional<TagTimeExtractor> extractor, TagPeriodHandler period)
      : table_(std::move(table)),
        config_(std::move(config)),
        extractor_(std::move(extractor)),
        period_(std::move(period)) {}

  Status Init();
  Result<std::optional<std::string>> TryToCreateTag(const Snapshot& snapshot, int64_t now_millis);
  // Deletes the oldest automatic tags beyond `tag.num-retained-max`.
  Status ExpireAutoTags();
  // Deletes the oldest tags of any name beyond `tag.num-retained-max` (Java TagBatchCreation).
  Status ExpireAllTags();

  std::shared_ptr<const FileStoreTable> table_;
  TagAutoConfig config_;
  std::optional<TagTimeExtractor> extractor_;
  TagPeriodHandler period_;
  // The period start of the newest automatic tag's successor; none before the first tag.
  std::optional<int64_t> next_tag_;
  int64_t next_snapshot_ = 1;
};

}  // namespace sluice
