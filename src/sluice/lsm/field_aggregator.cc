#include "sluice/lsm/field_aggregator.h"

#include <roaring/roaring.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <vector>

#include "sluice/types/data_type_family.h"
#include "sluice/types/decimal_math.h"
#include "sluice/types/value_comparator.h"

namespace sluice {
namespace {

// ---------------------------------------------------------------------------------------------
// Arithmetic with Java's overflow rules: Math.*Exact for integers (an error), IEEE for floats,
// Decimal.fromBigDecimal for decimals (null when the result needs more digits than the type).

enum class ArithOp { kAdd, kSubtract, kMultiply, kDivide };

const char* OpSymbol(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd:
      return "+";
    case ArithOp::kSubtract:
      return "-";
    case ArithOp::kMultiply:
      return "*";
    case ArithOp::kDivide:
      return "/";
  }
  return "?";
}

int128_t Abs128(int128_t v) { return v < 0 ? -v : v; }

int128_t Gcd(int128_t a, int128_t b) {
  a = Abs128(a);
  b = Abs128(b);
  while (b != 0) {
    int128_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Status Overflow(std::string_view type, const std::string& a, ArithOp op, const std::string& b) {
  return Status::OutOfRange(std::string(type) + " overflow: " + a + " " + OpSymbol(op) + " " + b);
}

template <typename T>
Result<T> ExactIntegral(T a, T b, ArithOp op, std::string_view type_name) {
  T r = 0;
  bool overflow = false;
  switch (op) {
    case ArithOp::kAdd:
      overflow = __builtin_add_overflow(a, b, &r);
      break;
    case ArithOp::kSubtract:
      overflow = __builtin_sub_overflow(a, b, &r);
      break;
    case ArithOp::kMultiply:
      overflow = __builtin_mul_overflow(a, b, &r);
      break;
    case ArithOp::kDivide:
      if (b == 0) return Status::InvalidArgument("division by zero: " + std::to_string(a) + " / 0");
      if (b == -1 && a == std::numeric_limits<T>::min()) {
        overflow = true;
      } else {
        r = static_cast<T>(a / b);
      }
      break;
  }
  if (overflow) return Overflow(type_name, std::to_string(a), op, std::to_string(b));
  return r;
}

Result<Value> DecimalArith(const Decimal& a, const Decimal& b, ArithOp op, const DataType& type) {
  const int32_t precision = type.precision();
  const int32_t scale = type.scale();
  int128_t r = 0;
  switch (op) {
    case ArithOp::kAdd:
      if (__builtin_add_overflow(a.unscaled, b.unscaled, &r)) return Value::Null();
      break;
    case ArithOp::kSubtract:
      if (__builtin_sub_overflow(a.unscaled, b.unscaled, &r)) return Value::Null();
      break;
    case ArithOp::kMultiply: {
      int128_t product = 0;
      if (__builtin_mul_overflow(a.unscaled, b.unscaled, &product)) {
        return Status::NotSupported("decimal product " + a.ToString() + " * " + b.ToString() +
                                    " needs more than 38 digits before rounding");
      }
      r = DivideHalfUp(product, Pow10(scale));
      break;
    }
    case ArithOp::kDivide: {
      if (b.unscaled == 0) {
        return Status::InvalidArgument("division by zero: " + a.ToString() + " / 0");
      }
      // BigDecimal.divide(divisor) without a MathContext fails on a non-terminating quotient.
      int128_t d = b.unscaled / Gcd(a.unscaled == 0 ? b.unscaled : a.unscaled, b.unscaled);
      d = Abs128(d);
      while (d % 2 == 0) d /= 2;
      while (d % 5 == 0) d /= 5;
      if (d != 1) {
        return Status::InvalidArgument("Non-terminating decimal expansion; no exact " +
                                       std::string("representable decimal result: ") +
                                       a.ToString() + " / " + b.ToString());
      }
      int128_t numerator = 0;
      if (__builtin_mul_overflow(a.unscaled, Pow10(scale), &numerator)) {
        return Status::NotSupported("decimal quotient " + a.ToString() + " / " + b.ToString() +
                                    " needs more than 38 digits before rounding");
      }
      r = DivideHalfUp(numerator, b.unscaled);
      break;
    }
  }
  if (Abs128(r) >= Pow10(precision)) return Value::Null();
  return Value::FromDecimal(Decimal{r, precision, scale});
}

// a op b for two non-null values of numeric `type`.
Result<Value> Arith(const Value& a, const Value& b, ArithOp op, const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kTinyInt: {
      SLUICE_ASSIGN_OR_RETURN(int8_t r,
                              ExactIntegral<int8_t>(static_cast<int8_t>(a.AsInt64()),
                                                    static_cast<int8_t>(b.AsInt64()), op, "byte"));
      return Value::Int8(r);
    }
    case TypeRoot::kSmallInt: {
      SLUICE_ASSIGN_OR_RETURN(
          int16_t r, ExactIntegral<int16_t>(static_cast<int16_t>(a.AsInt64()),
                                            static_cast<int16_t>(b.AsInt64()), op, "short"));
      return Value::Int16(r);
    }
    case TypeRoot::kInt: {
      SLUICE_ASSIGN_OR_RETURN(int32_t r,
                              ExactIntegral<int32_t>(static_cast<int32_t>(a.AsInt64()),
                                                     static_cast<int32_t>(b.AsInt64()), op, "int"));
      return Value::Int32(r);
    }
    case TypeRoot::kBigInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t r,
                              ExactIntegral<int64_t>(a.AsInt64(), b.AsInt64(), op, "long"));
      return Value::Int64(r);
    }
    case TypeRoot::kFloat: {
      float x = a.kind() == Value::Kind::kFloat ? a.float32() : static_cast<float>(a.float64());
      float y = b.kind() == Value::Kind::kFloat ? b.float32() : static_cast<float>(b.float64());
      switch (op) {
        case ArithOp::kAdd:
          return Value::Float(x + y);
        case ArithOp::kSubtract:
          return Value::Float(x - y);
        case ArithOp::kMultiply:
          return Value::Float(x * y);
        case ArithOp::kDivide:
          return Value::Float(x / y);
      }
      break;
    }
    case TypeRoot::kDouble: {
      double x = a.kind() == Value::Kind::kDouble ? a.float64() : a.float32();
      double y = b.kind() == Value::Kind::kDouble ? b.float64() : b.float32();
      switch (op) {
        case ArithOp::kAdd:
          return Value::Double(x + y);
        case ArithOp::kSubtract:
          return Value::Double(x - y);
        case ArithOp::kMultiply:
          return Value::Double(x * y);
        case ArithOp::kDivide:
          return Value::Double(x / y);
      }
      break;
    }
    case TypeRoot::kDecimal:
      return DecimalArith(a.decimal(), b.decimal(), op, type);
    default:
      break;
  }
  return Status::InvalidArgument("type " + type.ToString() + " is not numeric");
}

