// BinaryRows found in Java-written manifests (partition values, min/max keys, key and value
// statistics) decode with the table's types and encode back to the very bytes Java wrote.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "sluice/meta/manifest_file.h"
#include "sluice/meta/schema_manager.h"
#include "sluice/meta/snapshot_manager.h"
#include "sluice/meta/table_schema.h"
#include "sluice/row/binary_row.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

DataTypePtr StatsType(const TableSchema& schema, const std::vector<std::string>& names) {
  std::vector<DataField> fields;
  for (const std::string& name : names) {
    const DataField* f = schema.FieldByName(name);
    DataTypePtr type = f ? f->type->WithNullable(true)
                         : (name == "_VALUE_KIND" ? DataType::TinyInt() : DataType::BigInt());
    fields.push_back(DataField{f ? f->id : 0, name, type, std::nullopt, std::nullopt});
  }
  return DataType::Row(std::move(fields));
}

// Decodes `serialized` with `type`, encodes the values again and expects Java's bytes. Java
// writers before 1.2 gave a null non-compact DECIMAL / TIMESTAMP of a stats row no variable-part
// space; the row tells which convention it follows.
void ExpectCanonical(const std::string& serialized, const DataType& type, const std::string& what,
                     int* checked) {
  auto values = DecodeSerializedBinaryRow(serialized, type);
  ASSERT_OK(values) << what;
  auto view = BinaryRowView::FromSerialized(serialized);
  ASSERT_OK(view) << what;
  auto encoded =
      EncodeBinaryRow(*values, type, RowKind::kInsert, DetectNullReservation(*view, type));
  ASSERT_OK(encoded) << what;
  EXPECT_EQ(SerializeBinaryRow(*encoded, type.num_fields()), serialized) << what;
  ++*checked;
}

struct BranchOfTable {
  std::string table;
  std::string branch;
};

// Every table of the corpus with each of its branches: a branch keeps its own schemas and
// snapshots but shares the table's manifest folder, so a manifest's types come from the schemas
// of the branch whose snapshots reference it.
std::vector<BranchOfTable> CorpusBranches() {
  std::vector<BranchOfTable> out;
  for (const auto& entry : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    if (!entry.is_directory() || entry.path().filename() != "snapshot") continue;
    fs::path table = entry.path().parent_path();
    if (table.parent_path().filename() == "branch") continue;
    out.push_back({table.string(), "main"});
    if (fs::exists(table / "branch")) {
      for (const auto& b : fs::directory_iterator(table / "branch")) {
        out.push_back({table.string(), b.path().filename().string().substr(7)});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const BranchOfTable& a, const BranchOfTable& b) {
    return a.table + "/" + a.branch < b.table + "/" + b.branch;
  });
  return out;
}

TEST(BinaryRowCorpusTest, ManifestRowsEncodeToJavasBytes) {
  std::shared_ptr<FileIO> io = LocalFileIO();
  int checked = 0;
  int files = 0;
  for (const BranchOfTable& tb : CorpusBranches()) {
    SCOPED_TRACE(tb.table + " branch " + tb.branch);
    SnapshotManager snapshots(io, tb.table, tb.branch);
    SchemaManager schema_manager(io, tb.table, tb.branch);
    auto ids = snapshots.ListSnapshotIds();
    ASSERT_OK(ids);
    std::set<std::string> manifests;
    for (int64_t id : *ids) {
      auto snapshot = snapshots.LoadSnapshot(id);
      ASSERT_OK(snapshot);
      for (const std::string& list :
           {snapshot->base_manifest_list, snapshot->delta_manifest_list}) {
        auto metas = ReadManifestList(*io, tb.table + "/manifest/" + list);
        ASSERT_OK(metas);
        for (const ManifestFileMeta& m : *metas) manifests.insert(m.file_name);
      }
    }
    std::map<int64_t, TableSchema> schemas;
    for (const std::string& name : manifests) {
      std::string path = tb.table + "/manifest/" + name;
      auto entries = ReadManifestFile(*io, path);
      ASSERT_OK(entries);
      ++files;
      for (const ManifestEntry& e : *entries) {
        if (!schemas.count(e.file.schema_id)) {
          auto loaded = schema_manager.LoadSchema(e.file.schema_id);
          ASSERT_OK(loaded);
          schemas.emplace(e.file.schema_id, std::move(loaded).value());
        }
        const TableSchema* schema = &schemas.at(e.file.schema_id);
        std::string where = path + " " + e.file.file_name;
        ExpectCanonical(e.partition, *schema->LogicalPartitionType(), where + " _PARTITION",
                        &checked);
        if (schema->is_primary_key_table()) {
          DataTypePtr key = schema->LogicalTrimmedPrimaryKeysType();
          ExpectCanonical(e.file.min_key, *key, where + " _MIN_KEY", &checked);
          ExpectCanonical(e.file.max_key, *key, where + " _MAX_KEY", &checked);
          DataTypePtr key_stats = StatsType(*schema, schema->trimmed_primary_keys());
          ExpectCanonical(e.file.key_stats.min_values, *key_stats, where + " key min", &checked);
          ExpectCanonical(e.file.key_stats.max_values, *key_stats, where + " key max", &checked);
        }
        std::vector<std::string> cols =
            e.file.value_stats_cols
                ? *e.file.value_stats_cols
                : (e.file.write_cols ? *e.file.write_cols : schema->FieldNames());
        DataTypePtr value_stats = StatsType(*schema, cols);
        ExpectCanonical(e.file.value_stats.min_values, *value_stats, where + " value min",
                        &checked);
        ExpectCanonical(e.file.value_stats.max_values, *value_stats, where + " value max",
                        &checked);
      }
    }
  }
  std::printf("%d BinaryRows from %d manifests (Avro and ORC) re-encoded byte for byte\n", checked,
              files);
  EXPECT_GT(checked, 2000);
}

}  // namespace
}  // namespace sluice
