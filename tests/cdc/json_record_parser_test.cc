// json: one row per message, every column STRING, values as text.
#include <gtest/gtest.h>

#include "record_parser_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Describe;
using test::DescribeSchema;
using test::HasError;
using test::IsOk;
using test::ParseMessage;
using test::Strings;

TEST(JsonRecordParserTest, EachMessageIsOneInsert) {
  auto records = ParseMessage("json", R"j({"id": 18446744073709551615, "price": 12345.110,
      "big": 123456789012345678901234567890, "ok": false, "none": null, "tags": ["a", 1],
      "table": "not a table name", "text": "ü\"q"})j");
  ASSERT_TRUE(IsOk(records));
  EXPECT_EQ(Describe(*records),
            Strings({R"j(+I . {id=18446744073709551615, price=12345.110, )j"
                     R"j(big=123456789012345678901234567890, ok=false, none=NULL, tags=["a",1], )j"
                     R"j(table=not a table name, text=ü"q})j"}));
  EXPECT_EQ(DescribeSchema(*(*records)[0].schema),
            "id STRING, price STRING, big STRING, ok STRING, none STRING, tags STRING, "
            "table STRING, text STRING | pk:");
}

TEST(JsonRecordParserTest, TombstoneGivesNothing) {
  auto records = ParseMessage("json", std::nullopt);
  ASSERT_TRUE(IsOk(records));
  EXPECT_TRUE(records->empty());
}

TEST(JsonRecordParserTest, MalformedMessagesAreCorruption) {
  EXPECT_TRUE(HasError(ParseMessage("json", ""), StatusCode::kCorruption, {"json", "JSON"}));
  EXPECT_TRUE(
      HasError(ParseMessage("json", R"j({"a": 1} x)j"), StatusCode::kCorruption, {"invalid JSON"}));
  EXPECT_TRUE(HasError(ParseMessage("json", "\"text\""), StatusCode::kCorruption,
                       {"expected a JSON object", "string"}));
  EXPECT_TRUE(HasError(ParseMessage("json", "{\"a\": \"\xff\"}"), StatusCode::kCorruption,
                       {"invalid JSON"}));
}

}  // namespace
}  // namespace sluice
