// LookupMergeTreeCompactRewriter: the CompactRewriter of a primary-key bucket with deletion
// vectors (Java LookupMergeTreeCompactRewriter with the bucket's BucketedDvMaintainer):
//
//   - the keys of the compaction's input files are looked up (LookupLevels) in the runs above
//     the output level (see the two ways below); the record found there is superseded by the
//     compaction's output (or, for a delete, by nothing), so its row position is marked in its
//     file's deletion vector;
//   - inputs are merged under their deletion vectors (a row superseded earlier must not come
//     back) with deletes always dropped (Java forceDropDelete: the superseded rows are deleted
//     by vector, no -D record needs to stay);
//   - a rewritten input file's vector goes with it; level-0 files are always rewritten, never
//     moved up as they are, so that their keys are looked up;
//   - once the compaction succeeded (FinishCompaction) its changes reach the maintainer and
//     the bucket's new deletion-vector index file is written into the result; a failed
//     compaction changes no vector.
//
// Readers then read each file above level 0 on its own, under its vector, with no merge.
//
// Two ways, as Java picks its lookup file processor (MergeTreeCompactManagerFactory):
//   positions  deduplicate without `sequence.field` and without `changelog-producer = lookup`
//              (Java PersistPositionProcessor): the newest record wins, so the looked-up
//              record's position is all that is needed: every key of the input files is
//              looked up in a pass of its own beside MergeTreeCompactRewriter's columnar
//              merge; with `ignore-delete` an ignored delete supersedes nothing.
//   values     partial-update, aggregation, `sequence.field`, `changelog-producer = lookup`
//              (Java PersistValueAndPosProcessor): a ChangelogMergeTreeRewriter in its
//              deletion-vector mode merges the looked-up value into the output (Java
//              LookupMergeFunction; a key is looked up only when none of its input records is
//              above level 0), and with `changelog-producer = lookup` writes the keys'
//              changelog against it in the same pass (LookupChangelogMergeFunctionWrapper).
// Changelog producer `input` writes its changelog at flush and needs nothing here;
// `full-compaction` is refused, as Java's SchemaValidation does. First-row tables never write a
// key already above, supersede nothing and keep MergeTreeCompactRewriter.
//
// Thread safety: one compaction at a time (see CompactRewriter).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/batch/row_projection_encoder.h"
#include "sluice/index/bucketed_dv_maintainer.h"
#include "sluice/lsm/compact_rewriter.h"
#include "sluice/lsm/lookup/lookup_levels.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"

namespace sluice {

class LookupMergeTreeCompactRewriter : public CompactRewriter {
 public:
  // The rewriter of one bucket (`partition` serialized) whose live files are `restored_files`:
  // its deletion vectors are restored from the latest snapshot's index manifest.
  // NotSupported, naming the table and the options, for what this rewriter cannot compact.
  static Status CheckSupported(const FileStoreTable& table, const CoreOptions& options);

  // `max_level`: the bucket's highest level.
  static Result<std::unique_ptr<LookupMergeTreeCompactRewriter>> Make(
      std::shared_ptr<const FileStoreTable> table, std::string partition, int32_t bucket,
      const std::vector<DataFileMeta>& restored_files,
      std::shared_ptr<DataFileWriterFactory> writers, int max_level);
  ~LookupMergeTreeCompactRewriter() override;

  Result<CompactResult> Rewrite(int output_level, bool drop_delete,
                                const std::vector<std::vector<SortedRun>>& sections) override;
  void SetHigherRuns(std::vector<SortedRun> runs) override;
  bool RewritesLevel0Upgrades() const override { return true; }
  Status FinishCompaction(CompactResult* result) override;

  const BucketedDvMaintainer& dv_maintainer() const { return *maintainer_; }

 private:
  LookupMergeTreeCompactRewriter() = default;

  // The positions way: merge_, and the lookup of the input files' keys.
  Status MakePositionLookup(const std::shared_ptr<const FileStoreTable>& table,
                            const std::shared_ptr<const TableSchema>& schema, std::string partition,
                            const CoreOptions& options,
                            const std::shared_ptr<DataFileWriterFactory>& writers);
  // Looks up every key of `file` above the output level, staging the superseded positions.
  Status LookUpKeysOf(const DataFileMeta& file);

  // The compaction of either way (a ChangelogMergeTreeRewriter for values).
  std::unique_ptr<MergeTreeCompactRewriter> merge_;
  bool values_ = false;
  std::unique_ptr<LookupLevels> levels_;  // the positions way only
  LookupFileReaderFactory file_readers_;
  std::unique_ptr<BucketedDvMaintainer> maintainer_;
  std::shared_ptr<FileIO> io_;
  DataTypePtr record_type_;
  std::vector<int> key_columns_;
  std::unique_ptr<RowProjectionEncoder> key_encoder_;
  bool ignore_delete_ = false;
  bool has_higher_runs_ = false;
  // The running compaction's changes: files rewritten, positions superseded.
  std::vector<std::string> staged_removals_;
  std::vector<std::pair<std::string, int64_t>> staged_deletions_;
  ValueList key_;
};

}  // namespace sluice
