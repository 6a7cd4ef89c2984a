// ogg-json: I / U / D, the "<database>.<table>" name, primary keys, errors.
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

std::string Ogg(std::string_view op, std::string_view before, std::string_view after,
                std::string_view table = "HR.EMP") {
  return R"j({"table": ")j" + std::string(table) + R"j(", "op_type": ")j" + std::string(op) +
         R"j(", "op_ts": "2024-01-02 03:04:05.000000", "pos": "00000000000000001234",
            "primary_keys": ["ID"], "before": )j" +
         std::string(before) + R"j(, "after": )j" + std::string(after) + "}";
}

TEST(OggRecordParserTest, InsertUpdateDelete) {
  auto insert = ParseMessage("ogg-json", Ogg("I", "null", R"j({"ID": 1, "NAME": "A"})j"));
  ASSERT_TRUE(IsOk(insert));
  EXPECT_EQ(Describe(*insert), Strings({"+I HR.EMP {ID=1, NAME=A}"}));
  EXPECT_EQ(DescribeSchema(*(*insert)[0].schema), "ID STRING, NAME STRING | pk: ID");

  // As Java: `before` as sent, -D then +I.
  auto update = ParseMessage(
      "ogg-json", Ogg("U", R"j({"ID": 1, "NAME": "A"})j", R"j({"ID": 1, "NAME": null})j"));
  ASSERT_TRUE(IsOk(update));
  EXPECT_EQ(Describe(*update),
            Strings({"-D HR.EMP {ID=1, NAME=A}", "+I HR.EMP {ID=1, NAME=NULL}"}));

  auto remove = ParseMessage("ogg-json", Ogg("D", R"j({"ID": 1})j", "null"));
  ASSERT_TRUE(IsOk(remove));
  EXPECT_EQ(Describe(*remove), Strings({"-D HR.EMP {ID=1}"}));
}

TEST(OggRecordParserTest, MalformedMessagesAreCorruption) {
  EXPECT_TRUE(HasError(ParseMessage("ogg-json", R"j({"table": "A.B"})j"), StatusCode::kCorruption,
                       {"ogg-json", "missing field 'op_type'"}));
  EXPECT_TRUE(HasError(ParseMessage("ogg-json", Ogg("T", "null", "null")), StatusCode::kCorruption,
                       {"unknown record operation 'T'"}));
  EXPECT_TRUE(HasError(ParseMessage("ogg-json", Ogg("U", "null", "{}")), StatusCode::kCorruption,
                       {"missing field 'before'", "'op_type' is 'U'"}));
  EXPECT_TRUE(HasError(ParseMessage("ogg-json", Ogg("I", "null", "null")), StatusCode::kCorruption,
                       {"missing field 'after'"}));
  EXPECT_TRUE(HasError(ParseMessage("ogg-json", Ogg("I", "null", "{}", "A.B.C")),
                       StatusCode::kCorruption, {"'A.B.C'", "<database>.<table>"}));
  EXPECT_TRUE(HasError(ParseMessage("ogg-json", Ogg("I", "null", "{}", "EMP")),
                       StatusCode::kCorruption, {"'EMP'"}));
}

}  // namespace
}  // namespace sluice
