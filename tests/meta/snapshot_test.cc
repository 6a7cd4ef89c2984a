#include "sluice/meta/snapshot.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/meta/tag.h"
#include "test_util.h"

namespace sluice {
namespace {

// What a main-branch Java writer produces: every optional key set, no logOffsets.
constexpr std::string_view kMainSnapshot = R"({
  "version" : 3,
  "uuid" : "0f6c7a4e-2b64-4b3d-9a56-6cbb2f3f4c10",
  "id" : 7,
  "schemaId" : 2,
  "baseManifestList" : "manifest-list-a-0",
  "baseManifestListSize" : 1024,
  "deltaManifestList" : "manifest-list-a-1",
  "deltaManifestListSize" : 998,
  "changelogManifestList" : "manifest-list-a-2",
  "changelogManifestListSize" : 12,
  "indexManifest" : "index-manifest-b-0",
  "commitUser" : "user \"quoted\"",
  "writerVersion" : "1.4-SNAPSHOT",
  "commitIdentifier" : 9223372036854775807,
  "commitKind" : "COMPACT",
  "timeMillis" : 1762240063499,
  "totalRecordCount" : 9007199254740993,
  "deltaRecordCount" : -5,
  "changelogRecordCount" : 0,
  "watermark" : -9223372036854775808,
  "statistics" : "stat-c-0",
  "properties" : {
    "z" : "1",
    "a" : "2"
  },
  "nextRowId" : 15,
  "operation" : "CREATE_OR_REPLACE_TABLE_AS_SELECT"
})";

// A 0.8-era writer: explicit nulls, logOffsets, no sizes.
constexpr std::string_view kOldSnapshot = R"({
  "version" : 3,
  "id" : 1,
  "schemaId" : 0,
  "baseManifestList" : "manifest-list-x-0",
  "deltaManifestList" : "manifest-list-x-1",
  "changelogManifestList" : null,
  "commitUser" : "u",
  "commitIdentifier" : 1,
  "commitKind" : "APPEND",
  "timeMillis" : 1,
  "logOffsets" : {
    "0" : 12,
    "3" : 4
  },
  "totalRecordCount" : 3,
  "deltaRecordCount" : 3,
  "changelogRecordCount" : 0,
  "watermark" : null
})";

// What Java 1.4.2 writes for kOldSnapshot (Snapshot.fromJson(text).toJson() with
// paimon-bundle-1.4.2): every nullable field of Snapshot.java is
// @JsonInclude(JsonInclude.Include.NON_NULL), and logOffsets is no field of 1.4 at all.
constexpr std::string_view kOldSnapshotByJava14 = R"({
  "version" : 3,
  "id" : 1,
  "schemaId" : 0,
  "baseManifestList" : "manifest-list-x-0",
  "deltaManifestList" : "manifest-list-x-1",
  "commitUser" : "u",
  "commitIdentifier" : 1,
  "commitKind" : "APPEND",
  "timeMillis" : 1,
  "totalRecordCount" : 3,
  "deltaRecordCount" : 3,
  "changelogRecordCount" : 0
})";

TEST(SnapshotTest, MainEraRoundTrip) {
  Result<Snapshot> s = Snapshot::FromJson(kMainSnapshot);
  ASSERT_OK(s);
  EXPECT_EQ(s->id, 7);
  EXPECT_EQ(s->commit_kind, CommitKind::kCompact);
  EXPECT_EQ(s->commit_identifier, Snapshot::kBatchCommitIdentifier);
  EXPECT_EQ(s->total_record_count, 9007199254740993);  // above 2^53: no double rounding
  EXPECT_EQ(s->watermark, INT64_MIN);
  ASSERT_TRUE(s->properties.has_value());
  EXPECT_EQ(s->properties->front().first, "z");
  EXPECT_EQ(s->operation, SnapshotOperation::kCreateOrReplaceTableAsSelect);
  EXPECT_EQ(s->ToJson(), kMainSnapshot);
}

TEST(SnapshotTest, OldEraFileIsWrittenBackAsJava14WritesIt) {
  Result<Snapshot> s = Snapshot::FromJson(kOldSnapshot);
  ASSERT_OK(s);
  EXPECT_FALSE(s->changelog_manifest_list.has_value());
  EXPECT_FALSE(s->watermark.has_value());
  EXPECT_EQ(s->ToJson(), kOldSnapshotByJava14);
  Result<Snapshot> back = Snapshot::FromJson(kOldSnapshotByJava14);
  ASSERT_OK(back);
  EXPECT_EQ(*back, *s);
}

