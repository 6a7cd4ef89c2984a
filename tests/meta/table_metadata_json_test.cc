// `sluice meta`'s document for corpus tables, checked against what the tables' READMEs say
// was written: partition values, buckets, row counts, min/max keys and statistics.
#include "sluice/meta/table_metadata_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "test_util.h"

namespace sluice {
namespace {

using Json = nlohmann::ordered_json;

Json Meta(const std::string& table, std::optional<int64_t> snapshot,
          const std::string& branch = "main") {
  auto text =
      TableMetadataJson(LocalFileIO(), test::CompatTablesDir() + "/" + table, snapshot, branch);
  EXPECT_OK(text) << table;
  if (!text.ok()) return Json();
  return Json::parse(*text);
}

// The entries of the manifests that the snapshot's delta manifest list names: what that
// snapshot committed.
std::vector<Json> DeltaEntries(const Json& doc) {
  std::vector<Json> out;
  for (const Json& m : doc["manifests"]) {
    if (m["list"] != "delta") continue;
    for (const Json& e : m["entries"]) out.push_back(e);
  }
  return out;
}

// (partition, bucket, row count, min key, max key) of each file, sorted, for comparison.
using FileFacts = std::tuple<std::string, int, int64_t, std::string, std::string>;

std::multiset<FileFacts> Facts(const std::vector<Json>& entries) {
  std::multiset<FileFacts> out;
  for (const Json& e : entries) {
    EXPECT_EQ(e["kind"], "ADD");
    out.emplace(e["partition"].dump(), e["bucket"].get<int>(),
                e["file"]["row_count"].get<int64_t>(), e["file"]["min_key"].dump(),
                e["file"]["max_key"].dump());
  }
  return out;
}

const char kTwoRoads[] =
    "Two roads diverged in a wood, and I took the one less traveled by, And that has made all "
    "the difference.";

// Nine rows into partitions f1=10 / f1=20; bucket = f2 (2 buckets: f2 = 1 -> bucket 0,
// f2 = 0 -> bucket 1); trimmed key (f0, f2). Written as one commit (snapshot 1) by the
// pk_table_scan_and_read_* and pk_dv_index_* tables (their READMEs).
std::multiset<FileFacts> NineRowsSnapshot1() {
  return {
      {R"({"f1":10})", 0, 2, R"({"f0":"Alice","f2":1})", Json{{"f0", kTwoRoads}, {"f2", 1}}.dump()},
      {R"({"f1":10})", 1, 5, R"({"f0":"Alex","f2":0})", R"({"f0":"Tony","f2":0})"},
      {R"({"f1":20})", 0, 2, R"({"f0":"Lucy","f2":1})", R"({"f0":"Paul","f2":1})"},
  };
}

TEST(TableMetadataJsonTest, PrimaryKeyTablesOfNineRows) {
  for (const char* table : {
           "parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv",
           "parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor",
           "parquet/pk_table_scan_and_read_first_row.db/pk_table_scan_and_read_first_row",
           "parquet/pk_dv_index_not_in_data_no_external.db/pk_dv_index_not_in_data_no_external",
           "orc/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor",
           "orc/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv",
       }) {
    SCOPED_TRACE(table);
    Json doc = Meta(table, 1);
    ASSERT_FALSE(doc.is_null());
    EXPECT_EQ(doc["snapshot"]["totalRecordCount"], 9);
    std::vector<Json> entries = DeltaEntries(doc);
    EXPECT_EQ(Facts(entries), NineRowsSnapshot1());
    for (const Json& e : entries) {
      EXPECT_EQ(e["file"]["level"], 0);
      EXPECT_EQ(e["total_buckets"], 2);
      // Keys are never truncated; value stats of strings are truncated to 16 characters.
      if (e["file"]["max_key"]["f0"] == kTwoRoads) {
        EXPECT_EQ(e["file"]["value_stats"]["max"]["f0"], "Two roads diverh");
      }
    }
  }
}

TEST(TableMetadataJsonTest, DeletionVectorCardinalityTable) {
  // Nine rows into f1=10 only; f3 has stats-mode none, so dense stats leave it out.
  Json doc = Meta("parquet/pk_table_with_dv_cardinality.db/pk_table_with_dv_cardinality", 1);
  std::multiset<FileFacts> want = {
      {R"({"f1":10})", 0, 2, R"({"f0":"Alice","f2":1})", Json{{"f0", kTwoRoads}, {"f2", 1}}.dump()},
      {R"({"f1":10})", 1, 7, R"({"f0":"Alex","f2":0})",
       R"({"f0":"Whether I shall turn out to be the hero of my own life.","f2":0})"},
  };
  std::vector<Json> entries = DeltaEntries(doc);
  EXPECT_EQ(Facts(entries), want);
  for (const Json& e : entries) {
    EXPECT_EQ(e["file"]["value_stats_cols"], Json::parse(R"(["f0","f1","f2"])"));
  }
}

TEST(TableMetadataJsonTest, AppendTablesOfEightRows) {
  // README rows: f0 Alice..Tony, f1 in {10, 20}, f2 in {0, 1, null}, f3 11.1 .. 18.1.
  Json doc = Meta("parquet/append_with_bitmap.db/append_with_bitmap", 1);
  std::vector<Json> entries = DeltaEntries(doc);
  ASSERT_EQ(entries.size(), 1u);
  const Json& f = entries[0]["file"];
  EXPECT_EQ(entries[0]["partition"], Json::object());
  EXPECT_EQ(entries[0]["bucket"], 0);
  EXPECT_EQ(entries[0]["total_buckets"], -1);
  EXPECT_EQ(f["row_count"], 8);
  EXPECT_EQ(f["min_key"], Json::object());
  EXPECT_EQ(f["value_stats"]["min"], Json::parse(R"({"f0":"Alice","f1":10,"f2":0,"f3":11.1})"));
  EXPECT_EQ(f["value_stats"]["max"], Json::parse(R"({"f0":"Tony","f1":20,"f2":1,"f3":18.1})"));
  EXPECT_EQ(f["value_stats"]["null_counts"], Json::parse("[0,0,1,0]"));

  // The bsi and bloom-filter tables hold the same eight rows with other values.
  for (const char* table : {"parquet/append_with_bsi.db/append_with_bsi",
                            "parquet/append_with_bloomfilter.db/append_with_bloomfilter"}) {
    SCOPED_TRACE(table);
    std::vector<Json> e = DeltaEntries(Meta(table, 1));
    ASSERT_EQ(e.size(), 1u);
    const Json& stats = e[0]["file"]["value_stats"];
    EXPECT_EQ(e[0]["file"]["row_count"], 8);
    EXPECT_EQ(stats["min"]["f0"], "Alice");
    EXPECT_EQ(stats["max"]["f0"], "Tony");
    EXPECT_EQ(stats["min"]["f1"], 20);
    EXPECT_EQ(stats["max"]["f1"], 500);
    EXPECT_EQ(stats["min"]["f2"], -3);
    EXPECT_EQ(stats["max"]["f2"], 2);
    EXPECT_EQ(stats["null_counts"], Json::parse("[0,1,1,0,1]"));
  }
}

TEST(TableMetadataJsonTest, PrimaryKeyTableWithDeletes) {
  // Keys 0..7 in one bucket, then a commit deleting keys 0 and 4.
  const char* table = "parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv";
  std::vector<Json> first = DeltaEntries(Meta(table, 1));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]["file"]["row_count"], 8);
  EXPECT_EQ(first[0]["file"]["min_key"], Json::parse(R"({"key":0})"));
  EXPECT_EQ(first[0]["file"]["max_key"], Json::parse(R"({"key":7})"));
  EXPECT_EQ(first[0]["file"]["delete_row_count"], 0);
  std::vector<Json> third = DeltaEntries(Meta(table, 3));
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(third[0]["file"]["row_count"], 2);
  EXPECT_EQ(third[0]["file"]["delete_row_count"], 2);
  EXPECT_EQ(third[0]["file"]["min_key"], Json::parse(R"({"key":0})"));
  EXPECT_EQ(third[0]["file"]["max_key"], Json::parse(R"({"key":4})"));
}

