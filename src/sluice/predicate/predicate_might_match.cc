// Predicate::MightMatch: pruning from column statistics.
#include <optional>
#include <string_view>

#include "sluice/predicate/like_pattern.h"
#include "sluice/predicate/predicate.h"
#include "sluice/predicate/predicate_internal.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

using predicate_internal::HasNullLiteral;
using predicate_internal::IsComparison;

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

}  // namespace

bool Predicate::MightMatch(int64_t row_count, std::span<const ColumnStats> stats) const {
  if (row_count == 0) return false;
  return MightMatchImpl(*this, false, row_count, stats);
}

}  // namespace sluice
