#include "sluice/types/cast_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sluice {
namespace {

// One representative type per root, in the matrix' order.
std::vector<DataTypePtr> Representatives() {
  return {
      DataType::Boolean(),
      DataType::TinyInt(),
      DataType::SmallInt(),
      DataType::Int(),
      DataType::BigInt(),
      DataType::Float(),
      DataType::Double(),
      DataType::Decimal(10, 2),
      DataType::Char(5),
      DataType::String(),
      DataType::Binary(4),
      DataType::Bytes(),
      DataType::Date(),
      DataType::Time(0),
      DataType::Timestamp(6),
      DataType::TimestampLtz(6),
      DataType::Array(DataType::Int()),
      DataType::Map(DataType::String(false), DataType::Int()),
      DataType::Multiset(DataType::Int()),
      DataType::Row({DataField{1, "a", DataType::Int(), std::nullopt, std::nullopt}}),
      DataType::Variant(),
      DataType::Blob(),
      DataType::Vector(DataType::Float(), 3),
  };
}

// Every (from, to) pair of the representatives, derived by hand from the Java source
// (DataTypeCasts' castTo(...) rules; CastExecutors' registered rules, their lookup order and
// the rules whose create() returns null). Row = from, column = to, in Representatives() order:
//
//   BOOL TINY SMALL INT BIG FLOAT DOUBLE DEC(10,2) CHAR(5) STRING BINARY(4) BYTES DATE TIME
//   TS LTZ ARRAY MAP MULTISET ROW VARIANT BLOB VECTOR
//
//   I  a cast rule exists and the cast is implicit (ALTER allows it always)
//   E  a cast rule exists, explicit cast only (ALTER allows it unless
//      disable-explicit-type-casting)
//   R  a cast rule exists but DataTypeCasts refuses the cast (ALTER refuses it)
//   i  DataTypeCasts allows it implicitly but CastExecutors has no rule (ALTER refuses it)
//   e  DataTypeCasts allows it explicitly but CastExecutors has no rule (ALTER refuses it)
//   .  neither
const char* const kJavaMatrix[] = {
    // BTSIBFDDCSBBDTTLAMMRVBV
    "iEEEEEEEEE.............",  // BOOLEAN
    "EIIIIIIIEE....ee.......",  // TINYINT
    "EEIIIIIIEE....ee.......",  // SMALLINT
    "EEEIIIIIEE....EE.......",  // INT
    "EEEEIIIIEE....EE.......",  // BIGINT
    ".EEEEIIIEE....ee.......",  // FLOAT
    ".EEEEEIIEE....ee.......",  // DOUBLE
    ".EEEEIIIEE....ee.......",  // DECIMAL(10, 2)
    "EEEEEEEEIIEEEEEERR.R...",  // CHAR(5)
    "EEEEEEEEEIEEEEEERR.R...",  // STRING
    "........EEII...........",  // BINARY(4)
    "........EEEI...........",  // BYTES
    "........eE..i.EE.......",  // DATE
    "........eE...iEE.......",  // TIME(0)
    ".eeEEeeeeE..IIII.......",  // TIMESTAMP(6)
    ".eeEEeeeeE..EEII.......",  // TIMESTAMP(6) WITH LOCAL TIME ZONE
    "........EE......i......",  // ARRAY<INT>
    "........EE.......i.....",  // MAP<STRING, INT>
    "........ee........i....",  // MULTISET<INT>
    "........EE.........i...",  // ROW<a INT>
    "........ee..........i..",  // VARIANT
    "........ee...........i.",  // BLOB
    "........ee............i",  // VECTOR<FLOAT, 3>
};

char Observed(const DataType& from, const DataType& to) {
  const bool rule = ResolveCastRule(from, to).has_value();
  const bool implicit = SupportsCast(from, to, false);
  const bool any = SupportsCast(from, to, true);
  if (rule) return implicit ? 'I' : any ? 'E' : 'R';
  return implicit ? 'i' : any ? 'e' : '.';
}

TEST(CastRulesTest, EveryPairOfRootsMatchesJava) {
  const std::vector<DataTypePtr> types = Representatives();
  ASSERT_EQ(std::size(kJavaMatrix), types.size());
  for (size_t f = 0; f < types.size(); ++f) {
    ASSERT_EQ(std::string(kJavaMatrix[f]).size(), types.size()) << "row " << f;
    for (size_t t = 0; t < types.size(); ++t) {
      const char expected = kJavaMatrix[f][t];
      EXPECT_EQ(Observed(*types[f], *types[t]), expected)
          << types[f]->ToString() << " -> " << types[t]->ToString();
      const bool alter_implicit = expected == 'I';
      const bool alter_explicit = expected == 'I' || expected == 'E';
      EXPECT_EQ(SupportsSchemaTypeChange(*types[f], *types[t], false), alter_implicit)
          << types[f]->ToString() << " -> " << types[t]->ToString();
      EXPECT_EQ(SupportsSchemaTypeChange(*types[f], *types[t], true), alter_explicit)
          << types[f]->ToString() << " -> " << types[t]->ToString();
    }
  }
}

TEST(CastRulesTest, RulesJavaPicks) {
  auto rule = [](const DataTypePtr& from, const DataTypePtr& to) {
    auto r = ResolveCastRule(*from, *to);
    return r ? std::string(CastRuleName(*r)) : std::string("none");
  };
  EXPECT_EQ(rule(DataType::Boolean(), DataType::Decimal(5, 2)), "BooleanToNumericCastRule");
  EXPECT_EQ(rule(DataType::Decimal(5, 2), DataType::Int()), "DecimalToNumericPrimitiveCastRule");
  EXPECT_EQ(rule(DataType::Int(), DataType::Decimal(5, 2)), "NumericPrimitiveToDecimalCastRule");
  EXPECT_EQ(rule(DataType::Timestamp(3), DataType::BigInt()),
            "TimestampToNumericPrimitiveCastRule");
  EXPECT_EQ(rule(DataType::BigInt(), DataType::TimestampLtz(3)), "NumericPrimitiveToTimestamp");
  EXPECT_EQ(rule(DataType::Timestamp(3), DataType::String()), "TimestampToStringCastRule");
  EXPECT_EQ(rule(DataType::Time(3), DataType::String()), "TimeToStringCastRule");
  EXPECT_EQ(rule(DataType::Bytes(), DataType::String()), "BinaryToStringCastRule");
  EXPECT_EQ(rule(DataType::String(), DataType::Char(3)), "StringToStringCastRule");
  EXPECT_EQ(rule(DataType::Timestamp(3), DataType::Time(0)), "TimestampToTimeCastRule");
  EXPECT_EQ(rule(DataType::Time(0), DataType::Timestamp(3)), "TimeToTimestampCastRule");
  EXPECT_EQ(rule(DataType::String(), DataType::Time(0)), "StringToTimeCastRule");
}

// Java's STRING_TYPE quirk: the date-time to-string rules are registered for nullable
// VARCHAR(2147483647) only.
TEST(CastRulesTest, DateTimeToStringOnlyToNullableString) {
  for (const DataTypePtr& from :
       {DataType::Date(), DataType::Time(0), DataType::Timestamp(6), DataType::TimestampLtz(3)}) {
    EXPECT_TRUE(ResolveCastRule(*from, *DataType::String()).has_value()) << from->ToString();
    EXPECT_FALSE(ResolveCastRule(*from, *DataType::String(false)).has_value()) << from->ToString();
    EXPECT_FALSE(ResolveCastRule(*from, *DataType::VarChar(20)).has_value()) << from->ToString();
    EXPECT_FALSE(ResolveCastRule(*from, *DataType::Char(20)).has_value()) << from->ToString();
  }
  // Numbers reach every character string through the family rule.
  EXPECT_TRUE(ResolveCastRule(*DataType::Int(), *DataType::String(false)).has_value());
  EXPECT_TRUE(ResolveCastRule(*DataType::Int(), *DataType::VarChar(3)).has_value());
}

TEST(CastRulesTest, NullabilityAndPrecision) {
  // NOT NULL from nullable only as an explicit cast.
  EXPECT_FALSE(SupportsCast(*DataType::Int(), *DataType::BigInt(false), false));
  EXPECT_TRUE(SupportsCast(*DataType::Int(), *DataType::BigInt(false), true));
  EXPECT_TRUE(SupportsCast(*DataType::Int(false), *DataType::BigInt(), false));
  // Precision changes: DECIMAL and TIMESTAMP have rules, TIME has none.
  EXPECT_TRUE(SupportsSchemaTypeChange(*DataType::Decimal(10, 2), *DataType::Decimal(5, 1), true));
  EXPECT_TRUE(SupportsSchemaTypeChange(*DataType::Timestamp(6), *DataType::Timestamp(3), false));
  EXPECT_FALSE(SupportsSchemaTypeChange(*DataType::Time(0), *DataType::Time(3), true));
  // Only INT and BIGINT are epoch seconds.
  for (const DataTypePtr& from : {DataType::TinyInt(), DataType::SmallInt(), DataType::Float(),
                                  DataType::Double(), DataType::Decimal(10, 0)}) {
    EXPECT_FALSE(ResolveCastRule(*from, *DataType::Timestamp(3)).has_value()) << from->ToString();
  }
}

}  // namespace
}  // namespace sluice
