// Value comparison: the total order Java Paimon uses for the values of one DataType
// (InternalRow / BinaryString / Decimal / Timestamp compareTo), so that statistics, predicates
// and sort keys agree with files Java wrote.
//
//   BOOLEAN                  false < true
//   TINYINT..BIGINT, DATE, TIME  numerically
//   FLOAT / DOUBLE           Java Float.compare / Double.compare: -0.0 < 0.0, NaN equals NaN and
//                            is greater than +Infinity
//   DECIMAL                  by numeric value, also across different scales (1.50 == 1.5)
//   CHAR / VARCHAR / BINARY / VARBINARY / BLOB / VARIANT  bytes as unsigned, shorter prefix first
//   TIMESTAMP / TIMESTAMP_LTZ  by (millisecond, nano_of_millisecond)
//   ARRAY / VECTOR / ROW     lexicographically by element / field, shorter prefix first
//   MAP / MULTISET           lexicographically by (key, value) pairs in stored order: a
//                            deterministic order, not a semantic one
// A null value orders before every non-null value (also inside nested values).
//
// Thread safety: stateless functions.
#pragma once

#include <string_view>

#include "sluice/data_type.h"
#include "sluice/value.h"

namespace sluice {

// True if `v` is null or holds the internal representation of `type` (value.h); checks only
// the top level of nested values. Integral roots accept any integral kind; FLOAT and DOUBLE
// accept both float kinds; string and binary roots accept both byte kinds.
bool ValueFitsType(const Value& v, const DataType& type);

// <0, 0, >0 as a orders before, equal to, or after b. Total and never fails: values that do
// not fit `type` order after those that do, by kind; use ValueFitsType first when that matters.
int CompareValues(const Value& a, const Value& b, const DataType& type);

// CompareValues(a, b, type) == 0.
bool ValuesEqual(const Value& a, const Value& b, const DataType& type);

// The scalar orders, for typed loops.
int CompareFloat(float a, float b);
int CompareDouble(double a, double b);
int CompareDecimal(const Decimal& a, const Decimal& b);
int CompareBytes(std::string_view a, std::string_view b);
inline int CompareTimestamp(const Timestamp& a, const Timestamp& b) {
  if (a.millisecond != b.millisecond) return a.millisecond < b.millisecond ? -1 : 1;
  if (a.nano_of_millisecond != b.nano_of_millisecond) {
    return a.nano_of_millisecond < b.nano_of_millisecond ? -1 : 1;
  }
  return 0;
}

// A strict weak ordering for std::sort / std::lower_bound over Values of one type.
// REQUIRES: `type` outlives the functor.
class ValueLess {
 public:
  explicit ValueLess(const DataType& type) : type_(&type) {}
  bool operator()(const Value& a, const Value& b) const { return CompareValues(a, b, *type_) < 0; }

 private:
  const DataType* type_;
};

}  // namespace sluice
