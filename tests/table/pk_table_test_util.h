// Hand-built primary-key tables for the merge-read tests: a schema file in a temporary
// directory, data files in the key-value layout (format-spec 6.5) written with the Parquet
// FormatWriter, and DataSplits naming them, without the write path.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "sluice/format/file_format_registry.h"
#include "sluice/meta/table_schema.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/types/value_comparator.h"
#include "test_util.h"

namespace sluice::test {

struct Record {
  ValueList value;  // the full row, schema order
  int64_t sequence = 0;
  RowKind kind = RowKind::kInsert;
};

class PkTestTable {
 public:
  // Writes schema-0 (fields get ids 0..n-1) and opens the table.
  static std::unique_ptr<PkTestTable> Create(
      const std::string& dir, std::vector<std::pair<std::string, DataTypePtr>> fields,
      std::vector<std::string> primary_keys, TableOptions options, DynamicOptions dynamic = {}) {
    std::vector<DataField> data_fields;
    for (size_t i = 0; i < fields.size(); ++i) {
      data_fields.push_back(DataField{static_cast<int32_t>(i), fields[i].first, fields[i].second,
                                      std::nullopt, std::nullopt});
    }
    auto schema = TableSchema::Make(3, 0, data_fields, static_cast<int32_t>(fields.size()) - 1, {},
                                    primary_keys, std::move(options), std::nullopt, 0);
    EXPECT_OK(schema);
    auto io = LocalFileIO();
    EXPECT_OK(io->MkDirs(dir + "/schema"));
    EXPECT_OK(io->MkDirs(dir + "/bucket-0"));
    EXPECT_OK(io->WriteFileAtomic(dir + "/schema/schema-0", schema->ToJson(), true));
    auto table = FileStoreTable::Open(io, dir, kMainBranch, std::move(dynamic));
    EXPECT_OK(table);
    auto out = std::make_unique<PkTestTable>();
    out->dir_ = dir;
    out->table_ = std::move(table).value();
    return out;
  }

  const FileStoreTable& table() const { return *table_; }
  std::shared_ptr<const TableSchema> schema() const { return table_->schema_ptr(); }

  // Writes `records` (sorted here by key, then sequence) as one data file at `level`.
  DataFileMeta WriteFile(const std::string& name, int32_t level, std::vector<Record> records) {
    const TableSchema& schema = table_->schema();
    std::vector<int> key_index;
    std::vector<DataField> fields;
    for (const std::string& pk : schema.trimmed_primary_keys()) {
      const int index = schema.FieldIndex(pk);
      key_index.push_back(index);
      const DataField& f = schema.fields()[static_cast<size_t>(index)];
      fields.push_back(DataField{1073741823 + f.id, "_KEY_" + f.name, f.type->WithNullable(false),
                                 std::nullopt, std::nullopt});
    }
    const DataTypePtr key_type = schema.LogicalTrimmedPrimaryKeysType();
    auto key_of = [&](const Record& r) {
      ValueList key;
      for (int i : key_index) key.push_back(r.value[static_cast<size_t>(i)]);
      return key;
    };
    std::stable_sort(records.begin(), records.end(), [&](const Record& a, const Record& b) {
      const ValueList ka = key_of(a), kb = key_of(b);
      for (size_t i = 0; i < ka.size(); ++i) {
        const int c = CompareValues(ka[i], kb[i], *key_type->fields()[i].type);
        if (c != 0) return c < 0;
      }
      return a.sequence < b.sequence;
    });
    fields.push_back(DataField{kSequenceNumberFieldId, kSequenceNumberFieldName,
                               DataType::BigInt(false), std::nullopt, std::nullopt});
    fields.push_back(DataField{kValueKindFieldId, kValueKindFieldName, DataType::TinyInt(false),
                               std::nullopt, std::nullopt});
    for (const DataField& f : schema.fields()) fields.push_back(f);
    const DataTypePtr write_type = DataType::Row(fields);
    ColumnBatch batch(write_type);
    DataFileMeta meta;
    meta.file_name = name;
    meta.level = level;
    meta.row_count = static_cast<int64_t>(records.size());
    meta.min_sequence_number = INT64_MAX;
    meta.max_sequence_number = INT64_MIN;
    meta.delete_row_count = 0;
    for (const Record& r : records) {
      ValueList row = key_of(r);
      row.push_back(Value::Int64(r.sequence));
      row.push_back(Value::Int8(static_cast<int8_t>(r.kind)));
      row.insert(row.end(), r.value.begin(), r.value.end());
      EXPECT_OK(batch.AppendRow(row));
      meta.min_sequence_number = std::min(meta.min_sequence_number, r.sequence);
      meta.max_sequence_number = std::max(meta.max_sequence_number, r.sequence);
      if (IsRetract(r.kind)) ++*meta.delete_row_count;
    }
    if (!records.empty()) {
      const int arity = key_type->num_fields();
      meta.min_key =
          SerializeBinaryRow(EncodeBinaryRow(key_of(records.front()), *key_type).value(), arity);
      meta.max_key =
          SerializeBinaryRow(EncodeBinaryRow(key_of(records.back()), *key_type).value(), arity);
    }
    const std::string path = dir_ + "/bucket-0/" + name;
    auto format = FileFormatByName("parquet").value();
    auto file = LocalFileIO()->OpenForWrite(path, true);
    EXPECT_OK(file);
    auto writer = format->CreateWriter(std::move(file).value(), write_type, WriterOptions{});
    EXPECT_OK(writer);
    EXPECT_OK((*writer)->Write(batch));
    auto result = (*writer)->Finish();
    EXPECT_OK(result);
    meta.file_size = result->file_size;
    return meta;
  }

  DataSplit Split(std::vector<DataFileMeta> files, bool raw_convertible = false,
                  bool is_streaming = false) const {
    DataSplit split;
    split.bucket_path = dir_ + "/bucket-0";
    split.total_buckets = 1;
    for (const DataFileMeta& f : files)
      split.data_file_paths.push_back(split.bucket_path + "/" + f.file_name);
    split.data_files = std::move(files);
    split.raw_convertible = raw_convertible;
    split.is_streaming = is_streaming;
    return split;
  }

 private:
  std::string dir_;
  std::shared_ptr<FileStoreTable> table_;
};

}  // namespace sluice::test