// The two snapshots below were built with Java 1.4.2's public constructor (new Snapshot(id,
// schemaId, baseManifestList, ..., nextRowId)) and printed with toJson(); Sluice builds the same
// content and must write the same text.
TEST(SnapshotTest, WritesTheKeysJava14WritesForACommit) {
  // A commit as FileStoreCommitImpl makes it without changelog, index, watermark, statistics
  // or properties: changelogManifestList(Size) and changelogRecordCount are null
  // (ManifestEntry.nullableRecordCount of no files), nextRowId a long.
  Snapshot plain;
  plain.id = 1;
  plain.schema_id = 0;
  plain.base_manifest_list = "manifest-list-b-0";
  plain.base_manifest_list_size = 884;
  plain.delta_manifest_list = "manifest-list-b-1";
  plain.delta_manifest_list_size = 989;
  plain.commit_user = "user-1";
  plain.commit_identifier = Snapshot::kBatchCommitIdentifier;
  plain.commit_kind = CommitKind::kAppend;
  plain.time_millis = 1700000000000;
  plain.total_record_count = 20;
  plain.delta_record_count = 20;
  plain.next_row_id = 0;
  constexpr std::string_view kPlainByJava = R"({
  "version" : 3,
  "id" : 1,
  "schemaId" : 0,
  "baseManifestList" : "manifest-list-b-0",
  "baseManifestListSize" : 884,
  "deltaManifestList" : "manifest-list-b-1",
  "deltaManifestListSize" : 989,
  "commitUser" : "user-1",
  "commitIdentifier" : 9223372036854775807,
  "commitKind" : "APPEND",
  "timeMillis" : 1700000000000,
  "totalRecordCount" : 20,
  "deltaRecordCount" : 20,
  "nextRowId" : 0
})";
  EXPECT_EQ(plain.ToJson(), kPlainByJava);
  Result<Snapshot> plain_back = Snapshot::FromJson(kPlainByJava);
  ASSERT_OK(plain_back);
  EXPECT_EQ(*plain_back, plain);

  // Every key Java 1.4.2 has, set.
  Snapshot full = plain;
  full.id = 7;
  full.schema_id = 2;
  full.changelog_manifest_list = "manifest-list-b-2";
  full.changelog_manifest_list_size = 12;
  full.index_manifest = "index-manifest-b-0";
  full.commit_identifier = 42;
  full.commit_kind = CommitKind::kCompact;
  full.total_record_count = 120;
  full.changelog_record_count = 5;
  full.watermark = 1000;
  full.statistics = "stats-1";
  full.properties = std::vector<std::pair<std::string, std::string>>{{"k", "v"}};
  full.next_row_id = 77;
  constexpr std::string_view kFullByJava = R"({
  "version" : 3,
  "id" : 7,
  "schemaId" : 2,
  "baseManifestList" : "manifest-list-b-0",
  "baseManifestListSize" : 884,
  "deltaManifestList" : "manifest-list-b-1",
  "deltaManifestListSize" : 989,
  "changelogManifestList" : "manifest-list-b-2",
  "changelogManifestListSize" : 12,
  "indexManifest" : "index-manifest-b-0",
  "commitUser" : "user-1",
  "commitIdentifier" : 42,
  "commitKind" : "COMPACT",
  "timeMillis" : 1700000000000,
  "totalRecordCount" : 120,
  "deltaRecordCount" : 20,
  "changelogRecordCount" : 5,
  "watermark" : 1000,
  "statistics" : "stats-1",
  "properties" : {
    "k" : "v"
  },
  "nextRowId" : 77
})";
  EXPECT_EQ(full.ToJson(), kFullByJava);
  Result<Snapshot> full_back = Snapshot::FromJson(kFullByJava);
  ASSERT_OK(full_back);
  EXPECT_EQ(*full_back, full);
}

// Every Java-written snapshot of the corpus (Paimon 1.3-era writers: `"changelogManifestList" :
// null`, `"logOffsets" : { }`) is written back as Java 1.4.2 writes it: the file's keys in the
// file's order, without the null ones and without logOffsets, each with its value. (Checked
// against Java 1.4.2's Snapshot.fromJson(text).toJson() for all 263 files when written.)
TEST(SnapshotTest, CorpusSnapshotsAreWrittenBackAsJava14WritesThem) {
  const std::vector<std::string> paths = test::ListFilesRecursive(
      test::CompatTablesDir(),
      [](const std::string& p) { return p.find("/snapshot/snapshot-") != std::string::npos; });
  ASSERT_FALSE(paths.empty());
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Result<Snapshot> s = Snapshot::FromJson(text);
    ASSERT_OK(s) << path;
    const nlohmann::ordered_json file = nlohmann::ordered_json::parse(text);
    nlohmann::ordered_json expected = nlohmann::ordered_json::object();
    for (const auto& [key, value] : file.items()) {
      if (!value.is_null() && key != "logOffsets") expected[key] = value;
    }
    EXPECT_EQ(nlohmann::ordered_json::parse(s->ToJson()).dump(), expected.dump()) << path;
  }
}

