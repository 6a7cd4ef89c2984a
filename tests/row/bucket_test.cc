#include "sluice/row/bucket.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "row_test_util.h"
#include "sluice/base/json_reader.h"
#include "sluice/types/data_type_json.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::FromHex;
using test::RowOf;

struct Vector {
  const char* row_hex;
  int32_t hash;
  int32_t bucket2;
  int32_t bucket3;
  int32_t bucket10;
};

// Java bucket-id vectors from format-spec 6.3.
TEST(BucketTest, SpecVectors) {
  const Vector vectors[] = {
      {"0000000000000000 0000000000000000", -300363099, 1, 0, 9},
      {"0000000000000000 0100000000000000", 1465514398, 0, 1, 8},
      {"0000000000000000 0200000000000000", 1340390384, 0, 2, 4},
      {"0000000000000000 ffffffff00000000", 1133687267, 1, 2, 7},
      {"0001000000000000 0000000000000000", -1748325344, 0, 2, 4},
      {"0000000000000000 416c696365000085", 1285337400, 0, 0, 0},
      {"0000000000000000 1200000010000000 54776f20726f616473206469766572676564000000000000",
       617909672, 0, 2, 2},
      {"0000000000000000 0100000000000000 6100000000000081", -948407462, 0, 2, 2},
  };
  for (const Vector& v : vectors) {
    const std::string bytes = FromHex(v.row_hex);
    const int arity = static_cast<int>(bytes.size() == 32 ? 2 : 1);
    auto row = BinaryRowView::Make(bytes, arity);
    ASSERT_OK(row);
    EXPECT_EQ(row->HashCode(), v.hash) << v.row_hex;
    EXPECT_EQ(DefaultBucket(*row, 2), v.bucket2) << v.row_hex;
    EXPECT_EQ(DefaultBucket(*row, 3), v.bucket3) << v.row_hex;
    EXPECT_EQ(DefaultBucket(*row, 10), v.bucket10) << v.row_hex;
  }
}

TEST(BucketTest, KeysEncodeToTheVectorRows) {
  auto int_key = RowOf({DataType::Int()});
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int32(0)}, *int_key, 10), 9);
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int32(-1)}, *int_key, 10), 7);
  EXPECT_EQ(*DefaultBucketOfKey({Value::Null()}, *int_key, 3), 2);
  // BIGINT 1 has the same bytes as INT 1.
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int64(1)}, *RowOf({DataType::BigInt()}), 10), 8);
  auto str_key = RowOf({DataType::String()});
  EXPECT_EQ(*DefaultBucketOfKey({Value::String("Two roads diverged")}, *str_key, 10), 2);
  auto pair_key = RowOf({DataType::Int(), DataType::String()});
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int32(1), Value::String("a")}, *pair_key, 3), 2);
  EXPECT_TRUE(test::HasError(DefaultBucketOfKey({Value::Int32(1)}, *int_key, 0),
                             StatusCode::kInvalidArgument,
                             {"bucket count must be positive, got 0"}));
}

TEST(BucketTest, JavaRemainderSemantics) {
  EXPECT_EQ(BucketOfHash(-7, 3), 1);  // -7 % 3 == -1 in Java
  EXPECT_EQ(BucketOfHash(7, 3), 1);
  EXPECT_EQ(BucketOfHash(INT32_MIN, 1), 0);
  EXPECT_EQ(BucketOfHash(INT32_MIN, 7), 2);  // |-2147483648 % 7| = |-2|
  EXPECT_EQ(BucketOfHash(INT32_MAX, 10), 7);
  EXPECT_EQ(ModBucket(-7, 3), 2);  // Math.floorMod
  EXPECT_EQ(ModBucket(7, 3), 1);
  EXPECT_EQ(ModBucket(INT64_MIN, 10), 2);
}

