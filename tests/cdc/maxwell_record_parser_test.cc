// maxwell-json: insert / update / delete, bootstrap and DDL messages, primary keys, errors.
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

std::string Maxwell(std::string_view type, std::string_view data, std::string_view old = "") {
  std::string out = R"j({"database": "crm", "table": "users", "type": ")j" + std::string(type) +
                    R"j(", "ts": 1700000000, "xid": 42, "commit": true, "data": )j" +
                    std::string(data) + R"j(, "primary_key_columns": ["uid"])j";
  if (!old.empty()) out += R"j(, "old": )j" + std::string(old);
  return out + "}";
}

TEST(MaxwellRecordParserTest, InsertUpdateDelete) {
  auto insert = ParseMessage("maxwell-json", Maxwell("insert", R"j({"uid": 1, "name": "ann"})j"));
  ASSERT_TRUE(IsOk(insert));
  EXPECT_EQ(Describe(*insert), Strings({"+I crm.users {uid=1, name=ann}"}));
  EXPECT_EQ(DescribeSchema(*(*insert)[0].schema), "uid STRING, name STRING | pk: uid");

  auto update = ParseMessage(
      "maxwell-json", Maxwell("update", R"j({"uid": 1, "name": "bob"})j", R"j({"name": "ann"})j"));
  ASSERT_TRUE(IsOk(update));
  EXPECT_EQ(Describe(*update),
            Strings({"-D crm.users {uid=1, name=ann}", "+I crm.users {uid=1, name=bob}"}));

  auto remove = ParseMessage("maxwell-json", Maxwell("delete", R"j({"uid": 1, "name": null})j"));
  ASSERT_TRUE(IsOk(remove));
  EXPECT_EQ(Describe(*remove), Strings({"-D crm.users {uid=1, name=NULL}"}));

  auto bootstrap = ParseMessage("maxwell-json", Maxwell("bootstrap-insert", R"j({"uid": 2})j"));
  ASSERT_TRUE(IsOk(bootstrap));
  EXPECT_EQ(Describe(*bootstrap), Strings({"+I crm.users {uid=2}"}));
}

TEST(MaxwellRecordParserTest, MarkersAndDdlGiveNothing) {
  for (std::string_view type :
       {"bootstrap-start", "bootstrap-complete", "table-create", "database-drop"}) {
    auto records = ParseMessage("maxwell-json", Maxwell(type, "{}"));
    ASSERT_TRUE(IsOk(records));
    EXPECT_TRUE(records->empty()) << type;
  }
}

TEST(MaxwellRecordParserTest, MalformedMessagesAreCorruption) {
  EXPECT_TRUE(HasError(ParseMessage("maxwell-json", R"j({"data": {}})j"), StatusCode::kCorruption,
                       {"maxwell-json", "missing field 'type'"}));
  EXPECT_TRUE(HasError(ParseMessage("maxwell-json", R"j({"type": "insert"})j"),
                       StatusCode::kCorruption, {"missing field 'data'"}));
  EXPECT_TRUE(HasError(ParseMessage("maxwell-json", Maxwell("update", R"j({"uid": 1})j")),
                       StatusCode::kCorruption, {"missing field 'old'", "'update'"}));
  EXPECT_TRUE(HasError(ParseMessage("maxwell-json", Maxwell("upsert", "{}")),
                       StatusCode::kCorruption, {"unknown record operation 'upsert'"}));
  EXPECT_TRUE(HasError(ParseMessage("maxwell-json", Maxwell("insert", "7")),
                       StatusCode::kCorruption, {"data", "expected object", "number"}));
}

}  // namespace
}  // namespace sluice
