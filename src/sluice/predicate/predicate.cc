#include "sluice/predicate/predicate.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

#include "sluice/predicate/like_pattern.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

// ---------------------------------------------------------------------------------------------
// Negation.

// The leaf op equivalent to NOT op under three-valued logic, if there is one.
std::optional<PredicateOp> InverseLeafOp(PredicateOp op) {
  switch (op) {
    case PredicateOp::kEqual:
      return PredicateOp::kNotEqual;
    case PredicateOp::kNotEqual:
      return PredicateOp::kEqual;
    case PredicateOp::kLessThan:
      return PredicateOp::kGreaterOrEqual;
    case PredicateOp::kLessOrEqual:
      return PredicateOp::kGreaterThan;
    case PredicateOp::kGreaterThan:
      return PredicateOp::kLessOrEqual;
    case PredicateOp::kGreaterOrEqual:
      return PredicateOp::kLessThan;
    case PredicateOp::kIsNull:
      return PredicateOp::kIsNotNull;
    case PredicateOp::kIsNotNull:
      return PredicateOp::kIsNull;
    case PredicateOp::kIn:
      return PredicateOp::kNotIn;
    case PredicateOp::kNotIn:
      return PredicateOp::kIn;
    default:
      return std::nullopt;
  }
}

bool IsComparison(PredicateOp op) {
  return op == PredicateOp::kEqual || op == PredicateOp::kNotEqual ||
         op == PredicateOp::kLessThan || op == PredicateOp::kLessOrEqual ||
         op == PredicateOp::kGreaterThan || op == PredicateOp::kGreaterOrEqual;
}