// -v for a non-null numeric value.
Result<Value> Negate(const Value& v, const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kFloat:
      return Value::Float(-v.float32());
    case TypeRoot::kDouble:
      return Value::Double(-v.float64());
    case TypeRoot::kDecimal: {
      Decimal d = v.decimal();
      d.unscaled = -d.unscaled;
      return Value::FromDecimal(d);
    }
    default: {
      // 0 - v with the integral overflow rule of the type (Math.negateExact).
      Value zero;
      switch (type.root()) {
        case TypeRoot::kTinyInt:
          zero = Value::Int8(0);
          break;
        case TypeRoot::kSmallInt:
          zero = Value::Int16(0);
          break;
        case TypeRoot::kInt:
          zero = Value::Int32(0);
          break;
        default:
          zero = Value::Int64(0);
          break;
      }
      return Arith(zero, v, ArithOp::kSubtract, type);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The aggregate functions.

class SumAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return Arith(acc, in, ArithOp::kAdd, *type());
  }
  Result<Value> Retract(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) {
      if (!acc.is_null()) return acc;
      if (in.is_null()) return Value::Null();
      return Negate(in, *type());
    }
    return Arith(acc, in, ArithOp::kSubtract, *type());
  }
};

class ProductAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return Arith(acc, in, ArithOp::kMultiply, *type());
  }
  Result<Value> Retract(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc;
    return Arith(acc, in, ArithOp::kDivide, *type());
  }
};

