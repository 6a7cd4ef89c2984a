#include "sluice/predicate_builder.h"

#include "sluice/column_vector.h"
#include "sluice/predicate/predicate.h"

namespace sluice {

namespace {

// `literal` in the exact representation of `type` (integral Values narrowed when they fit),
// checked by appending it to a column of that type.
Result<Value> Normalize(const Value& literal, const DataTypePtr& type, std::string_view field) {
  if (literal.is_null()) return literal;
  ColumnVector column(type->WithNullable(true));
  Status st = column.AppendValue(literal);
  if (!st.ok()) {
    return Status::InvalidArgument("literal " + literal.DebugString() + " does not fit field '" +
                                   std::string(field) + "' of type " + type->ToString() + ": " +
                                   st.message());
  }
  return column.GetValue(0);
}

}  // namespace

PredicateBuilder::PredicateBuilder(DataTypePtr row_type) : row_type_(std::move(row_type)) {}

Result<PredicatePtr> PredicateBuilder::MakeLeaf(int op, std::string_view field,
                                                std::vector<Value> literals) const {
  const int index = row_type_->FieldIndex(field);
  if (index < 0) {
    std::string columns;
    for (const DataField& f : row_type_->fields())
      columns += (columns.empty() ? "" : ", ") + f.name;
    return Status::InvalidArgument("predicate on unknown field '" + std::string(field) +
                                   "' (the row type has: " + columns + ")");
  }
  const DataField& f = row_type_->fields()[static_cast<size_t>(index)];
  const auto pop = static_cast<PredicateOp>(op);
  if ((pop == PredicateOp::kStartsWith || pop == PredicateOp::kLike) && !f.type->IsString()) {
    return Status::InvalidArgument("LIKE on field '" + f.name + "' of type " + f.type->ToString() +
                                   ", which is not a string");
  }
  for (Value& literal : literals) {
    SLUICE_ASSIGN_OR_RETURN(literal, Normalize(literal, f.type, f.name));
  }
  return Predicate::Leaf(pop, index, f.name, f.type, std::move(literals));
}

Result<PredicatePtr> PredicateBuilder::Equal(std::string_view field, const Value& literal) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kEqual), field, {literal});
}
Result<PredicatePtr> PredicateBuilder::NotEqual(std::string_view field,
                                                const Value& literal) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kNotEqual), field, {literal});
}
Result<PredicatePtr> PredicateBuilder::LessThan(std::string_view field,
                                                const Value& literal) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kLessThan), field, {literal});
}
Result<PredicatePtr> PredicateBuilder::LessOrEqual(std::string_view field,
                                                   const Value& literal) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kLessOrEqual), field, {literal});
}
Result<PredicatePtr> PredicateBuilder::GreaterThan(std::string_view field,
                                                   const Value& literal) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kGreaterThan), field, {literal});
}
Result<PredicatePtr> PredicateBuilder::GreaterOrEqual(std::string_view field,
                                                      const Value& literal) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kGreaterOrEqual), field, {literal});
}
Result<PredicatePtr> PredicateBuilder::IsNull(std::string_view field) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kIsNull), field, {});
}
Result<PredicatePtr> PredicateBuilder::IsNotNull(std::string_view field) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kIsNotNull), field, {});
}
Result<PredicatePtr> PredicateBuilder::In(std::string_view field,
                                          const std::vector<Value>& literals) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kIn), field, literals);
}
Result<PredicatePtr> PredicateBuilder::NotIn(std::string_view field,
                                             const std::vector<Value>& literals) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kNotIn), field, literals);
}
Result<PredicatePtr> PredicateBuilder::StartsWith(std::string_view field,
                                                  std::string prefix) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kStartsWith), field,
                  {Value::String(std::move(prefix))});
}
Result<PredicatePtr> PredicateBuilder::Like(std::string_view field, std::string pattern) const {
  return MakeLeaf(static_cast<int>(PredicateOp::kLike), field, {Value::String(std::move(pattern))});
}

PredicatePtr PredicateBuilder::And(std::vector<PredicatePtr> children) {
  return Predicate::And(std::move(children));
}
PredicatePtr PredicateBuilder::Or(std::vector<PredicatePtr> children) {
  return Predicate::Or(std::move(children));
}
PredicatePtr PredicateBuilder::Not(PredicatePtr child) { return Predicate::Not(std::move(child)); }

std::string PredicateBuilder::ToString(const PredicatePtr& predicate) {
  return predicate ? predicate->ToString() : "TRUE";
}

}  // namespace sluice
