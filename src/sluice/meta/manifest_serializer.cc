#include "sluice/meta/manifest_serializer.h"

#include <string>
#include <utility>
#include <vector>

#include "sluice/meta/manifest_schemas.h"

namespace sluice {

namespace {

// Reads fields of one row of a struct-like set of columns, checking that required fields are
// present. Errors name the field.
class FieldReader {
 public:
  FieldReader(const DataType& type, std::vector<const ColumnVector*> columns, int64_t row)
      : type_(type), columns_(std::move(columns)), row_(row) {}

  const std::string& name(int i) const { return type_.fields()[i].name; }
  bool IsNull(int i) const { return columns_[i]->IsNull(row_); }

  Status Missing(int i) const {
    return Status::Corruption("required field " + name(i) + " is null");
  }

  template <typename T>
  Status Fixed(int i, T* out) const {
    if (IsNull(i)) return Missing(i);
    *out = columns_[i]->data<T>()[row_];
    return Status::OK();
  }
  template <typename T>
  void OptionalFixed(int i, std::optional<T>* out) const {
    if (IsNull(i)) {
      out->reset();
    } else {
      *out = columns_[i]->data<T>()[row_];
    }
  }
  Status Bytes(int i, std::string* out) const {
    if (IsNull(i)) return Missing(i);
    *out = std::string(columns_[i]->GetBytes(row_));
    return Status::OK();
  }
  void OptionalBytes(int i, std::optional<std::string>* out) const {
    if (IsNull(i)) {
      out->reset();
    } else {
      *out = std::string(columns_[i]->GetBytes(row_));
    }
  }
  Status StringList(int i, std::vector<std::string>* out) const {
    if (IsNull(i)) return Missing(i);
    out->clear();
    const ColumnVector* c = columns_[i];
    const ColumnVector* items = c->child(0);
    for (int32_t j = c->ListBegin(row_); j < c->ListEnd(row_); ++j) {
      if (items->IsNull(j)) return Status::Corruption("null element in " + name(i));
      out->emplace_back(items->GetBytes(j));
    }
    return Status::OK();
  }
  Status OptionalStringList(int i, std::optional<std::vector<std::string>>* out) const {
    if (IsNull(i)) {
      out->reset();
      return Status::OK();
    }
    out->emplace();
    return StringList(i, &**out);
  }
  template <typename T>
  Status OptionalFixedList(int i, std::optional<std::vector<T>>* out) const {
    if (IsNull(i)) {
      out->reset();
      return Status::OK();
    }
    out->emplace();
    const ColumnVector* c = columns_[i];
    const ColumnVector* items = c->child(0);
    for (int32_t j = c->ListBegin(row_); j < c->ListEnd(row_); ++j) {
      if (items->IsNull(j)) return Status::Corruption("null element in " + name(i));
      (*out)->push_back(items->data<T>()[j]);
    }
    return Status::OK();
  }

  // A nested record as a FieldReader over its children.
  Result<FieldReader> Record(int i) const {
    if (IsNull(i)) return Missing(i);
    return Nested(i);
  }
  FieldReader Nested(int i) const {
    const ColumnVector* c = columns_[i];
    std::vector<const ColumnVector*> children;
    for (int k = 0; k < c->num_children(); ++k) children.push_back(c->child(k));
    return FieldReader(*c->type(), std::move(children), row_);
  }

  const ColumnVector* column(int i) const { return columns_[i]; }
  int64_t row() const { return row_; }

