#include "sluice/lsm/sequence_comparator.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "lsm_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Field;
using test::KV;
using test::MakeSchema;

Value N() { return Value::Null(); }
Value Int(int32_t v) { return Value::Int32(v); }

// p (partition), k, ts, ts2, v
TableSchema Schema(TableOptions options) {
  std::vector<DataField> fields = {
      Field(0, "p", DataType::Int(false)), Field(1, "k", DataType::Int(false)),
      Field(2, "ts", DataType::Int()), Field(3, "ts2", DataType::Int()),
      Field(4, "v", DataType::Int())};
  Result<TableSchema> schema = TableSchema::Make(3, 0, std::move(fields), 4, {"p"}, {"p", "k"},
                                                 std::move(options), std::nullopt, 0);
  EXPECT_OK(schema);
  return std::move(schema).value();
}

KeyValueMergeOrder Order(TableOptions options) {
  TableSchema schema = Schema(std::move(options));
  Result<CoreOptions> o = CoreOptions::FromSchema(schema);
  EXPECT_OK(o);
  Result<KeyValueMergeOrder> order = KeyValueMergeOrder::Make(schema, *o);
  EXPECT_OK(order);
  return std::move(order).value();
}

KeyValue Rec(int k, int64_t seq, Value ts, Value ts2 = Value()) {
  KeyValue kv;
  kv.key = {Int(k)};  // the trimmed primary key: p is a partition key
  kv.sequence_number = seq;
  kv.value = {Int(0), Int(k), std::move(ts), std::move(ts2), Int(static_cast<int32_t>(seq))};
  return kv;
}

TEST(SequenceComparatorTest, WithoutSequenceFieldOrdersByKeyThenSequenceNumber) {
  KeyValueMergeOrder order = Order({});
  EXPECT_LT(order.Compare(Rec(1, 9, Int(5)), Rec(2, 1, Int(1))), 0);
  EXPECT_LT(order.Compare(Rec(1, 1, Int(9)), Rec(1, 2, Int(1))), 0);
  EXPECT_EQ(order.Compare(Rec(1, 2, Int(9)), Rec(1, 2, Int(1))), 0);
}

TEST(SequenceComparatorTest, SequenceFieldBeforeSequenceNumber) {
  KeyValueMergeOrder order = Order({{"sequence.field", "ts"}});
  EXPECT_GT(order.Compare(Rec(1, 1, Int(9)), Rec(1, 2, Int(1))), 0);
  EXPECT_LT(order.Compare(Rec(1, 1, Int(5)), Rec(1, 2, Int(5))), 0) << "ties: sequence number";
  EXPECT_LT(order.Compare(Rec(1, 5, N()), Rec(1, 2, Int(-100))), 0) << "null first";
  EXPECT_LT(order.Compare(Rec(1, 9, Int(9)), Rec(2, 1, Int(1))), 0) << "key first";
  // Sorting puts the record that merges last (wins) at the end.
  std::vector<KeyValue> records = {Rec(1, 1, Int(3)), Rec(1, 2, Int(1)), Rec(1, 3, Int(2))};
  std::sort(records.begin(), records.end(), order);
  EXPECT_EQ(records.back().sequence_number, 1);
  EXPECT_EQ(records.front().sequence_number, 2);
}

TEST(SequenceComparatorTest, DescendingKeepsNullsFirst) {
  KeyValueMergeOrder order =
      Order({{"sequence.field", "ts"}, {"sequence.field.sort-order", "descending"}});
  EXPECT_LT(order.Compare(Rec(1, 1, Int(9)), Rec(1, 2, Int(1))), 0);
  EXPECT_LT(order.Compare(Rec(1, 5, N()), Rec(1, 2, Int(1))), 0);
}

TEST(SequenceComparatorTest, SeveralSequenceFields) {
  KeyValueMergeOrder order = Order({{"sequence.field", "ts, ts2"}});
  EXPECT_LT(order.Compare(Rec(1, 9, Int(1), Int(5)), Rec(1, 1, Int(1), Int(6))), 0);
  EXPECT_GT(order.Compare(Rec(1, 1, Int(2), N()), Rec(1, 9, Int(1), Int(6))), 0);
}

TEST(SequenceComparatorTest, UnknownSequenceFieldIsAnError) {
  TableSchema schema = Schema({{"sequence.field", "nope"}});
  Result<CoreOptions> o = CoreOptions::FromSchema(schema);
  ASSERT_OK(o);
  EXPECT_TRUE(test::HasError(KeyValueMergeOrder::Make(schema, *o), StatusCode::kInvalidArgument,
                             {"option 'sequence.field': field 'nope' can not be found"}));
}

TEST(SequenceComparatorTest, DeduplicateWithSequenceFieldKeepsLargestTs) {
  TableSchema schema = Schema({{"sequence.field", "ts"}});
  Result<CoreOptions> o = CoreOptions::FromSchema(schema);
  ASSERT_OK(o);
  Result<KeyValueMergeOrder> order = KeyValueMergeOrder::Make(schema, *o);
  ASSERT_OK(order);
  auto f = CreateMergeFunction(schema, *o);
  ASSERT_OK(f);
  std::vector<KeyValue> records = {Rec(1, 1, Int(30)), Rec(1, 2, Int(10)), Rec(1, 3, Int(20))};
  std::sort(records.begin(), records.end(), *order);
  std::optional<KeyValue> r = test::Merge(f->get(), records);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->sequence_number, 1);
  EXPECT_EQ(r->value[2], Int(30));
}

}  // namespace
}  // namespace sluice
