#include "sluice/types/value_comparator.h"

#include <cmath>
#include <cstring>

#include "sluice/types/decimal_math.h"

namespace sluice {

namespace {

constexpr int32_t kMaxDecimalScale = 38;

template <typename T>
int Sign3(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

bool IsIntegralKind(Value::Kind k) {
  return k == Value::Kind::kInt8 || k == Value::Kind::kInt16 || k == Value::Kind::kInt32 ||
         k == Value::Kind::kInt64;
}

bool IsFloatKind(Value::Kind k) { return k == Value::Kind::kFloat || k == Value::Kind::kDouble; }

bool IsBytesKind(Value::Kind k) { return k == Value::Kind::kString || k == Value::Kind::kBinary; }

double AsDouble(const Value& v) {
  return v.kind() == Value::Kind::kFloat ? static_cast<double>(v.float32()) : v.float64();
}

long double DecimalAsLongDouble(const Decimal& d) {
  return static_cast<long double>(d.unscaled) / std::pow(10.0L, static_cast<long double>(d.scale));
}

int CompareLists(const ValueList& a, const ValueList& b, const DataType& element_type) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    int c = CompareValues(a[i], b[i], element_type);
    if (c != 0) return c;
  }
  return Sign3(a.size(), b.size());
}

int CompareRows(const ValueList& a, const ValueList& b, const DataType& row_type) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    // A row value with more fields than its type is malformed; order the extra fields by kind.
    int c = i < row_type.fields().size()
                ? CompareValues(a[i], b[i], *row_type.fields()[i].type)
                : Sign3(static_cast<int>(a[i].kind()), static_cast<int>(b[i].kind()));
    if (c != 0) return c;
  }
  return Sign3(a.size(), b.size());
}

int ComparePairs(const ValuePairs& a, const ValuePairs& b, const DataType& key_type,
                 const DataType& value_type) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    int c = CompareValues(a[i].first, b[i].first, key_type);
    if (c != 0) return c;
    c = CompareValues(a[i].second, b[i].second, value_type);
    if (c != 0) return c;
  }
  return Sign3(a.size(), b.size());
}

}  // namespace

int CompareDouble(double a, double b) {
  if (a < b) return -1;
  if (a > b) return 1;
  bool a_nan = std::isnan(a);
  bool b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  // Equal by ==, which includes -0.0 == 0.0; Java orders -0.0 first.
  bool a_neg = std::signbit(a);
  bool b_neg = std::signbit(b);
  return a_neg == b_neg ? 0 : (a_neg ? -1 : 1);
}

int CompareFloat(float a, float b) {
  // Widening is exact and keeps NaN and the sign of zero, so the orders agree.
  return CompareDouble(static_cast<double>(a), static_cast<double>(b));
}

int CompareDecimal(const Decimal& a, const Decimal& b) {
  if (a.scale == b.scale) return Sign3(a.unscaled, b.unscaled);
  if (a.scale < 0 || b.scale < 0 || a.scale > kMaxDecimalScale || b.scale > kMaxDecimalScale) {
    // Not a Paimon decimal; order approximately rather than overflow.
    return Sign3(DecimalAsLongDouble(a), DecimalAsLongDouble(b));
  }
  // Truncating division splits each value into an integer part and a fraction with the sign of
  // the value; truncation is monotone, so comparing (integer part, fraction) is exact. Scaling
  // a fraction (|f| < 10^scale) to the larger scale stays below 10^38 and cannot overflow.
  int128_t a_pow = Pow10(a.scale);
  int128_t b_pow = Pow10(b.scale);
  int128_t a_int = a.unscaled / a_pow;
  int128_t b_int = b.unscaled / b_pow;
  if (a_int != b_int) return a_int < b_int ? -1 : 1;
  int32_t scale = a.scale > b.scale ? a.scale : b.scale;
  int128_t a_frac = (a.unscaled % a_pow) * Pow10(scale - a.scale);
  int128_t b_frac = (b.unscaled % b_pow) * Pow10(scale - b.scale);
  return Sign3(a_frac, b_frac);
}

int CompareBytes(std::string_view a, std::string_view b) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);  // memcmp compares unsigned bytes
  if (c != 0) return c < 0 ? -1 : 1;
  return Sign3(a.size(), b.size());
}

bool ValueFitsType(const Value& v, const DataType& type) {
  Value::Kind k = v.kind();
  if (k == Value::Kind::kNull) return true;
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return k == Value::Kind::kBoolean;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return IsIntegralKind(k);
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return IsFloatKind(k);
    case TypeRoot::kDecimal:
      return k == Value::Kind::kDecimal;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      return IsBytesKind(k);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return k == Value::Kind::kTimestamp;
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      return k == Value::Kind::kArray;
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
      return k == Value::Kind::kMap;
    case TypeRoot::kRow:
      return k == Value::Kind::kRow;
  }
  return false;
}

int CompareValues(const Value& a, const Value& b, const DataType& type) {
  if (a.is_null() || b.is_null()) return a.is_null() == b.is_null() ? 0 : (a.is_null() ? -1 : 1);
  bool a_fits = ValueFitsType(a, type);
  bool b_fits = ValueFitsType(b, type);
  if (!a_fits || !b_fits) {
    if (a_fits != b_fits) return a_fits ? -1 : 1;
    return Sign3(static_cast<int>(a.kind()), static_cast<int>(b.kind()));
  }
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return Sign3(a.boolean(), b.boolean());
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return Sign3(a.AsInt64(), b.AsInt64());
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return CompareDouble(AsDouble(a), AsDouble(b));
    case TypeRoot::kDecimal:
      return CompareDecimal(a.decimal(), b.decimal());
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      return CompareBytes(a.bytes(), b.bytes());
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return CompareTimestamp(a.timestamp(), b.timestamp());
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      return CompareLists(a.list(), b.list(), *type.element());
    case TypeRoot::kMap:
      return ComparePairs(a.pairs(), b.pairs(), *type.key(), *type.value());
    case TypeRoot::kMultiset: {
      // Multiset values count occurrences as INT.
      static const DataTypePtr kCountType = DataType::Int(false);
      return ComparePairs(a.pairs(), b.pairs(), *type.element(), *kCountType);
    }
    case TypeRoot::kRow:
      return CompareRows(a.list(), b.list(), type);
  }
  return 0;
}

bool ValuesEqual(const Value& a, const Value& b, const DataType& type) {
  return CompareValues(a, b, type) == 0;
}

}  // namespace sluice
