// Power-loss tests of the filesystem catalog's schema change and creations (issue #38), through
// the harness of table/power_loss_util.h: ALTER TABLE, create-table and create-database are cut
// after each of their mutating FileIO calls (a power loss: what was not synced is gone); the
// schema, the table or the database is there whole or not at all, the data reads as before, the
// tables check clean, and the operation run again completes. Drop and rename:
// filesystem_catalog_crash_test.cc.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/catalog/filesystem_catalog.h"
#include "table/compaction_test_util.h"
#include "table/power_loss_util.h"

namespace sluice {
namespace {

using test::PowerLossAtEveryCall;
using test::PowerLossCase;

constexpr char kWarehouse[] = "/wh";
constexpr char kTable[] = "/wh/db.db/t";
constexpr char kNeighbour[] = "/wh/db.db/u";

NewTableSpec Spec() {
  NewTableSpec spec;
  spec.columns = {DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                  DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}};
  spec.primary_keys = {"k"};
  spec.options = {{"bucket", "1"}};
  return spec;
}

// Writes rows (k, "<tag>k") for k in [first, first + count) into the table at `path` and
// commits them as `identifier`.
Status WriteAndCommit(const std::shared_ptr<FileIO>& io, const std::string& path, int64_t first,
                      int64_t count, const std::string& tag, int64_t identifier) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, FileStoreTable::Open(io, path));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write, FileStoreWrite::Open(table));
  std::vector<ValueList> rows;
  for (int64_t k = first; k < first + count; ++k) {
    ValueList row = {Value::Int64(k), Value::String(tag + std::to_string(k))};
    row.resize(table->schema().fields().size(), Value::Null());
    rows.push_back(std::move(row));
  }
  SLUICE_RETURN_NOT_OK(test::WriteRows(write.get(), table->schema().LogicalRowType(), rows, {}));
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                          write->PrepareCommit(identifier, /*wait_compaction=*/true));
  SLUICE_RETURN_NOT_OK(write->Close());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                          FileStoreCommit::Make(table, "writer"));
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages);
  return commit->Commit(committable).status();
}

// Database db with table u (one commit), and table t (two commits) unless `without_t`.
Status BuildWarehouse(const std::shared_ptr<FileIO>& io, bool without_t) {
  FilesystemCatalog catalog(io, kWarehouse);
  SLUICE_RETURN_NOT_OK(catalog.CreateDatabase("db"));
  SLUICE_RETURN_NOT_OK(catalog.CreateTable("db.u", Spec()));
  SLUICE_RETURN_NOT_OK(WriteAndCommit(io, kNeighbour, 100, 3, "u", 1));
  if (without_t) return Status::OK();
  SLUICE_RETURN_NOT_OK(catalog.CreateTable("db.t", Spec()));
  SLUICE_RETURN_NOT_OK(WriteAndCommit(io, kTable, 0, 4, "a", 1));
  return WriteAndCommit(io, kTable, 2, 4, "b", 2);
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += " " + name;
  return out;
}

// The catalog's databases and the tables of db.
std::string Listing(const std::shared_ptr<FileIO>& io) {
  FilesystemCatalog catalog(io, kWarehouse);
  auto databases = catalog.ListDatabases();
  auto tables = catalog.ListTables("db");
  EXPECT_OK(databases);
  EXPECT_OK(tables);
  return "databases:" + Join(std::move(databases).ValueOr({})) +
         "; tables of db:" + Join(std::move(tables).ValueOr({}));
}

// ALTER TABLE: a new column and an option, one new schema; the data reads through it.
TEST(FilesystemCatalogPowerLossTest, AlterTable) {
  PowerLossCase c;
  c.build = [](const std::shared_ptr<FileIO>& io) { return BuildWarehouse(io, false); };
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return FilesystemCatalog(io, kWarehouse)
        .AlterTable("db.t", {SchemaChange::AddColumn({"w"}, DataType::Int()),
                             SchemaChange::SetOption("snapshot.num-retained.min", "20")})
        .status();
  };
  c.tables = {kTable, kNeighbour};
  c.observe = [](const std::shared_ptr<FileIO>& io) {
    auto table = FilesystemCatalog(io, kWarehouse).LoadTable("db.t");
    EXPECT_OK(table);
    if (!table.ok()) return table.status().ToString();
    const TableSchema& schema = (*table)->schema();
    std::string out = "schema " + std::to_string(schema.id()) + ":";
    for (const DataField& f : schema.fields()) out += " " + f.name + " " + f.type->ToString();
    for (const auto& [key, value] : schema.options()) out += " " + key + "=" + value;
    return out;
  };
  c.min_cuts = 2;
  PowerLossAtEveryCall(c);
}

TEST(FilesystemCatalogPowerLossTest, CreateTable) {
  PowerLossCase c;
  c.build = [](const std::shared_ptr<FileIO>& io) { return BuildWarehouse(io, true); };
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return FilesystemCatalog(io, kWarehouse).CreateTable("db.t", Spec());
  };
  c.tables = {kTable, kNeighbour};
  c.observe = Listing;
  c.min_cuts = 2;
  PowerLossAtEveryCall(c);
}

TEST(FilesystemCatalogPowerLossTest, CreateDatabase) {
  PowerLossCase c;
  c.build = [](const std::shared_ptr<FileIO>& io) { return BuildWarehouse(io, true); };
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return FilesystemCatalog(io, kWarehouse).CreateDatabase("other");
  };
  c.tables = {kNeighbour};
  c.observe = Listing;
  c.min_cuts = 1;
  PowerLossAtEveryCall(c);
}

}  // namespace
}  // namespace sluice
