// ChangelogMergeTreeRewriter: the CompactRewriter of a primary-key bucket whose table produces
// its changelog at compaction (Java ChangelogMergeTreeRewriter with its subclasses
// FullChangelogMergeTreeCompactRewriter and LookupMergeTreeCompactRewriter). A compaction that
// produces changelog merges with a ChangelogMergeFunctionWrapper and writes, besides the
// compacted files, the keys' changes into changelog files at the output level (CompactResult
// changelog); any other compaction is MergeTreeCompactRewriter's.
//
//   full-compaction  a compaction to the max level (only full compactions write there):
//                    FullChangelogMergeFunctionWrapper over the compaction's runs. A file
//                    moved up to the max level is read for its changes (+I) and kept as is.
//   lookup           a compaction above level 0 with level-0 files in it:
//                    LookupChangelogMergeFunctionWrapper over the compaction's runs, the keys'
//                    records in the runs above the output level (which the compaction leaves
//                    in place, CompactRewriter::SetHigherRuns) looked up in the bucket's
//                    LookupLevels (lsm/lookup, lookup files cached per `lookup.cache-*`). A
//                    level-0 file moved up is read for its changes and kept as is (first-row
//                    rewrites it, dropping the keys already above).
//
// Thread safety: as CompactRewriter.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/lsm/changelog_merge_function_wrapper.h"
#include "sluice/lsm/lookup/lookup_levels.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"

namespace sluice {

class ChangelogMergeTreeRewriter final : public MergeTreeCompactRewriter {
 public:
  // `max_level`: the bucket's highest level (what a full compaction writes).
  // REQUIRES: the table's changelog producer is full-compaction or lookup.
  static Result<std::unique_ptr<ChangelogMergeTreeRewriter>> Make(
      std::shared_ptr<const FileStoreTable> table, std::string partition,
      std::shared_ptr<DataFileWriterFactory> writers, int max_level);

  Result<CompactResult> Rewrite(int output_level, bool drop_delete,
                                const std::vector<std::vector<SortedRun>>& sections) override;
  Result<CompactResult> Upgrade(int output_level, const DataFileMeta& file) override;

 private:
  ChangelogMergeTreeRewriter(std::shared_ptr<const FileStoreTable> table, std::string partition,
                             std::shared_ptr<DataFileWriterFactory> writers, Parts parts,
                             int max_level, std::optional<RecordEqualiser> equaliser);

  bool lookup() const { return options_.changelog_producer() == ChangelogProducer::kLookup; }
  // Whether a rewrite of `sections` to `output_level` produces changelog.
  bool RewriteChangelog(int output_level,
                        const std::vector<std::vector<SortedRun>>& sections) const;
  Result<std::unique_ptr<ChangelogMergeFunctionWrapper>> CreateMergeWrapper(int output_level);
  // Merges `sections` for their changelog; with `rewrite_compact_file` also into new files at
  // `output_level`, else the files are moved up as they are.
  Result<CompactResult> RewriteOrProduceChangelog(
      int output_level, const std::vector<std::vector<SortedRun>>& sections, bool drop_delete,
      bool rewrite_compact_file);

  // The bucket's LookupLevels over the runs above the compaction's output level, made on first
  // use.
  Result<LookupLevels*> LookupLevelsOfHigherRuns();

  int max_level_;
  std::optional<RecordEqualiser> equaliser_;
  std::unique_ptr<LookupLevels> lookup_levels_;
};

}  // namespace sluice
