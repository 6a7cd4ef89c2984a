#include "sluice/meta/table_metadata_json.h"

#include <map>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/meta/manifest_file.h"
#include "sluice/meta/schema_manager.h"
#include "sluice/meta/snapshot_manager.h"
#include "sluice/meta/table_schema.h"
#include "sluice/row/binary_row.h"
#include "sluice/value_json.h"

namespace sluice {

namespace {

// Output documents hold doubles (the reading-side OutJson keeps long doubles, which nlohmann
// cannot print).
using OutJson = nlohmann::ordered_json;

Result<OutJson> ParseOutJson(std::string_view text) {
  OutJson out = OutJson::parse(text, nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded()) return Status::Corruption("malformed JSON");
  return out;
}

Result<OutJson> ValueJson(const Value& v, const DataType& type) {
  return ParseOutJson(ValueToJson(v, type));
}

// The type of a column named in `_WRITE_COLS` / `_VALUE_STATS_COLS`: a schema field, or one of
// the system columns data-evolution files may carry.
DataTypePtr ColumnType(const TableSchema& schema, const std::string& name) {
  if (const DataField* f = schema.FieldByName(name)) return f->type->WithNullable(true);
  if (name == "_VALUE_KIND") return DataType::TinyInt(true);
  return DataType::BigInt(true);  // _ROW_ID, _SEQUENCE_NUMBER
}

DataTypePtr RowTypeOf(const TableSchema& schema, const std::vector<std::string>& names) {
  std::vector<DataField> fields;
  int32_t id = 0;
  for (const std::string& name : names) {
    const DataField* f = schema.FieldByName(name);
    fields.push_back(
        DataField{f ? f->id : id, name, ColumnType(schema, name), std::nullopt, std::nullopt});
    ++id;
  }
  return DataType::Row(std::move(fields));
}

// Decodes a serialized BinaryRow into an object keyed by the field names of `row_type`.
Result<OutJson> RowJson(const std::string& serialized, const DataType& row_type,
                        std::string_view what) {
  auto values = DecodeSerializedBinaryRow(serialized, row_type);
  if (!values.ok()) return values.status().WithContext(what);
  return ValueJson(Value::Row(std::move(values).value()), row_type);
}

OutJson NullCountsJson(const SimpleStats& stats) {
  if (!stats.null_counts) return OutJson();
  OutJson out = OutJson::array();
  for (const auto& c : *stats.null_counts) out.push_back(c ? OutJson(*c) : OutJson());
  return out;
}

Result<OutJson> StatsJson(const SimpleStats& stats, const DataType& row_type,
                          std::string_view what) {
  OutJson out = OutJson::object();
  std::vector<std::string> names;
  for (const DataField& f : row_type.fields()) names.push_back(f.name);
  out["columns"] = names;
  SLUICE_ASSIGN_OR_RETURN(out["min"],
                          RowJson(stats.min_values, row_type, std::string(what) + "._MIN_VALUES"));
  SLUICE_ASSIGN_OR_RETURN(out["max"],
                          RowJson(stats.max_values, row_type, std::string(what) + "._MAX_VALUES"));
  out["null_counts"] = NullCountsJson(stats);
  return out;
}

template <typename T>
OutJson OptionalJson(const std::optional<T>& v) {
  return v ? OutJson(*v) : OutJson();
}

class MetadataDumper {
 public:
  MetadataDumper(FileIO& io, std::string table_path, const SchemaManager& schema_manager)
      : io_(io), table_path_(std::move(table_path)), schema_manager_(schema_manager) {}

  Result<const TableSchema*> Schema(int64_t id) {
    auto it = schemas_.find(id);
    if (it != schemas_.end()) return it->second.get();
    SLUICE_ASSIGN_OR_RETURN(TableSchema schema, schema_manager_.LoadSchema(id));
    auto owned = std::make_unique<TableSchema>(std::move(schema));
    const TableSchema* raw = owned.get();
    schemas_.emplace(id, std::move(owned));
    return raw;
  }

