// SortedRunMerge against models: random sorted runs (cut into batches of random sizes, empty
// ones included) merged for every merge engine, with and without `sequence.field`, one- and
// two-column keys, deletes and retractions kept or dropped; the result must equal a std::map
// model that orders each key's records and folds them as Java's ReducerMergeFunctionWrapper
// does (one record as it is, else the engine's Add / GetResultKeepingDeletes), and for
// deduplicate and first-row a model written out by hand (last record; first non-retraction).
#include "sluice/lsm/sorted_run_merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "lsm_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Field;
using test::MakeMergeFunction;
using test::MakeSchema;
using test::Render;

// A sorted run held in memory, handed out in batches of the given sizes.
class MemoryRun final : public SortedRunReader {
 public:
  MemoryRun(std::vector<ValueList> records, std::vector<int64_t> batch_sizes, int32_t level)
      : records_(std::move(records)), batch_sizes_(std::move(batch_sizes)), level_(level) {}

  Result<bool> Next(ColumnBatch* batch) override {
    batch->Clear();
    if (next_batch_ >= batch_sizes_.size()) return false;
    const int64_t n = batch_sizes_[next_batch_++];
    for (int64_t i = 0; i < n; ++i) SLUICE_RETURN_NOT_OK(batch->AppendRow(records_[next_row_++]));
    return true;
  }
  int32_t level() const override { return level_; }

 private:
  std::vector<ValueList> records_;
  std::vector<int64_t> batch_sizes_;
  int32_t level_;
  size_t next_batch_ = 0;
  size_t next_row_ = 0;
};

// Table fields: the key (k BIGINT, or k1 INT + k2 STRING), then a INT, b STRING, c BIGINT and
// s INT (the sequence field when the case uses one).
struct Layout {
  bool composite_key = false;
  std::vector<DataField> fields() const {
    std::vector<DataField> out;
    if (composite_key) {
      out = {Field(0, "k1", DataType::Int(false)), Field(1, "k2", DataType::String(false))};
    } else {
      out = {Field(0, "k", DataType::BigInt(false))};
    }
    const int32_t id = static_cast<int32_t>(out.size());
    out.push_back(Field(id, "a", DataType::Int()));
    out.push_back(Field(id + 1, "b", DataType::String()));
    out.push_back(Field(id + 2, "c", DataType::BigInt()));
    out.push_back(Field(id + 3, "s", DataType::Int()));
    return out;
  }
  std::vector<std::string> keys() const {
    return composite_key ? std::vector<std::string>{"k1", "k2"} : std::vector<std::string>{"k"};
  }
  int num_keys() const { return composite_key ? 2 : 1; }
  DataTypePtr record_type() const {
    std::vector<DataField> out = fields();
    out.push_back(Field(2147483646, "_SEQUENCE_NUMBER", DataType::BigInt(false)));
    out.push_back(Field(2147483645, "_VALUE_KIND", DataType::TinyInt(false)));
    return DataType::Row(std::move(out));
  }
  ValueList key(int i) const {
    if (composite_key) return {Value::Int32(i / 3), Value::String(std::string(1, 'a' + i % 3))};
    return {Value::Int64(i * 7 - 50)};
  }
};

// The model's order of a key's records: the sequence field (nulls first), then the sequence
// number.
bool Before(const KeyValue& x, const KeyValue& y, int sequence_field) {
  if (sequence_field >= 0) {
    const Value& a = x.value[static_cast<size_t>(sequence_field)];
    const Value& b = y.value[static_cast<size_t>(sequence_field)];
    if (a.is_null() != b.is_null()) return a.is_null();
    if (!a.is_null() && a.int32() != b.int32()) return a.int32() < b.int32();
  }
  return x.sequence_number < y.sequence_number;
}

// What a picking engine's result is, written out for the hand model.
enum class Pick { kNone, kLast, kLastNonRetraction, kFirstNonRetraction };

struct Case {
  std::string name;
  TableOptions options;
  bool retractions = true;  // the runs hold -U / -D records
  Pick pick = Pick::kNone;
};

bool HasOption(const TableOptions& options, const std::string& key) {
  for (const auto& [k, v] : options) {
    if (k == key) return true;
  }
  return false;
}

struct Outcome {
  Status status;
  std::vector<std::string> rows;  // "+I(...)@seq" in key order
};

