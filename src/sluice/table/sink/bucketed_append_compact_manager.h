// BucketedAppendCompactManager: compaction of one bucket of an append table with fixed buckets
// (Java BucketedAppendCompactManager). Files wait in sequence-number order; a normal
// compaction takes the oldest run of consecutive files once `compaction.min.file-num` of them
// are together below 2 x `target-file-size` (the window slides past files that make it too
// large); a full compaction takes every file once at least 3 are waiting, skips the leading
// files already at least `compaction_file_size`, and rewrites the rest only when small files
// outnumber large ones. A rewritten last file still below `compaction_file_size` waits for the
// next compaction. Appends never wait for compaction (no back-pressure).
//
// As in Java, files a compaction passed over (large files the window slid past, files a full
// compaction skipped or did not rewrite) leave the waiting set: they are large enough, or the
// bucket is not worth rewriting, until the writer is restored.
//
// Thread safety: as CompactManager.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "sluice/lsm/compact_manager.h"

namespace sluice {

class BucketedAppendCompactManager : public CompactManager {
 public:
  // Rewrites files (in order) into new ones; returns the new files.
  using Rewrite =
      std::function<Result<std::vector<DataFileMeta>>(const std::vector<DataFileMeta>&)>;

  struct Options {
    int min_file_num = 5;              // compaction.min.file-num
    int64_t target_file_size = 0;      // target-file-size (append default 256 mb)
    int64_t compaction_file_size = 0;  // target-file-size * compaction.small-file-ratio
    bool background = false;
  };

  BucketedAppendCompactManager(const std::vector<DataFileMeta>& restored, Rewrite rewrite,
                               Options options);
  ~BucketedAppendCompactManager() override;

  bool ShouldWaitForLatestCompaction() const override { return false; }
  bool ShouldWaitForPreparingCheckpoint() const override { return false; }
  Status AddNewFile(const DataFileMeta& file) override;
  std::vector<DataFileMeta> AllFiles() const override;
  Status TriggerCompaction(bool full_compaction) override;

  // The files a normal compaction would take now (Java pickCompactBefore), removed from the
  // waiting files together with the large files the window slid past; nothing when there are
  // not enough (the slid-past files are removed all the same).
  std::optional<std::vector<DataFileMeta>> PickCompactBefore();
  // The files waiting, oldest first.
  const std::vector<DataFileMeta>& to_compact() const { return to_compact_; }

 protected:
  Status OnResult(const CompactResult& result) override;

 private:
  void Insert(DataFileMeta file);

  std::shared_ptr<Rewrite> rewrite_;
  Options options_;
  std::vector<DataFileMeta> to_compact_;  // by min sequence number
  std::vector<DataFileMeta> compacting_;
};

}  // namespace sluice