class ExtremeAgg final : public FieldAggregator {
 public:
  ExtremeAgg(std::string name, DataTypePtr type, bool max)
      : FieldAggregator(std::move(name), std::move(type)), max_(max) {}
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    int c = CompareValues(acc, in, *type());
    return (max_ ? c < 0 : c > 0) ? in : acc;
  }

 private:
  bool max_;
};

class LastValueAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value&, const Value& in) override { return in; }
  Result<Value> Retract(const Value&, const Value&) override { return Value::Null(); }
};

class LastNonNullValueAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override { return in.is_null() ? acc : in; }
  Result<Value> Retract(const Value& acc, const Value& in) override {
    return in.is_null() ? acc : Value::Null();
  }
};

class FirstValueAgg final : public FieldAggregator {
 public:
  FirstValueAgg(std::string name, DataTypePtr type, bool skip_nulls)
      : FieldAggregator(std::move(name), std::move(type)), skip_nulls_(skip_nulls) {}
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (!initialized_ && !(skip_nulls_ && in.is_null())) {
      initialized_ = true;
      return in;
    }
    return acc;
  }
  void Reset() override { initialized_ = false; }

 private:
  bool skip_nulls_;
  bool initialized_ = false;
};

class PrimaryKeyAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value&, const Value& in) override { return in; }
  Result<Value> Retract(const Value&, const Value& in) override { return in; }
};

class BoolAgg final : public FieldAggregator {
 public:
  BoolAgg(std::string name, DataTypePtr type, bool is_and)
      : FieldAggregator(std::move(name), std::move(type)), and_(is_and) {}
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return Value::Boolean(and_ ? (acc.boolean() && in.boolean()) : (acc.boolean() || in.boolean()));
  }

 private:
  bool and_;
};

// Java StringUtils.isBlank: empty or only whitespace.
bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// commons-lang splitByWholeSeparatorPreserveAllTokens for a non-empty separator.
std::vector<std::string_view> SplitWhole(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  if (s.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      break;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + sep.size();
  }
  return out;
}

class ListaggAgg final : public FieldAggregator {
 public:
  ListaggAgg(std::string name, DataTypePtr type, std::string delimiter, bool distinct)
      : FieldAggregator(std::move(name), std::move(type)),
        delimiter_(std::move(delimiter)),
        distinct_(distinct) {}
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (in.is_null() || IsBlank(in.bytes())) return acc;
    if (acc.is_null() || IsBlank(acc.bytes())) return in;
    if (!distinct_ || delimiter_.empty()) {
      return Value::String(acc.bytes() + delimiter_ + in.bytes());
    }
    std::vector<std::string_view> seen = SplitWhole(acc.bytes(), delimiter_);
    std::string out = acc.bytes();
    for (std::string_view token : SplitWhole(in.bytes(), delimiter_)) {
      if (IsBlank(token) || std::find(seen.begin(), seen.end(), token) != seen.end()) continue;
      seen.push_back(token);
      out += delimiter_;
      out += token;
    }
    return Value::String(std::move(out));
  }

 private:
  std::string delimiter_;
  bool distinct_;
};

class CollectAgg final : public FieldAggregator {
 public:
  CollectAgg(std::string name, DataTypePtr type, bool distinct)
      : FieldAggregator(std::move(name), std::move(type)), distinct_(distinct) {}
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() && in.is_null()) return Value::Null();
    if ((acc.is_null() || in.is_null()) && !distinct_) return acc.is_null() ? in : acc;
    ValueList out;
    Collect(acc, &out);
    Collect(in, &out);
    return Value::Array(std::move(out));
  }
  // The accumulator is already distinct; keep its elements first.
  Result<Value> AggReversed(const Value& acc, const Value& in) override { return Agg(acc, in); }
  Result<Value> Retract(const Value& acc, const Value& in) override {
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

 private:
  void Collect(const Value& array, ValueList* out) const {
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

  bool distinct_;
};

// Position of `key` among the keys of `pairs`, or -1.
int FindKey(const ValuePairs& pairs, const Value& key, const DataType& key_type) {
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (ValuesEqual(pairs[i].first, key, key_type)) return static_cast<int>(i);
  }
  return -1;
}

class MergeMapAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
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
  Result<Value> Retract(const Value& acc, const Value& in) override {
    if (acc.is_null()) return Value::Null();
    if (in.is_null() || in.pairs().empty()) return acc;
    const DataType& key_type = *type()->key();
    ValuePairs out;
    for (const auto& entry : acc.pairs()) {
      if (FindKey(in.pairs(), entry.first, key_type) < 0 &&
          FindKey(out, entry.first, key_type) < 0) {
        out.push_back(entry);
      }
    }
    return Value::Map(std::move(out));
  }
};

class MergeMapWithKeyTimeAgg final : public FieldAggregator {
 public:
  MergeMapWithKeyTimeAgg(std::string name, DataTypePtr type, int ts_field)
      : FieldAggregator(std::move(name), std::move(type)), ts_field_(ts_field) {}
  Result<Value> Agg(const Value& acc, const Value& in) override {
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

 private:
  int ts_field_;
};

// Orders nested keys (projected field values) by the key fields' types.
class NestedKeyLess {
 public:
  explicit NestedKeyLess(const std::vector<DataTypePtr>* types) : types_(types) {}
  bool operator()(const ValueList& a, const ValueList& b) const {
    for (size_t i = 0; i < types_->size(); ++i) {
      int c = CompareValues(a[i], b[i], *(*types_)[i]);
      if (c != 0) return c < 0;
    }
    return false;
  }

 private:
  const std::vector<DataTypePtr>* types_;
};

// Shared by nested_update and nested_partial_update: the nested key of a row and the
// nested-key-null-strategy.
class NestedKeys {
 public:
  NestedKeys(std::vector<int> key_fields, std::vector<DataTypePtr> key_types,
             NestedKeyNullStrategy strategy)
      : key_fields_(std::move(key_fields)), key_types_(std::move(key_types)), strategy_(strategy) {}

  ValueList KeyOf(const Value& row) const {
    ValueList key;
    key.reserve(key_fields_.size());
    for (int f : key_fields_) key.push_back(row.list()[f]);
    return key;
  }
  // Whether a row with this key takes part in the merge.
  Result<bool> Accept(const ValueList& key) const {
    bool any_null = std::any_of(key.begin(), key.end(), [](const Value& v) { return v.is_null(); });
    if (!any_null || strategy_ == NestedKeyNullStrategy::kMerge) return true;
    if (strategy_ == NestedKeyNullStrategy::kIgnore) return false;
    return Status::InvalidArgument(
        "Nested key contains null values. Primary key fields must not be null.");
  }
  std::map<ValueList, size_t, NestedKeyLess> NewIndex() const {
    return std::map<ValueList, size_t, NestedKeyLess>(NestedKeyLess(&key_types_));
  }
  bool empty() const { return key_fields_.empty(); }

 private:
  std::vector<int> key_fields_;
  std::vector<DataTypePtr> key_types_;
  NestedKeyNullStrategy strategy_;
};

class NestedUpdateAgg final : public FieldAggregator {
 public:
  NestedUpdateAgg(std::string name, DataTypePtr type, NestedKeys keys,
                  std::vector<int> sequence_fields, int32_t count_limit)
      : FieldAggregator(std::move(name), std::move(type)),
        keys_(std::move(keys)),
        sequence_fields_(std::move(sequence_fields)),
        count_limit_(count_limit) {}

