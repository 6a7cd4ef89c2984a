#include "sluice/meta/file_paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include "test_util.h"

namespace sluice {
namespace {

TEST(FilePathsTest, MetadataLayout) {
  const std::string t = "/w/db.db/t";
  EXPECT_EQ(BranchPath(t, "main"), t);
  EXPECT_EQ(BranchPath(t, "rt"), "/w/db.db/t/branch/branch-rt");
  EXPECT_EQ(NormalizeBranch(""), "main");
  EXPECT_EQ(NormalizeBranch(" \t"), "main");
  EXPECT_EQ(NormalizeBranch("b1"), "b1");
  EXPECT_EQ(SchemaPath(t, 3), "/w/db.db/t/schema/schema-3");
  EXPECT_EQ(SnapshotPath(BranchPath(t, "rt"), 12),
            "/w/db.db/t/branch/branch-rt/snapshot/snapshot-12");
  EXPECT_EQ(LatestHintPath(SnapshotDir(t)), "/w/db.db/t/snapshot/LATEST");
  EXPECT_EQ(EarliestHintPath(ChangelogDir(t)), "/w/db.db/t/changelog/EARLIEST");
  EXPECT_EQ(ChangelogPath(t, 4), "/w/db.db/t/changelog/changelog-4");
  EXPECT_EQ(TagPath(t, "2024-01-01"), "/w/db.db/t/tag/tag-2024-01-01");
  EXPECT_EQ(ConsumerPath(t, "c1"), "/w/db.db/t/consumer/consumer-c1");
  EXPECT_EQ(ManifestFilePath(t, "manifest-list-u-0"), "/w/db.db/t/manifest/manifest-list-u-0");
  EXPECT_EQ(IndexFilePath(t, "index-u-1"), "/w/db.db/t/index/index-u-1");
  EXPECT_EQ(StatisticsFilePath(t, "stat-u-0"), "/w/db.db/t/statistics/stat-u-0");
  EXPECT_EQ(ManifestFileName("u", 2), "manifest-u-2");
  EXPECT_EQ(ManifestListFileName("u", 0), "manifest-list-u-0");
  EXPECT_EQ(IndexManifestFileName("u", 1), "index-manifest-u-1");
  EXPECT_EQ(IndexFileName("u", 5), "index-u-5");
  EXPECT_EQ(StatisticsFileName("u", 0), "stat-u-0");
}

TEST(FilePathsTest, VersionedNamesAndHints) {
  EXPECT_EQ(ParseVersionedFileName("snapshot-12", kSnapshotPrefix), 12);
  EXPECT_EQ(ParseVersionedFileName("snapshot-0", kSnapshotPrefix), 0);
  EXPECT_EQ(ParseVersionedFileName("snapshot-", kSnapshotPrefix), std::nullopt);
  EXPECT_EQ(ParseVersionedFileName("snapshot-1a2b.tmp", kSnapshotPrefix), std::nullopt);
  EXPECT_EQ(ParseVersionedFileName("schema-1", kSnapshotPrefix), std::nullopt);
  EXPECT_EQ(ParseVersionedFileName("snapshot-99999999999999999999", kSnapshotPrefix), std::nullopt);
  EXPECT_EQ(ParseHintContent("42"), 42);
  EXPECT_EQ(ParseHintContent("+42"), 42);  // Long.parseLong accepts a sign
  EXPECT_EQ(ParseHintContent("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(ParseHintContent("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseHintContent("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseHintContent("42\n"), std::nullopt);
  EXPECT_EQ(ParseHintContent(" 42"), std::nullopt);
  EXPECT_EQ(ParseHintContent(""), std::nullopt);
  EXPECT_EQ(ParseHintContent("-"), std::nullopt);
}

TEST(FilePathsTest, PartitionPaths) {
  EXPECT_EQ(EscapePartitionPathName("a/b=c:d%e"), "a%2Fb%3Dc%3Ad%25e");
  EXPECT_EQ(EscapePartitionPathName("\t\x7f\"#'*?\\{}[]^ ok é"),
            "%09%7F%22%23%27%2A%3F%5C%7B%7D%5B%5D%5E ok \xc3\xa9");
  EXPECT_EQ(UnescapePartitionPathName("a%2Fb%3Dc%3Ad%25e"), "a/b=c:d%e");
  EXPECT_EQ(UnescapePartitionPathName("100%"), "100%");
  EXPECT_EQ(UnescapePartitionPathName("%zz%4"), "%zz%4");
  EXPECT_EQ(UnescapePartitionPathName(EscapePartitionPathName("x=1/2%")), "x=1/2%");
  EXPECT_EQ(PartitionPath({}), "");
  EXPECT_EQ(PartitionPath({{"dt", "2024-01-01T12:30"}, {"hr", "5"}}),
            "dt=2024-01-01T12%3A30/hr=5/");
  EXPECT_EQ(PartitionPath({{"f0", std::nullopt}, {"f1", ""}, {"f2", "  "}}),
            "f0=__DEFAULT_PARTITION__/f1=__DEFAULT_PARTITION__/f2=__DEFAULT_PARTITION__/");
  EXPECT_EQ(PartitionPath({{"f0", std::nullopt}}, "__HIVE_DEFAULT_PARTITION__"),
            "f0=__HIVE_DEFAULT_PARTITION__/");
}

TEST(FilePathsTest, BucketAndDataFiles) {
  EXPECT_EQ(BucketDirName(0), "bucket-0");
  EXPECT_EQ(BucketDirName(kPostponeBucket), "bucket-postpone");
  EXPECT_EQ(RelativeBucketPath("", 3), "bucket-3");
  EXPECT_EQ(RelativeBucketPath("dt=1/", 3), "dt=1/bucket-3");
  EXPECT_EQ(RelativeBucketPath("dt=1/", 3, "data"), "data/dt=1/bucket-3");
  EXPECT_EQ(BucketPath("/t", "dt=1/", 0), "/t/dt=1/bucket-0");
  EXPECT_EQ(DataFilePath("/t/bucket-0", "data-u-0.orc"), "/t/bucket-0/data-u-0.orc");
  EXPECT_EQ(DataFilePath("/t/bucket-0", "data-u-0.orc", "FILE:/x/bucket-0/data-u-0.orc"),
            "FILE:/x/bucket-0/data-u-0.orc");
  EXPECT_EQ(DataFileIndexPath("/t/bucket-0/data-u-0.orc"), "/t/bucket-0/data-u-0.orc.index");

  EXPECT_EQ(DataFileExtension("parquet", "zstd", false), ".parquet");
  EXPECT_EQ(DataFileExtension("parquet", "zstd", true), ".zst.parquet");
  EXPECT_EQ(DataFileExtension("orc", "GZIP", true), ".gz.orc");
  EXPECT_EQ(DataFileExtension("orc", "none", true), ".orc");
  EXPECT_EQ(DataFileExtension("orc", "", true), ".orc");
  EXPECT_EQ(DataFileExtension("avro", "brotli", true), ".brotli.avro");
  EXPECT_EQ(DataFileExtension("csv", "bzip2", false), ".csv.bz2");
  EXPECT_EQ(DataFileExtension("json", "none", false), ".json");
  EXPECT_EQ(DataFileName("data-", "64d93fc3", 0, ".orc"), "data-64d93fc3-0.orc");

  EXPECT_EQ(FormatFromFileName("data-u-0.orc"), "orc");
  EXPECT_EQ(FormatFromFileName("data-u-0.zst.parquet"), "parquet");
  EXPECT_EQ(FormatFromFileName("data-u-0.csv.gz"), "csv");
  EXPECT_EQ(FormatFromFileName("data-u-0.blob"), "blob");
  EXPECT_EQ(FormatFromFileName("data-u-0.vector.lance"), "lance");
  EXPECT_EQ(FormatFromFileName("data-u-0"), std::nullopt);
  EXPECT_EQ(FormatFromFileName("x.zst"), std::nullopt);
}

std::string Legacy(const Value& v, const DataTypePtr& type) {
  Result<std::optional<std::string>> text = LegacyPartitionValueText(v, *type);
  EXPECT_OK(text);
  return text.ok() && text->has_value() ? **text : "<null>";
}

TEST(FilePathsTest, LegacyPartitionValueText) {
  EXPECT_EQ(Legacy(Value::String("20240725"), DataType::String()), "20240725");
  EXPECT_EQ(Legacy(Value::Int8(-5), DataType::TinyInt()), "-5");
  EXPECT_EQ(Legacy(Value::Int64(INT64_MIN), DataType::BigInt()), "-9223372036854775808");
  EXPECT_EQ(Legacy(Value::Boolean(true), DataType::Boolean()), "true");
  EXPECT_EQ(Legacy(Value::Int32(19723), DataType::Date()), "19723");
  EXPECT_EQ(Legacy(Value::Int32(3600000), DataType::Time()), "3600000");
  EXPECT_EQ(Legacy(Value::FromDecimal({1230, 5, 2}), DataType::Decimal(5, 2)), "12.30");
  EXPECT_EQ(Legacy(Value::FromDecimal({-5, 5, 2}), DataType::Decimal(5, 2)), "-0.05");
  EXPECT_EQ(Legacy(Value::Null(), DataType::Int()), "<null>");
  // Java LocalDateTime.toString: seconds only when non-zero, fraction in 3/6/9 digits.
  const int64_t noon = 19723LL * 86400000 + 12 * 3600000 + 30 * 60000;  // 2024-01-01T12:30
  EXPECT_EQ(Legacy(Value::FromTimestamp({noon, 0}), DataType::Timestamp(3)), "2024-01-01T12:30");
  EXPECT_EQ(Legacy(Value::FromTimestamp({noon + 5120, 0}), DataType::Timestamp(3)),
            "2024-01-01T12:30:05.120");
  EXPECT_EQ(Legacy(Value::FromTimestamp({noon + 1, 500000}), DataType::TimestampLtz(6)),
            "2024-01-01T12:30:00.001500");
  EXPECT_EQ(Legacy(Value::FromTimestamp({noon, 7}), DataType::Timestamp(9)),
            "2024-01-01T12:30:00.000000007");
  EXPECT_EQ(Legacy(Value::FromTimestamp({-1, 0}), DataType::Timestamp(3)),
            "1969-12-31T23:59:59.999");
  EXPECT_EQ(JavaLocalDateTimeString({-62198755200000LL, 0}), "-0001-01-01T00:00");
  EXPECT_EQ(JavaLocalDateTimeString({253402300800000LL, 0}), "+10000-01-01T00:00");
  EXPECT_EQ(Legacy(Value::Float(1.5f), DataType::Float()), "1.5");
  EXPECT_EQ(Legacy(Value::Double(1e10), DataType::Double()), "1.0E10");
  // Binary and nested values have no stable name; a value of the wrong kind is an error.
  EXPECT_EQ(LegacyPartitionValueText(Value::Binary("x"), *DataType::Bytes()).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(LegacyPartitionValueText(Value::String("x"), *DataType::Int()).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sluice