TEST(TableMetadataJsonTest, PartialUpdateTable) {
  const char* table = "parquet/pk_table_partial_update.db/pk_table_partial_update";
  std::vector<Json> first = DeltaEntries(Meta(table, 1));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]["file"]["row_count"], 3);
  EXPECT_EQ(first[0]["file"]["min_key"], Json::parse(R"({"k0":0,"k1":1})"));
  EXPECT_EQ(first[0]["file"]["max_key"], Json::parse(R"({"k0":1,"k1":1})"));
  std::vector<Json> second = DeltaEntries(Meta(table, 2));
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0]["file"]["row_count"], 5);
  EXPECT_EQ(second[0]["file"]["delete_row_count"], 2);
  EXPECT_EQ(second[0]["file"]["min_key"], Json::parse(R"({"k0":0,"k1":1})"));
  EXPECT_EQ(second[0]["file"]["max_key"], Json::parse(R"({"k0":2,"k1":2})"));
}

TEST(TableMetadataJsonTest, AppendTableAcrossSchemaChange) {
  const char* table = "parquet/append_table_with_alter_table.db/append_table_with_alter_table";
  for (int64_t snapshot : {1, 2}) {
    SCOPED_TRACE(snapshot);
    std::map<std::string, int64_t> rows;
    for (const Json& e : DeltaEntries(Meta(table, snapshot))) {
      rows[e["partition"].dump()] += e["file"]["row_count"].get<int64_t>();
      EXPECT_EQ(e["file"]["schema_id"], snapshot - 1);
      if (snapshot == 2 && e["partition"] == Json::parse(R"({"key0":0,"key1":1})")) {
        // Schema 1 reordered and renamed columns: k is 66, 76, 86 in that partition.
        EXPECT_EQ(e["file"]["value_stats"]["min"]["k"], 66);
        EXPECT_EQ(e["file"]["value_stats"]["max"]["k"], 86);
      }
    }
    std::map<std::string, int64_t> want = {{R"({"key0":0,"key1":1})", 3},
                                           {R"({"key0":1,"key1":1})", 2}};
    EXPECT_EQ(rows, want);
  }
}

TEST(TableMetadataJsonTest, LatestSnapshotAndErrors) {
  Json latest = Meta("parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv", {});
  EXPECT_EQ(latest["snapshot"]["id"], 6);
  auto missing = TableMetadataJson(
      LocalFileIO(),
      test::CompatTablesDir() + "/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv",
      99);
  EXPECT_TRUE(test::HasError(missing, StatusCode::kNotFound, {"snapshot-99"}));
  EXPECT_TRUE(test::HasError(
      TableMetadataJson(LocalFileIO(), test::CompatTablesDir(), std::nullopt),
      StatusCode::kNotFound, {test::CompatTablesDir() + ": not a Paimon table (no schema files)"}));
}

}  // namespace
}  // namespace sluice
