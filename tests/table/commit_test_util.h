// Hand-built append tables for the committer tests: a schema file in a temporary directory,
// data files written with the Parquet FormatWriter and described by DataFileMeta as an append
// writer would, CommitMessages naming them, and a full read back through PlanScan +
// OpenSplitReader.
//
// Rows are (pt INT, id BIGINT, v STRING); `pt` is the partition key of partitioned tables.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/uuid.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/io/commit_message_impl.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/table_schema.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "test_util.h"

namespace sluice::test {

struct TestRow {
  int32_t pt = 0;
  int64_t id = 0;
  std::string v;

  bool operator==(const TestRow&) const = default;
  auto operator<=>(const TestRow&) const = default;
};

inline DataTypePtr TestRowType() {
  return DataType::Row({DataField{0, "pt", DataType::Int(), std::nullopt, std::nullopt},
                        DataField{1, "id", DataType::BigInt(), std::nullopt, std::nullopt},
                        DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}});
}

// Writes schema-0 of a TestRowType (pt, id, v) table at `dir`: partitioned by pt when
// `partitioned`, with primary key (pt, id) / (id) when `primary_key`.
inline Status CreateTestRowTable(const std::string& dir, bool partitioned, TableOptions options,
                                 bool primary_key = false) {
  auto row_type = TestRowType();
  std::vector<DataField> fields = row_type->fields();
  std::vector<std::string> partition_keys;
  if (partitioned) partition_keys.push_back("pt");
  std::vector<std::string> primary_keys;
  if (primary_key) {
    if (partitioned) primary_keys.push_back("pt");
    primary_keys.push_back("id");
    fields[1].type = DataType::BigInt(false);
    fields[0].type = DataType::Int(!partitioned);
  }
  SLUICE_ASSIGN_OR_RETURN(auto schema,
                          TableSchema::Make(3, 0, fields, 2, partition_keys, primary_keys,
                                            std::move(options), std::nullopt, 1700000000000));
  auto io = LocalFileIO();
  SLUICE_RETURN_NOT_OK(io->MkDirs(dir + "/schema"));
  return io->WriteFileAtomic(dir + "/schema/schema-0", schema.ToJson(), true);
}

inline Result<std::shared_ptr<FileStoreTable>> OpenTestTable(const std::string& dir) {
  return FileStoreTable::Open(LocalFileIO(), dir);
}

// The serialized partition row of `pt` (the empty row for unpartitioned tables).
inline std::string TestPartition(const FileStoreTable& table, int32_t pt) {
  auto type = table.schema().LogicalPartitionType();
  if (type->fields().empty()) return EmptySerializedRow();
  auto row = EncodeBinaryRow({Value::Int32(pt)}, *type);
  EXPECT_OK(row);
  return SerializeBinaryRow(*row, 1);
}

inline std::string SerializeStatsRow(const ValueList& values, const DataType& type) {
  auto row = EncodeBinaryRow(values, type);
  EXPECT_OK(row);
  return SerializeBinaryRow(*row, type.num_fields());
}

