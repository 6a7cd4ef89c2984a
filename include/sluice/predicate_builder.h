// PredicateBuilder: filters for ReadBuilder::WithFilter built from field names and values
// (Java PredicateBuilder), without writing and parsing text. A predicate is an opaque, shared,
// immutable handle; it is bound to the row type the builder was made for (the read schema:
// Table::row_type(), or the schema of WithSchemaId).
//
//   PredicateBuilder where(table.row_type());
//   SLUICE_ASSIGN_OR_RETURN(PredicatePtr qty, where.GreaterThan("qty", Value::Int32(10)));
//   SLUICE_ASSIGN_OR_RETURN(PredicatePtr name, where.StartsWith("name", "sl"));
//   builder.WithFilter(PredicateBuilder::And({qty, name}));
//
// Literals are Values in the representation of the field's type (value.h); integral Values
// are converted to the field's integral width when they fit.
//
// Thread safety: a builder is immutable; predicates are immutable and shareable.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

class Predicate;
using PredicatePtr = std::shared_ptr<const Predicate>;

class PredicateBuilder {
 public:
  // REQUIRES: row_type is a ROW type.
  explicit PredicateBuilder(DataTypePtr row_type);

  // InvalidArgument naming the field when the row type has no such field, or the literal
  // when it does not fit the field's type.
  Result<PredicatePtr> Equal(std::string_view field, const Value& literal) const;
  Result<PredicatePtr> NotEqual(std::string_view field, const Value& literal) const;
  Result<PredicatePtr> LessThan(std::string_view field, const Value& literal) const;
  Result<PredicatePtr> LessOrEqual(std::string_view field, const Value& literal) const;
  Result<PredicatePtr> GreaterThan(std::string_view field, const Value& literal) const;
  Result<PredicatePtr> GreaterOrEqual(std::string_view field, const Value& literal) const;
  Result<PredicatePtr> IsNull(std::string_view field) const;
  Result<PredicatePtr> IsNotNull(std::string_view field) const;
  Result<PredicatePtr> In(std::string_view field, const std::vector<Value>& literals) const;
  Result<PredicatePtr> NotIn(std::string_view field, const std::vector<Value>& literals) const;
  // CHAR / VARCHAR fields: the value starts with `prefix` (LIKE 'prefix%').
  Result<PredicatePtr> StartsWith(std::string_view field, std::string prefix) const;
  // CHAR / VARCHAR fields: SQL LIKE with '%' and '_' wildcards, '\' escaping.
  Result<PredicatePtr> Like(std::string_view field, std::string pattern) const;

  // And({}) is TRUE, Or({}) is FALSE; a single child is that child.
  static PredicatePtr And(std::vector<PredicatePtr> children);
  static PredicatePtr Or(std::vector<PredicatePtr> children);
  static PredicatePtr Not(PredicatePtr child);

  // "(qty > 10 AND name LIKE 'sl%')": the text ReadBuilder::WithWhere reads back.
  static std::string ToString(const PredicatePtr& predicate);

 private:
  Result<PredicatePtr> MakeLeaf(int op, std::string_view field, std::vector<Value> literals) const;

  DataTypePtr row_type_;
};

}  // namespace sluice
