#include <gtest/gtest.h>

#include "lsm_test_util.h"
#include "sluice/lsm/first_row_merge_function.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Field;
using test::KV;
using test::MakeMergeFunction;
using test::MakeSchema;
using test::Merge;
using test::MergeStatus;
using test::Render;

const RowKind I = RowKind::kInsert;
const RowKind UB = RowKind::kUpdateBefore;
const RowKind UA = RowKind::kUpdateAfter;
const RowKind D = RowKind::kDelete;

Value N() { return Value::Null(); }
Value Int(int32_t v) { return Value::Int32(v); }
Value Long(int64_t v) { return Value::Int64(v); }
Value Str(const char* s) { return Value::String(s); }

// k INT NOT NULL, a INT, b STRING, c BIGINT.
TableSchema Schema(TableOptions options) {
  return MakeSchema({Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                     Field(2, "b", DataType::String()), Field(3, "c", DataType::BigInt())},
                    {"k"}, std::move(options));
}

std::unique_ptr<MergeFunction> Make(TableOptions options) {
  auto f = MakeMergeFunction(Schema(std::move(options)));
  EXPECT_OK(f);
  return std::move(f).value();
}

Status MakeError(TableOptions options) {
  return MakeMergeFunction(Schema(std::move(options))).status();
}

// ---------------------------------------------------------------------------------------------
// deduplicate

