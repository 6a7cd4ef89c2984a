// ChangelogMergeTreeRewriter: the CompactRewriter of a primary-key bucket whose table produces
// its changelog at compaction or needs lookup (Java ChangelogMergeTreeRewriter with its
// subclasses FullChangelogMergeTreeCompactRewriter and LookupMergeTreeCompactRewriter). A
// compaction that produces changelog merges with a ChangelogMergeFunctionWrapper and writes,
// besides the compacted files, the keys' changes into changelog files at the output level
// (CompactResult changelog); any other compaction is MergeTreeCompactRewriter's.
//
//   full-compaction  a compaction to the max level (only full compactions write there):
//                    FullChangelogMergeFunctionWrapper over the compaction's runs. A file
//                    moved up to the max level is read for its changes (+I) and kept as is.
//   lookup           a compaction above level 0 with level-0 files in it:
//                    LookupChangelogMergeFunctionWrapper over the compaction's runs, the keys'
//                    newest records in the runs above the output level (which the compaction
//                    leaves in place, CompactRewriter::SetHigherRuns) looked up in the bucket's
//                    LookupLevels (lsm/lookup, lookup files cached per `lookup.cache-*`), so
//                    that every record written above level 0 holds its key's whole value
//                    (LookupMergeFunction, how Java reads these tables). A level-0 file moved
//                    up is read for its changes; it is kept as is only at the max level or for
//                    deduplicate without `sequence.field`, else rewritten (Java
//                    LookupMergeTreeCompactRewriter.upgradeStrategy).
// `force-lookup` tables (not first-row) compact as lookup, without changelog files.
//
// Lookup compactions of engines that pick a record by sequence number (deduplicate without
// `sequence.field`, first-row), without row-deduplicate or deletion vectors, merge with a
// LookupChangelogRangeReducer: the same changes, copied column by column.
//
// Deletion vectors (LookupMergeTreeCompactRewriter hands its bucket's vectors in, Java
// LookupMergeTreeCompactRewriter with a BucketedDvMaintainer): compactions go as for lookup,
// whatever the changelog producer (changelog files only for lookup): input files are read
// under their vectors, the looked-up record of a key is reported to
// DeletionVectorHooks::supersede (the output supersedes it), and deletes are always dropped
// (Java forceDropDelete). A looked-up row a vector already deletes is no value of its key
// (nothing newer stays above). Level-0 files are always rewritten, never moved up as they are.
//
// Thread safety: as CompactRewriter.
#pragma once

#include <functional>
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
  // The bucket's deletion vectors, as the compaction sees them.
  struct DeletionVectorHooks {
    // Whether a vector deletes row `position` of data file `file`.
    std::function<bool(const std::string& file, int64_t position)> is_deleted;
    // Row `position` of `file` is superseded by the running compaction's output.
    std::function<void(const std::string& file, int64_t position)> supersede;
  };

  // `max_level`: the bucket's highest level (what a full compaction writes).
  // REQUIRES: the table's changelog producer is full-compaction or lookup, or it has
  // `force-lookup`, or `deletion_vectors` is given (and the producer is not full-compaction).
  static Result<std::unique_ptr<ChangelogMergeTreeRewriter>> Make(
      std::shared_ptr<const FileStoreTable> table, std::string partition,
      std::shared_ptr<DataFileWriterFactory> writers, int max_level,
      std::optional<DeletionVectorHooks> deletion_vectors = std::nullopt);

  Result<CompactResult> Rewrite(int output_level, bool drop_delete,
                                const std::vector<std::vector<SortedRun>>& sections) override;
  Result<CompactResult> Upgrade(int output_level, const DataFileMeta& file) override;
  bool RewritesLevel0Upgrades() const override { return deletion_vectors_.has_value(); }

 private:
  ChangelogMergeTreeRewriter(std::shared_ptr<const FileStoreTable> table, std::string partition,
                             std::shared_ptr<DataFileWriterFactory> writers, Parts parts,
                             int max_level, std::optional<RecordEqualiser> equaliser,
                             std::optional<DeletionVectorHooks> deletion_vectors);

  // Whether compactions look keys up above the output level (else: full-compaction).
  bool lookup() const {
    return options_.changelog_producer() != ChangelogProducer::kFullCompaction;
  }
  bool produce_lookup_changelog() const {
    return options_.changelog_producer() == ChangelogProducer::kLookup;
  }
  // Whether a rewrite of `sections` to `output_level` produces changelog.
  bool RewriteChangelog(int output_level,
                        const std::vector<std::vector<SortedRun>>& sections) const;
  Result<std::unique_ptr<ChangelogMergeFunctionWrapper>> CreateMergeWrapper(int output_level);
  // Whether lookup changelog can be produced by a LookupChangelogRangeReducer.
  bool ReducesRanges() const;
  // Merges `runs` with the changelog merge wrapper, writing changelog with `changelog_writer`
  // (may be null: none is written) and results with `compact_writer` (may be null).
  Status MergeWithChangelog(int output_level, const std::vector<SortedRun>& runs, bool drop_delete,
                            RollingDataFileWriter* compact_writer,
                            RollingDataFileWriter* changelog_writer);
  // Merges `runs` with a LookupChangelogRangeReducer (REQUIRES: ReducesRanges()), writing
  // changelog with `changelog_writer` and results with `compact_writer` (may be null).
  Status ReduceRangesWithChangelog(int output_level, const std::vector<SortedRun>& runs,
                                   bool drop_delete, RollingDataFileWriter* compact_writer,
                                   RollingDataFileWriter* changelog_writer);
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
  std::optional<DeletionVectorHooks> deletion_vectors_;
  std::unique_ptr<LookupLevels> lookup_levels_;
};

}  // namespace sluice
