// libFuzzer target: arbitrary text parsed as a --where expression over a fixed schema of every
// scalar type. Parsing must return a Status on any input, never crash; whatever parses must
// render (ToString) to text that parses to the same predicate, filter a small batch exactly as
// row-by-row Evaluate does, and never be pruned by the exact stats of rows it keeps.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/predicate/predicate.h"
#include "sluice/predicate/predicate_parser.h"
#include "sluice/types/value_comparator.h"

namespace {

using namespace sluice;  // NOLINT: a fuzz target, not a library

DataTypePtr Schema() {
  std::vector<std::pair<std::string, DataTypePtr>> columns = {
      {"b", DataType::Boolean()},
      {"i8", DataType::TinyInt()},
      {"i", DataType::Int()},
      {"l", DataType::BigInt()},
      {"f", DataType::Float()},
      {"d", DataType::Double()},
      {"m", DataType::Decimal(10, 2)},
      {"w", DataType::Decimal(30, 5)},
      {"s", DataType::String()},
      {"bin", DataType::Bytes()},
      {"dt", DataType::Date()},
      {"t", DataType::Time(3)},
      {"ts", DataType::Timestamp(9)},
      {"ltz", DataType::TimestampLtz(3)},
      {"date", DataType::Int()},
      {"a b", DataType::Int()},
      {"arr", DataType::Array(DataType::Int())},
  };
  std::vector<DataField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    DataField f;
    f.id = static_cast<int32_t>(i);
    f.name = columns[i].first;
    f.type = columns[i].second;
    fields.push_back(std::move(f));
  }
  return DataType::Row(std::move(fields));
}

std::unique_ptr<ColumnBatch> Batch(const DataTypePtr& schema) {
  auto batch = std::make_unique<ColumnBatch>(schema);
  auto row = [](int k) {
    return ValueList{Value::Boolean(k % 2 == 0),
                     Value::Int8(static_cast<int8_t>(k - 1)),
                     Value::Int32(k * 10),
                     Value::Int64(-k),
                     Value::Float(0.5f * static_cast<float>(k)),
                     Value::Double(k == 2 ? -0.0 : 1.5 * k),
                     Value::FromDecimal(Decimal{k * 150, 10, 2}),
                     Value::FromDecimal(Decimal{static_cast<int128_t>(k) * 123456789, 30, 5}),
                     Value::String(std::string(static_cast<size_t>(k), 'a')),
                     Value::Binary(std::string(static_cast<size_t>(k), '\x80')),
                     Value::Int32(19000 + k),
                     Value::Int32(k * 1000),
                     Value::FromTimestamp(Timestamp{k * 1000, k}),
                     Value::FromTimestamp(Timestamp{k * 1000, 0}),
                     Value::Int32(k),
                     Value::Int32(-k),
                     Value::Array({Value::Int32(k)})};
  };
  for (int k = 0; k < 4; ++k) {
    if (!batch->AppendRow(row(k)).ok()) std::abort();
  }
  ValueList nulls(static_cast<size_t>(schema->num_fields()));
  if (!batch->AppendRow(nulls).ok()) std::abort();
  return batch;
}

std::vector<ColumnStats> StatsOf(const ColumnBatch& batch) {
  std::vector<ColumnStats> stats(static_cast<size_t>(batch.num_columns()));
  for (int c = 0; c < batch.num_columns(); ++c) {
    ColumnStats& s = stats[static_cast<size_t>(c)];
    s.null_count = 0;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      Value v = batch.column(c)->GetValue(r);
      if (v.is_null()) {
        ++*s.null_count;
        continue;
      }
      const DataType& type = *batch.column(c)->type();
      if (!s.min || CompareValues(v, *s.min, type) < 0) s.min = v;
      if (!s.max || CompareValues(v, *s.max, type) > 0) s.max = v;
    }
  }
  return stats;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const DataTypePtr schema = Schema();
  static const std::unique_ptr<ColumnBatch> batch = Batch(schema);
  static const std::vector<ColumnStats> stats = StatsOf(*batch);

  std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<PredicatePtr> p = ParsePredicate(text, *schema);
  if (!p.ok()) return 0;
  const std::string rendered = (*p)->ToString();
  Result<PredicatePtr> again = ParsePredicate(rendered, *schema);
  if (!again.ok() || (*again)->ToString() != rendered) std::abort();

  std::vector<uint8_t> selection(static_cast<size_t>(batch->num_rows()), 1);
  (*p)->Filter(*batch, selection.data());
  bool kept_any = false;
  for (size_t r = 0; r < selection.size(); ++r) {
    kept_any = kept_any || selection[r] != 0;
    Value row = batch->GetRow(static_cast<int64_t>(r));
    if (((*p)->Evaluate(row.list()) == true) != (selection[r] != 0)) std::abort();
  }
  if (kept_any && !(*p)->MightMatch(batch->num_rows(), stats)) std::abort();
  return 0;
}
