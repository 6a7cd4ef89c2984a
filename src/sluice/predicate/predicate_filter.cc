// Predicate::Filter: three-valued evaluation over a batch, one typed loop per leaf.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <type_traits>

#include "sluice/predicate/like_pattern.h"
#include "sluice/predicate/predicate.h"
#include "sluice/predicate/predicate_internal.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

using predicate_internal::HasNullLiteral;
using predicate_internal::IsComparison;

// Kleene logic over one byte per row: AND is min, OR is max, NOT is 2 - x.
constexpr uint8_t kFalse = 0;
constexpr uint8_t kUnknown = 1;
constexpr uint8_t kTrue = 2;

inline uint8_t Truth(bool b) { return b ? kTrue : kFalse; }

// Applies a comparison op given cmp(i) = sign of (value_i <=> literal). One loop per op, so the
// op is decided once per column.
template <typename Cmp>
void EvalComparison(PredicateOp op, int64_t n, Cmp cmp, uint8_t* __restrict out) {
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

// out[i] = test(i) as a truth value.
template <typename Test>
void EvalPredicateLoop(int64_t n, Test test, uint8_t* __restrict out) {
  for (int64_t i = 0; i < n; ++i) out[i] = Truth(test(i));
}

// Row i of a kBytes column from raw pointers, which the loops copy: stores to the output
// bytes then cannot alias them (as they could the column's buffers).
struct BytesReader {
  const int32_t* offsets;
  const char* bytes;
  std::string_view operator()(int64_t i) const {
    return std::string_view(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
};

// A comparison with T's own operators, one branch-free loop per op that compilers vectorize.
// Greater-than is written !(<=) so that unordered values (NaN) count as greater, as in Java's
// order. REQUIRES: the operators agree with CompareValues for this literal (integers; floats
// with a literal that is neither NaN nor zero).
template <typename T>
void CompareDirect(PredicateOp op, const T* __restrict data, const T lit, int64_t n,
                   uint8_t* __restrict out) {
  switch (op) {
    case PredicateOp::kEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((data[i] == lit) << 1);
      break;
    case PredicateOp::kNotEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((data[i] != lit) << 1);
      break;
    case PredicateOp::kLessThan:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((data[i] < lit) << 1);
      break;
    case PredicateOp::kLessOrEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((data[i] <= lit) << 1);
      break;
    case PredicateOp::kGreaterThan:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((!(data[i] <= lit)) << 1);
      break;
    case PredicateOp::kGreaterOrEqual:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((!(data[i] < lit)) << 1);
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
                    Cmp3 cmp3, uint8_t* __restrict out) {
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

// IN / NOT IN of strings against a few literals: equality with each (lengths first), which
// beats the ordered search's three-way byte comparisons for the short lists of real queries.
constexpr size_t kLinearBytesMembership = 8;

void EvalBytesMembership(bool negated, const std::vector<std::string_view>& set, bool list_has_null,
                         int64_t n, BytesReader get, uint8_t* __restrict out) {
  const uint8_t found = negated ? kFalse : kTrue;
  const uint8_t not_found = list_has_null ? kUnknown : (negated ? kTrue : kFalse);
  for (int64_t i = 0; i < n; ++i) {
    const std::string_view v = get(i);
    bool hit = false;
    for (const std::string_view& literal : set) {
      if (v == literal) {
        hit = true;
        break;
      }
    }
    out[i] = hit ? found : not_found;
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
    const std::string_view text = literals[0].bytes();
    const BytesReader get{column.offset_data(),
                          reinterpret_cast<const char*>(column.values().data())};
    if (op == PredicateOp::kStartsWith) {
      EvalPredicateLoop(
          n, [get, text](int64_t i) { return get(i).starts_with(text); }, out);
    } else {
      const LikePattern pattern = LikePattern::Compile(text);
      EvalPredicateLoop(
          n, [get, &pattern](int64_t i) { return pattern.Matches(get(i)); }, out);
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
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
      const int64_t lit = literals[0].AsInt64();
      if (lit >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
          lit <= static_cast<int64_t>(std::numeric_limits<T>::max())) {
        CompareDirect<T>(op, data, static_cast<T>(lit), n, out);
      } else {
        // A literal outside the column type's range compares the same with every value.
        const int sign = lit < 0 ? 1 : -1;
        EvalComparison(
            op, n, [sign](int64_t) { return sign; }, out);
      }
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
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
      const double lit = as_double(literals[0]);
      // IEEE operators agree with Java's order unless zero's sign or NaN is involved (NaN
      // values are handled by CompareDirect).
      if (!std::isnan(lit) && lit != 0.0 && static_cast<double>(static_cast<T>(lit)) == lit) {
        CompareDirect<T>(op, data, static_cast<T>(lit), n, out);
      } else {
        EvalComparison(
            op, n, [get, lit](int64_t i) { return CompareDouble(get(i), lit); }, out);
      }
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
          op, n, [get, lit](int64_t i) { return lit.CompareWith(get(i)); }, out);
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
            op, n, [data, lit](int64_t i) { return CompareTimestamp(data[i], lit); }, out);
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
      const BytesReader get{column.offset_data(),
                            reinterpret_cast<const char*>(column.values().data())};
      if (op == PredicateOp::kEqual || op == PredicateOp::kNotEqual) {
        const std::string_view lit = literals[0].bytes();
        const bool equal = op == PredicateOp::kEqual;
        EvalPredicateLoop(
            n, [get, lit, equal](int64_t i) { return (get(i) == lit) == equal; }, out);
      } else if (comparison) {
        const std::string_view lit = literals[0].bytes();
        EvalComparison(
            op, n, [get, lit](int64_t i) { return CompareBytes(get(i), lit); }, out);
      } else {
        std::vector<std::string_view> set;
        for (const Value& v : literals) {
          if (!v.is_null()) set.push_back(v.bytes());
        }
        if (set.size() <= kLinearBytesMembership) {
          EvalBytesMembership(negated_membership, set, list_has_null, n, get, out);
        } else {
          EvalMembership(negated_membership, std::move(set), list_has_null, n, get, CompareBytes,
                         out);
        }
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

// out[i] = kUnknown where validity[i] == 0; branch-free so that it vectorizes.
void MarkNullsUnknown(const uint8_t* __restrict validity, int64_t n, uint8_t* __restrict out) {
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t keep = static_cast<uint8_t>(-static_cast<int>(validity[i] != 0));  // 0 or 0xFF
    out[i] = static_cast<uint8_t>((out[i] & keep) | (kUnknown & ~keep));
  }
}

// selection[i] &= (truth[i] == kTrue); kTrue >> 1 == 1, kUnknown and kFalse give 0.
void KeepTrue(const uint8_t* __restrict truth, int64_t n, uint8_t* __restrict selection) {
  for (int64_t i = 0; i < n; ++i) selection[i] &= static_cast<uint8_t>(truth[i] >> 1);
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
  if (validity != nullptr) MarkNullsUnknown(validity, rows, out);
}

// out[i] = min (AND) or max (OR) of out[i] and other[i].
void Combine(bool is_and, const uint8_t* __restrict other, int64_t n, uint8_t* __restrict out) {
  if (is_and) {
    for (int64_t i = 0; i < n; ++i) out[i] = std::min(out[i], other[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = std::max(out[i], other[i]);
  }
}

void EvaluateBatch(const Predicate& node, const ColumnBatch& batch, int64_t n, uint8_t* out) {
  switch (node.op()) {
    case PredicateOp::kAnd:
    case PredicateOp::kOr: {
      const bool is_and = node.op() == PredicateOp::kAnd;
      const auto& children = node.children();
      if (children.empty()) {
        std::memset(out, is_and ? kTrue : kFalse, static_cast<size_t>(n));
        return;
      }
      EvaluateBatch(*children[0], batch, n, out);
      if (children.size() == 1) return;
      auto scratch = std::make_unique_for_overwrite<uint8_t[]>(static_cast<size_t>(n));
      for (size_t c = 1; c < children.size(); ++c) {
        EvaluateBatch(*children[c], batch, n, scratch.get());
        Combine(is_and, scratch.get(), n, out);
      }
      return;
    }
    case PredicateOp::kNot:
      if (node.children().empty()) {
        std::memset(out, kUnknown, static_cast<size_t>(n));
        return;
      }
      EvaluateBatch(*node.children()[0], batch, n, out);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(kTrue - out[i]);
      return;
    default:
      EvalLeaf(node, batch, n, out);
      return;
  }
}

}  // namespace

void Predicate::Filter(const ColumnBatch& batch, uint8_t* selection) const {
  const int64_t n = batch.num_rows();
  if (n <= 0) return;
  // Every byte is written by the evaluation before it is read.
  auto truth = std::make_unique_for_overwrite<uint8_t[]>(static_cast<size_t>(n));
  EvaluateBatch(*this, batch, n, truth.get());
  KeepTrue(truth.get(), n, selection);
}

}  // namespace sluice
