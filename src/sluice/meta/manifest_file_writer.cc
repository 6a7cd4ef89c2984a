#include "sluice/meta/manifest_file_writer.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "sluice/base/uuid.h"
#include "sluice/column_batch.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_schemas.h"
#include "sluice/meta/manifest_serializer.h"
#include "sluice/row/binary_row.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

// Java RollingFileWriter.CHECK_ROLLING_RECORD_CNT.
constexpr int64_t kRollingCheckEntries = 1000;

}  // namespace

MetaFileNamer::MetaFileNamer() : uuid_(NewUuidV4()) {}

std::string MetaFileNamer::ManifestName(int kind) {
  const int64_t n = counters_[kind]++;
  switch (kind) {
    case 0:
      return ManifestFileName(uuid_, n);
    case 1:
      return ManifestListFileName(uuid_, n);
    default:
      return IndexManifestFileName(uuid_, n);
  }
}

PartitionStatsCollector::PartitionStatsCollector(DataTypePtr partition_type)
    : partition_type_(std::move(partition_type)) {}

void PartitionStatsCollector::Collect(const std::string& partition) {
  if (!partitions_.empty() && partitions_.back().first == partition) {
    ++partitions_.back().second;
    return;
  }
  partitions_.emplace_back(partition, 1);
}

Result<SimpleStats> PartitionStatsCollector::Finish() const {
  const auto& fields = partition_type_->fields();
  const size_t n = fields.size();
  ValueList mins(n, Value::Null());
  ValueList maxs(n, Value::Null());
  std::vector<std::optional<int64_t>> null_counts(n, int64_t{0});
  std::unordered_map<std::string_view, int64_t> distinct;
  for (const auto& [partition, count] : partitions_) distinct[partition] += count;
  for (const auto& [partition, count] : distinct) {
    auto values = DecodeSerializedBinaryRow(partition, *partition_type_);
    if (!values.ok()) return values.status().WithContext("partition of a manifest entry");
    for (size_t i = 0; i < n; ++i) {
      const Value& v = (*values)[i];
      const DataType& type = *fields[i].type;
      if (v.is_null()) {
        *null_counts[i] += count;
        continue;
      }
      if (mins[i].is_null() || CompareValues(v, mins[i], type) < 0) mins[i] = v;
      if (maxs[i].is_null() || CompareValues(v, maxs[i], type) > 0) maxs[i] = v;
    }
  }
  SimpleStats stats;
  const int arity = static_cast<int>(n);
  SLUICE_ASSIGN_OR_RETURN(std::string min_row, EncodeBinaryRow(mins, *partition_type_));
  SLUICE_ASSIGN_OR_RETURN(std::string max_row, EncodeBinaryRow(maxs, *partition_type_));
  stats.min_values = SerializeBinaryRow(min_row, arity);
  stats.max_values = SerializeBinaryRow(max_row, arity);
  stats.null_counts = std::move(null_counts);
  return stats;
}

ManifestFileWriter::ManifestFileWriter(std::shared_ptr<FileIO> io, std::string table_path,
                                       ManifestFileWriterOptions options, MetaFileNamer* namer)
    : io_(std::move(io)),
      table_path_(std::move(table_path)),
      options_(std::move(options)),
      namer_(namer) {}

Result<std::vector<ManifestFileMeta>> ManifestFileWriter::Write(
    const std::vector<ManifestEntry>& entries) {
  std::vector<ManifestFileMeta> out;
  const ManifestEntry* begin = entries.data();
  const ManifestEntry* end = begin + entries.size();
  while (begin != end) {
    const ManifestEntry* stopped_at = end;
    auto meta = WriteOne(begin, end, &stopped_at);
    if (!meta.ok()) {
      for (const auto& written : out) {
        // The write's error is the one to report; a manifest left behind is an orphan.
        io_->Delete(ManifestFilePath(table_path_, written.file_name), false).IgnoreError();
      }
      return meta.status();
    }
    out.push_back(std::move(meta).value());
    begin = stopped_at;
  }
  return out;
}

Result<ManifestFileMeta> ManifestFileWriter::WriteOne(const ManifestEntry* begin,
                                                      const ManifestEntry* end,
                                                      const ManifestEntry** stopped_at) {
  ManifestFileMeta meta;
  meta.file_name = namer_->NewManifestFileName();
  const std::string path = ManifestFilePath(table_path_, meta.file_name);
  const DataTypePtr& row_type = ManifestEntryRowType();

  auto write = [&]() -> Status {
    SLUICE_ASSIGN_OR_RETURN(auto file, io_->OpenForWrite(path, /*overwrite=*/false));
    SLUICE_ASSIGN_OR_RETURN(auto writer, options_.format->CreateWriter(std::move(file), row_type,
                                                                       options_.writer_options));
    PartitionStatsCollector partitions(options_.partition_type);
    int64_t schema_id = std::numeric_limits<int64_t>::min();
    int32_t min_bucket = std::numeric_limits<int32_t>::max();
    int32_t max_bucket = std::numeric_limits<int32_t>::min();
    int32_t min_level = std::numeric_limits<int32_t>::max();
    int32_t max_level = std::numeric_limits<int32_t>::min();
    ColumnBatch batch(row_type);
    const ManifestEntry* it = begin;
    while (it != end) {
      const ManifestEntry& entry = *it++;
      SLUICE_RETURN_NOT_OK_CTX(AppendManifestEntry(entry, &batch), path);
      if (entry.kind == FileKind::kAdd) {
        ++meta.num_added_files;
      } else {
        ++meta.num_deleted_files;
      }
      schema_id = std::max(schema_id, entry.file.schema_id);
      min_bucket = std::min(min_bucket, entry.bucket);
      max_bucket = std::max(max_bucket, entry.bucket);
      min_level = std::min(min_level, entry.file.level);
      max_level = std::max(max_level, entry.file.level);
      partitions.Collect(entry.partition);
      if (batch.num_rows() == kRollingCheckEntries || it == end) {
        SLUICE_RETURN_NOT_OK(writer->Write(batch));
        batch.Clear();
        if (writer->EstimatedSize() >= options_.target_file_size) break;
      }
    }
    *stopped_at = it;
    SLUICE_ASSIGN_OR_RETURN(WriteResult result, writer->Finish());
    meta.file_size = result.file_size;
    SLUICE_ASSIGN_OR_RETURN(meta.partition_stats, partitions.Finish());
    meta.schema_id =
        meta.num_added_files + meta.num_deleted_files > 0 ? schema_id : options_.latest_schema_id;
    meta.min_bucket = min_bucket;
    meta.max_bucket = max_bucket;
    meta.min_level = min_level;
    meta.max_level = max_level;
    return Status::OK();
  };
  Status st = write();
  if (!st.ok()) {
    io_->Delete(path, false).IgnoreError();  // the write's error is the one to report
    return st.WithContext("writing manifest " + path);
  }
  return meta;
}

}  // namespace sluice
