// Predicate: a boolean expression over the fields of a ROW type, used three ways with one
// meaning: to prune (partitions, files, row groups, stripes) from statistics, and to filter
// rows of a batch. Comparisons follow SQL three-valued logic: a comparison with null is not
// true, so such rows are filtered out (also through NOT: NOT (x = 1) drops null x).
//
// Values are ordered as Java Paimon orders them (types/value_comparator.h): strings and binaries
// as unsigned bytes, FLOAT / DOUBLE as Java's Float.compare / Double.compare (-0.0 < 0.0, NaN
// equal to itself and above +Infinity, so `d > 1` keeps NaN rows), decimals by value.
// Build predicates from text with ParsePredicate (predicate_parser.h).
//
// Thread safety: immutable after construction; share freely across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/types/column_stats.h"
#include "sluice/value.h"

namespace sluice {

enum class PredicateOp : unsigned char {
  // Leaves over one field.
  kEqual,
  kNotEqual,
  kLessThan,
  kLessOrEqual,
  kGreaterThan,
  kGreaterOrEqual,
  kIsNull,
  kIsNotNull,
  kIn,
  kNotIn,
  kStartsWith,  // LIKE 'abc%': one literal, the prefix
  kLike,        // LIKE with '%' / '_' wildcards anywhere, '\' escaping (like_pattern.h); one
                // literal, the pattern. Statistics can only use its fixed prefix.
  // Compounds.
  kAnd,
  kOr,
  kNot,
};

class Predicate;
using PredicatePtr = std::shared_ptr<const Predicate>;

class Predicate {
 public:
  // A leaf on field `field_index` of the row type the predicate is bound to. Literals are in
  // the internal representation of `field_type` (one for comparisons and kStartsWith, any
  // number for kIn / kNotIn, none for kIsNull / kIsNotNull). A DECIMAL literal may carry its
  // own precision and scale (1.005 against DECIMAL(10, 2)): it compares by value. A null
  // literal makes a comparison unknown for every row; a null in an IN list turns "not found"
  // into unknown, so NOT IN (..., NULL) keeps no row.
  static PredicatePtr Leaf(PredicateOp op, int field_index, std::string field_name,
                           DataTypePtr field_type, std::vector<Value> literals = {});
  // And / Or of one child is that child; children of the same op are spliced in, so
  // And({And({a, b}), c}) is And({a, b, c}). And({}) is TRUE, Or({}) is FALSE.
  static PredicatePtr And(std::vector<PredicatePtr> children);
  static PredicatePtr Or(std::vector<PredicatePtr> children);
  static PredicatePtr Not(PredicatePtr child);

  PredicateOp op() const { return op_; }
  bool is_leaf() const { return op_ < PredicateOp::kAnd; }
  // Leaf accessors.
  int field_index() const { return field_index_; }
  const std::string& field_name() const { return field_name_; }
  const DataTypePtr& field_type() const { return field_type_; }
  const std::vector<Value>& literals() const { return literals_; }
  // Compound accessors.
  const std::vector<PredicatePtr>& children() const { return children_; }

  // False only if the statistics prove that none of `row_count` rows satisfies the predicate.
  // `stats[i]` describes field i of the bound row type; an index past the end, or absent
  // min / max / null_count, means "unknown" and never prunes; so do bounds whose Value kind
  // does not fit the field type. row_count 0 gives false; a negative row_count is unknown.
  // NOT is pushed down to the leaves (De Morgan, op inversion), never applied to the answer.
  //
  // Contract for whoever supplies stats: min <= every non-null value <= max in the order above
  // (truncated strings must round max up). A format whose float statistics skip NaN must
  // report no max for a column that may hold NaN. Zero bounds are widened here (a min of 0.0
  // reads as -0.0, a max of -0.0 as 0.0), so formats that do not keep the sign of zero are safe.
  bool MightMatch(int64_t row_count, std::span<const ColumnStats> stats) const;

  // Sets selection[i] = 0 for every row i of `batch` that does not satisfy the predicate
  // (rows already 0 stay 0). Field indexes refer to batch.column(i). Each leaf runs one typed
  // loop over its column.
  // REQUIRES: selection holds batch.num_rows() bytes; every referenced field index is a
  // column of `batch` whose type matches the leaf's field type.
  void Filter(const ColumnBatch& batch, uint8_t* selection) const;

  // The SQL truth value on one row given as its field values (index i = field i): true, false
  // or unknown (nullopt). For partition values and metadata rows, not for hot loops: batches go
  // through Filter, which agrees with it. A field index past the row reads as null.
  std::optional<bool> Evaluate(std::span<const Value> row) const;

  // The same predicate with field indexes remapped: field i becomes mapping[i]; returns null
  // if a referenced field maps to -1 or lies past the end of `mapping` (the caller then cannot
  // push it down).
  PredicatePtr Remap(std::span<const int> mapping) const;

  // For pruning only: a predicate implied by this one that references only mapped fields,
  // made by dropping the conjuncts (children of an AND, also inside OR) that reference an
  // unmapped field. Null if nothing usable is left. Its MightMatch is sound for this
  // predicate, but it keeps more rows: never use it to Filter. E.g. with the partition column
  // p unmapped, (x > 1 AND p = 2) OR x < 0 becomes x > 1 OR x < 0 for a file's row groups.
  PredicatePtr RemapForPruning(std::span<const int> mapping) const;

  // The distinct field indexes the predicate reads, ascending (the columns a reader must load
  // to Filter).
  std::vector<int> ReferencedFields() const;

  // "(a > 3 AND b IN ('x', 'y'))": for messages and tests. ParsePredicate reads it back to
  // the same predicate (the corpus test and the fuzz target check this).
  std::string ToString() const;

 private:
  Predicate() = default;
  static PredicatePtr Compound(PredicateOp op, std::vector<PredicatePtr> children);

  PredicateOp op_ = PredicateOp::kAnd;
  int field_index_ = -1;
  std::string field_name_;
  DataTypePtr field_type_;
  std::vector<Value> literals_;
  std::vector<PredicatePtr> children_;
};

}  // namespace sluice