// Java bucket ids (FixedBucketRowKeyExtractor, 12345 buckets) of multi-column keys covering every
// key type, nulls and the null reservation of non-compact DECIMAL / TIMESTAMP: the first rows of
// alibaba/paimon-cpp test/test_data/record*_for_bucket_id.data (all 15 000 rows of those files
// were checked once against this implementation). Each line: the key values, then the bucket.
// DECIMAL as unscaled digits, TIMESTAMP(9) in the first two as epoch nanos, strings as written.
constexpr const char* kAllTypesRows[] = {
    R"([true, -10, -4038, -1930858313, 2158390814503909950, 0.7815346, 0.3332183994766498, 198467, -1661998771000000, "548675771.00000000000000000000", "Alice_-279624296851435688", "Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference -3109364765729502342.", 4561])",
    R"([false, 15, -28048, 553609048, 6787954838522539928, 0.70517474, 0.023238122483889456, -436312, 39620447000000, "135992033.00000000000000000000", "Alice_-655101936082782086", "Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference 425784808157066482.", 2804])",
};
constexpr const char* kNullRows[] = {
    R"([null, null, null, null, null, null, null, null, null, null, null, null, null, 10663])",
    R"([null, 15, null, 1580443894, -5438565800896958689, 0.54673976, 0.9644868606768501, 369095, null, "34.95", "-3121800083643799333438540749.27", "Alice_-4126310024944755050", "Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference -2228689144322150137.", 9184])",
    R"([false, -99, -25920, null, 1532230816302433446, 0.30687112, 0.6710762488101574, 656823, 1988388716000000, "36.19", "3318076650490463209017982309.32", "Alice_1318911071456810350", "Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference -3370274031255729188.", 6580])",
};
// TIMESTAMP(0/3/6/9) then TIMESTAMP_LTZ(0/3/6/9), as UTC wall-clock strings.
constexpr const char* kTimestampRows[] = {
    R"([null, null, null, null, null, null, null, null, 6373])",
    R"(["1812-09-26T13:12:15", "1739-11-21T03:17:15.631", "1707-03-17T12:18:12.957808", "1842-04-18T18:36:11.481263403", "2195-03-01T10:11:31", "1959-12-16T21:34:06.337", "2004-05-05T12:46:23.081836", null, 2104])",
    R"([null, "2137-02-15T19:28:17.411", "1839-03-30T18:46:15.055245", "2152-03-30T04:07:21.584006506", "1821-08-31T12:39:59", null, "1875-10-28T10:46:49.836789", null, 3792])",
};

int128_t UnscaledDigits(const std::string& text) {
  int128_t v = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9') v = v * 10 + (c - '0');
  }
  return text[0] == '-' ? -v : v;
}

// "YYYY-MM-DDTHH:MM[:SS[.fffffffff]]" as a UTC timestamp.
Timestamp ParseTimestamp(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char fraction[16] = {0};
  const int n = std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%15s", &year, &month, &day, &hour,
                            &minute, &second, fraction);
  int64_t nanos = 0;
  if (n == 7) {
    std::string digits(fraction);
    digits.resize(9, '0');
    nanos = std::stoll(digits);
  }
  const int64_t days =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return Timestamp::FromEpochNanos(
      (days * 86400 + hour * 3600 + minute * 60 + second) * 1000000000LL + nanos);
}

Value FromJson(const Json& j, const DataType& type) {
  if (j.is_null()) return Value::Null();
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return Value::Boolean(j.get<bool>());
    case TypeRoot::kTinyInt:
      return Value::Int8(static_cast<int8_t>(j.get<int64_t>()));
    case TypeRoot::kSmallInt:
      return Value::Int16(static_cast<int16_t>(j.get<int64_t>()));
    case TypeRoot::kInt:
    case TypeRoot::kDate:
      return Value::Int32(static_cast<int32_t>(j.get<int64_t>()));
    case TypeRoot::kBigInt:
      return Value::Int64(j.get<int64_t>());
    case TypeRoot::kFloat:
      return Value::Float(static_cast<float>(j.get<double>()));
    case TypeRoot::kDouble:
      return Value::Double(j.get<double>());
    case TypeRoot::kDecimal:
      return Value::FromDecimal(
          Decimal{UnscaledDigits(j.get<std::string>()), type.precision(), type.scale()});
    case TypeRoot::kVarChar:
      return Value::String(j.get<std::string>());
    case TypeRoot::kVarBinary:
      return Value::Binary(j.get<std::string>());
    default:
      return j.is_string() ? Value::FromTimestamp(ParseTimestamp(j.get<std::string>()))
                           : Value::FromTimestamp(Timestamp::FromEpochNanos(j.get<int64_t>()));
  }
}

template <size_t N>
void ExpectJavaBuckets(const char* const (&rows)[N], const DataTypePtr& key_type) {
  for (const char* line : rows) {
    auto row = ParseJson(line);
    ASSERT_OK(row);
    ValueList key;
    for (int i = 0; i < key_type->num_fields(); ++i) {
      key.push_back(FromJson((*row)[static_cast<size_t>(i)], *key_type->fields()[i].type));
    }
    auto bucket = DefaultBucketOfKey(key, *key_type, 12345);
    ASSERT_OK(bucket);
    EXPECT_EQ(*bucket, (*row)[static_cast<size_t>(key_type->num_fields())].get<int64_t>()) << line;
  }
}

