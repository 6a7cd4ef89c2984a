// Predicate::Evaluate: three-valued evaluation of one row of Values.
#include <string_view>

#include "sluice/predicate/like_pattern.h"
#include "sluice/predicate/predicate.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

using Truth = std::optional<bool>;

Truth EvaluateLeaf(const Predicate& leaf, const Value& v) {
  const PredicateOp op = leaf.op();
  if (op == PredicateOp::kIsNull) return v.is_null();
  if (op == PredicateOp::kIsNotNull) return !v.is_null();
  if (v.is_null()) return std::nullopt;
  const DataType& type = *leaf.field_type();
  const std::vector<Value>& literals = leaf.literals();
  if (op == PredicateOp::kIn || op == PredicateOp::kNotIn) {
    bool has_null = false;
    for (const Value& literal : literals) {
      if (literal.is_null()) {
        has_null = true;
      } else if (CompareValues(v, literal, type) == 0) {
        return op == PredicateOp::kIn;
      }
    }
    if (has_null) return std::nullopt;
    return op == PredicateOp::kNotIn;
  }
  if (literals.empty() || literals[0].is_null()) return std::nullopt;
  const Value& literal = literals[0];
  if (op == PredicateOp::kStartsWith || op == PredicateOp::kLike) {
    bool bytes = (v.kind() == Value::Kind::kString || v.kind() == Value::Kind::kBinary) &&
                 (literal.kind() == Value::Kind::kString || literal.kind() == Value::Kind::kBinary);
    if (!bytes) return std::nullopt;
    if (op == PredicateOp::kStartsWith) {
      return std::string_view(v.bytes()).starts_with(literal.bytes());
    }
    return LikePattern::Compile(literal.bytes()).Matches(v.bytes());
  }
  const int c = CompareValues(v, literal, type);
  switch (op) {
    case PredicateOp::kEqual:
      return c == 0;
    case PredicateOp::kNotEqual:
      return c != 0;
    case PredicateOp::kLessThan:
      return c < 0;
    case PredicateOp::kLessOrEqual:
      return c <= 0;
    case PredicateOp::kGreaterThan:
      return c > 0;
    case PredicateOp::kGreaterOrEqual:
      return c >= 0;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<bool> Predicate::Evaluate(std::span<const Value> row) const {
  switch (op_) {
    case PredicateOp::kAnd:
    case PredicateOp::kOr: {
      // Kleene logic: a deciding child (false for AND, true for OR) wins over unknown.
      const bool decides = op_ == PredicateOp::kOr;
      Truth result = !decides;
      for (const PredicatePtr& child : children_) {
        Truth t = child->Evaluate(row);
        if (t == decides) return decides;
        if (!t.has_value()) result = std::nullopt;
      }
      return result;
    }
    case PredicateOp::kNot: {
      if (children_.empty()) return std::nullopt;
      Truth t = children_[0]->Evaluate(row);
      return t.has_value() ? Truth(!*t) : std::nullopt;
    }
    default: {
      static const Value kNull;
      const bool present = field_index_ >= 0 && static_cast<size_t>(field_index_) < row.size();
      return EvaluateLeaf(*this, present ? row[static_cast<size_t>(field_index_)] : kNull);
    }
  }
}

}  // namespace sluice