std::string Show(const ValueList& value, int64_t seq, RowKind kind) {
  return std::string(RowKindShortString(kind)) + Render(value) + "@" + std::to_string(seq);
}

class SortedRunMergeTest : public ::testing::Test {
 protected:
  // Runs one random case; returns what the merge gave and what the model expects.
  void RunCase(const Case& c, const Layout& layout, bool drop_retractions, uint32_t seed) {
    SCOPED_TRACE(c.name + " seed " + std::to_string(seed) +
                 (layout.composite_key ? " composite key" : " bigint key") +
                 (drop_retractions ? " drop" : " keep"));
    const TableSchema schema = MakeSchema(layout.fields(), layout.keys(), c.options);
    auto merged_fn = MakeMergeFunction(schema);
    auto model_fn = MakeMergeFunction(schema);
    ASSERT_OK(merged_fn);
    ASSERT_OK(model_fn);
    const int nk = layout.num_keys();
    const int num_values = nk + 4;
    const int sequence_field = HasOption(c.options, "sequence.field") ? num_values - 1 : -1;

    std::mt19937 rng(seed);
    const int num_runs = 1 + static_cast<int>(rng() % 6);
    const int num_keys = 1 + static_cast<int>(rng() % 40);
    std::vector<int64_t> sequences(static_cast<size_t>(num_runs * num_keys));
    for (size_t i = 0; i < sequences.size(); ++i) sequences[i] = static_cast<int64_t>(i);
    std::shuffle(sequences.begin(), sequences.end(), rng);
    const RowKind kinds[] = {RowKind::kInsert, RowKind::kUpdateAfter, RowKind::kUpdateBefore,
                             RowKind::kDelete};

    std::map<int, std::vector<KeyValue>> model;  // key index -> records
    std::vector<std::unique_ptr<SortedRunReader>> runs;
    size_t next_sequence = 0;
    for (int r = 0; r < num_runs; ++r) {
      const int32_t level = static_cast<int32_t>(rng() % 5);
      std::vector<ValueList> records;
      for (int k = 0; k < num_keys; ++k) {
        if (rng() % 3 == 0) continue;
        KeyValue kv;
        kv.key = layout.key(k);
        kv.value = kv.key;
        kv.value.push_back(rng() % 5 == 0 ? Value::Null() : Value::Int32(rng() % 100));
        kv.value.push_back(rng() % 5 == 0 ? Value::Null()
                                          : Value::String("v" + std::to_string(rng() % 50)));
        kv.value.push_back(rng() % 5 == 0 ? Value::Null() : Value::Int64(rng() % 1000));
        kv.value.push_back(rng() % 4 == 0 ? Value::Null() : Value::Int32(rng() % 4));
        kv.sequence_number = sequences[next_sequence++];
        kv.kind = kinds[c.retractions ? rng() % 4 : rng() % 2];
        kv.level = level;
        ValueList row = kv.value;
        row.push_back(Value::Int64(kv.sequence_number));
        row.push_back(Value::Int8(static_cast<int8_t>(RowKindToByte(kv.kind))));
        records.push_back(std::move(row));
        model[k].push_back(std::move(kv));
      }
      std::vector<int64_t> sizes;
      int64_t left = static_cast<int64_t>(records.size());
      while (left > 0 || rng() % 4 == 0) {
        const int64_t n = std::min<int64_t>(left, rng() % 6);
        sizes.push_back(n);
        left -= n;
      }
      runs.push_back(std::make_unique<MemoryRun>(std::move(records), std::move(sizes), level));
    }

    // The model.
    Outcome expected;
    for (auto& [k, records] : model) {
      std::stable_sort(records.begin(), records.end(), [&](const KeyValue& x, const KeyValue& y) {
        return Before(x, y, sequence_field);
      });
      std::optional<KeyValue> result;
      if (records.size() == 1) {
        result = records[0];
      } else {
        (*model_fn)->Reset();
        for (const KeyValue& kv : records) {
          Status st = (*model_fn)->Add(kv);
          if (!st.ok()) {
            expected.status = st;
            break;
          }
        }
        if (!expected.status.ok()) break;
        result = (*model_fn)->GetResultKeepingDeletes();
        // The engines that pick a record, written out.
        if (c.pick != Pick::kNone) {
          std::optional<KeyValue> picked;
          for (const KeyValue& kv : records) {
            const bool retract = IsRetract(kv.kind);
            if (c.pick == Pick::kLast || (c.pick == Pick::kLastNonRetraction && !retract)) {
              picked = kv;
            } else if (c.pick == Pick::kFirstNonRetraction && !retract && !picked) {
              picked = kv;
            }
          }
          EXPECT_EQ(picked.has_value(), result.has_value());
          if (picked && result) EXPECT_EQ(picked->sequence_number, result->sequence_number);
        }
      }
      if (!result || (drop_retractions && IsRetract(result->kind))) continue;
      expected.rows.push_back(Show(result->value, result->sequence_number, result->kind));
    }

    // The merge.
    SortedRunMerge::Options options;
    options.record_type = layout.record_type();
    for (int i = 0; i < nk; ++i) options.key_columns.push_back(i);
    if (sequence_field >= 0) options.sequence_columns = {sequence_field};
    options.drop_retractions = drop_retractions;
    Outcome actual;
    auto merge = SortedRunMerge::Open(options, std::move(runs), merged_fn->get());
    actual.status = merge.status();
    const SortedRunMerge::Consumer consumer = [&](const ColumnBatch& batch, const int64_t* rows,
                                                  int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        ValueList value;
        for (int col = 0; col < num_values; ++col) {
          value.push_back(batch.column(col)->GetValue(rows[i]));
        }
        actual.rows.push_back(
            Show(value, batch.column(num_values)->GetValue(rows[i]).int64(),
                 static_cast<RowKind>(batch.column(num_values + 1)->GetValue(rows[i]).int8())));
      }
      return Status::OK();
    };
    while (actual.status.ok()) {
      Result<bool> more = (*merge)->Next(1 + static_cast<int64_t>(rng() % 7), consumer);
      actual.status = more.status();
      if (!more.ok() || !*more) break;
    }
    if (!expected.status.ok()) {
      EXPECT_TRUE(
          test::HasError(actual.status, expected.status.code(), {expected.status.message()}));
      EXPECT_EQ(actual.status.ToString(), expected.status.ToString());
      return;
    }
    ASSERT_OK(actual.status);
    EXPECT_EQ(actual.rows, expected.rows);
  }
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"deduplicate", {}, true, Pick::kLast},
      {"deduplicate ignore-delete", {{"ignore-delete", "true"}}, true, Pick::kLastNonRetraction},
      {"deduplicate sequence.field",
       {{"merge-engine", "deduplicate"}, {"sequence.field", "s"}},
       true,
       Pick::kLast},
      {"first-row ignore-delete",
       {{"merge-engine", "first-row"}, {"ignore-delete", "true"}},
       true,
       Pick::kFirstNonRetraction},
      {"first-row", {{"merge-engine", "first-row"}}, false, Pick::kFirstNonRetraction},
      {"first-row rejects retractions", {{"merge-engine", "first-row"}}},
      {"partial-update ignore-delete",
       {{"merge-engine", "partial-update"}, {"ignore-delete", "true"}}},
      {"partial-update", {{"merge-engine", "partial-update"}}, /*retractions=*/false},
      {"partial-update remove-record-on-delete",
       {{"merge-engine", "partial-update"}, {"partial-update.remove-record-on-delete", "true"}}},
      {"aggregation",
       {{"merge-engine", "aggregation"},
        {"fields.a.aggregate-function", "sum"},
        {"fields.c.aggregate-function", "max"}},
       /*retractions=*/false},
      {"aggregation sum retractions",
       {{"merge-engine", "aggregation"},
        {"fields.a.aggregate-function", "sum"},
        {"fields.c.aggregate-function", "sum"},
        {"fields.b.ignore-retract", "true"},
        {"fields.s.ignore-retract", "true"}}},
      {"aggregation remove-record-on-delete",
       {{"merge-engine", "aggregation"},
        {"fields.a.aggregate-function", "sum"},
        {"aggregation.remove-record-on-delete", "true"}}},
      {"aggregation sequence.field",
       {{"merge-engine", "aggregation"},
        {"fields.a.aggregate-function", "sum"},
        {"sequence.field", "s"}},
       /*retractions=*/false},
  };
  return cases;
}

