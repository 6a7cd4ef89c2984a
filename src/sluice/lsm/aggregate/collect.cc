#include "sluice/lsm/aggregate/collect.h"

#include <algorithm>

#include "sluice/types/value_comparator.h"

namespace sluice {

Result<Value> FieldCollectAgg::Agg(const Value& acc, const Value& in) {
  if (acc.is_null() && in.is_null()) return Value::Null();
  if ((acc.is_null() || in.is_null()) && !distinct_) return acc.is_null() ? in : acc;
  ValueList out;
  Collect(acc, &out);
  Collect(in, &out);
  return Value::Array(std::move(out));
}

Result<Value> FieldCollectAgg::Retract(const Value& acc, const Value& in) {
  if (acc.is_null()) return Value::Null();
  if (in.is_null() || in.list().empty()) return acc;
  const DataType& element = *type()->element();
  ValueList pending = in.list();
  ValueList out;
  for (const Value& candidate : acc.list()) {
    auto it = std::find_if(pending.begin(), pending.end(),
                           [&](const Value& r) { return ValuesEqual(r, candidate, element); });
    if (it != pending.end()) {
      pending.erase(it);
    } else {
      out.push_back(candidate);
    }
  }
  return Value::Array(std::move(out));
}

void FieldCollectAgg::Collect(const Value& array, ValueList* out) const {
  if (array.is_null()) return;
  const DataType& element = *type()->element();
  for (const Value& v : array.list()) {
    if (distinct_ && std::any_of(out->begin(), out->end(),
                                 [&](const Value& e) { return ValuesEqual(e, v, element); })) {
      continue;
    }
    out->push_back(v);
  }
}

}  // namespace sluice
