#include "sluice/table/deletion_vector_row_check.h"

#include <climits>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sluice/batch/row_projection_encoder.h"
#include "sluice/index/deletion_vector_reader.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {
namespace {

// One row of a bucket: its key's bytes and sequence number, by file and position.
struct FileRows {
  std::vector<std::string> keys;
  std::vector<int64_t> sequences;
};

Result<FileRows> ReadKeys(const FileStoreTable& table, const DataSplit& split, size_t file) {
  const TableSchema& schema = table.schema();
  KeyValueFileReader::Options options;
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<KeyValueFileReader> reader,
      KeyValueFileReader::Open(table, schema, schema.LogicalRowType(), split, file, options));
  std::vector<int> key_columns;
  std::vector<DataTypePtr> key_types;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    key_columns.push_back(schema.FieldIndex(name));
    key_types.push_back(schema.fields()[static_cast<size_t>(key_columns.back())].type);
  }
  RowProjectionEncoder encoder(std::move(key_columns), std::move(key_types));
  const DataTypePtr record_type = KeyValueFileReader::RecordType(schema.LogicalRowType());
  const int sequence_column = record_type->num_fields() - 2;
  ColumnBatch batch(record_type);
  FileRows rows;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) return rows;
    const int64_t* sequences = batch.column(sequence_column)->data<int64_t>();
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      SLUICE_ASSIGN_OR_RETURN(std::string_view key, encoder.Encode(batch, row));
      rows.keys.emplace_back(key);
      rows.sequences.push_back(sequences[row]);
    }
  }
}

void CheckSplit(const FileStoreTable& table, const DataSplit& split,
                const std::function<void(std::string)>& problem) {
  // Per key: the newest record of the bucket, and the rows no vector deletes.
  struct KeyState {
    int64_t newest = INT64_MIN;
    int64_t live_rows = 0;
    int64_t live_sequence = 0;
    size_t live_file = 0;
  };
  std::unordered_map<std::string, KeyState> keys;
  for (size_t f = 0; f < split.data_files.size(); ++f) {
    const std::string& name = split.data_files[f].file_name;
    Result<FileRows> rows = ReadKeys(table, split, f);
    if (!rows.ok()) {
      problem("data file " + split.data_file_paths[f] + ": " + rows.status().ToString());
      return;
    }
    std::optional<DeletionVector> dv;
    if (f < split.deletion_files.size() && split.deletion_files[f]) {
      const DeletionFile& where = *split.deletion_files[f];
      Result<DeletionVector> read = ReadDeletionVector(*table.io(), where);
      if (!read.ok()) {
        problem("deletion vector of data file " + name + " in " + where.path + ": " +
                read.status().ToString());
        return;
      }
      for (int64_t position : read->ToSortedPositions()) {
        if (position >= static_cast<int64_t>(rows->keys.size())) {
          problem("deletion vector of data file " + name + " in " + where.path + " deletes row " +
                  std::to_string(position) + ", beyond the file's " +
                  std::to_string(rows->keys.size()) + " rows");
          return;
        }
      }
      dv = std::move(read).value();
    }
    for (size_t r = 0; r < rows->keys.size(); ++r) {
      KeyState& key = keys[rows->keys[r]];
      key.newest = std::max(key.newest, rows->sequences[r]);
      if (dv && dv->IsDeleted(static_cast<int64_t>(r))) continue;
      ++key.live_rows;
      key.live_sequence = rows->sequences[r];
      key.live_file = f;
    }
  }
  for (const auto& [bytes, key] : keys) {
    const std::string& file = split.data_files[key.live_file].file_name;
    if (key.live_rows > 1) {
      problem("bucket " + split.bucket_path + ": a key has " + std::to_string(key.live_rows) +
              " rows no deletion vector deletes (one in " + file +
              "): a replaced row is not deleted");
    } else if (key.live_rows == 1 && key.live_sequence < key.newest) {
      problem("data file " + file + ": a row (sequence number " +
              std::to_string(key.live_sequence) +
              ") is visible while a deletion vector deletes "
              "the newer record of its key (sequence number " +
              std::to_string(key.newest) + ")");
    }
  }
}

}  // namespace

void CheckDeletionVectorRows(const FileStoreTable& table,
                             const std::vector<std::pair<std::string, std::string>>& path_remap,
                             const std::function<void(std::string)>& problem) {
  // A batch plan: the files above level 0 with their deletion vectors.
  ScanOptions scan;
  scan.path_remap = path_remap;
  // A table whose plan fails (a file naming a missing schema, say) is a finding of the check,
  // not a failure to run it: the structural part has already named the cause.
  Result<ScanPlan> plan = PlanScan(table, scan);
  if (!plan.ok()) {
    problem("deletion vector rows not checked: the batch plan fails: " + plan.status().ToString());
    return;
  }
  for (const DataSplit& split : plan->splits) CheckSplit(table, split, problem);
}

}  // namespace sluice