 private:
  const DataType& type_;
  std::vector<const ColumnVector*> columns_;
  int64_t row_;
};

std::vector<const ColumnVector*> TopColumns(const ColumnBatch& batch) {
  std::vector<const ColumnVector*> out;
  for (int i = 0; i < batch.num_columns(); ++i) out.push_back(batch.column(i));
  return out;
}

Status CheckVersion(const FieldReader& r, int32_t expected) {
  int32_t version = 0;
  SLUICE_RETURN_NOT_OK(r.Fixed<int32_t>(0, &version));
  if (version != expected) {
    return Status::NotSupported("unsupported manifest record _VERSION " + std::to_string(version) +
                                " (expected " + std::to_string(expected) + ")");
  }
  return Status::OK();
}

Result<FileKind> KindOf(const FieldReader& r, int i) {
  int8_t kind = 0;
  SLUICE_RETURN_NOT_OK(r.Fixed<int8_t>(i, &kind));
  if (kind != 0 && kind != 1) {
    return Status::Corruption("_KIND " + std::to_string(kind) +
                              " is neither ADD (0) nor DELETE (1)");
  }
  return static_cast<FileKind>(kind);
}

Status ReadSimpleStats(const FieldReader& parent, int i, SimpleStats* out) {
  SLUICE_ASSIGN_OR_RETURN(FieldReader r, parent.Record(i));
  SLUICE_RETURN_NOT_OK_CTX(r.Bytes(0, &out->min_values), parent.name(i));
  SLUICE_RETURN_NOT_OK_CTX(r.Bytes(1, &out->max_values), parent.name(i));
  if (r.IsNull(2)) {
    out->null_counts.reset();
    return Status::OK();
  }
  out->null_counts.emplace();
  const ColumnVector* c = r.column(2);
  const ColumnVector* items = c->child(0);
  for (int32_t j = c->ListBegin(r.row()); j < c->ListEnd(r.row()); ++j) {
    if (items->IsNull(j)) {
      out->null_counts->push_back(std::nullopt);
    } else {
      out->null_counts->push_back(items->data<int64_t>()[j]);
    }
  }
  return Status::OK();
}

Value SimpleStatsValue(const SimpleStats& stats) {
  Value null_counts;
  if (stats.null_counts) {
    ValueList items;
    for (const auto& c : *stats.null_counts) items.push_back(c ? Value::Int64(*c) : Value());
    null_counts = Value::Array(std::move(items));
  }
  return Value::Row(
      {Value::Binary(stats.min_values), Value::Binary(stats.max_values), std::move(null_counts)});
}

template <typename T>
Value OptionalInt(const std::optional<T>& v) {
  if (!v) return Value();
  if constexpr (sizeof(T) == 8) {
    return Value::Int64(*v);
  } else {
    return Value::Int32(*v);
  }
}

Value OptionalString(const std::optional<std::string>& v, bool binary = false) {
  if (!v) return Value();
  return binary ? Value::Binary(*v) : Value::String(*v);
}

Value StringListValue(const std::vector<std::string>& v) {
  ValueList items;
  for (const std::string& s : v) items.push_back(Value::String(s));
  return Value::Array(std::move(items));
}

Value OptionalStringListValue(const std::optional<std::vector<std::string>>& v) {
  return v ? StringListValue(*v) : Value();
}

// Field positions in DataFileMetaRowType().
enum DataFileField {
  kFileName,
  kFileSize,
  kRowCount,
  kMinKey,
  kMaxKey,
  kKeyStats,
  kValueStats,
  kMinSequenceNumber,
  kMaxSequenceNumber,
  kSchemaId,
  kLevel,
  kExtraFiles,
  kCreationTime,
  kDeleteRowCount,
  kEmbeddedFileIndex,
  kFileSource,
  kValueStatsCols,
  kExternalPath,
  kFirstRowId,
  kWriteCols,
  kWriteColsSequences,
};

Status ReadDataFileMeta(const FieldReader& r, DataFileMeta* f) {
  SLUICE_RETURN_NOT_OK(r.Bytes(kFileName, &f->file_name));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(kFileSize, &f->file_size));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(kRowCount, &f->row_count));
  SLUICE_RETURN_NOT_OK(r.Bytes(kMinKey, &f->min_key));
  SLUICE_RETURN_NOT_OK(r.Bytes(kMaxKey, &f->max_key));
  SLUICE_RETURN_NOT_OK(ReadSimpleStats(r, kKeyStats, &f->key_stats));
  SLUICE_RETURN_NOT_OK(ReadSimpleStats(r, kValueStats, &f->value_stats));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(kMinSequenceNumber, &f->min_sequence_number));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(kMaxSequenceNumber, &f->max_sequence_number));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(kSchemaId, &f->schema_id));
  SLUICE_RETURN_NOT_OK(r.Fixed<int32_t>(kLevel, &f->level));
  SLUICE_RETURN_NOT_OK(r.StringList(kExtraFiles, &f->extra_files));
  r.OptionalFixed<Timestamp>(kCreationTime, &f->creation_time);
  r.OptionalFixed<int64_t>(kDeleteRowCount, &f->delete_row_count);
  r.OptionalBytes(kEmbeddedFileIndex, &f->embedded_file_index);
  std::optional<int8_t> source;
  r.OptionalFixed<int8_t>(kFileSource, &source);
  if (source) {
    if (*source != 0 && *source != 1) {
      return Status::Corruption("_FILE_SOURCE " + std::to_string(*source) +
                                " is neither APPEND (0) nor COMPACT (1)");
    }
    f->file_source = static_cast<FileSource>(*source);
  }
  SLUICE_RETURN_NOT_OK(r.OptionalStringList(kValueStatsCols, &f->value_stats_cols));
  r.OptionalBytes(kExternalPath, &f->external_path);
  r.OptionalFixed<int64_t>(kFirstRowId, &f->first_row_id);
  SLUICE_RETURN_NOT_OK(r.OptionalStringList(kWriteCols, &f->write_cols));
  SLUICE_RETURN_NOT_OK(r.OptionalFixedList<int64_t>(kWriteColsSequences, &f->write_cols_sequences));
  return Status::OK();
}