TEST_F(SortedRunMergeTest, RandomRunsMatchTheModelForEveryEngine) {
  for (const Case& c : Cases()) {
    for (bool composite : {false, true}) {
      for (bool drop : {true, false}) {
        for (uint32_t seed = 1; seed <= 10; ++seed) {
          Layout layout;
          layout.composite_key = composite;
          RunCase(c, layout, drop, seed);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

// The merge hands out results across calls and batches: a key's records in different batches
// of different runs, a run ending in an empty batch, and no runs at all.
TEST_F(SortedRunMergeTest, RangesSpanBatchesAndEmptyInputsEnd) {
  const Layout layout;
  const TableSchema schema = MakeSchema(layout.fields(), layout.keys(), {});
  auto f = MakeMergeFunction(schema);
  ASSERT_OK(f);
  SortedRunMerge::Options options;
  options.record_type = layout.record_type();
  options.key_columns = {0};
  auto row = [](int64_t k, int32_t a, int64_t seq, RowKind kind) {
    return ValueList{Value::Int64(k),
                     Value::Int32(a),
                     Value::Null(),
                     Value::Null(),
                     Value::Null(),
                     Value::Int64(seq),
                     Value::Int8(static_cast<int8_t>(RowKindToByte(kind)))};
  };
  std::vector<std::unique_ptr<SortedRunReader>> runs;
  runs.push_back(std::make_unique<MemoryRun>(
      std::vector<ValueList>{row(1, 10, 0, RowKind::kInsert), row(2, 20, 1, RowKind::kInsert),
                             row(3, 30, 2, RowKind::kInsert)},
      std::vector<int64_t>{1, 2, 0}, 0));
  runs.push_back(std::make_unique<MemoryRun>(
      std::vector<ValueList>{row(2, 21, 3, RowKind::kDelete), row(3, 31, 4, RowKind::kUpdateAfter)},
      std::vector<int64_t>{0, 1, 1}, 0));
  runs.push_back(std::make_unique<MemoryRun>(std::vector<ValueList>{}, std::vector<int64_t>{}, 0));
  auto merge = SortedRunMerge::Open(options, std::move(runs), f->get());
  ASSERT_OK(merge);
  std::vector<int64_t> seen;
  const SortedRunMerge::Consumer consumer = [&](const ColumnBatch& batch, const int64_t* rows,
                                                int64_t n) {
    for (int64_t i = 0; i < n; ++i) seen.push_back(batch.column(5)->GetValue(rows[i]).int64());
    return Status::OK();
  };
  auto more = (*merge)->Next(1, consumer);
  ASSERT_OK(more);
  EXPECT_TRUE(*more);
  more = (*merge)->Next(10, consumer);
  ASSERT_OK(more);
  EXPECT_FALSE(*more);
  // Key 2 ends deleted and is dropped; key 3 is its newest record.
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 4}));

  auto empty = SortedRunMerge::Open(options, {}, f->get());
  ASSERT_OK(empty);
  more = (*empty)->Next(10, consumer);
  ASSERT_OK(more);
  EXPECT_FALSE(*more);
}

// A consumer's error stops the merge with that error.
TEST_F(SortedRunMergeTest, ConsumerErrorStopsTheMerge) {
  const Layout layout;
  const TableSchema schema = MakeSchema(layout.fields(), layout.keys(), {});
  auto f = MakeMergeFunction(schema);
  ASSERT_OK(f);
  SortedRunMerge::Options options;
  options.record_type = layout.record_type();
  options.key_columns = {0};
  std::vector<std::unique_ptr<SortedRunReader>> runs;
  runs.push_back(std::make_unique<MemoryRun>(
      std::vector<ValueList>{ValueList{Value::Int64(1), Value::Null(), Value::Null(), Value::Null(),
                                       Value::Null(), Value::Int64(0), Value::Int8(0)}},
      std::vector<int64_t>{1}, 0));
  auto merge = SortedRunMerge::Open(options, std::move(runs), f->get());
  ASSERT_OK(merge);
  auto more = (*merge)->Next(
      10, [](const ColumnBatch&, const int64_t*, int64_t) { return Status::IOError("disk full"); });
  EXPECT_TRUE(test::HasError(more, StatusCode::kIOError, {"disk full"}));
}

}  // namespace
}  // namespace sluice