TEST(SnapshotTest, BuiltSnapshotWritesOnlyPresentKeys) {
  Snapshot s;
  s.id = 1;
  s.base_manifest_list = "b";
  s.delta_manifest_list = "d";
  s.commit_user = "u";
  s.commit_identifier = 1;
  s.time_millis = 5;
  s.total_record_count = 0;
  s.delta_record_count = 0;
  s.properties.emplace();
  EXPECT_EQ(s.ToJson(), R"({
  "version" : 3,
  "id" : 1,
  "schemaId" : 0,
  "baseManifestList" : "b",
  "deltaManifestList" : "d",
  "commitUser" : "u",
  "commitIdentifier" : 1,
  "commitKind" : "APPEND",
  "timeMillis" : 5,
  "totalRecordCount" : 0,
  "deltaRecordCount" : 0,
  "properties" : { }
})");
  Result<Snapshot> back = Snapshot::FromJson(s.ToJson());
  ASSERT_OK(back);
  EXPECT_EQ(*back, s);
}

TEST(SnapshotTest, IgnoresUnknownKeys) {
  Result<Snapshot> s = Snapshot::FromJson(R"({"version": 3, "id": 2, "schemaId": 0,
      "baseManifestList": "b", "deltaManifestList": "d", "commitUser": "u",
      "commitIdentifier": 1, "commitKind": "ANALYZE", "timeMillis": 3, "future": [1, {}]})");
  ASSERT_OK(s);
  EXPECT_EQ(s->commit_kind, CommitKind::kAnalyze);
  EXPECT_EQ(s->ToJson().find("future"), std::string::npos);
  // logOffsets (<= 1.3) is one of them, whatever its shape, as in Java 1.4.
  for (const char* offsets : {R"({"x": 1})", "[]", "null"}) {
    const std::string text = R"({"version": 3, "id": 2, "schemaId": 0, "baseManifestList": "b",
        "deltaManifestList": "d", "commitUser": "u", "commitIdentifier": 1,
        "commitKind": "APPEND", "timeMillis": 3, "logOffsets": )" +
                             std::string(offsets) + "}";
    Result<Snapshot> with_offsets = Snapshot::FromJson(text);
    ASSERT_OK(with_offsets) << offsets;
    EXPECT_EQ(with_offsets->ToJson().find("logOffsets"), std::string::npos);
  }
}

TEST(SnapshotTest, BadInputNamesTheField) {
  const std::string base =
      R"("version": 3, "schemaId": 0, "baseManifestList": "b", "deltaManifestList": "d",
         "commitUser": "u", "commitIdentifier": 1, "timeMillis": 3)";
  struct Case {
    std::string json;
    std::string message;
  };
  const Case cases[] = {
      {"{" + base + R"(, "commitKind": "APPEND"})", "missing field 'id'"},
      {"{" + base + R"(, "id": 1})", "missing field 'commitKind'"},
      {"{" + base + R"(, "id": "1", "commitKind": "APPEND"})",
       "field 'id': expected an integer, got string"},
      {"{" + base + R"(, "id": 1.5, "commitKind": "APPEND"})",
       "field 'id': expected an integer, got number"},
      {"{" + base + R"(, "id": null, "commitKind": "APPEND"})",
       "field 'id': expected an integer, got null"},
      {"{" + base + R"(, "id": 1, "commitKind": "MERGE"})",
       "field 'commitKind': unknown commit kind 'MERGE'"},
      {"{" + base + R"(, "id": 1, "commitKind": "APPEND", "operation": "X"})",
       "field 'operation': unknown operation 'X'"},
      {"{" + base + R"(, "id": 1, "commitKind": "APPEND", "properties": {"k": 1}})",
       "field 'properties.k': expected string, got number"},
      {"{" + base + R"(, "id": 1, "commitKind": "APPEND", "watermark": "x"})",
       "field 'watermark': expected an integer, got string"},
      {"{" + base + R"(, "id": 18446744073709551615, "commitKind": "APPEND"})",
       "field 'id': value 18446744073709551615 is out of the 64-bit range"},
      {"[]", "field '(root)': expected object, got array"},
  };
  for (const Case& c : cases) {
    Result<Snapshot> s = Snapshot::FromJson(c.json);
    ASSERT_TRUE(test::HasError(s, StatusCode::kCorruption, {c.message})) << c.json;
    EXPECT_EQ(s.status().message(), c.message) << c.json;
  }
  // Truncated and garbled text.
  const std::string good(kMainSnapshot);
  for (size_t n = 0; n < good.size(); n += 7) {
    ASSERT_TRUE(test::HasError(Snapshot::FromJson(good.substr(0, n)), StatusCode::kCorruption,
                               {"invalid JSON"}))
        << n;
  }
  std::string garbled = good;
  garbled[good.find(':')] = '=';
  EXPECT_NE(Snapshot::FromJson(garbled).status().message().find("invalid JSON at byte"),
            std::string::npos);
}

