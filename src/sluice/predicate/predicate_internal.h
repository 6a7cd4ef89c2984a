// Helpers shared by the files that implement Predicate (predicate*.cc); not part of the API.
//
// Thread safety: stateless functions.
#pragma once

#include <vector>

#include "sluice/predicate/predicate.h"

namespace sluice::predicate_internal {

inline bool IsComparison(PredicateOp op) {
  return op == PredicateOp::kEqual || op == PredicateOp::kNotEqual ||
         op == PredicateOp::kLessThan || op == PredicateOp::kLessOrEqual ||
         op == PredicateOp::kGreaterThan || op == PredicateOp::kGreaterOrEqual;
}

inline bool HasNullLiteral(const std::vector<Value>& literals) {
  for (const Value& v : literals) {
    if (v.is_null()) return true;
  }
  return false;
}

}  // namespace sluice::predicate_internal
