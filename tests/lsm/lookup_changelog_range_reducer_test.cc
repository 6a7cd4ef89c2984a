// LookupChangelogRangeReducer against LookupChangelogMergeFunctionWrapper, the rules it is the
// columnar form of: random keys (records at random levels and kinds, a looked-up record or
// none) must give the same result and the same changelog rows.
#include "sluice/lsm/lookup_changelog_range_reducer.h"

#include <gtest/gtest.h>

#include <random>

#include "lsm_test_util.h"
#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Field;
using test::KV;
using test::MakeMergeFunction;
using test::MakeSchema;

// k INT NOT NULL, a INT, b STRING.
TableSchema Schema(TableOptions options) {
  return MakeSchema({Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                     Field(2, "b", DataType::String())},
                    {"k"}, std::move(options));
}

// The merge's record layout: the value fields, then sequence and kind.
DataTypePtr RecordType() {
  return DataType::Row({Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                        Field(2, "b", DataType::String()),
                        Field(100, "_SEQUENCE_NUMBER", DataType::BigInt(false)),
                        Field(101, "_VALUE_KIND", DataType::TinyInt(false))});
}

// The changelog's key-value layout: key, sequence, kind, value fields.
DataTypePtr KeyValueType() {
  return DataType::Row({Field(200, "_KEY_k", DataType::Int(false)),
                        Field(100, "_SEQUENCE_NUMBER", DataType::BigInt(false)),
                        Field(101, "_VALUE_KIND", DataType::TinyInt(false)),
                        Field(0, "k", DataType::Int(false)), Field(1, "a", DataType::Int()),
                        Field(2, "b", DataType::String())});
}

std::string Render(RowKind kind, int64_t sequence, const ValueList& value) {
  return std::string(RowKindShortString(kind)) + " #" + std::to_string(sequence) + " " +
         test::Render(value);
}

// One random key: its records in merge order, the record above the output level a lookup
// finds (if any), and the output level. As compaction sees them: an LSM tree's records above
// level 0 are its keys' values (additions here), older than its level-0 records; the
// compaction holds at most one of them, its oldest record. Retractions only with
// `retractions`: a table with `ignore-delete` holds none (its writes drop them).
struct Key {
  std::vector<KeyValue> records;
  std::optional<KeyValue> above;
  int output_level = 1;
};

Key RandomKey(std::mt19937* rng, int32_t k, bool retractions) {
  const RowKind kinds[] = {RowKind::kInsert, RowKind::kUpdateAfter, RowKind::kUpdateBefore,
                           RowKind::kDelete};
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<unsigned>(n)); };
  Key key;
  key.output_level = 1 + pick(3);
  int64_t sequence = 10;
  if (pick(2) == 0) {
    key.above = KV(sequence++, kinds[pick(2)],
                   {Value::Int32(k), Value::Int32(pick(5)), Value::String("above")});
    key.above->level = key.output_level + 1;
  }
  const int n = 1 + pick(4);
  for (int i = 0; i < n; ++i) {
    const bool high = i == 0 && pick(3) == 0;
    KeyValue kv = KV(sequence++, kinds[pick(high || !retractions ? 2 : 4)],
                     {Value::Int32(k), pick(4) == 0 ? Value::Null() : Value::Int32(pick(5)),
                      Value::String("v" + std::to_string(i))});
    kv.level = high ? 1 + pick(key.output_level) : 0;
    key.records.push_back(std::move(kv));
  }
  return key;
}