Value DataFileMetaValue(const DataFileMeta& f) {
  Value sequences;
  if (f.write_cols_sequences) {
    ValueList items;
    for (int64_t s : *f.write_cols_sequences) items.push_back(Value::Int64(s));
    sequences = Value::Array(std::move(items));
  }
  return Value::Row({
      Value::String(f.file_name),
      Value::Int64(f.file_size),
      Value::Int64(f.row_count),
      Value::Binary(f.min_key),
      Value::Binary(f.max_key),
      SimpleStatsValue(f.key_stats),
      SimpleStatsValue(f.value_stats),
      Value::Int64(f.min_sequence_number),
      Value::Int64(f.max_sequence_number),
      Value::Int64(f.schema_id),
      Value::Int32(f.level),
      StringListValue(f.extra_files),
      f.creation_time ? Value::FromTimestamp(*f.creation_time) : Value(),
      OptionalInt(f.delete_row_count),
      OptionalString(f.embedded_file_index, true),
      f.file_source ? Value::Int8(static_cast<int8_t>(*f.file_source)) : Value(),
      OptionalStringListValue(f.value_stats_cols),
      OptionalString(f.external_path),
      OptionalInt(f.first_row_id),
      OptionalStringListValue(f.write_cols),
      std::move(sequences),
  });
}

}  // namespace

Result<ManifestEntry> ManifestEntryFromRow(const ColumnBatch& batch, int64_t row) {
  FieldReader r(*batch.schema(), TopColumns(batch), row);
  SLUICE_RETURN_NOT_OK(CheckVersion(r, kManifestVersion));
  ManifestEntry e;
  SLUICE_ASSIGN_OR_RETURN(e.kind, KindOf(r, 1));
  SLUICE_RETURN_NOT_OK(r.Bytes(2, &e.partition));
  SLUICE_RETURN_NOT_OK(r.Fixed<int32_t>(3, &e.bucket));
  SLUICE_RETURN_NOT_OK(r.Fixed<int32_t>(4, &e.total_buckets));
  SLUICE_ASSIGN_OR_RETURN(FieldReader file, r.Record(5));
  SLUICE_RETURN_NOT_OK_CTX(ReadDataFileMeta(file, &e.file), "_FILE");
  return e;
}

Status AppendManifestEntry(const ManifestEntry& e, ColumnBatch* batch) {
  return batch->AppendRow({Value::Int32(kManifestVersion), Value::Int8(static_cast<int8_t>(e.kind)),
                           Value::Binary(e.partition), Value::Int32(e.bucket),
                           Value::Int32(e.total_buckets), DataFileMetaValue(e.file)});
}

Result<ManifestFileMeta> ManifestFileMetaFromRow(const ColumnBatch& batch, int64_t row) {
  FieldReader r(*batch.schema(), TopColumns(batch), row);
  SLUICE_RETURN_NOT_OK(CheckVersion(r, kManifestVersion));
  ManifestFileMeta m;
  SLUICE_RETURN_NOT_OK(r.Bytes(1, &m.file_name));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(2, &m.file_size));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(3, &m.num_added_files));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(4, &m.num_deleted_files));
  SLUICE_RETURN_NOT_OK(ReadSimpleStats(r, 5, &m.partition_stats));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(6, &m.schema_id));
  r.OptionalFixed<int32_t>(7, &m.min_bucket);
  r.OptionalFixed<int32_t>(8, &m.max_bucket);
  r.OptionalFixed<int32_t>(9, &m.min_level);
  r.OptionalFixed<int32_t>(10, &m.max_level);
  r.OptionalFixed<int64_t>(11, &m.min_row_id);
  r.OptionalFixed<int64_t>(12, &m.max_row_id);
  return m;
}

Status AppendManifestFileMeta(const ManifestFileMeta& m, ColumnBatch* batch) {
  return batch->AppendRow(
      {Value::Int32(kManifestVersion), Value::String(m.file_name), Value::Int64(m.file_size),
       Value::Int64(m.num_added_files), Value::Int64(m.num_deleted_files),
       SimpleStatsValue(m.partition_stats), Value::Int64(m.schema_id), OptionalInt(m.min_bucket),
       OptionalInt(m.max_bucket), OptionalInt(m.min_level), OptionalInt(m.max_level),
       OptionalInt(m.min_row_id), OptionalInt(m.max_row_id)});
}

