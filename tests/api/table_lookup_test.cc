// Point lookups (table_lookup.h) against the batch read of the same snapshot: for each merge
// engine, with and without deletion vectors, random upserts (and deletes where the engine takes
// them) are committed over two buckets, and after every commit each key's lookup must return the
// row the batch read returns for it, or nothing when the read has none. Older snapshots answer
// as they were, and bad keys are refused by name.
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/table_lookup.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

constexpr int64_t kKeys = 30;

struct LookupCase {
  std::string name;
  std::map<std::string, std::string> options;
  bool deletes = false;  // whether the engine takes -D rows
};

void PrintTo(const LookupCase& c, std::ostream* os) { *os << c.name; }

class TableLookupTest : public ::testing::TestWithParam<LookupCase> {
 protected:
  Table Create() {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    EXPECT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "a", DataType::BigInt()),
                    Field(2, "b", DataType::String())};
    spec.primary_keys = {"id"};
    spec.options = {GetParam().options.begin(), GetParam().options.end()};
    spec.options.emplace_back("bucket", "2");
    spec.options.emplace_back("num-sorted-run.compaction-trigger", "2");
    EXPECT_OK(catalog.CreateTable("db.t", spec));
    auto table = catalog.GetTable("db.t");
    EXPECT_OK(table);
    return *table;
  }

  // One commit of 5..25 random rows.
  void WriteOnce(const Table& table, int64_t commit) {
    auto writer = table.NewWriteBuilder().NewWrite();
    ASSERT_OK(writer);
    ColumnBatch batch((*writer)->input_type());
    std::vector<RowKind> kinds;
    const int n = std::uniform_int_distribution<int>(5, 25)(rng_);
    for (int i = 0; i < n; ++i) {
      const int64_t id = std::uniform_int_distribution<int64_t>(0, kKeys - 1)(rng_);
      const bool null_a = std::uniform_int_distribution<int>(0, 3)(rng_) == 0;
      ASSERT_OK(batch.AppendRow(
          {Value::Int64(id),
           null_a ? Value::Null() : Value::Int64(std::uniform_int_distribution<int>(1, 9)(rng_)),
           Value::String("c" + std::to_string(commit) + "r" + std::to_string(i))}));
      const bool remove = GetParam().deletes && std::uniform_int_distribution<int>(0, 3)(rng_) == 0;
      kinds.push_back(remove ? RowKind::kDelete : RowKind::kInsert);
    }
    ASSERT_OK((*writer)->Write(batch, kinds.data()));
    auto messages = (*writer)->PrepareCommit(commit);
    ASSERT_OK(messages);
    auto committer = table.NewWriteBuilder().NewCommit();
    ASSERT_OK(committer);
    ASSERT_OK((*committer)->Commit(*messages, commit));
    ASSERT_OK((*writer)->Close());
  }

  // Key -> row as the batch read of `snapshot` returns it.
  static std::map<int64_t, std::string> BatchRead(const Table& table, int64_t snapshot) {
    std::map<int64_t, std::string> rows;
    auto reader = test::ReaderOf(table.NewReadBuilder().WithSnapshot(snapshot));
    EXPECT_OK(reader);
    if (!reader.ok()) return rows;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        Value row = batch.GetRow(i);
        rows[row.list()[0].int64()] = row.DebugString();
      }
    }
    return rows;
  }

  // Every key looked up at `snapshot` answers as the batch read of it.
  static void ExpectLookupsMatchRead(const Table& table, int64_t snapshot) {
    const std::map<int64_t, std::string> expected = BatchRead(table, snapshot);
    auto lookup = TableLookup::Make(table, snapshot);
    ASSERT_OK(lookup);
    for (int64_t id = 0; id < kKeys; ++id) {
      auto row = lookup->Lookup({Value::Int64(id)});
      ASSERT_OK(row);
      auto it = expected.find(id);
      if (it == expected.end()) {
        EXPECT_FALSE(row->has_value())
            << "snapshot " << snapshot << " key " << id << ": found "
            << Value::Row(**row).DebugString() << ", the read has no row";
      } else {
        ASSERT_TRUE(row->has_value()) << "snapshot " << snapshot << " key " << id
                                      << ": not found, the read has " << it->second;
        EXPECT_EQ(Value::Row(**row).DebugString(), it->second)
            << "snapshot " << snapshot << " key " << id;
      }
    }
  }

  test::TempDir dir_;
  std::mt19937_64 rng_{20261202};
};

TEST_P(TableLookupTest, EveryKeyAnswersAsTheBatchRead) {
  Table table = Create();
  for (int64_t commit = 1; commit <= 8; ++commit) {
    WriteOnce(table, commit);
    if (HasFatalFailure()) return;
    auto snapshots = table.Snapshots();
    ASSERT_OK(snapshots);
    ASSERT_FALSE(snapshots->empty());
    ExpectLookupsMatchRead(table, snapshots->back().id);
  }
  // An older snapshot answers as it was: the oldest compacted one when there is one (a lookup
  // table's APPEND snapshot holds its new rows in level 0, which lookups do not see and a
  // batch read of a table without deletion vectors does).
  auto snapshots = table.Snapshots();
  ASSERT_OK(snapshots);
  ASSERT_FALSE(snapshots->empty());
  int64_t older = snapshots->front().id;
  for (const SnapshotInfo& snapshot : *snapshots) {
    if (snapshot.commit_kind == "COMPACT" && snapshot.id != snapshots->back().id) {
      older = snapshot.id;
      break;
    }
  }
  ExpectLookupsMatchRead(table, older);
}

TEST_P(TableLookupTest, BadKeysAreRefused) {
  Table table = Create();
  WriteOnce(table, 1);
  auto lookup = TableLookup::Make(table);
  ASSERT_OK(lookup);
  EXPECT_TRUE(
      test::HasError(lookup->Lookup({}).status(), StatusCode::kInvalidArgument, {"1 fields"}));
  EXPECT_TRUE(test::HasError(lookup->Lookup({Value::Null()}).status(), StatusCode::kInvalidArgument,
                             {"id", "null"}));
  EXPECT_TRUE(test::HasError(TableLookup::Make(table, 99).status(), StatusCode::kNotFound, {"99"}));
}

INSTANTIATE_TEST_SUITE_P(
    MergeEngines, TableLookupTest,
    ::testing::Values(LookupCase{"deduplicate", {}, true},
                      LookupCase{"deduplicate_dv", {{"deletion-vectors.enabled", "true"}}, true},
                      LookupCase{"deduplicate_sequence_field", {{"sequence.field", "a"}}, true},
                      LookupCase{"changelog_lookup", {{"changelog-producer", "lookup"}}, true},
                      LookupCase{"partial_update", {{"merge-engine", "partial-update"}}, false},
                      LookupCase{
                          "aggregation_sum",
                          {{"merge-engine", "aggregation"}, {"fields.a.aggregate-function", "sum"}},
                          false},
                      LookupCase{"first_row", {{"merge-engine", "first-row"}}, false}),
    [](const ::testing::TestParamInfo<LookupCase>& info) { return info.param.name; });

}  // namespace
}  // namespace sluice
