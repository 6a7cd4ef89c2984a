#include "sluice/lsm/aggregate/merge_map.h"

#include "sluice/types/value_comparator.h"

namespace sluice {
namespace {

// Position of `key` among the keys of `pairs`, or -1.
int FindKey(const ValuePairs& pairs, const Value& key, const DataType& key_type) {
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (ValuesEqual(pairs[i].first, key, key_type)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

Result<Value> FieldMergeMapAgg::Agg(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
  const DataType& key_type = *type()->key();
  ValuePairs out;
  for (const ValuePairs* src : {&acc.pairs(), &in.pairs()}) {
    for (const auto& [k, v] : *src) {
      int pos = FindKey(out, k, key_type);
      if (pos >= 0) {
        out[pos].second = v;
      } else {
        out.emplace_back(k, v);
      }
    }
  }
  return Value::Map(std::move(out));
}

Result<Value> FieldMergeMapAgg::Retract(const Value& acc, const Value& in) {
  if (acc.is_null()) return Value::Null();
  if (in.is_null() || in.pairs().empty()) return acc;
  const DataType& key_type = *type()->key();
  ValuePairs out;
  for (const auto& entry : acc.pairs()) {
    if (FindKey(in.pairs(), entry.first, key_type) < 0 && FindKey(out, entry.first, key_type) < 0) {
      out.push_back(entry);
    }
  }
  return Value::Map(std::move(out));
}

Result<Value> FieldMergeMapWithKeyTimeAgg::Agg(const Value& acc, const Value& in) {
  if (acc.is_null()) return in;
  if (in.is_null()) return acc;
  const DataType& key_type = *type()->key();
  ValuePairs out;
  for (const auto& [k, v] : acc.pairs()) {
    int pos = FindKey(out, k, key_type);
    if (pos >= 0) {
      out[pos].second = v;
    } else {
      out.emplace_back(k, v);
    }
  }
  for (const auto& [k, row] : in.pairs()) {
    int pos = FindKey(out, k, key_type);
    if (row.is_null()) {
      if (pos >= 0) out.erase(out.begin() + pos);
      continue;
    }
    const Value& ts = row.list()[ts_field_];
    if (ts.is_null()) continue;
    if (pos < 0 || out[pos].second.is_null()) {
      if (pos < 0) {
        out.emplace_back(k, row);
      } else {
        out[pos].second = row;
      }
      continue;
    }
    const Value& old_ts = out[pos].second.list()[ts_field_];
    if (old_ts.is_null() || CompareBytes(ts.bytes(), old_ts.bytes()) > 0) out[pos].second = row;
  }
  return Value::Map(std::move(out));
}

}  // namespace sluice