bool HasNullLiteral(const std::vector<Value>& literals) {
  for (const Value& v : literals) {
    if (v.is_null()) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// MightMatch.

// Whether some value in [min, max] may satisfy `value op literal`; an absent bound is open.
bool RangeMightSatisfy(PredicateOp op, const Value* min, const Value* max, const Value& literal,
                       const DataType& type) {
  auto cmp = [&](const Value& bound) { return CompareValues(bound, literal, type); };
  switch (op) {
    case PredicateOp::kEqual:
      return (min == nullptr || cmp(*min) <= 0) && (max == nullptr || cmp(*max) >= 0);
    case PredicateOp::kNotEqual:
      return min == nullptr || max == nullptr || cmp(*min) != 0 || cmp(*max) != 0;
    case PredicateOp::kLessThan:
      return min == nullptr || cmp(*min) < 0;
    case PredicateOp::kLessOrEqual:
      return min == nullptr || cmp(*min) <= 0;
    case PredicateOp::kGreaterThan:
      return max == nullptr || cmp(*max) > 0;
    case PredicateOp::kGreaterOrEqual:
      return max == nullptr || cmp(*max) >= 0;
    default:
      return true;
  }
}

// Whether some byte string in [min, max] may start with `prefix`.
bool RangeMightStartWith(const Value* min, const Value* max, std::string_view prefix) {
  // Every string with the prefix is >= the prefix, and its first |prefix| bytes equal it.
  if (max != nullptr && CompareBytes(max->bytes(), prefix) < 0) return false;
  if (min != nullptr &&
      CompareBytes(std::string_view(min->bytes()).substr(0, prefix.size()), prefix) > 0) {
    return false;
  }
  return true;
}

bool LeafMightMatch(const Predicate& leaf, PredicateOp op, bool opaque_negation, int64_t row_count,
                    std::span<const ColumnStats> stats) {
  int index = leaf.field_index();
  if (index < 0 || static_cast<size_t>(index) >= stats.size()) return true;
  const ColumnStats& s = stats[static_cast<size_t>(index)];
  const DataType& type = *leaf.field_type();
  const std::vector<Value>& literals = leaf.literals();
  bool all_null = row_count >= 0 && s.null_count.has_value() && *s.null_count >= row_count;

  if (op == PredicateOp::kIsNull) return !(s.null_count.has_value() && *s.null_count <= 0);
  if (op == PredicateOp::kIsNotNull) return !all_null;
  // Every other leaf is unknown (never true) on a null value.
  if (all_null) return false;
  if (opaque_negation) {
    // NOT (x LIKE p): true for some non-null x unless the literal is null.
    return literals.empty() || !literals[0].is_null();
  }
  if (IsComparison(op) || op == PredicateOp::kStartsWith || op == PredicateOp::kLike) {
    if (literals.empty() || literals[0].is_null()) return false;
  }
  if (op == PredicateOp::kNotIn && HasNullLiteral(literals)) return false;

  // Bounds that are absent, null or of the wrong representation are unknown.
  const Value* min =
      s.min.has_value() && !s.min->is_null() && ValueFitsType(*s.min, type) ? &*s.min : nullptr;
  const Value* max =
      s.max.has_value() && !s.max->is_null() && ValueFitsType(*s.max, type) ? &*s.max : nullptr;
  // Formats differ on the sign of a zero bound; widen so that both zeros are inside.
  Value widened_min;
  Value widened_max;
  if (type.root() == TypeRoot::kFloat || type.root() == TypeRoot::kDouble) {
    auto is_zero = [](const Value& v) {
      return v.kind() == Value::Kind::kFloat ? v.float32() == 0.0f : v.float64() == 0.0;
    };
    if (min != nullptr && is_zero(*min)) {
      widened_min = Value::Double(-0.0);
      min = &widened_min;
    }
    if (max != nullptr && is_zero(*max)) {
      widened_max = Value::Double(0.0);
      max = &widened_max;
    }
  }
  if (!ValueFitsType(literals.empty() ? Value() : literals[0], type) &&
      op != PredicateOp::kStartsWith && op != PredicateOp::kLike) {
    return true;
  }

  switch (op) {
    case PredicateOp::kEqual:
    case PredicateOp::kNotEqual:
    case PredicateOp::kLessThan:
    case PredicateOp::kLessOrEqual:
    case PredicateOp::kGreaterThan:
    case PredicateOp::kGreaterOrEqual:
      return RangeMightSatisfy(op, min, max, literals[0], type);
    case PredicateOp::kIn:
      for (const Value& literal : literals) {
        if (literal.is_null()) continue;
        if (!ValueFitsType(literal, type) ||
            RangeMightSatisfy(PredicateOp::kEqual, min, max, literal, type)) {
          return true;
        }
      }
      return false;
    case PredicateOp::kNotIn:
      if (min == nullptr || max == nullptr || CompareValues(*min, *max, type) != 0) return true;
      for (const Value& literal : literals) {
        if (ValueFitsType(literal, type) && CompareValues(*min, literal, type) == 0) return false;
      }
      return true;
    case PredicateOp::kStartsWith:
    case PredicateOp::kLike: {
      bool bytes_type = type.IsString() || type.IsBinary();
      Value::Kind k = literals[0].kind();
      if (!bytes_type || (k != Value::Kind::kString && k != Value::Kind::kBinary)) return true;
      if (op == PredicateOp::kStartsWith) {
        return RangeMightStartWith(min, max, literals[0].bytes());
      }
      LikePattern pattern = LikePattern::Compile(literals[0].bytes());
      return RangeMightStartWith(min, max, pattern.fixed_prefix());
    }
    default:
      return true;
  }
}

// `negated`: evaluate NOT node, by pushing the negation down to the leaves (De Morgan and
// op inversion) instead of negating a "might" answer, which would be unsound.
bool MightMatchImpl(const Predicate& node, bool negated, int64_t row_count,
                    std::span<const ColumnStats> stats) {
  switch (node.op()) {
    case PredicateOp::kAnd:
    case PredicateOp::kOr: {
      bool conjunction = (node.op() == PredicateOp::kAnd) != negated;
      for (const PredicatePtr& child : node.children()) {
        bool might = MightMatchImpl(*child, negated, row_count, stats);
        if (conjunction && !might) return false;
        if (!conjunction && might) return true;
      }
      return conjunction;
    }
    case PredicateOp::kNot:
      return node.children().empty() ||
             MightMatchImpl(*node.children()[0], !negated, row_count, stats);
    default:
      break;
  }
  if (!negated) return LeafMightMatch(node, node.op(), false, row_count, stats);
  std::optional<PredicateOp> inverse = InverseLeafOp(node.op());
  if (inverse.has_value()) return LeafMightMatch(node, *inverse, false, row_count, stats);
  return LeafMightMatch(node, node.op(), true, row_count, stats);
}

// ---------------------------------------------------------------------------------------------
// Filter: Kleene logic over one byte per row. AND is min, OR is max, NOT is 2 - x.

constexpr uint8_t kFalse = 0;
constexpr uint8_t kUnknown = 1;
constexpr uint8_t kTrue = 2;

inline uint8_t Truth(bool b) { return b ? kTrue : kFalse; }

// Applies a comparison op given cmp(i) = sign of (value_i <=> literal). One loop per op, so the
// op is decided once per column.
template <typename Cmp>
void EvalComparison(PredicateOp op, int64_t n, Cmp cmp, uint8_t* out) {
  switch (op) {
    case PredicateOp::kEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(cmp(i) == 0);
      break;
    case PredicateOp::kNotEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(cmp(i) != 0);
      break;
    case PredicateOp::kLessThan:
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(cmp(i) < 0);
      break;
    case PredicateOp::kLessOrEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(cmp(i) <= 0);
      break;
    case PredicateOp::kGreaterThan:
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(cmp(i) > 0);
      break;
    case PredicateOp::kGreaterOrEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(cmp(i) >= 0);
      break;
    default:
      std::memset(out, kUnknown, static_cast<size_t>(n));
      break;
  }
}

// IN / NOT IN against the distinct non-null literals `set`, sorted by `cmp3` (T x T -> int).
// A null literal in the list turns "not found" into unknown.
template <typename T, typename Get, typename Cmp3>
void EvalMembership(bool negated, std::vector<T> set, bool list_has_null, int64_t n, Get get,
                    Cmp3 cmp3, uint8_t* out) {
  auto less = [&](const T& a, const T& b) { return cmp3(a, b) < 0; };
  std::sort(set.begin(), set.end(), less);
  uint8_t found = negated ? kFalse : kTrue;
  uint8_t not_found = list_has_null ? kUnknown : (negated ? kTrue : kFalse);
  if (set.empty()) {
    std::memset(out, not_found, static_cast<size_t>(n));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const T v = get(i);
    auto it = std::lower_bound(set.begin(), set.end(), v, less);
    out[i] = (it != set.end() && cmp3(*it, v) == 0) ? found : not_found;
  }
}

template <typename T>
int Sign3(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// A decimal literal at a column's scale: the column value u compares to it as
// u < floor ? -1 : u > floor ? 1 : exact ? 0 : -1, unless it lies outside the column's range.
struct ScaledLiteral {
  enum class Position { kInRange, kBelowAll, kAboveAll } position = Position::kInRange;
  int128_t floor = 0;
  bool exact = true;

  int CompareWith(int128_t u) const {
    if (position == Position::kBelowAll) return 1;
    if (position == Position::kAboveAll) return -1;
    if (u != floor) return u < floor ? -1 : 1;
    return exact ? 0 : -1;
  }
};

ScaledLiteral ScaleDecimal(const Decimal& d, int32_t scale, int128_t min, int128_t max) {
  ScaledLiteral out;
  int128_t v = d.unscaled;
  if (scale >= d.scale) {
    for (int32_t i = d.scale; i < scale; ++i) {
      if (__builtin_mul_overflow(v, static_cast<int128_t>(10), &v)) {
        out.position = d.unscaled < 0 ? ScaledLiteral::Position::kBelowAll
                                      : ScaledLiteral::Position::kAboveAll;
        return out;
      }
    }
  } else {
    for (int32_t i = scale; i < d.scale; ++i) {
      // Further division leaves 0 and an inexact -1 unchanged.
      if (v == 0 || (v == -1 && !out.exact)) break;
      int128_t q = v / 10;
      int128_t r = v % 10;
      if (r != 0) {
        out.exact = false;
        if (r < 0) --q;  // floor, not truncation
      }
      v = q;
    }
  }
  if (v < min) {
    out.position = ScaledLiteral::Position::kBelowAll;
  } else if (v > max || (v == max && !out.exact)) {
    out.position = ScaledLiteral::Position::kAboveAll;
  }
  out.floor = v;
  return out;
}

// Fills out[i] for the non-null rows of a value leaf; null rows are overwritten afterwards.
void EvalValueLeaf(const Predicate& leaf, const ColumnVector& column, int64_t n, uint8_t* out) {
  const PredicateOp op = leaf.op();
  const std::vector<Value>& literals = leaf.literals();
  const DataType& column_type = *column.type();
  const bool comparison = IsComparison(op);
  if ((comparison || op == PredicateOp::kStartsWith || op == PredicateOp::kLike) &&
      (literals.empty() || literals[0].is_null())) {
    std::memset(out, kUnknown, static_cast<size_t>(n));
    return;
  }
  const bool membership = op == PredicateOp::kIn || op == PredicateOp::kNotIn;
  const bool negated_membership = op == PredicateOp::kNotIn;
  const bool list_has_null = membership && HasNullLiteral(literals);
  bool literals_fit = true;
  for (const Value& v : literals) literals_fit = literals_fit && ValueFitsType(v, column_type);

  const PhysicalKind kind = column.kind();
  if (op == PredicateOp::kStartsWith || op == PredicateOp::kLike) {
    Value::Kind lk = literals[0].kind();
    if (kind != PhysicalKind::kBytes ||
        (lk != Value::Kind::kString && lk != Value::Kind::kBinary)) {
      std::memset(out, kUnknown, static_cast<size_t>(n));
      return;
    }
    const std::string& text = literals[0].bytes();
    if (op == PredicateOp::kStartsWith) {
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(column.GetBytes(i).starts_with(text));
    } else {
      LikePattern pattern = LikePattern::Compile(text);
      for (int64_t i = 0; i < n; ++i) out[i] = Truth(pattern.Matches(column.GetBytes(i)));
    }
    return;
  }

  if (!literals_fit) {
    // A literal of another representation: fall back to the generic total order row by row.
    // Leaves built by the parser never get here.
    auto get = [&](int64_t i) { return column.GetValue(i); };
    auto cmp3 = [&](const Value& a, const Value& b) { return CompareValues(a, b, column_type); };
    if (comparison) {
      EvalComparison(
          op, n, [&](int64_t i) { return cmp3(get(i), literals[0]); }, out);
    } else {
      std::vector<Value> set;
      for (const Value& v : literals) {
        if (!v.is_null()) set.push_back(v);
      }
      EvalMembership(negated_membership, std::move(set), list_has_null, n, get, cmp3, out);
    }
    return;
  }

  // Integral columns (and BOOLEAN) compare as int64.
  auto eval_integral = [&](auto* data) {
    auto get = [data](int64_t i) { return static_cast<int64_t>(data[i]); };
    if (comparison) {
      const int64_t lit = literals[0].AsInt64();
      EvalComparison(
          op, n, [&](int64_t i) { return Sign3(get(i), lit); }, out);
    } else {
      std::vector<int64_t> set;
      for (const Value& v : literals) {
        if (!v.is_null()) set.push_back(v.AsInt64());
      }
      EvalMembership(negated_membership, std::move(set), list_has_null, n, get, Sign3<int64_t>,
                     out);
    }
  };
  auto as_double = [](const Value& v) {
    return v.kind() == Value::Kind::kFloat ? static_cast<double>(v.float32()) : v.float64();
  };
  auto eval_floating = [&](auto* data) {
    auto get = [data](int64_t i) { return static_cast<double>(data[i]); };
    if (comparison) {
      const double lit = as_double(literals[0]);
      EvalComparison(
          op, n, [&](int64_t i) { return CompareDouble(get(i), lit); }, out);
    } else {
      std::vector<double> set;
      for (const Value& v : literals) {
        if (!v.is_null()) set.push_back(as_double(v));
      }
      EvalMembership(negated_membership, std::move(set), list_has_null, n, get, CompareDouble, out);
    }
  };
  auto eval_decimal = [&](auto* data, int128_t min, int128_t max) {
    const int32_t scale = column_type.scale();
    auto get = [data](int64_t i) { return static_cast<int128_t>(data[i]); };
    if (comparison) {
      const ScaledLiteral lit = ScaleDecimal(literals[0].decimal(), scale, min, max);
      EvalComparison(
          op, n, [&](int64_t i) { return lit.CompareWith(get(i)); }, out);
    } else {
      std::vector<int128_t> set;
      for (const Value& v : literals) {
        if (v.is_null()) continue;
        ScaledLiteral lit = ScaleDecimal(v.decimal(), scale, min, max);
        // A literal the column cannot hold exactly equals none of its values.
        if (lit.position == ScaledLiteral::Position::kInRange && lit.exact) {
          set.push_back(lit.floor);
        }
      }
      EvalMembership(negated_membership, std::move(set), list_has_null, n, get, Sign3<int128_t>,
                     out);
    }
  };

  switch (kind) {
    case PhysicalKind::kUInt8:
      eval_integral(column.data<uint8_t>());
      return;
    case PhysicalKind::kInt8:
      eval_integral(column.data<int8_t>());
      return;
    case PhysicalKind::kInt16:
      eval_integral(column.data<int16_t>());
      return;
    case PhysicalKind::kInt32:
      eval_integral(column.data<int32_t>());
      return;
    case PhysicalKind::kInt64:
      if (column_type.root() == TypeRoot::kDecimal) {
        eval_decimal(column.data<int64_t>(), std::numeric_limits<int64_t>::min(),
                     std::numeric_limits<int64_t>::max());
      } else {
        eval_integral(column.data<int64_t>());
      }
      return;
    case PhysicalKind::kInt128: {
      const int128_t max = static_cast<int128_t>(~static_cast<unsigned __int128>(0) >> 1);
      eval_decimal(column.data<int128_t>(), -max - 1, max);
      return;
    }
    case PhysicalKind::kFloat:
      eval_floating(column.data<float>());
      return;
    case PhysicalKind::kDouble:
      eval_floating(column.data<double>());
      return;
    case PhysicalKind::kTimestamp: {
      const Timestamp* data = column.data<Timestamp>();
      auto get = [data](int64_t i) { return data[i]; };
      if (comparison) {
        const Timestamp lit = literals[0].timestamp();
        EvalComparison(
            op, n, [&](int64_t i) { return CompareTimestamp(data[i], lit); }, out);
      } else {
        std::vector<Timestamp> set;
        for (const Value& v : literals) {
          if (!v.is_null()) set.push_back(v.timestamp());
        }
        EvalMembership(negated_membership, std::move(set), list_has_null, n, get, CompareTimestamp,
                       out);
      }
      return;
    }
    case PhysicalKind::kBytes: {
      auto get = [&column](int64_t i) { return column.GetBytes(i); };
      if (comparison) {
        const std::string_view lit = literals[0].bytes();
        EvalComparison(
            op, n, [&](int64_t i) { return CompareBytes(get(i), lit); }, out);
      } else {
        std::vector<std::string_view> set;
        for (const Value& v : literals) {
          if (!v.is_null()) set.push_back(v.bytes());
        }
        EvalMembership(negated_membership, std::move(set), list_has_null, n, get, CompareBytes,
                       out);
      }
      return;
    }
    case PhysicalKind::kList:
    case PhysicalKind::kMap:
    case PhysicalKind::kStruct: {
      // Nested values have no flat layout to loop over; compare whole values.
      auto get = [&column](int64_t i) { return column.GetValue(i); };
      auto cmp3 = [&](const Value& a, const Value& b) { return CompareValues(a, b, column_type); };
      if (comparison) {
        EvalComparison(
            op, n, [&](int64_t i) { return cmp3(get(i), literals[0]); }, out);
      } else {
        std::vector<Value> set;
        for (const Value& v : literals) {
          if (!v.is_null()) set.push_back(v);
        }
        EvalMembership(negated_membership, std::move(set), list_has_null, n, get, cmp3, out);
      }
      return;
    }
  }
}

void EvalLeaf(const Predicate& leaf, const ColumnBatch& batch, int64_t n, uint8_t* out) {
  int index = leaf.field_index();
  assert(index >= 0 && index < batch.num_columns());
  if (index < 0 || index >= batch.num_columns()) {
    std::memset(out, kUnknown, static_cast<size_t>(n));
    return;
  }
  const ColumnVector& column = *batch.column(index);
  // A column shorter than the batch is malformed; its missing rows are unknown.
  const int64_t rows = std::min(n, column.size());
  std::memset(out + rows, kUnknown, static_cast<size_t>(n - rows));
  const uint8_t* validity = column.has_nulls() ? column.validity().data() : nullptr;

  if (leaf.op() == PredicateOp::kIsNull || leaf.op() == PredicateOp::kIsNotNull) {
    const uint8_t present = leaf.op() == PredicateOp::kIsNotNull ? kTrue : kFalse;
    if (validity == nullptr) {
      std::memset(out, present, static_cast<size_t>(rows));
    } else {
      for (int64_t i = 0; i < rows; ++i) out[i] = validity[i] != 0 ? present : kTrue - present;
    }
    return;
  }
  EvalValueLeaf(leaf, column, rows, out);
  if (validity != nullptr) {
    for (int64_t i = 0; i < rows; ++i) {
      if (validity[i] == 0) out[i] = kUnknown;
    }
  }
}

void Evaluate(const Predicate& node, const ColumnBatch& batch, int64_t n, uint8_t* out) {
  switch (node.op()) {
    case PredicateOp::kAnd:
    case PredicateOp::kOr: {
      const bool is_and = node.op() == PredicateOp::kAnd;
      const auto& children = node.children();
      if (children.empty()) {
        std::memset(out, is_and ? kTrue : kFalse, static_cast<size_t>(n));
        return;
      }
      Evaluate(*children[0], batch, n, out);
      std::vector<uint8_t> scratch(children.size() > 1 ? static_cast<size_t>(n) : 0);
      for (size_t c = 1; c < children.size(); ++c) {
        Evaluate(*children[c], batch, n, scratch.data());
        if (is_and) {
          for (int64_t i = 0; i < n; ++i) out[i] = std::min(out[i], scratch[i]);
        } else {
          for (int64_t i = 0; i < n; ++i) out[i] = std::max(out[i], scratch[i]);
        }
      }
      return;
    }
    case PredicateOp::kNot:
      if (node.children().empty()) {
        std::memset(out, kUnknown, static_cast<size_t>(n));
        return;
      }
      Evaluate(*node.children()[0], batch, n, out);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(kTrue - out[i]);
      return;
    default:
      EvalLeaf(node, batch, n, out);
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// ToString.

bool IsKeyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {"AND",  "OR",      "NOT",       "IS",   "NULL",
                                                   "IN",   "BETWEEN", "LIKE",      "TRUE", "FALSE",
                                                   "DATE", "TIME",    "TIMESTAMP", "X"};
  for (std::string_view k : kKeywords) {
    if (word.size() == k.size() &&
        std::equal(word.begin(), word.end(), k.begin(), [](char a, char b) {
          return std::toupper(static_cast<unsigned char>(a)) == b;
        })) {
      return true;
    }
  }
  return false;
}

std::string QuoteIdentifier(const std::string& name) {
  bool plain =
      !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) && !IsKeyword(name);
  for (char c : name) {
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$');
  }
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  return out + "`";
}

std::string QuoteString(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

std::string FormatFloating(double v, bool is_float) {
  if (std::isnan(v)) return "'NaN'";
  if (std::isinf(v)) return v > 0 ? "'Infinity'" : "'-Infinity'";
  char buf[64];
  auto res = is_float ? std::to_chars(buf, buf + sizeof(buf), static_cast<float>(v))
                      : std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

std::string TrimFraction(std::string s) {
  // "12:00:00.120000000" -> "12:00:00.12"; "12:00:00.000000000" -> "12:00:00".
  size_t dot = s.rfind('.');
  if (dot == std::string::npos) return s;
  size_t end = s.find_last_not_of('0');
  s.erase(end == dot ? dot : end + 1);
  return s;
}

std::string FormatLiteral(const Value& v, const DataType& type) {
  if (v.is_null()) return "NULL";
  if (!ValueFitsType(v, type)) return v.DebugString();
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return v.boolean() ? "TRUE" : "FALSE";
    case TypeRoot::kDate:
      return "DATE '" + FormatDate(static_cast<int32_t>(v.AsInt64())) + "'";
    case TypeRoot::kTime: {
      int64_t millis = v.AsInt64();
      char buf[32];
      std::snprintf(
          buf, sizeof(buf), "%02lld:%02lld:%02lld.%03lld", static_cast<long long>(millis / 3600000),
          static_cast<long long>(millis / 60000 % 60), static_cast<long long>(millis / 1000 % 60),
          static_cast<long long>(millis % 1000));
      return "TIME '" + TrimFraction(buf) + "'";
    }
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return std::to_string(v.AsInt64());
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return v.kind() == Value::Kind::kFloat ? FormatFloating(v.float32(), true)
                                             : FormatFloating(v.float64(), false);
    case TypeRoot::kDecimal:
      return v.decimal().ToString();
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return QuoteString(v.bytes());
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : v.bytes()) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      return out + "'";
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return "TIMESTAMP '" + TrimFraction(v.timestamp().ToString(9)) + "'";
    default:
      return v.DebugString();
  }
}

std::string_view ComparisonSymbol(PredicateOp op) {
  switch (op) {
    case PredicateOp::kEqual:
      return "=";
    case PredicateOp::kNotEqual:
      return "!=";
    case PredicateOp::kLessThan:
      return "<";
    case PredicateOp::kLessOrEqual:
      return "<=";
    case PredicateOp::kGreaterThan:
      return ">";
    case PredicateOp::kGreaterOrEqual:
      return ">=";
    default:
      return "?";
  }
}

}  // namespace

// -----------------------------------------------------------------------------------------------
// Predicate.

PredicatePtr Predicate::Leaf(PredicateOp op, int field_index, std::string field_name,
                             DataTypePtr field_type, std::vector<Value> literals) {
  assert(op < PredicateOp::kAnd);
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = op;
  p->field_index_ = field_index;
  p->field_name_ = std::move(field_name);
  p->field_type_ = std::move(field_type);
  p->literals_ = std::move(literals);
  return p;
}

PredicatePtr Predicate::Compound(PredicateOp op, std::vector<PredicatePtr> children) {
  if (children.size() == 1) return std::move(children[0]);
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = op;
  for (PredicatePtr& child : children) {
    // (a AND b) AND c is a AND b AND c: one node, so evaluation makes one pass per leaf.
    if (child->op_ == op) {
      p->children_.insert(p->children_.end(), child->children_.begin(), child->children_.end());
    } else {
      p->children_.push_back(std::move(child));
    }
  }
  return p;
}

PredicatePtr Predicate::And(std::vector<PredicatePtr> children) {
  return Compound(PredicateOp::kAnd, std::move(children));
}

PredicatePtr Predicate::Or(std::vector<PredicatePtr> children) {
  return Compound(PredicateOp::kOr, std::move(children));
}

PredicatePtr Predicate::Not(PredicatePtr child) {
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = PredicateOp::kNot;
  p->children_.push_back(std::move(child));
  return p;
}

bool Predicate::MightMatch(int64_t row_count, std::span<const ColumnStats> stats) const {
  if (row_count == 0) return false;
  return MightMatchImpl(*this, false, row_count, stats);
}

void Predicate::Filter(const ColumnBatch& batch, uint8_t* selection) const {
  const int64_t n = batch.num_rows();
  if (n <= 0) return;
  std::vector<uint8_t> truth(static_cast<size_t>(n));
  Evaluate(*this, batch, n, truth.data());
  // kTrue >> 1 == 1; kUnknown and kFalse give 0.
  for (int64_t i = 0; i < n; ++i) selection[i] &= static_cast<uint8_t>(truth[i] >> 1);
}

PredicatePtr Predicate::Remap(std::span<const int> mapping) const {
  if (is_leaf()) {
    if (field_index_ < 0 || static_cast<size_t>(field_index_) >= mapping.size() ||
        mapping[static_cast<size_t>(field_index_)] < 0) {
      return nullptr;
    }
    return Leaf(op_, mapping[static_cast<size_t>(field_index_)], field_name_, field_type_,
                literals_);
  }
  std::vector<PredicatePtr> children;
  children.reserve(children_.size());
  for (const PredicatePtr& child : children_) {
    PredicatePtr mapped = child->Remap(mapping);
    if (mapped == nullptr) return nullptr;
    children.push_back(std::move(mapped));
  }
  std::shared_ptr<Predicate> p(new Predicate());
  p->op_ = op_;
  p->children_ = std::move(children);
  return p;
}

namespace {

// A weaker predicate over the mapped fields (see RemapForPruning), or null.
PredicatePtr RemapWeaker(const Predicate& node, std::span<const int> mapping) {
  switch (node.op()) {
    case PredicateOp::kAnd: {
      std::vector<PredicatePtr> kept;
      for (const PredicatePtr& child : node.children()) {
        PredicatePtr mapped = RemapWeaker(*child, mapping);
        if (mapped != nullptr) kept.push_back(std::move(mapped));
      }
      if (kept.empty() && !node.children().empty()) return nullptr;
      return Predicate::And(std::move(kept));
    }
    case PredicateOp::kOr: {
      // Dropping a disjunct would make the predicate stronger: all must map.
      std::vector<PredicatePtr> mapped_children;
      for (const PredicatePtr& child : node.children()) {
        PredicatePtr mapped = RemapWeaker(*child, mapping);
        if (mapped == nullptr) return nullptr;
        mapped_children.push_back(std::move(mapped));
      }
      return Predicate::Or(std::move(mapped_children));
    }
    default:
      // Under NOT a weaker child would make a stronger predicate: map exactly.
      return node.Remap(mapping);
  }
}

void CollectFields(const Predicate& node, std::vector<int>* out) {
  if (node.is_leaf()) {
    out->push_back(node.field_index());
    return;
  }
  for (const PredicatePtr& child : node.children()) CollectFields(*child, out);
}

}  // namespace

PredicatePtr Predicate::RemapForPruning(std::span<const int> mapping) const {
  return RemapWeaker(*this, mapping);
}

std::vector<int> Predicate::ReferencedFields() const {
  std::vector<int> fields;
  CollectFields(*this, &fields);
  std::sort(fields.begin(), fields.end());
  fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
  return fields;
}

std::string Predicate::ToString() const {
  switch (op_) {
    case PredicateOp::kAnd:
    case PredicateOp::kOr: {
      if (children_.empty()) return op_ == PredicateOp::kAnd ? "TRUE" : "FALSE";
      std::string s = "(";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) s += op_ == PredicateOp::kAnd ? " AND " : " OR ";
        s += children_[i]->ToString();
      }
      return s + ")";
    }
    case PredicateOp::kNot: {
      if (children_.empty()) return "NOT NULL";
      const Predicate& child = *children_[0];
      return child.is_leaf() ? "NOT (" + child.ToString() + ")" : "NOT " + child.ToString();
    }
    default:
      break;
  }
  std::string s = QuoteIdentifier(field_name_);
  const DataType& type = *field_type_;
  auto literal = [&](size_t i) {
    return i < literals_.size() ? FormatLiteral(literals_[i], type) : std::string("NULL");
  };
  switch (op_) {
    case PredicateOp::kIsNull:
      return s + " IS NULL";
    case PredicateOp::kIsNotNull:
      return s + " IS NOT NULL";
    case PredicateOp::kIn:
    case PredicateOp::kNotIn: {
      s += op_ == PredicateOp::kIn ? " IN (" : " NOT IN (";
      for (size_t i = 0; i < literals_.size(); ++i) {
        if (i > 0) s += ", ";
        s += literal(i);
      }
      return s + ")";
    }
    case PredicateOp::kStartsWith:
      if (literals_.empty() || literals_[0].is_null()) return s + " LIKE NULL";
      return s + " LIKE " + QuoteString(LikePattern::Escape(literals_[0].bytes()) + "%");
    case PredicateOp::kLike:
      if (literals_.empty() || literals_[0].is_null()) return s + " LIKE NULL";
      return s + " LIKE " + QuoteString(literals_[0].bytes());
    default:
      return s + " " + std::string(ComparisonSymbol(op_)) + " " + literal(0);
  }
}

}  // namespace sluice