// Returns how many keys the engine refused (on both paths alike).
int ExpectSameAsTheWrapper(TableOptions options, bool first_row, bool retractions) {
  const TableSchema schema = Schema(std::move(options));
  auto engine = MakeMergeFunction(schema);
  EXPECT_OK(engine);
  if (!engine.ok()) return 0;
  auto core_options = CoreOptions::FromSchema(schema);
  EXPECT_OK(core_options);
  auto order = KeyValueMergeOrder::Make(schema, *core_options);
  EXPECT_OK(order);
  if (!order.ok()) return 0;
  std::mt19937 rng(20261205);
  int refused = 0;
  for (int32_t k = 0; k < 2000; ++k) {
    const Key key = RandomKey(&rng, k, retractions);
    SCOPED_TRACE("key " + std::to_string(k));

    // The wrapper, as the KeyValue merge runs it.
    auto wrapper = LookupChangelogMergeFunctionWrapper::Make(
        [&]() { return MakeMergeFunction(schema); },
        [&](const ValueList&) -> Result<std::optional<KeyValue>> { return key.above; }, first_row,
        std::nullopt, *order);
    EXPECT_OK(wrapper);
    if (!wrapper.ok()) return refused;
    (*wrapper)->Reset();
    for (const KeyValue& kv : key.records) EXPECT_OK((*wrapper)->Add(kv));
    std::optional<KeyValue> expected = (*wrapper)->GetResultKeepingDeletes();
    const Status added = (*wrapper)->status();
    std::vector<std::string> expected_changes;
    for (const KeyValue& kv : (*wrapper)->changelog()) {
      expected_changes.push_back(Render(kv.kind, kv.sequence_number, kv.value));
    }

    // The reducer over the same records as rows of a batch.
    ColumnBatch batch(RecordType());
    std::vector<RangeRecord> range;
    for (const KeyValue& kv : key.records) {
      ValueList row = kv.value;
      row.push_back(Value::Int64(kv.sequence_number));
      row.push_back(Value::Int8(static_cast<int8_t>(RowKindToByte(kv.kind))));
      EXPECT_OK(batch.AppendRow(row));
    }
    for (size_t i = 0; i < key.records.size(); ++i) {
      range.push_back(
          RangeRecord{&batch, static_cast<int64_t>(i), key.records[i].level, key.records[i].kind});
    }
    int lookups = 0;
    LookupChangelogRangeReducer::Options reducer_options;
    reducer_options.key_columns = {0};
    reducer_options.num_values = 3;
    reducer_options.output_level = key.output_level;
    reducer_options.first_row = first_row;
    reducer_options.key_value_type = KeyValueType();
    LookupChangelogRangeReducer reducer(
        reducer_options, engine->get(),
        [&](const ValueList& looked_up) -> Result<std::optional<KeyValue>> {
          ++lookups;
          EXPECT_EQ(looked_up, (ValueList{Value::Int32(k)}));
          return key.above;
        });
    auto pick = reducer.Reduce(range.data(), static_cast<int64_t>(range.size()));
    if (!added.ok()) {
      // An engine that refuses a record refuses it on both paths.
      EXPECT_TRUE(test::HasError(pick.status(), added.code(), {added.message()}));
      ++refused;
      continue;
    }
    EXPECT_OK(pick);
    if (!pick.ok()) return refused;
    EXPECT_OK(reducer.Release());
    EXPECT_LE(lookups, 1);
    if (key.records.front().level > 0) EXPECT_EQ(lookups, 0);

    EXPECT_EQ(*pick >= 0, expected.has_value());
    if (expected && *pick >= 0) {
      const KeyValue& picked = key.records[static_cast<size_t>(*pick)];
      EXPECT_EQ(picked.sequence_number, expected->sequence_number);
      EXPECT_EQ(picked.kind, expected->kind);
    }
    std::vector<std::string> changes;
    const ColumnBatch& changelog = *reducer.changelog();
    for (int64_t i = 0; i < changelog.num_rows(); ++i) {
      EXPECT_EQ(changelog.column(0)->GetValue(i), Value::Int32(k));
      const auto kind = static_cast<RowKind>(changelog.column(2)->GetValue(i).AsInt64());
      ValueList value;
      for (int c = 3; c < 6; ++c) value.push_back(changelog.column(c)->GetValue(i));
      changes.push_back(Render(kind, changelog.column(1)->GetValue(i).AsInt64(), value));
    }
    EXPECT_EQ(changes, expected_changes);
  }
  return refused;
}

TEST(LookupChangelogRangeReducerTest, DeduplicateAgreesWithTheWrapper) {
  EXPECT_EQ(ExpectSameAsTheWrapper({}, /*first_row=*/false, /*retractions=*/true), 0);
}

TEST(LookupChangelogRangeReducerTest, DeduplicateIgnoringDeletesAgreesWithTheWrapper) {
  EXPECT_EQ(ExpectSameAsTheWrapper({{"ignore-delete", "true"}}, /*first_row=*/false,
                                   /*retractions=*/false),
            0);
}

TEST(LookupChangelogRangeReducerTest, FirstRowAgreesWithTheWrapper) {
  EXPECT_EQ(ExpectSameAsTheWrapper({{"merge-engine", "first-row"}, {"ignore-delete", "true"}},
                                   /*first_row=*/true, /*retractions=*/false),
            0);
}

TEST(LookupChangelogRangeReducerTest, FirstRowRefusesRetractionsAsTheWrapperDoes) {
  EXPECT_GT(ExpectSameAsTheWrapper({{"merge-engine", "first-row"}}, /*first_row=*/true,
                                   /*retractions=*/true),
            0);
}

TEST(LookupChangelogRangeReducerTest, LookupErrorFailsTheKey) {
  const TableSchema schema = Schema({});
  auto engine = MakeMergeFunction(schema);
  ASSERT_OK(engine);
  ColumnBatch batch(RecordType());
  ASSERT_OK(batch.AppendRow(
      {Value::Int32(7), Value::Int32(1), Value::String("x"), Value::Int64(3), Value::Int8(0)}));
  LookupChangelogRangeReducer::Options options;
  options.key_columns = {0};
  options.num_values = 3;
  options.key_value_type = KeyValueType();
  LookupChangelogRangeReducer reducer(
      options, engine->get(), [](const ValueList&) -> Result<std::optional<KeyValue>> {
        return Status::IOError("lookup file data-1.parquet is gone");
      });
  const RangeRecord record{&batch, 0, 0, RowKind::kInsert};
  EXPECT_TRUE(test::HasError(reducer.Reduce(&record, 1).status(), StatusCode::kIOError,
                             {"data-1.parquet"}));
}

}  // namespace
}  // namespace sluice
