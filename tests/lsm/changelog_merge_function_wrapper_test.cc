// The changelog merge function wrappers of full-compaction and lookup compactions, and the
// row-deduplicate value comparison.
#include <gtest/gtest.h>

#include "lsm_test_util.h"
#include "sluice/lsm/full_changelog_merge_function_wrapper.h"
#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Field;
using test::KV;
using test::MakeMergeFunction;
using test::MakeSchema;
using test::Render;

const RowKind I = RowKind::kInsert;
const RowKind D = RowKind::kDelete;

Value Int(int32_t v) { return Value::Int32(v); }
Value Str(const char* s) { return Value::String(s); }

// k INT NOT NULL, a INT, b STRING.
TableSchema Schema(TableOptions options) {
  return MakeSchema({Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                     Field(2, "b", DataType::String())},
                    {"k"}, std::move(options));
}

KeyValue At(int level, KeyValue kv) {
  kv.level = level;
  return kv;
}

// "<kind> <value>" per changelog record.
std::vector<std::string> Changes(ChangelogMergeFunctionWrapper* wrapper) {
  std::vector<std::string> out;
  for (const KeyValue& kv : wrapper->changelog()) {
    out.push_back(std::string(RowKindShortString(kv.kind)) + " " + test::Render(kv.value));
  }
  wrapper->changelog().clear();
  return out;
}

std::optional<KeyValue> MergeKeepingDeletes(MergeFunction* f, const std::vector<KeyValue>& in) {
  f->Reset();
  for (const KeyValue& kv : in) EXPECT_OK(f->Add(kv));
  return f->GetResultKeepingDeletes();
}

using Strings = std::vector<std::string>;

std::optional<RecordEqualiser> Equaliser(const TableSchema& schema) {
  auto options = CoreOptions::FromSchema(schema);
  EXPECT_OK(options);
  auto equaliser = RecordEqualiser::FromOptions(schema, *options);
  EXPECT_OK(equaliser);
  return std::move(equaliser).value();
}

FullChangelogMergeFunctionWrapper Full(const TableSchema& schema, int max_level) {
  return FullChangelogMergeFunctionWrapper(MakeMergeFunction(schema).value(), max_level,
                                           Equaliser(schema));
}