Result<IndexManifestEntry> IndexManifestEntryFromRow(const ColumnBatch& batch, int64_t row) {
  FieldReader r(*batch.schema(), TopColumns(batch), row);
  SLUICE_RETURN_NOT_OK(CheckVersion(r, kIndexManifestVersion));
  IndexManifestEntry e;
  SLUICE_ASSIGN_OR_RETURN(e.kind, KindOf(r, 1));
  SLUICE_RETURN_NOT_OK(r.Bytes(2, &e.partition));
  SLUICE_RETURN_NOT_OK(r.Fixed<int32_t>(3, &e.bucket));
  SLUICE_RETURN_NOT_OK(r.Bytes(4, &e.index_type));
  SLUICE_RETURN_NOT_OK(r.Bytes(5, &e.file_name));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(6, &e.file_size));
  SLUICE_RETURN_NOT_OK(r.Fixed<int64_t>(7, &e.row_count));
  if (!r.IsNull(8)) {
    e.deletion_vectors.emplace();
    const ColumnVector* list = r.column(8);
    const ColumnVector* items = list->child(0);
    std::vector<const ColumnVector*> fields;
    for (int k = 0; k < items->num_children(); ++k) fields.push_back(items->child(k));
    for (int32_t j = list->ListBegin(row); j < list->ListEnd(row); ++j) {
      if (items->IsNull(j)) return Status::Corruption("null entry in _DELETIONS_VECTORS_RANGES");
      FieldReader dv(*items->type(), fields, j);
      DeletionVectorMeta meta;
      SLUICE_RETURN_NOT_OK_CTX(dv.Bytes(0, &meta.data_file_name), "_DELETIONS_VECTORS_RANGES");
      SLUICE_RETURN_NOT_OK_CTX(dv.Fixed<int32_t>(1, &meta.offset), "_DELETIONS_VECTORS_RANGES");
      SLUICE_RETURN_NOT_OK_CTX(dv.Fixed<int32_t>(2, &meta.length), "_DELETIONS_VECTORS_RANGES");
      dv.OptionalFixed<int64_t>(3, &meta.cardinality);
      e.deletion_vectors->push_back(std::move(meta));
    }
  }
  r.OptionalBytes(9, &e.external_path);
  if (!r.IsNull(10)) {
    FieldReader g = r.Nested(10);
    GlobalIndexMeta meta;
    SLUICE_RETURN_NOT_OK_CTX(g.Fixed<int64_t>(0, &meta.row_range_start), "_GLOBAL_INDEX");
    SLUICE_RETURN_NOT_OK_CTX(g.Fixed<int64_t>(1, &meta.row_range_end), "_GLOBAL_INDEX");
    SLUICE_RETURN_NOT_OK_CTX(g.Fixed<int32_t>(2, &meta.index_field_id), "_GLOBAL_INDEX");
    SLUICE_RETURN_NOT_OK_CTX(g.OptionalFixedList<int32_t>(3, &meta.extra_field_ids),
                             "_GLOBAL_INDEX");
    g.OptionalBytes(4, &meta.index_meta);
    g.OptionalBytes(5, &meta.source_meta);
    e.global_index = std::move(meta);
  }
  return e;
}

Status AppendIndexManifestEntry(const IndexManifestEntry& e, ColumnBatch* batch) {
  Value dvs;
  if (e.deletion_vectors) {
    ValueList items;
    for (const DeletionVectorMeta& dv : *e.deletion_vectors) {
      items.push_back(Value::Row({Value::String(dv.data_file_name), Value::Int32(dv.offset),
                                  Value::Int32(dv.length), OptionalInt(dv.cardinality)}));
    }
    dvs = Value::Array(std::move(items));
  }
  Value global;
  if (e.global_index) {
    const GlobalIndexMeta& g = *e.global_index;
    Value extra;
    if (g.extra_field_ids) {
      ValueList ids;
      for (int32_t id : *g.extra_field_ids) ids.push_back(Value::Int32(id));
      extra = Value::Array(std::move(ids));
    }
    global = Value::Row({Value::Int64(g.row_range_start), Value::Int64(g.row_range_end),
                         Value::Int32(g.index_field_id), std::move(extra),
                         OptionalString(g.index_meta, true), OptionalString(g.source_meta, true)});
  }
  return batch->AppendRow(
      {Value::Int32(kIndexManifestVersion), Value::Int8(static_cast<int8_t>(e.kind)),
       Value::Binary(e.partition), Value::Int32(e.bucket), Value::String(e.index_type),
       Value::String(e.file_name), Value::Int64(e.file_size), Value::Int64(e.row_count),
       std::move(dvs), OptionalString(e.external_path), std::move(global)});
}

}  // namespace sluice
