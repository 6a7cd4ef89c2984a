// aws-dms-json: load / insert / update (BI_ before-image) / delete, control records, errors.
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

std::string Dms(std::string_view operation, std::string_view data,
                std::string_view record_type = "data") {
  return R"j({"data": )j" + std::string(data) + R"j(, "metadata": {"timestamp":
      "2024-01-02T03:04:05.000001Z", "record-type": ")j" +
         std::string(record_type) + R"j(", "operation": ")j" + std::string(operation) +
         R"j(", "partition-key-type": "schema-table", "schema-name": "sales",
            "table-name": "orders", "transaction-id": 99}})j";
}

TEST(DmsRecordParserTest, LoadInsertUpdateDelete) {
  for (std::string_view op : {"load", "insert"}) {
    auto records = ParseMessage("aws-dms-json", Dms(op, R"j({"id": 1, "qty": 2.50})j"));
    ASSERT_TRUE(IsOk(records));
    EXPECT_EQ(Describe(*records), Strings({"+I sales.orders {id=1, qty=2.50}"}));
    EXPECT_EQ(DescribeSchema(*(*records)[0].schema), "id STRING, qty STRING | pk:");
  }
  auto update = ParseMessage("aws-dms-json", Dms("update", R"j({"id": 1, "qty": 3, "note": "x",
      "BI_id": 1, "BI_qty": 2, "BI_gone": "y"})j"));
  ASSERT_TRUE(IsOk(update));
  EXPECT_EQ(Describe(*update), Strings({"-D sales.orders {id=1, qty=2, note=x, gone=y}",
                                        "+I sales.orders {id=1, qty=3, note=x}"}));
  auto remove = ParseMessage("aws-dms-json", Dms("delete", R"j({"id": 1, "qty": null})j"));
  ASSERT_TRUE(IsOk(remove));
  EXPECT_EQ(Describe(*remove), Strings({"-D sales.orders {id=1, qty=NULL}"}));
}

TEST(DmsRecordParserTest, ControlRecordsGiveNothing) {
  auto records = ParseMessage("aws-dms-json", Dms("create-table", "null", "control"));
  ASSERT_TRUE(IsOk(records));
  EXPECT_TRUE(records->empty());
}

TEST(DmsRecordParserTest, MalformedMessagesAreCorruption) {
  EXPECT_TRUE(HasError(ParseMessage("aws-dms-json", R"j({"data": {}})j"), StatusCode::kCorruption,
                       {"aws-dms-json", "missing field 'metadata'"}));
  EXPECT_TRUE(HasError(ParseMessage("aws-dms-json", R"j({"metadata": {}})j"),
                       StatusCode::kCorruption, {"missing field 'metadata.record-type'"}));
  EXPECT_TRUE(HasError(ParseMessage("aws-dms-json", Dms("insert", "null")), StatusCode::kCorruption,
                       {"missing field 'data'"}));
  EXPECT_TRUE(HasError(ParseMessage("aws-dms-json", Dms("merge", "{}")), StatusCode::kCorruption,
                       {"unknown record operation 'merge'"}));
  EXPECT_TRUE(HasError(ParseMessage("aws-dms-json", Dms("update", "[]")), StatusCode::kCorruption,
                       {"data", "expected object"}));
}

}  // namespace
}  // namespace sluice