  Result<OutJson> EntryJson(const ManifestEntry& e) {
    const DataFileMeta& f = e.file;
    SLUICE_ASSIGN_OR_RETURN(const TableSchema* schema, Schema(f.schema_id));
    OutJson out = OutJson::object();
    out["kind"] = std::string(FileKindName(e.kind));
    SLUICE_ASSIGN_OR_RETURN(out["partition"],
                            RowJson(e.partition, *schema->LogicalPartitionType(), "_PARTITION"));
    out["bucket"] = e.bucket;
    out["total_buckets"] = e.total_buckets;
    OutJson file = OutJson::object();
    file["file_name"] = f.file_name;
    file["file_size"] = f.file_size;
    file["row_count"] = f.row_count;
    file["level"] = f.level;
    file["min_sequence_number"] = f.min_sequence_number;
    file["max_sequence_number"] = f.max_sequence_number;
    file["schema_id"] = f.schema_id;
    DataTypePtr key_type = schema->LogicalTrimmedPrimaryKeysType();
    // Append tables record the empty row as their keys.
    if (f.min_key == EmptySerializedRow()) key_type = DataType::Row({});
    SLUICE_ASSIGN_OR_RETURN(file["min_key"], RowJson(f.min_key, *key_type, "_MIN_KEY"));
    SLUICE_ASSIGN_OR_RETURN(file["max_key"], RowJson(f.max_key, *key_type, "_MAX_KEY"));
    DataTypePtr key_stats_type = f.key_stats.min_values == EmptySerializedRow()
                                     ? DataType::Row({})
                                     : RowTypeOf(*schema, schema->trimmed_primary_keys());
    SLUICE_ASSIGN_OR_RETURN(file["key_stats"],
                            StatsJson(f.key_stats, *key_stats_type, "_KEY_STATS"));
    std::vector<std::string> stats_cols =
        f.value_stats_cols ? *f.value_stats_cols
                           : (f.write_cols ? *f.write_cols : schema->FieldNames());
    SLUICE_ASSIGN_OR_RETURN(
        file["value_stats"],
        StatsJson(f.value_stats, *RowTypeOf(*schema, stats_cols), "_VALUE_STATS"));
    file["extra_files"] = f.extra_files;
    file["creation_time"] = f.creation_time ? OutJson(f.creation_time->ToString(3)) : OutJson();
    file["delete_row_count"] = OptionalJson(f.delete_row_count);
    file["embedded_file_index"] = f.embedded_file_index
                                      ? OutJson{{"base64", Base64Encode(*f.embedded_file_index)}}
                                      : OutJson();
    file["file_source"] =
        f.file_source ? OutJson(*f.file_source == FileSource::kAppend ? "APPEND" : "COMPACT")
                      : OutJson();
    file["value_stats_cols"] = OptionalJson(f.value_stats_cols);
    file["external_path"] = OptionalJson(f.external_path);
    file["first_row_id"] = OptionalJson(f.first_row_id);
    file["write_cols"] = OptionalJson(f.write_cols);
    file["write_cols_sequences"] = OptionalJson(f.write_cols_sequences);
    out["file"] = std::move(file);
    return out;
  }

  Result<OutJson> ManifestListJson(const std::string& name, std::string_view list_kind) {
    std::string path = JoinPath(table_path_, "manifest/" + name);
    SLUICE_ASSIGN_OR_RETURN(auto metas, ReadManifestList(io_, path));
    OutJson out = OutJson::object();
    out["file"] = name;
    OutJson records = OutJson::array();
    for (const ManifestFileMeta& m : metas) {
      OutJson r = OutJson::object();
      r["file_name"] = m.file_name;
      r["file_size"] = m.file_size;
      r["num_added_files"] = m.num_added_files;
      r["num_deleted_files"] = m.num_deleted_files;
      SLUICE_ASSIGN_OR_RETURN(const TableSchema* entry_schema, Schema(m.schema_id));
      auto stats =
          StatsJson(m.partition_stats, *entry_schema->LogicalPartitionType(), "_PARTITION_STATS");
      if (!stats.ok()) return stats.status().WithContext(path);
      r["partition_stats"] = std::move(stats).value();
      r["schema_id"] = m.schema_id;
      r["min_bucket"] = OptionalJson(m.min_bucket);
      r["max_bucket"] = OptionalJson(m.max_bucket);
      r["min_level"] = OptionalJson(m.min_level);
      r["max_level"] = OptionalJson(m.max_level);
      r["min_row_id"] = OptionalJson(m.min_row_id);
      r["max_row_id"] = OptionalJson(m.max_row_id);
      records.push_back(std::move(r));
      manifests_.emplace_back(m.file_name, std::string(list_kind));
    }
    out["records"] = std::move(records);
    return out;
  }

  Result<OutJson> ManifestJson(const std::string& name, const std::string& list_kind) {
    std::string path = JoinPath(table_path_, "manifest/" + name);
    SLUICE_ASSIGN_OR_RETURN(auto entries, ReadManifestFile(io_, path));
    OutJson out = OutJson::object();
    out["file"] = name;
    out["list"] = list_kind;
    OutJson list = OutJson::array();
    for (size_t i = 0; i < entries.size(); ++i) {
      auto e = EntryJson(entries[i]);
      if (!e.ok()) return e.status().WithContext(path + ": entry " + std::to_string(i));
      list.push_back(std::move(e).value());
    }
    out["entries"] = std::move(list);
    return out;
  }