TEST(FullChangelogMergeFunctionWrapperTest, ComparesWithTheMaxLevelRecord) {
  const TableSchema schema = Schema({});
  FullChangelogMergeFunctionWrapper f = Full(schema, 5);
  // New key: +I of the merged value.
  auto r = MergeKeepingDeletes(&f, {At(0, KV(1, I, {Int(1), Int(1), Str("a")})),
                                    At(0, KV(2, I, {Int(1), Int(2), Str("b")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->sequence_number, 2);
  EXPECT_EQ(Changes(&f), (Strings{"+I (1, 2, 'b')"}));
  // Changed key: -U of the max-level record, +U of the merged value.
  MergeKeepingDeletes(&f, {At(5, KV(1, I, {Int(1), Int(1), Str("a")})),
                           At(0, KV(3, I, {Int(1), Int(3), Str("c")}))});
  EXPECT_EQ(Changes(&f), (Strings{"-U (1, 1, 'a')", "+U (1, 3, 'c')"}));
  // Deleted key.
  MergeKeepingDeletes(&f, {At(5, KV(1, I, {Int(1), Int(1), Str("a")})),
                           At(0, KV(3, D, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(&f), (Strings{"-D (1, 1, 'a')"}));
  // A lone max-level record is unchanged; a lone lower record is new; a lone delete is nothing.
  MergeKeepingDeletes(&f, {At(5, KV(1, I, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(&f), Strings{});
  MergeKeepingDeletes(&f, {At(2, KV(1, I, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(&f), (Strings{"+I (1, 1, 'a')"}));
  MergeKeepingDeletes(&f, {At(2, KV(1, D, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(&f), Strings{});
}

TEST(FullChangelogMergeFunctionWrapperTest, RowDeduplicateDropsUnchangedValues) {
  const TableSchema schema = Schema(
      {{"changelog-producer", "full-compaction"}, {"changelog-producer.row-deduplicate", "true"}});
  FullChangelogMergeFunctionWrapper f = Full(schema, 5);
  MergeKeepingDeletes(&f, {At(5, KV(1, I, {Int(1), Int(1), Str("a")})),
                           At(0, KV(3, I, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(&f), Strings{});
  FullChangelogMergeFunctionWrapper plain = Full(Schema({}), 5);
  MergeKeepingDeletes(&plain, {At(5, KV(1, I, {Int(1), Int(1), Str("a")})),
                               At(0, KV(3, I, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(&plain), (Strings{"-U (1, 1, 'a')", "+U (1, 1, 'a')"}));
}

TEST(FullChangelogMergeFunctionWrapperTest, TwoMaxLevelRecordsAreCorruption) {
  FullChangelogMergeFunctionWrapper f = Full(Schema({}), 5);
  f.Reset();
  ASSERT_OK(f.Add(At(5, KV(1, I, {Int(1), Int(1), Str("a")}))));
  EXPECT_TRUE(test::HasError(f.Add(At(5, KV(2, I, {Int(1), Int(2), Str("b")}))),
                             StatusCode::kCorruption, {"max level", "5"}));
}

// A lookup wrapper whose lookup answers `above` (the key's newest record above the output
// level, or none) for every key, and counts its calls.
struct LookupCase {
  std::optional<KeyValue> above;
  int calls = 0;
  std::unique_ptr<LookupChangelogMergeFunctionWrapper> wrapper;
};

std::unique_ptr<LookupCase> Lookup(const TableSchema& schema, bool first_row = false) {
  auto c = std::make_unique<LookupCase>();
  LookupCase* raw = c.get();
  auto options = CoreOptions::FromSchema(schema);
  EXPECT_OK(options);
  auto order = KeyValueMergeOrder::Make(schema, *options);
  EXPECT_OK(order);
  auto wrapper = LookupChangelogMergeFunctionWrapper::Make(
      [&schema]() { return MakeMergeFunction(schema); },
      [raw](const ValueList&) -> Result<std::optional<KeyValue>> {
        ++raw->calls;
        return raw->above;
      },
      first_row, Equaliser(schema), std::move(order).value());
  EXPECT_OK(wrapper);
  c->wrapper = std::move(wrapper).value();
  return c;
}

TEST(LookupChangelogMergeFunctionWrapperTest, ComparesLevel0RecordsWithTheValueAbove) {
  const TableSchema schema = Schema({});
  auto c = Lookup(schema);
  MergeFunction* f = c->wrapper.get();
  // The value before is looked up above the output level.
  c->above = At(4, KV(1, I, {Int(1), Int(1), Str("a")}));
  auto r = MergeKeepingDeletes(f, {At(0, KV(5, I, {Int(1), Int(2), Str("b")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 2, 'b')");
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"-U (1, 1, 'a')", "+U (1, 2, 'b')"}));
  EXPECT_EQ(c->calls, 1);
  // No value before.
  c->above.reset();
  MergeKeepingDeletes(f, {At(0, KV(5, I, {Int(1), Int(2), Str("b")}))});
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"+I (1, 2, 'b')"}));
  // A record above level 0 in the compaction is the value before: no lookup.
  c->calls = 0;
  c->above = At(4, KV(0, I, {Int(1), Int(0), Str("z")}));
  MergeKeepingDeletes(f, {At(1, KV(1, I, {Int(1), Int(1), Str("a")})),
                          At(0, KV(5, D, {Int(1), Int(1), Str("a")}))});
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"-D (1, 1, 'a')"}));
  EXPECT_EQ(c->calls, 0);
  // Without a level-0 record there is no change.
  r = MergeKeepingDeletes(f, {At(1, KV(1, I, {Int(1), Int(1), Str("a")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 1, 'a')");
  EXPECT_EQ(Changes(c->wrapper.get()), Strings{});
}

TEST(LookupChangelogMergeFunctionWrapperTest, AggregationMergesTheValueAboveIntoTheResult) {
  const TableSchema schema = Schema({{"merge-engine", "aggregation"},
                                     {"fields.a.aggregate-function", "sum"},
                                     {"fields.b.ignore-retract", "true"}});
  auto c = Lookup(schema);
  // No record above level 0 in the compaction: the value above (10) is looked up and folded
  // into the compacted record (Java LookupMergeFunction), which holds the whole value.
  c->above = At(3, KV(1, I, {Int(1), Int(10), Str("a")}));
  auto r = MergeKeepingDeletes(c->wrapper.get(), {At(0, KV(4, I, {Int(1), Int(7), Str("c")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 17, 'c')");
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"-U (1, 10, 'a')", "+U (1, 17, 'c')"}));
  EXPECT_EQ(c->calls, 1);
  // The lowest level above 0 holds the key's value: the records of higher levels (older
  // versions, 4) are not folded again. 5 + 7 - 5.
  c->calls = 0;
  r = MergeKeepingDeletes(
      c->wrapper.get(),
      {At(2, KV(2, I, {Int(1), Int(4), Str("a")})), At(1, KV(3, I, {Int(1), Int(5), Str("b")})),
       At(0, KV(4, I, {Int(1), Int(7), Str("c")})), At(0, KV(5, D, {Int(1), Int(5), Str("c")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 7, 'c')");
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"-U (1, 5, 'b')", "+U (1, 7, 'c')"}));
  EXPECT_EQ(c->calls, 0);
  // Nothing above: +I of the compaction's value.
  c->above.reset();
  MergeKeepingDeletes(c->wrapper.get(), {At(0, KV(6, I, {Int(1), Int(3), Str("e")}))});
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"+I (1, 3, 'e')"}));
}

TEST(LookupChangelogMergeFunctionWrapperTest, FirstRowEmitsTheNewRecordWithItsKind) {
  const TableSchema schema = Schema({{"merge-engine", "first-row"}});
  auto c = Lookup(schema, /*first_row=*/true);
  // Already above the output level: no result, no change.
  c->above = At(3, KV(1, I, {Int(1), Int(1), Str("a")}));
  auto r = MergeKeepingDeletes(c->wrapper.get(), {At(0, KV(5, I, {Int(1), Int(2), Str("b")}))});
  EXPECT_FALSE(r);
  EXPECT_EQ(Changes(c->wrapper.get()), Strings{});
  // A record above level 0 in the compaction: it is the result, no change, no lookup.
  c->calls = 0;
  r = MergeKeepingDeletes(c->wrapper.get(), {At(1, KV(4, I, {Int(1), Int(1), Str("a")})),
                                             At(0, KV(5, I, {Int(1), Int(2), Str("b")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 1, 'a')");
  EXPECT_EQ(Changes(c->wrapper.get()), Strings{});
  EXPECT_EQ(c->calls, 0);
  // New: the first row as the change, with its own kind (Java FirstRowMergeFunctionWrapper).
  c->above.reset();
  r = MergeKeepingDeletes(c->wrapper.get(),
                          {At(0, KV(5, RowKind::kUpdateAfter, {Int(1), Int(2), Str("b")})),
                           At(0, KV(6, I, {Int(1), Int(3), Str("c")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 2, 'b')");
  EXPECT_EQ(Changes(c->wrapper.get()), (Strings{"+U (1, 2, 'b')"}));
}

TEST(LookupChangelogMergeFunctionWrapperTest, OrdersTheLookedUpRecordBySequenceField) {
  const TableSchema schema = Schema({{"sequence.field", "a"}});
  auto c = Lookup(schema);
  // The record above has the larger sequence field: it stays the key's value, rewritten into
  // the compaction's output.
  c->above = At(2, KV(1, I, {Int(1), Int(9), Str("above")}));
  auto r = MergeKeepingDeletes(c->wrapper.get(), {At(0, KV(7, I, {Int(1), Int(3), Str("new")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 9, 'above')");
  EXPECT_EQ(r->sequence_number, 1);
  // A newer sequence field wins over it.
  r = MergeKeepingDeletes(c->wrapper.get(), {At(0, KV(8, I, {Int(1), Int(12), Str("new")}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 12, 'new')");
}

TEST(LookupChangelogMergeFunctionWrapperTest, FailuresStayInStatus) {
  const TableSchema schema = Schema({});
  auto options = CoreOptions::FromSchema(schema);
  ASSERT_OK(options);
  auto wrapper = LookupChangelogMergeFunctionWrapper::Make(
      [&schema]() { return MakeMergeFunction(schema); },
      [](const ValueList&) -> Result<std::optional<KeyValue>> {
        return Status::IOError("lookup file lookup-2 is truncated");
      },
      /*first_row=*/false, std::nullopt, KeyValueMergeOrder::Make(schema, *options).value());
  ASSERT_OK(wrapper);
  EXPECT_FALSE(MergeKeepingDeletes(wrapper->get(), {At(0, KV(1, I, {Int(1), Int(1), Str("a")}))}));
  EXPECT_TRUE(
      test::HasError((*wrapper)->status(), StatusCode::kIOError, {"lookup-2", "truncated"}));
  // The engine refusing a record (first-row takes no delete without `ignore-delete`).
  const TableSchema first_row = Schema({{"merge-engine", "first-row"}});
  auto c = Lookup(first_row, /*first_row=*/true);
  EXPECT_FALSE(MergeKeepingDeletes(
      c->wrapper.get(),
      {At(0, KV(1, D, {Int(1), Int(1), Str("a")})), At(0, KV(2, I, {Int(1), Int(1), Str("a")}))}));
  EXPECT_TRUE(
      test::HasError(c->wrapper->status(), StatusCode::kInvalidArgument, {"ignore-delete"}));
}

TEST(RecordEqualiserTest, IgnoresTheNamedFields) {
  const TableSchema schema = Schema({{"changelog-producer.row-deduplicate", "true"},
                                     {"changelog-producer.row-deduplicate-ignore-fields", "b"}});
  std::optional<RecordEqualiser> equaliser = Equaliser(schema);
  ASSERT_TRUE(equaliser);
  EXPECT_TRUE(equaliser->Equals({Int(1), Int(1), Str("a")}, {Int(1), Int(1), Str("z")}));
  EXPECT_FALSE(equaliser->Equals({Int(1), Int(1), Str("a")}, {Int(1), Int(2), Str("a")}));
  EXPECT_FALSE(Equaliser(Schema({})));
}

TEST(RecordEqualiserTest, UnknownIgnoredFieldIsAnError) {
  const TableSchema schema = Schema({{"changelog-producer.row-deduplicate", "true"},
                                     {"changelog-producer.row-deduplicate-ignore-fields", "nope"}});
  auto options = CoreOptions::FromSchema(schema);
  ASSERT_OK(options);
  EXPECT_TRUE(test::HasError(RecordEqualiser::FromOptions(schema, *options),
                             StatusCode::kInvalidArgument,
                             {"row-deduplicate-ignore-fields", "nope"}));
}

}  // namespace
}  // namespace sluice
