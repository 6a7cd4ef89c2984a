#include "sluice/lsm/aggregate/nested_update.h"

#include <algorithm>
#include <cstdint>

namespace sluice {

ValueList NestedKeys::KeyOf(const Value& row) const {
  ValueList key;
  key.reserve(key_fields_.size());
  for (int f : key_fields_) key.push_back(row.list()[f]);
  return key;
}

Result<bool> NestedKeys::Accept(const ValueList& key) const {
  bool any_null = std::any_of(key.begin(), key.end(), [](const Value& v) { return v.is_null(); });
  if (!any_null || strategy_ == NestedKeyNullStrategy::kMerge) return true;
  if (strategy_ == NestedKeyNullStrategy::kIgnore) return false;
  return Status::InvalidArgument(
      "Nested key contains null values. Primary key fields must not be null.");
}

Result<Value> FieldNestedUpdateAgg::Agg(const Value& acc, const Value& in) {
  if (in.is_null()) return acc;
  if (keys_.empty()) {
    ValueList rows;
    size_t limit = static_cast<size_t>(count_limit_);
    if (!acc.is_null()) {
      if (acc.list().size() >= limit) return acc;
      AppendNonNull(acc.list(), &rows, SIZE_MAX);
    }
    AppendNonNull(in.list(), &rows, limit - rows.size());
    return Value::Array(std::move(rows));
  }
  ValueList rows;
  auto index = keys_.NewIndex();
  if (!acc.is_null()) SLUICE_RETURN_NOT_OK(Upsert(acc.list(), false, &rows, &index));
  SLUICE_RETURN_NOT_OK(Upsert(in.list(), true, &rows, &index));
  return Value::Array(std::move(rows));
}

Result<Value> FieldNestedUpdateAgg::Retract(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) return acc;
  const DataType& row_type = *type()->element();
  ValueList rows;
  if (keys_.empty()) {
    AppendNonNull(acc.list(), &rows, SIZE_MAX);
    for (const Value& r : in.list()) {
      if (r.is_null()) continue;
      rows.erase(std::remove_if(rows.begin(), rows.end(),
                                [&](const Value& e) { return ValuesEqual(e, r, row_type); }),
                 rows.end());
    }
    return Value::Array(std::move(rows));
  }
  auto index = keys_.NewIndex();
  std::vector<bool> removed;
  for (const Value& r : acc.list()) {
    if (r.is_null()) continue;
    ValueList key = keys_.KeyOf(r);
    SLUICE_ASSIGN_OR_RETURN(bool accept, keys_.Accept(key));
    if (!accept) continue;
    auto it = index.find(key);
    if (it != index.end()) {
      rows[it->second] = r;
    } else {
      index.emplace(std::move(key), rows.size());
      rows.push_back(r);
      removed.push_back(false);
    }
  }
  for (const Value& r : in.list()) {
    if (r.is_null()) continue;
    ValueList key = keys_.KeyOf(r);
    SLUICE_ASSIGN_OR_RETURN(bool accept, keys_.Accept(key));
    if (!accept) continue;
    auto it = index.find(key);
    if (it != index.end()) {
      removed[it->second] = true;
      index.erase(it);
    }
  }
  ValueList out;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!removed[i]) out.push_back(std::move(rows[i]));
  }
  return Value::Array(std::move(out));
}

void FieldNestedUpdateAgg::AppendNonNull(const ValueList& src, ValueList* rows, size_t limit) {
  size_t count = 0;
  for (const Value& r : src) {
    if (count >= limit) return;
    if (r.is_null()) continue;
    rows->push_back(r);
    ++count;
  }
}

int FieldNestedUpdateAgg::CompareSequence(const Value& a, const Value& b) const {
  const DataType& row_type = *type()->element();
  for (int f : sequence_fields_) {
    int c = CompareValues(a.list()[f], b.list()[f], *row_type.fields()[f].type);
    if (c != 0) return c;
  }
  return 0;
}

Status FieldNestedUpdateAgg::Upsert(const ValueList& src, bool limit_new_keys, ValueList* rows,
                                    std::map<ValueList, size_t, NestedKeyLess>* index) const {
  for (const Value& r : src) {
    if (r.is_null()) continue;
    ValueList key = keys_.KeyOf(r);
    SLUICE_ASSIGN_OR_RETURN(bool accept, keys_.Accept(key));
    if (!accept) continue;
    auto it = index->find(key);
    if (it != index->end()) {
      if (sequence_fields_.empty() || CompareSequence(r, (*rows)[it->second]) >= 0) {
        (*rows)[it->second] = r;
      }
    } else if (!limit_new_keys || rows->size() < static_cast<size_t>(count_limit_)) {
      index->emplace(std::move(key), rows->size());
      rows->push_back(r);
    }
  }
  return Status::OK();
}

Result<Value> FieldNestedPartialUpdateAgg::Agg(const Value& acc, const Value& in) {
  if (in.is_null()) return acc;
  const int num_fields = type()->element()->num_fields();
  std::vector<ValueList> merged;
  auto index = keys_.NewIndex();
  for (const Value* src : {&acc, &in}) {
    if (src->is_null()) continue;
    for (const Value& r : src->list()) {
      if (r.is_null()) continue;
      ValueList key = keys_.KeyOf(r);
      SLUICE_ASSIGN_OR_RETURN(bool accept, keys_.Accept(key));
      if (!accept) continue;
      auto it = index.find(key);
      size_t pos = 0;
      if (it == index.end()) {
        pos = merged.size();
        index.emplace(std::move(key), pos);
        merged.emplace_back(num_fields);
      } else {
        pos = it->second;
      }
      for (int f = 0; f < num_fields; ++f) {
        if (!r.list()[f].is_null()) merged[pos][f] = r.list()[f];
      }
    }
  }
  ValueList rows;
  rows.reserve(merged.size());
  for (ValueList& fields : merged) rows.push_back(Value::Row(std::move(fields)));
  return Value::Array(std::move(rows));
}

}  // namespace sluice