TEST(TagTest, RoundTripWithTagKeys) {
  std::string text(kMainSnapshot);
  text.resize(text.size() - 2);  // "\n}"
  text +=
      ",\n  \"tagCreateTime\" : [ 2024, 12, 1, 10, 30, 5, 123000000 ],\n"
      "  \"tagTimeRetained\" : 86400.000000000\n}";
  Result<Tag> tag = Tag::FromJson(text);
  ASSERT_OK(tag);
  EXPECT_EQ(tag->snapshot.id, 7);
  EXPECT_EQ(*tag->create_time, Tag::LocalDateTimeArray(2024, 12, 1, 10, 30, 5, 123000000));
  EXPECT_EQ(tag->time_retained, (TagDuration{86400, 0}));
  EXPECT_EQ(tag->ToJson(), text);
}

TEST(TagTest, JacksonNumberForms) {
  EXPECT_EQ((TagDuration{0, 0}).ToJacksonNumber(), "0.0");
  EXPECT_EQ((TagDuration{3600, 0}).ToJacksonNumber(), "3600.000000000");
  EXPECT_EQ((TagDuration{1, 500000000}).ToJacksonNumber(), "1.500000000");
  EXPECT_EQ((TagDuration{0, 1000}).ToJacksonNumber(), "0.000001000");
  EXPECT_EQ((TagDuration{0, 999}).ToJacksonNumber(), "9.99E-7");
  EXPECT_EQ((TagDuration{0, 1}).ToJacksonNumber(), "1E-9");
  EXPECT_EQ((TagDuration{0, 50}).ToJacksonNumber(), "5.0E-8");
  EXPECT_EQ(Tag::LocalDateTimeArray(2024, 1, 2, 3, 4, 0, 0),
            (std::vector<int64_t>{2024, 1, 2, 3, 4}));
  EXPECT_EQ(Tag::LocalDateTimeArray(2024, 1, 2, 3, 4, 0, 7),
            (std::vector<int64_t>{2024, 1, 2, 3, 4, 0, 7}));
  // Each form reads back to the same duration.
  for (TagDuration d : {TagDuration{0, 0}, TagDuration{7 * 86400, 0}, TagDuration{1, 1},
                        TagDuration{0, 999}, TagDuration{31536000, 123456789}}) {
    std::string text(kMainSnapshot);
    text.resize(text.size() - 2);
    text += ",\n  \"tagTimeRetained\" : " + d.ToJacksonNumber() + "\n}";
    Result<Tag> tag = Tag::FromJson(text);
    ASSERT_OK(tag) << text;
    EXPECT_EQ(tag->time_retained, d) << d.ToJacksonNumber();
    EXPECT_EQ(tag->ToJson(), text);
  }
}

TEST(TagTest, BadTagKeys) {
  std::string prefix(kMainSnapshot);
  prefix.pop_back();
  EXPECT_EQ(Tag::FromJson(prefix + R"(, "tagCreateTime": [2024, 1]})").status().message(),
            "field 'tagCreateTime': expected 5 to 7 elements, got 2");
  EXPECT_EQ(Tag::FromJson(prefix + R"(, "tagCreateTime": "2024-01-01"})").status().message(),
            "field 'tagCreateTime': expected array, got string");
  EXPECT_EQ(
      Tag::FromJson(prefix + R"(, "tagCreateTime": [2024, 1, 1, 0, "x"]})").status().message(),
      "field 'tagCreateTime[4]': expected an integer, got string");
  EXPECT_EQ(Tag::FromJson(prefix + R"(, "tagTimeRetained": "PT1H"})").status().message(),
            "field 'tagTimeRetained': expected a number, got string");
  EXPECT_EQ(Tag::FromJson(prefix + R"(, "tagTimeRetained": 1e300})").status().message(),
            "field 'tagTimeRetained': duration out of range");
  EXPECT_EQ(Tag::FromJson(prefix + R"(, "tagTimeRetained": -1.5})").status().message(),
            "field 'tagTimeRetained': duration out of range");
  EXPECT_EQ(Tag::FromJson(prefix + R"(, "tagTimeRetained": -1})").status().message(),
            "field 'tagTimeRetained': duration out of range");
}

}  // namespace
}  // namespace sluice