TEST(BucketTest, JavaBucketIdsOfEveryKeyType) {
  ExpectJavaBuckets(kAllTypesRows,
                    RowOf({DataType::Boolean(), DataType::TinyInt(), DataType::SmallInt(),
                           DataType::Int(), DataType::BigInt(), DataType::Float(),
                           DataType::Double(), DataType::Date(), DataType::Timestamp(9),
                           DataType::Decimal(30, 20), DataType::String(), DataType::Bytes()}));
  ExpectJavaBuckets(
      kNullRows, RowOf({DataType::Boolean(), DataType::TinyInt(), DataType::SmallInt(),
                        DataType::Int(), DataType::BigInt(), DataType::Float(), DataType::Double(),
                        DataType::Date(), DataType::Timestamp(9), DataType::Decimal(5, 2),
                        DataType::Decimal(30, 2), DataType::String(), DataType::Bytes()}));
  ExpectJavaBuckets(kTimestampRows, RowOf({DataType::Timestamp(0), DataType::Timestamp(3),
                                           DataType::Timestamp(6), DataType::Timestamp(9),
                                           DataType::TimestampLtz(0), DataType::TimestampLtz(3),
                                           DataType::TimestampLtz(6), DataType::TimestampLtz(9)}));
}

// Corpus: cases.jsonl reads restricted to one bucket list rows whose bucket-key values must hash
// to that bucket under the table's `bucket` and `bucket-key` options.
TEST(BucketTest, CorpusCasesWithABucketFilter) {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in) << "corpus not found under " << test::CompatDir();
  int cases = 0;
  int rows = 0;
  std::string line;
  while (std::getline(in, line)) {
    auto parsed = ParseJson(line);
    ASSERT_OK(parsed);
    const Json& c = *parsed;
    const Json& read = c["read"];
    if (!read.contains("bucket")) continue;
    const std::string table = test::CompatTablesDir() + "/" + c["table"].get<std::string>();
    auto schema_json = ParseJson(test::ReadFileOrFail(table + "/schema/schema-0"));
    ASSERT_OK(schema_json);
    const Json& options = (*schema_json)["options"];
    const int32_t num_buckets = std::stoi(options["bucket"].get<std::string>());
    const std::string bucket_key = options["bucket-key"].get<std::string>();
    // Single-column bucket keys in this corpus.
    ASSERT_EQ(bucket_key.find(','), std::string::npos);
    DataTypePtr key_type;
    for (const Json& field : (*schema_json)["fields"]) {
      if (field["name"] != bucket_key) continue;
      auto t = DataTypeFromJson(field["type"]);
      ASSERT_OK(t);
      key_type = RowOf({*t});
    }
    ASSERT_NE(key_type, nullptr) << table;
    size_t column = 0;
    while (c["columns"][column] != bucket_key) ++column;
    const int32_t expected = static_cast<int32_t>(read["bucket"].get<int64_t>());
    for (const Json& row : c["rows"]) {
      auto bucket = DefaultBucketOfKey(
          {Value::Int32(static_cast<int32_t>(row[column].get<int64_t>()))}, *key_type, num_buckets);
      ASSERT_OK(bucket);
      EXPECT_EQ(*bucket, expected) << c["id"] << " row " << row.dump();
      ++rows;
    }
    ++cases;
  }
  EXPECT_GE(cases, 10);
  EXPECT_GE(rows, 30);
  std::printf("bucket corpus: %d cases, %d rows checked\n", cases, rows);
}

// Corpus: the rt branch of append_table_with_rt_branch is a primary-key table (dt, name),
// partitioned by dt, 2 buckets, so the bucket key is the STRING `name`. Each key was written
// once; the data file holding it sits in the bucket directory the hash must pick.
TEST(BucketTest, CorpusStringKeysLandInTheirBucketDirectory) {
  const std::string table = test::CompatTablesDir() +
                            "/parquet/append_table_with_rt_branch.db/append_table_with_rt_branch";
  const std::map<std::string, std::string> key_to_partition = {
      {"peach", "dt=20240725"}, {"cherry", "dt=20240726"}, {"pear", "dt=20240726"}};
  auto key_type = RowOf({DataType::String(false)});
  for (const auto& [key, partition] : key_to_partition) {
    auto bucket = DefaultBucketOfKey({Value::String(key)}, *key_type, 2);
    ASSERT_OK(bucket);
    // The parquet footer statistics keep the key as plain bytes: find the file that holds it.
    int found_in = -1;
    for (int b = 0; b < 2; ++b) {
      const std::string dir = table + "/" + partition + "/bucket-" + std::to_string(b);
      for (const std::string& file : test::ListFilesRecursive(dir)) {
        if (test::ReadFileOrFail(file).find(key) != std::string::npos) found_in = b;
      }
    }
    EXPECT_EQ(*bucket, found_in) << key;
  }
}

}  // namespace
}  // namespace sluice
