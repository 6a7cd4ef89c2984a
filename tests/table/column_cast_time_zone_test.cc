// Casts that depend on the session time zone (column_cast.h): a TIMESTAMP (and a DATE or STRING) is
// a wall clock in the zone, an LTZ value or INT / BIGINT of epoch seconds an instant. Values from
// the corpus case parquet/append_with_cast_timestamp/latest-asia-shanghai, and a DST gap.
#include <gtest/gtest.h>

#include <string>

#include "sluice/table/source/column_cast.h"
#include "sluice/types/time_zone.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice {
namespace {

// Casts one value (plus a null, which must stay null) in `zone`; the JSON text of the result.
std::string Cast(const DataTypePtr& from, const Value& value, const DataTypePtr& to,
                 const std::string& zone_name) {
  ColumnVector in(from);
  EXPECT_OK(in.AppendValue(value));
  in.AppendNull();
  ColumnVector out(to);
  std::shared_ptr<const TimeZone> zone;
  if (!zone_name.empty()) {
    auto loaded = TimeZone::Load(zone_name);
    EXPECT_OK(loaded);
    zone = *loaded;
  }
  EXPECT_OK(CheckCastSupported(*from, *to, "c"));
  Status st = CastColumn(in, "c", &out, zone.get());
  EXPECT_OK(st);
  if (!st.ok()) return "";
  EXPECT_EQ(out.size(), 2);
  EXPECT_TRUE(out.IsNull(1));
  return ValueToJson(out.GetValue(0), *to);
}

Value Ts(int64_t millis, int32_t nanos = 0) {
  return Value::FromTimestamp(Timestamp{millis, nanos});
}

const char kShanghai[] = "Asia/Shanghai";

TEST(CastTimeZoneTest, TimestampAndEpochSeconds) {
  // TIMESTAMP 1970-01-01 00:00:01 in Shanghai is 1969-12-31 16:00:01 UTC.
  EXPECT_EQ(Cast(DataType::Timestamp(0), Ts(1000), DataType::Int(), kShanghai), "-28799");
  EXPECT_EQ(Cast(DataType::Timestamp(0), Ts(1000), DataType::BigInt(), ""), "1");
  // An LTZ value is an instant whatever the zone.
  EXPECT_EQ(Cast(DataType::TimestampLtz(0), Ts(2000), DataType::Int(), kShanghai), "2");
  EXPECT_EQ(Cast(DataType::Int(), Value::Int32(0), DataType::Timestamp(0), kShanghai),
            "\"1970-01-01 08:00:00\"");
  EXPECT_EQ(Cast(DataType::Int(), Value::Int32(-1), DataType::TimestampLtz(6), kShanghai),
            "\"1969-12-31 23:59:59.000000\"");
  EXPECT_EQ(Cast(DataType::BigInt(), Value::Int64(1), DataType::Timestamp(0), ""),
            "\"1970-01-01 00:00:01\"");
}

TEST(CastTimeZoneTest, TimestampAndLocalZoneTimestamp) {
  EXPECT_EQ(Cast(DataType::Timestamp(9), Ts(0, 1), DataType::TimestampLtz(9), kShanghai),
            "\"1969-12-31 16:00:00.000000001\"");
  EXPECT_EQ(Cast(DataType::TimestampLtz(9), Ts(0, 2), DataType::Timestamp(9), kShanghai),
            "\"1970-01-01 08:00:00.000000002\"");
  EXPECT_EQ(Cast(DataType::TimestampLtz(9), Ts(0, 2), DataType::Timestamp(9), ""),
            "\"1970-01-01 00:00:00.000000002\"");
  EXPECT_EQ(Cast(DataType::TimestampLtz(6), Ts(123456), DataType::TimestampLtz(3), kShanghai),
            "\"1970-01-01 00:02:03.456\"");
}

TEST(CastTimeZoneTest, LocalZoneTimestampToDateAndString) {
  // 1970-01-01 20:00 UTC is already January 2 in Shanghai.
  EXPECT_EQ(Cast(DataType::TimestampLtz(3), Ts(20 * 3600 * 1000), DataType::Date(), kShanghai),
            "\"1970-01-02\"");
  EXPECT_EQ(Cast(DataType::TimestampLtz(3), Ts(20 * 3600 * 1000), DataType::Date(), ""),
            "\"1970-01-01\"");
  EXPECT_EQ(Cast(DataType::TimestampLtz(6), Ts(0, 2000), DataType::String(), kShanghai),
            "\"1970-01-01 08:00:00.000002\"");
  EXPECT_EQ(Cast(DataType::String(), Value::String("1970-01-01 08:00:00"),
                 DataType::TimestampLtz(0), kShanghai),
            "\"1970-01-01 00:00:00\"");
  EXPECT_EQ(Cast(DataType::Date(), Value::Int32(1), DataType::TimestampLtz(0), kShanghai),
            "\"1970-01-01 16:00:00\"");
}

TEST(CastTimeZoneTest, WallClocksInADaylightSavingGapMoveForward) {
  // 2024-03-10 02:30 does not exist in Los Angeles (clocks jump 02:00 -> 03:00 PST -> PDT): as
  // java.time does, it is read with the offset before the gap, -08:00.
  auto zone = TimeZone::Load("America/Los_Angeles");
  ASSERT_OK(zone);
  const int64_t local = DaysFromCivil(2024, 3, 10) * 86400 + 2 * 3600 + 30 * 60;
  EXPECT_EQ((*zone)->LocalToUtc(local), local + 8 * 3600);
  // 2024-11-03 01:30 happens twice: the earlier offset (-07:00) wins.
  const int64_t twice = DaysFromCivil(2024, 11, 3) * 86400 + 3600 + 30 * 60;
  EXPECT_EQ((*zone)->LocalToUtc(twice), twice + 7 * 3600);
  // Summer and winter.
  const int64_t july = DaysFromCivil(2024, 7, 1) * 86400;
  EXPECT_EQ((*zone)->LocalToUtc(july), july + 7 * 3600);
  const int64_t january = DaysFromCivil(2024, 1, 1) * 86400;
  EXPECT_EQ((*zone)->LocalToUtc(january), january + 8 * 3600);
  auto utc = TimeZone::Load("UTC");
  ASSERT_OK(utc);
  EXPECT_EQ((*utc)->LocalToUtc(july), july);
}

TEST(CastTimeZoneTest, UnknownZoneIsNamed) {
  EXPECT_TRUE(test::HasError(TimeZone::Load("Atlantis/Capital"), StatusCode::kNotFound,
                             {"time zone 'Atlantis/Capital' not found at "}));
}

// Java's default zone is the JVM's, taken from TZ or the system's zone: so is Sluice's.
TEST(ProcessTimeZoneTest, TzNamesTheZoneElseUtc) {
  {
    test::ScopedEnv tz("TZ", "Asia/Shanghai");
    EXPECT_EQ(TimeZone::ProcessZoneName(), "Asia/Shanghai");
    // 2024-01-01 00:00 UTC is 08:00 there, and back.
    EXPECT_EQ(TimeZone::Process()->LocalMillis(1704067200000), 1704067200000 + 8 * 3600000);
    EXPECT_EQ(TimeZone::Process()->UtcMillis(1704067200000 + 8 * 3600000), 1704067200000);
  }
  {
    test::ScopedEnv tz("TZ", ":Europe/Berlin");
    EXPECT_EQ(TimeZone::ProcessZoneName(), "Europe/Berlin");
  }
  {
    // A name the tz database lacks: UTC, as the JVM falls back to GMT.
    test::ScopedEnv tz("TZ", "Nowhere/Atlantis");
    EXPECT_EQ(TimeZone::ProcessZoneName(), "UTC");
    EXPECT_TRUE(TimeZone::Process()->is_utc());
  }
}

}  // namespace
}  // namespace sluice
