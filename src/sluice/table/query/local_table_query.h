// LocalTableQuery: point lookups by primary key on one version of a primary-key table (Java
// table.query.LocalTableQuery, what a lookup join reads): the version's files are planned once
// (level 0 included), each bucket is looked up through LookupLevels, lookup files are built
// lazily per data file into a LookupFileCache under a local directory.
//
// The row of a key is the latest merged row, as a batch read with merge would return it:
//   - tables that need lookup (deletion vectors, `changelog-producer = lookup`, first-row,
//     `force-lookup`) keep each key's merged value in its newest record above level 0, which is
//     taken as it is (level 0, not compacted yet, is not seen, as in Java); a record a
//     deletion vector deletes is passed over (a compaction that drops a key's delete marks the
//     key's older rows in deletion vectors instead);
//   - deduplicate tables without `sequence.field` take the key's newest record (level 0
//     included), which is what folding its versions would give;
//   - other tables fold every version of the key with the merge engine, oldest first.
// A key whose result is a retraction (-U / -D) or that is in no file has no row.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/index/deletion_vector.h"
#include "sluice/lsm/lookup/lookup_levels.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/row_key_extractor.h"
#include "sluice/table/source/data_split.h"

namespace sluice {

class LocalTableQuery {
 public:
  // NotSupported for a table without primary key. `local_dir`: where lookup files go (the
  // system temporary directory when empty). Errors of planning the version as a scan's.
  static Result<std::unique_ptr<LocalTableQuery>> Make(std::shared_ptr<const FileStoreTable> table,
                                                       const TableVersion& version,
                                                       std::string local_dir = "");
  ~LocalTableQuery();

  // The schema the rows come in (the version's).
  const TableSchema& schema() const { return *schema_; }
  // ROW of the primary key fields, in the order Lookup takes them.
  const DataTypePtr& key_type() const { return key_type_; }

  // The row of `key` (one value per primary key field, nulls not allowed), or nullopt.
  // InvalidArgument when the key has the wrong number of values or a null.
  Result<std::optional<ValueList>> Lookup(const ValueList& key);

 private:
  struct Bucket {
    DataSplit split;
    std::unique_ptr<LookupLevels> levels;  // built on the first lookup
    // Data file name -> its deletion vector, loaded on the first hit in that file.
    std::map<std::string, DeletionVector> deletion_vectors;
  };

  LocalTableQuery() = default;
  Result<LookupLevels*> LevelsOf(Bucket* bucket);
  // Whether the version's deletion vector of the hit's file deletes the hit's row.
  Result<bool> IsDeleted(Bucket* bucket, const PositionedKeyValue& hit);

  std::shared_ptr<const FileStoreTable> table_;
  std::shared_ptr<const TableSchema> schema_;
  DataTypePtr key_type_;
  std::shared_ptr<LookupFileCache> cache_;
  std::unique_ptr<MergeFunction> merge_function_;
  std::optional<KeyValueMergeOrder> merge_order_;
  std::optional<RowKeyExtractor> key_extractor_;
  bool need_lookup_ = false;
  bool newest_wins_ = false;   // deduplicate without sequence.field
  bool fixed_bucket_ = false;  // more than one fixed bucket: the key's bucket is computed
  int num_levels_ = 0;
  // For each primary key field: its column in the table row; whether it is a partition field.
  std::vector<int> key_columns_;
  // Indexes into the primary key of the partition fields (in partition order), and of the
  // trimmed key fields; empty partition_in_key_ with a partitioned table: search every one.
  std::vector<int> partition_in_key_;
  std::vector<int> trimmed_in_key_;
  // (serialized partition, bucket) -> files.
  std::map<std::pair<std::string, int32_t>, Bucket> buckets_;
};

}  // namespace sluice