  Result<OutJson> IndexManifestJson(const std::string& name, const TableSchema& schema) {
    std::string path = JoinPath(table_path_, "manifest/" + name);
    SLUICE_ASSIGN_OR_RETURN(auto entries, ReadIndexManifest(io_, path));
    OutJson out = OutJson::object();
    out["file"] = name;
    OutJson list = OutJson::array();
    for (const IndexManifestEntry& e : entries) {
      OutJson j = OutJson::object();
      j["kind"] = std::string(FileKindName(e.kind));
      auto partition = RowJson(e.partition, *schema.LogicalPartitionType(), "_PARTITION");
      if (!partition.ok()) return partition.status().WithContext(path);
      j["partition"] = std::move(partition).value();
      j["bucket"] = e.bucket;
      j["index_type"] = e.index_type;
      j["file_name"] = e.file_name;
      j["file_size"] = e.file_size;
      j["row_count"] = e.row_count;
      if (e.deletion_vectors) {
        OutJson dvs = OutJson::array();
        for (const DeletionVectorMeta& dv : *e.deletion_vectors) {
          dvs.push_back(OutJson{{"data_file", dv.data_file_name},
                                {"offset", dv.offset},
                                {"length", dv.length},
                                {"cardinality", OptionalJson(dv.cardinality)}});
        }
        j["deletion_vectors"] = std::move(dvs);
      } else {
        j["deletion_vectors"] = OutJson();
      }
      j["external_path"] = OptionalJson(e.external_path);
      if (e.global_index) {
        const GlobalIndexMeta& g = *e.global_index;
        j["global_index"] = OutJson{{"row_range_start", g.row_range_start},
                                    {"row_range_end", g.row_range_end},
                                    {"index_field_id", g.index_field_id},
                                    {"extra_field_ids", OptionalJson(g.extra_field_ids)}};
      } else {
        j["global_index"] = OutJson();
      }
      list.push_back(std::move(j));
    }
    out["entries"] = std::move(list);
    return out;
  }

  // Manifest files named by the lists read so far, with the kind of list that named them.
  const std::vector<std::pair<std::string, std::string>>& manifests() const { return manifests_; }

 private:
  FileIO& io_;
  std::string table_path_;
  const SchemaManager& schema_manager_;
  std::map<int64_t, std::unique_ptr<TableSchema>> schemas_;
  std::vector<std::pair<std::string, std::string>> manifests_;  // name, list kind
};

Result<OutJson> ReadJsonFile(FileIO& io, const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(std::string text, io.ReadFile(path));
  auto json = ParseOutJson(text);
  if (!json.ok()) return json.status().WithContext(path);
  return json;
}

}  // namespace

Result<std::string> TableMetadataJson(const std::shared_ptr<FileIO>& file_io,
                                      const std::string& table_path,
                                      std::optional<int64_t> snapshot_id,
                                      const std::string& branch) {
  FileIO& io = *file_io;
  SnapshotManager snapshots(file_io, table_path, branch);
  SchemaManager schemas(file_io, table_path, branch);
  if (!snapshot_id) {
    SLUICE_ASSIGN_OR_RETURN(snapshot_id, snapshots.LatestSnapshotId());
  }
  MetadataDumper dumper(io, table_path, schemas);
  OutJson doc = OutJson::object();
  doc["table"] = table_path;
  doc["branch"] = snapshots.branch();
  if (!snapshot_id) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<TableSchema> latest, schemas.LatestSchema());
    if (!latest) return Status::NotFound(table_path + ": not a Paimon table (no schema files)");
    SLUICE_ASSIGN_OR_RETURN(doc["schema"], ParseOutJson(latest->ToJson()));
    doc["snapshot"] = OutJson();
    return doc.dump(2);
  }
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots.LoadSnapshot(*snapshot_id));
  SLUICE_ASSIGN_OR_RETURN(const TableSchema* schema, dumper.Schema(snapshot.schema_id));
  SLUICE_ASSIGN_OR_RETURN(doc["schema"], ParseOutJson(schema->ToJson()));
  SLUICE_ASSIGN_OR_RETURN(doc["snapshot"], ReadJsonFile(io, snapshots.snapshot_path(*snapshot_id)));

  OutJson lists = OutJson::object();
  SLUICE_ASSIGN_OR_RETURN(lists["base"],
                          dumper.ManifestListJson(snapshot.base_manifest_list, "base"));
  SLUICE_ASSIGN_OR_RETURN(lists["delta"],
                          dumper.ManifestListJson(snapshot.delta_manifest_list, "delta"));
  if (snapshot.changelog_manifest_list) {
    SLUICE_ASSIGN_OR_RETURN(
        lists["changelog"],
        dumper.ManifestListJson(*snapshot.changelog_manifest_list, "changelog"));
  } else {
    lists["changelog"] = OutJson();
  }
  doc["manifest_lists"] = std::move(lists);

  OutJson manifests = OutJson::array();
  for (const auto& [name, list_kind] : dumper.manifests()) {
    SLUICE_ASSIGN_OR_RETURN(OutJson m, dumper.ManifestJson(name, list_kind));
    manifests.push_back(std::move(m));
  }
  doc["manifests"] = std::move(manifests);

  if (snapshot.index_manifest) {
    SLUICE_ASSIGN_OR_RETURN(doc["index_manifest"],
                            dumper.IndexManifestJson(*snapshot.index_manifest, *schema));
  } else {
    doc["index_manifest"] = OutJson();
  }
  return doc.dump(2);
}

}  // namespace sluice