TEST(DeduplicateTest, LatestWins) {
  auto f = Make({});
  auto r = Merge(f.get(), {KV(1, I, {Int(1), Int(10), Str("x"), N()}),
                           KV(2, UA, {Int(1), N(), Str("y"), Long(3)})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, null, 'y', 3)");
  EXPECT_EQ(r->sequence_number, 2);
  EXPECT_EQ(r->kind, UA);
}

TEST(DeduplicateTest, DeleteAsLatestDropsTheKeyButCompactionKeepsIt) {
  auto f = Make({});
  EXPECT_FALSE(Merge(
      f.get(), {KV(1, I, {Int(1), Int(10), N(), N()}), KV(2, D, {Int(1), Int(10), N(), N()})}));
  auto kept = f->GetResultKeepingDeletes();
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->kind, D);
  EXPECT_FALSE(Merge(
      f.get(), {KV(1, I, {Int(1), Int(10), N(), N()}), KV(2, UB, {Int(1), Int(10), N(), N()})}));
  // A later insert resurrects the key.
  auto r =
      Merge(f.get(), {KV(1, D, {Int(1), N(), N(), N()}), KV(2, I, {Int(1), Int(5), N(), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 5, null, null)");
}

TEST(DeduplicateTest, MovedRecords) {
  for (const char* engine : {"deduplicate", "first-row"}) {
    auto f = Make({{"merge-engine", engine}, {"ignore-delete", "true"}});
    f->Reset();
    ASSERT_OK(f->Add(KV(1, I, {Int(1), Int(10), Str("x"), N()})));
    ASSERT_OK(f->Add(KV(2, D, {Int(1), Int(10), Str("x"), N()})));
    ASSERT_OK(f->Add(KV(3, I, {Int(1), Int(30), Str("z"), N()})));
    auto r = f->GetResult();
    ASSERT_TRUE(r) << engine;
    EXPECT_EQ(Render(r->value),
              std::string(engine) == "first-row" ? "(1, 10, 'x', null)" : "(1, 30, 'z', null)");
  }
  auto strict = Make({{"merge-engine", "first-row"}});
  strict->Reset();
  EXPECT_TRUE(test::HasError(
      strict->Add(KV(1, UB, {Int(1), N(), N(), N()})), StatusCode::kInvalidArgument,
      {"First row merge engine can not accept DELETE/UPDATE_BEFORE records", "'ignore-delete'"}));
}

TEST(DeduplicateTest, IgnoreDeleteSkipsRetractions) {
  for (const char* key : {"ignore-delete", "deduplicate.ignore-delete"}) {
    auto f = Make({{key, "true"}});
    auto r = Merge(f.get(),
                   {KV(1, I, {Int(1), Int(10), N(), N()}), KV(2, D, {Int(1), Int(10), N(), N()})});
    ASSERT_TRUE(r) << key;
    EXPECT_EQ(r->sequence_number, 1);
    f->Reset();
    ASSERT_OK(f->Add(KV(1, D, {Int(1), N(), N(), N()})));
    EXPECT_FALSE(f->GetResultKeepingDeletes()) << "only ignored records: no result";
  }
}

// ---------------------------------------------------------------------------------------------
// first-row

TEST(FirstRowTest, FirstWins) {
  auto f = Make({{"merge-engine", "first-row"}});
  auto r = Merge(
      f.get(), {KV(1, I, {Int(1), Int(10), N(), N()}), KV(2, I, {Int(1), Int(20), Str("z"), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 10, null, null)");
  EXPECT_EQ(r->sequence_number, 1);
}

TEST(FirstRowTest, RetractionsAreErrorsUnlessIgnored) {
  auto f = Make({{"merge-engine", "first-row"}});
  Status st =
      MergeStatus(f.get(), {KV(1, I, {Int(1), N(), N(), N()}), KV(2, D, {Int(1), N(), N(), N()})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("ignore-delete"), std::string::npos);
  auto g = Make({{"merge-engine", "first-row"}, {"first-row.ignore-delete", "true"}});
  auto r =
      Merge(g.get(), {KV(1, UB, {Int(1), Int(1), N(), N()}), KV(2, I, {Int(1), Int(2), N(), N()}),
                      KV(3, D, {Int(1), Int(2), N(), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 2, null, null)");
}

TEST(FirstRowTest, TracksHighLevelRecords) {
  FirstRowMergeFunction f(false);
  f.Reset();
  KeyValue a = KV(1, I, {Int(1), N(), N(), N()});
  a.level = 0;
  ASSERT_OK(f.Add(a));
  EXPECT_FALSE(f.contains_high_level());
  a.level = 3;
  ASSERT_OK(f.Add(a));
  EXPECT_TRUE(f.contains_high_level());
  f.Reset();
  EXPECT_FALSE(f.contains_high_level());
}

// ---------------------------------------------------------------------------------------------
// partial-update

TEST(PartialUpdateTest, NonNullFieldsOverwrite) {
  auto f = Make({{"merge-engine", "partial-update"}});
  auto r =
      Merge(f.get(), {KV(1, I, {Int(1), Int(10), N(), N()}), KV(2, I, {Int(1), N(), Str("b"), N()}),
                      KV(3, UA, {Int(1), Int(30), N(), Long(7)})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 30, 'b', 7)");
  EXPECT_EQ(r->kind, I);
  EXPECT_EQ(r->sequence_number, 3);
}

TEST(PartialUpdateTest, NullForNotNullFieldIsAnError) {
  auto f = Make({{"merge-engine", "partial-update"}});
  Status st = MergeStatus(f.get(), {KV(1, I, {N(), Int(1), N(), N()})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("Field k can not be null"), std::string::npos) << st.ToString();
}

TEST(PartialUpdateTest, DeleteWithoutOptionsIsJavasError) {
  auto f = Make({{"merge-engine", "partial-update"}});
  Status st = MergeStatus(
      f.get(), {KV(1, I, {Int(1), Int(1), N(), N()}), KV(2, D, {Int(1), Int(1), N(), N()})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("Partial update can not accept delete records"), std::string::npos);
  EXPECT_NE(st.message().find("partial-update.remove-record-on-delete"), std::string::npos);
}

TEST(PartialUpdateTest, IgnoreDelete) {
  auto f = Make({{"merge-engine", "partial-update"}, {"partial-update.ignore-delete", "true"}});
  auto r =
      Merge(f.get(), {KV(1, I, {Int(1), Int(1), N(), N()}), KV(2, D, {Int(1), Int(9), N(), N()}),
                      KV(3, I, {Int(1), N(), Str("s"), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 1, 's', null)");
  // A key with only deletes: no insert seen, the result is a DELETE and is dropped.
  EXPECT_FALSE(Merge(f.get(), {KV(1, D, {Int(1), Int(9), N(), N()})}));
  auto kept = f->GetResultKeepingDeletes();
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->kind, D);
  // As Java: the first record being a retraction initializes the row with its values.
  auto s = Merge(f.get(),
                 {KV(1, D, {Int(1), Int(9), N(), N()}), KV(2, I, {Int(1), N(), Str("s"), N()})});
  ASSERT_TRUE(s);
  EXPECT_EQ(Render(s->value), "(1, 9, 's', null)");
}

TEST(PartialUpdateTest, RemoveRecordOnDelete) {
  auto f = Make(
      {{"merge-engine", "partial-update"}, {"partial-update.remove-record-on-delete", "true"}});
  EXPECT_FALSE(
      Merge(f.get(), {KV(1, I, {Int(1), Int(1), N(), N()}), KV(2, D, {Int(1), N(), N(), N()})}));
  // -U is skipped (only -D removes).
  auto r =
      Merge(f.get(), {KV(1, I, {Int(1), Int(1), N(), N()}), KV(2, UB, {Int(1), Int(1), N(), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 1, null, null)");
  // After the delete a new insert starts from the delete's values.
  auto s = Merge(f.get(),
                 {KV(1, I, {Int(1), Int(1), Str("x"), N()}), KV(2, D, {Int(1), N(), Str("d"), N()}),
                  KV(3, I, {Int(1), Int(3), N(), N()})});
  ASSERT_TRUE(s);
  EXPECT_EQ(Render(s->value), "(1, 3, 'd', null)");
}

TEST(PartialUpdateTest, ConflictingOptionsAreRejected) {
  EXPECT_EQ(MakeError({{"merge-engine", "partial-update"},
                       {"ignore-delete", "true"},
                       {"partial-update.remove-record-on-delete", "true"}})
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeError({{"merge-engine", "partial-update"},
                       {"fields.c.sequence-group", "a"},
                       {"partial-update.remove-record-on-delete", "true"}})
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeError({{"merge-engine", "partial-update"},
                       {"fields.c.sequence-group", "a"},
                       {"ignore-delete", "true"},
                       {"partial-update.remove-record-on-sequence-group", "c"}})
                .code(),
            StatusCode::kInvalidArgument);
  Status not_group = MakeError({{"merge-engine", "partial-update"},
                                {"fields.c.sequence-group", "a"},
                                {"partial-update.remove-record-on-sequence-group", "b"}});
  EXPECT_NE(not_group.message().find("must be part of sequence groups"), std::string::npos);
  Status missing =
      MakeError({{"merge-engine", "partial-update"}, {"fields.c.sequence-group", "zz"}});
  EXPECT_NE(missing.message().find("Field zz can not be found"), std::string::npos);
  Status pk = MakeError({{"merge-engine", "partial-update"}, {"fields.c.sequence-group", "k"}});
  EXPECT_NE(pk.message().find("contains primary key field 'k'"), std::string::npos);
  Status twice = MakeError({{"merge-engine", "partial-update"},
                            {"fields.c.sequence-group", "a"},
                            {"fields.b.sequence-group", "a"}});
  EXPECT_NE(twice.message().find("defined repeatedly"), std::string::npos);
  Status agg_without_group =
      MakeError({{"merge-engine", "partial-update"}, {"fields.a.aggregate-function", "sum"}});
  EXPECT_NE(agg_without_group.message().find("Must use sequence group"), std::string::npos);
  // last_non_null_value needs no group.
  EXPECT_OK(MakeError({{"merge-engine", "partial-update"},
                       {"fields.default-aggregate-function", "last_non_null_value"}}));
}

// ValidateMergeFunction: what Java checks of the merge function at CREATE / ALTER TABLE
// (validateMergeFunction, validateMergeFunctionFactory).
TEST(ValidateMergeFunctionTest, RefusesWhatJavasFactoriesRefuse) {
  // An unknown aggregate function, named or by default, on aggregation and partial-update.
  EXPECT_TRUE(test::HasError(
      ValidateMergeFunction(
          Schema({{"merge-engine", "aggregation"}, {"fields.c.aggregate-function", "summ"}})),
      StatusCode::kInvalidArgument,
      {"Could not find any factory for identifier 'summ'",
       "option 'fields.c.aggregate-function' = 'summ'", "column 'c'", "sum, product"}));
  EXPECT_TRUE(test::HasError(
      ValidateMergeFunction(
          Schema({{"merge-engine", "aggregation"}, {"fields.default-aggregate-function", "avg"}})),
      StatusCode::kInvalidArgument,
      {"identifier 'avg'", "option 'fields.default-aggregate-function' = 'avg'", "column 'k'"}));
  EXPECT_TRUE(test::HasError(ValidateMergeFunction(Schema({{"merge-engine", "partial-update"},
                                                           {"fields.c.sequence-group", "a"},
                                                           {"fields.a.aggregate-function", "x"}})),
                             StatusCode::kInvalidArgument,
                             {"identifier 'x'", "'fields.a.aggregate-function'", "column 'a'"}));
  // Partial-update's factory: sequence groups, aggregates without a group, delete options.
  EXPECT_TRUE(test::HasError(
      ValidateMergeFunction(
          Schema({{"merge-engine", "partial-update"}, {"fields.c.sequence-group", "zz"}})),
      StatusCode::kInvalidArgument, {"Field zz can not be found in table schema"}));
  EXPECT_TRUE(test::HasError(
      ValidateMergeFunction(
          Schema({{"merge-engine", "partial-update"}, {"fields.a.aggregate-function", "sum"}})),
      StatusCode::kInvalidArgument,
      {"Must use sequence group for aggregation functions but not found for field a."}));
  EXPECT_TRUE(test::HasError(
      ValidateMergeFunction(Schema({{"merge-engine", "partial-update"},
                                    {"ignore-delete", "true"},
                                    {"partial-update.remove-record-on-delete", "true"}})),
      StatusCode::kInvalidArgument,
      {"ignore-delete and partial-update.remove-record-on-delete have "
       "conflicting behavior"}));
  // As Java, whether a function takes the column's type is checked when the merge function is
  // created (the first write), not here: sum on STRING passes, and CreateMergeFunction fails.
  const TableSchema sum_on_string =
      Schema({{"merge-engine", "aggregation"}, {"fields.b.aggregate-function", "sum"}});
  EXPECT_OK(ValidateMergeFunction(sum_on_string));
  EXPECT_TRUE(test::HasError(MakeMergeFunction(sum_on_string).status(),
                             StatusCode::kInvalidArgument, {"but was 'STRING'."}));
  // Deduplicate and first-row look at no aggregate function, and append tables at none.
  EXPECT_OK(ValidateMergeFunction(Schema({{"fields.c.aggregate-function", "summ"}})));
  EXPECT_OK(ValidateMergeFunction(
      Schema({{"merge-engine", "first-row"}, {"fields.c.aggregate-function", "summ"}})));
  EXPECT_OK(ValidateMergeFunction(MakeSchema(
      {Field(0, "k", DataType::Int(false))}, {},
      {{"merge-engine", "aggregation"}, {"fields.default-aggregate-function", "summ"}})));
  EXPECT_OK(ValidateMergeFunction(Schema({{"merge-engine", "aggregation"},
                                          {"fields.c.aggregate-function", "sum"},
                                          {"fields.default-aggregate-function", "last_value"}})));
}

// k, a (group of g1), b (group of g1), g1, x (group of g2), g2.
TableSchema GroupSchema(TableOptions extra) {
  TableOptions options = {{"merge-engine", "partial-update"},
                          {"fields.g1.sequence-group", "a,b"},
                          {"fields.g2.sequence-group", "x"}};
  options.insert(options.end(), extra.begin(), extra.end());
  return MakeSchema({Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                     Field(2, "b", DataType::String()), Field(3, "g1", DataType::Int()),
                     Field(4, "x", DataType::Int()), Field(5, "g2", DataType::Int())},
                    {"k"}, std::move(options));
}

TEST(PartialUpdateTest, SequenceGroupsOrderTheirFields) {
  auto f = MakeMergeFunction(GroupSchema({}));
  ASSERT_OK(f);
  auto r =
      Merge(f->get(), {KV(1, I, {Int(1), Int(1), Str("one"), Int(5), Int(100), Int(1)}),
                       // g1 older (3 < 5): a/b ignored; g2 newer: x overwritten, with a null too.
                       KV(2, I, {Int(1), Int(2), Str("two"), Int(3), N(), Int(2)}),
                       // g1 all null: group untouched; g2 older: ignored.
                       KV(3, I, {Int(1), Int(3), Str("three"), N(), Int(300), Int(0)}),
                       // g1 equal (5 >= 5): overwritten, including the null b.
                       KV(4, I, {Int(1), Int(4), N(), Int(5), Int(400), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 4, null, 5, null, 2)");
  EXPECT_EQ(r->sequence_number, 4);
}

TEST(PartialUpdateTest, MultiFieldSequenceGroup) {
  auto schema =
      MakeSchema({Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                  Field(2, "s1", DataType::Int()), Field(3, "s2", DataType::Int())},
                 {"k"}, {{"merge-engine", "partial-update"}, {"fields.s1,s2.sequence-group", "a"}});
  auto f = MakeMergeFunction(schema);
  ASSERT_OK(f);
  auto r = Merge(f->get(), {KV(1, I, {Int(1), Int(10), Int(1), Int(5)}),
                            KV(2, I, {Int(1), Int(20), Int(1), Int(4)}),  // (1,4) < (1,5)
                            KV(3, I, {Int(1), Int(30), Int(2), N()})});   // (2,null) > (1,5)
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 30, 2, null)");
}

TEST(PartialUpdateTest, SequenceGroupRetraction) {
  auto f = MakeMergeFunction(GroupSchema({}));
  ASSERT_OK(f);
  // A -U of g1 with a newer group value nulls a/b and moves g1; g2 untouched (its value null).
  auto r = Merge(f->get(), {KV(1, I, {Int(1), Int(1), Str("one"), Int(5), Int(100), Int(1)}),
                            KV(2, UB, {Int(1), Int(1), Str("one"), Int(6), N(), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, null, null, 6, 100, 1)");
  // An older retraction changes nothing.
  auto s = Merge(f->get(), {KV(1, I, {Int(1), Int(1), Str("one"), Int(5), Int(100), Int(1)}),
                            KV(2, D, {Int(1), Int(1), Str("one"), Int(4), Int(100), Int(0)})});
  ASSERT_TRUE(s);
  EXPECT_EQ(Render(s->value), "(1, 1, 'one', 5, 100, 1)");
}

TEST(PartialUpdateTest, RemoveRecordOnSequenceGroup) {
  auto f =
      MakeMergeFunction(GroupSchema({{"partial-update.remove-record-on-sequence-group", "g1"}}));
  ASSERT_OK(f);
  EXPECT_FALSE(Merge(f->get(), {KV(1, I, {Int(1), Int(1), Str("one"), Int(5), Int(100), Int(1)}),
                                KV(2, D, {Int(1), N(), N(), Int(6), N(), N()})}));
  // A -D of the other group only retracts that group.
  auto r = Merge(f->get(), {KV(1, I, {Int(1), Int(1), Str("one"), Int(5), Int(100), Int(1)}),
                            KV(2, D, {Int(1), N(), N(), N(), Int(100), Int(2)})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 1, 'one', 5, null, 2)");
}

TEST(PartialUpdateTest, SequenceGroupWithAggregates) {
  auto schema =
      MakeSchema({Field(0, "k", DataType::Int(false)), Field(1, "total", DataType::BigInt()),
                  Field(2, "latest", DataType::Int()), Field(3, "g", DataType::Int())},
                 {"k"},
                 {{"merge-engine", "partial-update"},
                  {"fields.g.sequence-group", "total,latest"},
                  {"fields.total.aggregate-function", "sum"}});
  auto f = MakeMergeFunction(schema);
  ASSERT_OK(f);
  auto r =
      Merge(f->get(), {KV(1, I, {Int(1), Long(10), Int(1), Int(5)}),
                       KV(2, I, {Int(1), Long(5), Int(2), Int(3)}),  // older: summed, latest kept
                       KV(3, I, {Int(1), Long(1), Int(3), Int(7)}),  // newer: summed, latest set
                       KV(4, UB, {Int(1), Long(10), Int(1), Int(2)})});  // older -U: retracted
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 6, 3, 7)");
}

// ---------------------------------------------------------------------------------------------
// aggregation (engine level; every function in field_aggregator_test.cc)

TEST(AggregationTest, DefaultIsLastNonNullAndKeysKeepInput) {
  auto f = Make({{"merge-engine", "aggregation"}, {"fields.c.aggregate-function", "sum"}});
  auto r = Merge(f.get(), {KV(1, I, {Int(1), Int(1), Str("x"), Long(5)}),
                           KV(2, I, {Int(1), N(), Str("y"), Long(7)}),
                           KV(3, UB, {Int(1), N(), N(), Long(2)})});
  ASSERT_TRUE(r);
  // a: last non-null 1 (the -U has a null a); b: 'y' retracted by the -U? no, its b is null.
  EXPECT_EQ(Render(r->value), "(1, 1, 'y', 10)");
  EXPECT_EQ(r->kind, I);
  EXPECT_EQ(r->sequence_number, 3);
}

TEST(AggregationTest, DefaultAggregateFunctionOption) {
  auto f = Make({{"merge-engine", "aggregation"},
                 {"fields.default-aggregate-function", "max"},
                 {"fields.b.aggregate-function", "last_value"}});
  auto r = Merge(f.get(), {KV(1, I, {Int(1), Int(3), Str("x"), Long(5)}),
                           KV(2, I, {Int(1), Int(2), N(), Long(9)})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 3, null, 9)");
}

TEST(AggregationTest, RetractionOfFunctionWithoutRetractIsAnError) {
  auto f = Make({{"merge-engine", "aggregation"}, {"fields.a.aggregate-function", "max"}});
  Status st = MergeStatus(
      f.get(), {KV(1, I, {Int(1), Int(3), N(), N()}), KV(2, D, {Int(1), Int(3), N(), N()})});
  EXPECT_EQ(st.code(), StatusCode::kNotSupported);
  EXPECT_NE(st.message().find("'max' does not support retraction"), std::string::npos);
  EXPECT_NE(st.message().find("field 'a'"), std::string::npos) << st.ToString();
  auto g = Make({{"merge-engine", "aggregation"},
                 {"fields.a.aggregate-function", "max"},
                 {"fields.a.ignore-retract", "true"}});
  auto r =
      Merge(g.get(), {KV(1, I, {Int(1), Int(3), N(), N()}), KV(2, D, {Int(1), Int(9), N(), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 3, null, null)");
}

TEST(AggregationTest, RemoveRecordOnDelete) {
  auto f = Make({{"merge-engine", "aggregation"},
                 {"fields.c.aggregate-function", "sum"},
                 {"aggregation.remove-record-on-delete", "true"}});
  EXPECT_FALSE(Merge(
      f.get(), {KV(1, I, {Int(1), Int(1), N(), Long(5)}), KV(2, D, {Int(1), N(), N(), Long(5)})}));
  // After the delete, aggregation continues from the delete's values (as Java).
  auto r = Merge(f.get(),
                 {KV(1, I, {Int(1), Int(1), N(), Long(5)}), KV(2, D, {Int(1), N(), N(), Long(5)}),
                  KV(3, I, {Int(1), N(), N(), Long(2)})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, null, null, 7)");
  EXPECT_EQ(MakeError({{"merge-engine", "aggregation"},
                       {"aggregation.remove-record-on-delete", "true"},
                       {"fields.c.ignore-retract", "true"}})
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(AggregationTest, SequenceFieldUsesLastValue) {
  auto f = Make({{"merge-engine", "aggregation"},
                 {"sequence.field", "c"},
                 {"fields.a.aggregate-function", "sum"},
                 {"fields.c.aggregate-function", "sum"}});
  auto r = Merge(f.get(),
                 {KV(1, I, {Int(1), Int(1), N(), Long(5)}), KV(2, I, {Int(1), Int(2), N(), N()})});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 3, null, null)");
}

TEST(AggregationTest, InputOfTheWrongTypeIsAnErrorNotACrash) {
  auto f = Make({{"merge-engine", "aggregation"}, {"fields.c.aggregate-function", "sum"}});
  Status st = MergeStatus(f.get(), {KV(1, I, {Int(1), N(), N(), Str("not a number")})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("field 'c'"), std::string::npos) << st.ToString();
  auto nested_schema =
      MakeSchema({Field(0, "k", DataType::Int(false)),
                  Field(1, "n",
                        DataType::Array(DataType::Row({Field(0, "id", DataType::Int()),
                                                       Field(1, "s", DataType::String())})))},
                 {"k"},
                 {{"merge-engine", "aggregation"},
                  {"fields.n.aggregate-function", "nested_update"},
                  {"fields.n.nested-key", "id"}});
  auto g = MakeMergeFunction(nested_schema);
  ASSERT_OK(g);
  Value short_row = Value::Array({Value::Row({Int(1)})});
  EXPECT_EQ(MergeStatus(g->get(), {KV(1, I, {Int(1), short_row})}).code(),
            StatusCode::kInvalidArgument);
  Value good = Value::Array({Value::Row({Int(1), Str("a")})});
  EXPECT_OK(MergeStatus(g->get(), {KV(1, I, {Int(1), good}), KV(2, I, {Int(1), good})}));
}

TEST(AggregationTest, UnknownAndUnsupportedFunctions) {
  Status unknown =
      MakeError({{"merge-engine", "aggregation"}, {"fields.a.aggregate-function", "count"}});
  EXPECT_EQ(unknown.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.message().find("Use unsupported aggregation: count"), std::string::npos);
  Status type =
      MakeError({{"merge-engine", "aggregation"}, {"fields.b.aggregate-function", "sum"}});
  EXPECT_NE(type.message().find("must be 'NumericType'"), std::string::npos) << type.ToString();
}

// ---------------------------------------------------------------------------------------------
// tables that need lookup (LookupMergeFunction)

KeyValue At(int level, KeyValue kv) {
  kv.level = level;
  return kv;
}

TEST(LookupMergeFunctionTest, FoldsTheLowestLevelAboveZeroWithLevelZeroOnly) {
  // Every record above level 0 holds its key's whole value: the older versions (levels 3 and
  // 2) are not summed again, whatever order they come in.
  auto f = Make({{"merge-engine", "aggregation"},
                 {"fields.a.aggregate-function", "sum"},
                 {"changelog-producer", "lookup"}});
  auto r = Merge(f.get(), {At(3, KV(1, I, {Int(1), Int(10), Str("x"), N()})),
                           At(0, KV(4, I, {Int(1), Int(1), N(), N()})),
                           At(1, KV(2, I, {Int(1), Int(15), N(), N()})),
                           At(2, KV(3, I, {Int(1), Int(12), N(), N()})),
                           At(0, KV(5, I, {Int(1), Int(2), N(), Long(7)}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 18, null, 7)");
  // Without `changelog-producer = lookup`, deletion vectors or `force-lookup`, every version
  // folds.
  auto plain = Make({{"merge-engine", "aggregation"}, {"fields.a.aggregate-function", "sum"}});
  r = Merge(plain.get(), {At(3, KV(1, I, {Int(1), Int(10), Str("x"), N()})),
                          At(1, KV(2, I, {Int(1), Int(15), N(), N()}))});
  ASSERT_TRUE(r);
  EXPECT_EQ(Render(r->value), "(1, 25, 'x', null)");
  for (const TableOptions& options : {TableOptions{{"deletion-vectors.enabled", "true"}},
                                      TableOptions{{"force-lookup", "true"}}}) {
    TableOptions partial = options;
    partial.push_back({"merge-engine", "partial-update"});
    auto p = Make(partial);
    r = Merge(p.get(), {At(2, KV(1, I, {Int(1), Int(10), Str("x"), Long(1)})),
                        At(1, KV(2, I, {Int(1), N(), Str("y"), N()})),
                        At(0, KV(3, I, {Int(1), Int(3), N(), N()}))});
    ASSERT_TRUE(r);
    EXPECT_EQ(Render(r->value), "(1, 3, 'y', null)") << options[0].first;
  }
}

TEST(LookupMergeFunctionTest, EngineErrorsComeFromAdd) {
  auto f = Make({{"merge-engine", "aggregation"},
                 {"fields.a.aggregate-function", "sum"},
                 {"changelog-producer", "lookup"}});
  f->Reset();
  ASSERT_OK(f->Add(At(0, KV(1, I, {Int(1), Int(1), N(), N()}))));
  // The record above level 0 is folded in before the level-0 one seen: sum refuses a string.
  EXPECT_TRUE(test::HasError(f->Add(At(1, KV(2, I, {Int(1), Value::String("x"), N(), N()}))),
                             StatusCode::kInvalidArgument, {"field 'a'"}));
}

}  // namespace
}  // namespace sluice