  Result<Value> Agg(const Value& acc, const Value& in) override {
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

  Result<Value> Retract(const Value& acc, const Value& in) override {
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

 private:
  static void AppendNonNull(const ValueList& src, ValueList* rows, size_t limit) {
    size_t count = 0;
    for (const Value& r : src) {
      if (count >= limit) return;
      if (r.is_null()) continue;
      rows->push_back(r);
      ++count;
    }
  }

  // Java compareSequence: the sequence fields, nulls first.
  int CompareSequence(const Value& a, const Value& b) const {
    const DataType& row_type = *type()->element();
    for (int f : sequence_fields_) {
      int c = CompareValues(a.list()[f], b.list()[f], *row_type.fields()[f].type);
      if (c != 0) return c;
    }
    return 0;
  }

  Status Upsert(const ValueList& src, bool limit_new_keys, ValueList* rows,
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

  NestedKeys keys_;
  std::vector<int> sequence_fields_;
  int32_t count_limit_;
};

class NestedPartialUpdateAgg final : public FieldAggregator {
 public:
  NestedPartialUpdateAgg(std::string name, DataTypePtr type, NestedKeys keys)
      : FieldAggregator(std::move(name), std::move(type)), keys_(std::move(keys)) {}

  Result<Value> Agg(const Value& acc, const Value& in) override {
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

 private:
  NestedKeys keys_;
};

class RoaringBitmap32Agg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    roaring_bitmap_t* a = Deserialize(acc.bytes());
    roaring_bitmap_t* b = a == nullptr ? nullptr : Deserialize(in.bytes());
    if (a == nullptr || b == nullptr) {
      // This CRoaring version does not accept a null in roaring_bitmap_free.
      if (a != nullptr) roaring_bitmap_free(a);
      return Status::InvalidArgument("rbm32: a value is not a serialized 32-bit roaring bitmap");
    }
    roaring_bitmap_or_inplace(a, b);
    roaring_bitmap_free(b);
    // Java runs runOptimize() before serializing.
    roaring_bitmap_run_optimize(a);
    std::string out(roaring_bitmap_portable_size_in_bytes(a), '\0');
    roaring_bitmap_portable_serialize(a, out.data());
    roaring_bitmap_free(a);
    return Value::Binary(std::move(out));
  }

 private:
  static roaring_bitmap_t* Deserialize(const std::string& bytes) {
    if (roaring_bitmap_portable_deserialize_size(bytes.data(), bytes.size()) != bytes.size()) {
      return nullptr;
    }
    return roaring_bitmap_portable_deserialize_safe(bytes.data(), bytes.size());
  }
};

// Java FieldIgnoreRetractAgg: retractions leave the accumulator as it is.
class IgnoreRetractAgg final : public FieldAggregator {
 public:
  explicit IgnoreRetractAgg(std::unique_ptr<FieldAggregator> inner)
      : FieldAggregator(inner->name(), inner->type()), inner_(std::move(inner)) {}
  Result<Value> Agg(const Value& acc, const Value& in) override { return inner_->Agg(acc, in); }
  Result<Value> Retract(const Value& acc, const Value&) override { return acc; }
  void Reset() override { inner_->Reset(); }

 private:
  std::unique_ptr<FieldAggregator> inner_;
};

bool IsComparable(TypeRoot root) {
  switch (root) {
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
    case TypeRoot::kRow:
    case TypeRoot::kVariant:
    case TypeRoot::kBlob:
    case TypeRoot::kVector:
      return false;
    default:
      return true;
  }
}

Status WrongType(std::string_view what, const DataType& type) {
  return Status::InvalidArgument(std::string(what) + " but was '" + type.ToString() + "'.");
}

// The nested key / sequence field indexes of ARRAY<ROW> `type` for `field`.
Result<std::vector<int>> RowFieldIndexes(const DataType& row_type,
                                         const std::vector<std::string>& names,
                                         std::string_view field, std::string_view option) {
  std::vector<int> out;
  for (const std::string& n : names) {
    int i = row_type.FieldIndex(n);
    if (i < 0) {
      return Status::InvalidArgument("option 'fields." + std::string(field) + "." +
                                     std::string(option) + "': field '" + n + "' is not in " +
                                     row_type.ToString());
    }
    out.push_back(i);
  }
  return out;
}

Result<NestedKeys> MakeNestedKeys(const DataType& row_type, std::string_view field,
                                  const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<int> key_fields,
      RowFieldIndexes(row_type, options.FieldNestedKey(field), field, "nested-key"));
  std::vector<DataTypePtr> key_types;
  for (int i : key_fields) key_types.push_back(row_type.fields()[i].type);
  return NestedKeys(std::move(key_fields), std::move(key_types),
                    options.FieldNestedKeyNullStrategy(field));
}

Result<std::unique_ptr<FieldAggregator>> CreateUnwrapped(const DataTypePtr& type,
                                                         std::string_view field,
                                                         std::string_view function,
                                                         const CoreOptions& options) {
  const DataType& t = *type;
  std::string name(function);
  if (function == "sum" || function == "product") {
    if (!IsNumeric(t.root())) {
      return WrongType("Data type for " + name + " column must be 'NumericType'", t);
    }
    if (function == "sum") return std::make_unique<SumAgg>(name, type);
    return std::make_unique<ProductAgg>(name, type);
  }
  if (function == "max" || function == "min") {
    if (!IsComparable(t.root())) {
      return WrongType(
          "Data type for " + name + " column '" + std::string(field) + "' must be comparable", t);
    }
    return std::make_unique<ExtremeAgg>(name, type, function == "max");
  }
  if (function == "last_value") return std::make_unique<LastValueAgg>(name, type);
  if (function == "last_non_null_value") return std::make_unique<LastNonNullValueAgg>(name, type);
  if (function == "first_value") return std::make_unique<FirstValueAgg>(name, type, false);
  if (function == "first_non_null_value" || function == "first_not_null_value") {
    return std::make_unique<FirstValueAgg>(name, type, true);
  }
  if (function == "primary-key") return std::make_unique<PrimaryKeyAgg>(name, type);
  if (function == "bool_and" || function == "bool_or") {
    if (t.root() != TypeRoot::kBoolean) {
      return WrongType("Data type for " + name + " column must be 'BooleanType'", t);
    }
    return std::make_unique<BoolAgg>(name, type, function == "bool_and");
  }
  if (function == "listagg") {
    if (t.root() != TypeRoot::kVarChar) {
      return WrongType("Data type for list agg column must be 'VarCharType'", t);
    }
    if (t.length() != DataType::kMaxLength) {
      return Status::InvalidArgument(
          "Data type for list agg column must be STRING (unbounded VARCHAR), but was VARCHAR(" +
          std::to_string(t.length()) + ").");
    }
    return std::make_unique<ListaggAgg>(name, type, options.FieldListAggDelimiter(field),
                                        options.FieldDistinct(field));
  }
  if (function == "collect") {
    if (t.root() != TypeRoot::kArray) {
      return WrongType("Data type for collect column must be 'Array'", t);
    }
    return std::make_unique<CollectAgg>(name, type, options.FieldDistinct(field));
  }
  if (function == "merge_map") {
    if (t.root() != TypeRoot::kMap) {
      return WrongType("Data type for merge_map column must be 'MAP'", t);
    }
    return std::make_unique<MergeMapAgg>(name, type);
  }
  if (function == "merge_map_with_keytime") {
    if (t.root() != TypeRoot::kMap) {
      return WrongType("Data type for field '" + std::string(field) + "' must be 'MAP'", t);
    }
    const DataType& row = *t.value();
    if (row.root() != TypeRoot::kRow || row.num_fields() < 2) {
      return WrongType("Value type of MAP for field '" + std::string(field) +
                           "' must be ROW with at least 2 fields",
                       row);
    }
    int ts = row.num_fields() - 1;
    if (std::optional<std::string> ts_name = options.FieldMergeMapTsField(field)) {
      ts = row.FieldIndex(*ts_name);
      if (ts < 0) {
        return Status::InvalidArgument("Timestamp field '" + *ts_name +
                                       "' not found in ROW type for field '" + std::string(field) +
                                       "'.");
      }
    }
    TypeRoot ts_root = row.fields()[ts].type->root();
    if (ts_root != TypeRoot::kVarChar && ts_root != TypeRoot::kChar) {
      return WrongType("Timestamp field of '" + std::string(field) + "' must be a STRING",
                       *row.fields()[ts].type);
    }
    return std::make_unique<MergeMapWithKeyTimeAgg>(name, type, ts);
  }
  if (function == "nested_update" || function == "nested_partial_update") {
    if (t.root() != TypeRoot::kArray || t.element()->root() != TypeRoot::kRow) {
      return WrongType("Data type for nested table column must be 'Array<Row>'", t);
    }
    const DataType& row = *t.element();
    SLUICE_ASSIGN_OR_RETURN(NestedKeys keys, MakeNestedKeys(row, field, options));
    if (function == "nested_partial_update") {
      if (keys.empty()) {
        return Status::InvalidArgument("nested_partial_update needs 'fields." + std::string(field) +
                                       ".nested-key'.");
      }
      return std::make_unique<NestedPartialUpdateAgg>(name, type, std::move(keys));
    }
    std::vector<std::string> sequence = options.FieldNestedSequenceField(field);
    if (keys.empty() && options.HasFieldNestedKeyNullStrategy(field)) {
      return Status::InvalidArgument(
          "Option 'fields.<field-name>.nested-key-null-strategy' requires "
          "'fields.<field-name>.nested-key' to be configured.");
    }
    if (keys.empty() && !sequence.empty()) {
      return Status::InvalidArgument(
          "Option 'fields.<field-name>.nested-sequence-field' requires "
          "'fields.<field-name>.nested-key' to be configured.");
    }
    SLUICE_ASSIGN_OR_RETURN(std::vector<int> sequence_fields,
                            RowFieldIndexes(row, sequence, field, "nested-sequence-field"));
    return std::make_unique<NestedUpdateAgg>(
        name, type, std::move(keys), std::move(sequence_fields), options.FieldCountLimit(field));
  }
  if (function == "rbm32" || function == "rbm64" || function == "hll_sketch" ||
      function == "theta_sketch") {
    if (t.root() != TypeRoot::kVarBinary) {
      return WrongType("Data type for " + name + " column must be 'VarBinaryType'", t);
    }
    if (function == "rbm32") return std::make_unique<RoaringBitmap32Agg>(name, type);
    return Status::NotSupported("aggregate function '" + name + "' (field '" + std::string(field) +
                                "') is not supported: its values are serialized Java library "
                                "objects that Sluice does not merge");
  }
  return Status::InvalidArgument("Use unsupported aggregation: " + name +
                                 " or spell aggregate function incorrectly! (field '" +
                                 std::string(field) + "')");
}

bool DeepFits(const Value& v, const DataType& type) {
  if (v.is_null()) return true;
  if (!ValueFitsType(v, type)) return false;
  switch (type.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      for (const Value& e : v.list()) {
        if (!DeepFits(e, *type.element())) return false;
      }
      return true;
    case TypeRoot::kMap:
      for (const auto& [k, e] : v.pairs()) {
        if (!DeepFits(k, *type.key()) || !DeepFits(e, *type.value())) return false;
      }
      return true;
    case TypeRoot::kRow: {
      if (v.list().size() != static_cast<size_t>(type.num_fields())) return false;
      for (int i = 0; i < type.num_fields(); ++i) {
        if (!DeepFits(v.list()[i], *type.fields()[i].type)) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

}  // namespace

Status FieldAggregator::CheckInput(const Value& v) const {
  if (DeepFits(v, *type_)) return Status::OK();
  return Status::InvalidArgument("value " + v.DebugString() + " is not a " + type_->ToString());
}

Result<Value> FieldAggregator::Retract(const Value&, const Value&) {
  return Status::NotSupported("Aggregate function '" + name_ +
                              "' does not support retraction, If you allow this function to "
                              "ignore retraction messages, you can configure "
                              "'fields.${field_name}.ignore-retract'='true'.");
}

Result<std::unique_ptr<FieldAggregator>> CreateFieldAggregator(const DataTypePtr& type,
                                                               std::string_view field,
                                                               std::string_view function,
                                                               const CoreOptions& options) {
  bool ignore_retract = options.FieldIgnoreRetract(field);
  if (options.aggregation_remove_record_on_delete() && ignore_retract) {
    return Status::InvalidArgument("aggregation.remove-record-on-delete and fields." +
                                   std::string(field) +
                                   ".ignore-retract have conflicting behavior so should not be "
                                   "enabled at the same time.");
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FieldAggregator> agg,
                          CreateUnwrapped(type, field, function, options));
  if (ignore_retract) return std::unique_ptr<FieldAggregator>(new IgnoreRetractAgg(std::move(agg)));
  return agg;
}

}  // namespace sluice