// Writes `rows` (all of partition rows[0].pt) as one Parquet data file of `bucket` and
// returns its DataFileMeta (level 0, sequence numbers from `first_sequence`).
inline DataFileMeta WriteTestDataFile(const FileStoreTable& table, int32_t bucket,
                                      const std::vector<TestRow>& rows,
                                      int64_t first_sequence = 0) {
  auto row_type = TestRowType();
  const bool partitioned = !table.schema().partition_keys().empty();
  std::string partition_path;
  if (partitioned) {
    partition_path = PartitionPath({{"pt", std::to_string(rows.empty() ? 0 : rows[0].pt)}});
  }
  const std::string dir = BucketPath(table.path(), partition_path, bucket);
  EXPECT_OK(table.io()->MkDirs(dir));
  DataFileMeta meta;
  meta.file_name = DataFileName("data-", NewUuidV4(), 0, ".parquet");
  auto format = FileFormatByName("parquet");
  EXPECT_OK(format);
  auto file = table.io()->OpenForWrite(JoinPath(dir, meta.file_name), false);
  EXPECT_OK(file);
  if (!file.ok()) return meta;
  WriterOptions options;
  auto writer = (*format)->CreateWriter(std::move(file).value(), row_type, options);
  EXPECT_OK(writer);
  if (!writer.ok()) return meta;
  ColumnBatch batch(row_type);
  for (const auto& r : rows) {
    EXPECT_OK(batch.AppendRow({Value::Int32(r.pt), Value::Int64(r.id), Value::String(r.v)}));
  }
  EXPECT_OK((*writer)->Write(batch));
  auto result = (*writer)->Finish();
  EXPECT_OK(result);
  meta.file_size = result->file_size;
  meta.row_count = result->row_count;
  meta.min_key = EmptySerializedRow();
  meta.max_key = EmptySerializedRow();
  meta.key_stats = SimpleStats{EmptySerializedRow(), EmptySerializedRow(),
                               std::vector<std::optional<int64_t>>()};
  ValueList mins, maxs;
  std::vector<std::optional<int64_t>> nulls;
  for (const auto& s : result->stats) {
    mins.push_back(s.min.value_or(Value::Null()));
    maxs.push_back(s.max.value_or(Value::Null()));
    nulls.push_back(s.null_count);
  }
  meta.value_stats = SimpleStats{SerializeStatsRow(mins, *row_type),
                                 SerializeStatsRow(maxs, *row_type), std::move(nulls)};
  meta.min_sequence_number = first_sequence;
  meta.max_sequence_number = first_sequence + std::max<int64_t>(meta.row_count, 1) - 1;
  meta.schema_id = 0;
  meta.level = 0;
  meta.creation_time = Timestamp{1700000000000, 0};
  meta.delete_row_count = 0;
  meta.file_source = FileSource::kAppend;
  return meta;
}

// A commit message adding `files` to (pt, bucket).
inline CommitMessageImpl AddFiles(const FileStoreTable& table, int32_t pt, int32_t bucket,
                                  std::vector<DataFileMeta> files) {
  CommitMessageImpl m;
  m.partition = TestPartition(table, pt);
  m.bucket = bucket;
  m.total_buckets = table.options().bucket();
  m.data.new_files = std::move(files);
  return m;
}

// A commit message compacting `before` into `after` in (pt, bucket).
inline CommitMessageImpl CompactFiles(const FileStoreTable& table, int32_t pt, int32_t bucket,
                                      std::vector<DataFileMeta> before,
                                      std::vector<DataFileMeta> after) {
  CommitMessageImpl m;
  m.partition = TestPartition(table, pt);
  m.bucket = bucket;
  m.total_buckets = table.options().bucket();
  m.compact.compact_before = std::move(before);
  m.compact.compact_after = std::move(after);
  return m;
}

inline ManifestCommittable Committable(int64_t identifier,
                                       std::vector<CommitMessageImpl> messages) {
  ManifestCommittable c;
  c.identifier = identifier;
  c.messages = std::move(messages);
  return c;
}

// Every row of `version` of the table at `dir`, sorted.
inline Result<std::vector<TestRow>> ReadTestTable(const std::string& dir,
                                                  TableVersion version = TableVersion::Latest()) {
  SLUICE_ASSIGN_OR_RETURN(auto table, OpenTestTable(dir));
  ScanOptions scan;
  scan.version = version;
  scan.num_threads = 1;
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table, scan));
  std::vector<TestRow> rows;
  for (DataSplit& split : plan.splits) {
    SLUICE_ASSIGN_OR_RETURN(auto reader,
                            OpenSplitReader(*table, table->schema_ptr(), std::move(split), {}));
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        TestRow row;
        row.pt = static_cast<int32_t>(batch.column(0)->GetValue(r).AsInt64());
        row.id = batch.column(1)->GetValue(r).AsInt64();
        row.v = batch.column(2)->GetValue(r).bytes();
        rows.push_back(std::move(row));
      }
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

inline std::vector<TestRow> MakeRows(int32_t pt, int64_t first_id, int n, std::string_view tag) {
  std::vector<TestRow> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back({pt, first_id + i, std::string(tag) + "-" + std::to_string(first_id + i)});
  }
  return rows;
}

inline std::vector<TestRow> Sorted(std::vector<TestRow> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The manifests a manifest list of the table names.
inline std::vector<ManifestFileMeta> ReadList(const std::string& dir, const std::string& list) {
  auto io = LocalFileIO();
  auto metas = ReadManifestList(*io, ManifestFilePath(dir, list));
  EXPECT_OK(metas);
  return metas.ok() ? *metas : std::vector<ManifestFileMeta>();
}

}  // namespace sluice::test
