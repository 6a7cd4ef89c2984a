#include "sluice/lsm/aggregate/field_aggregator.h"

#include "sluice/types/value_comparator.h"

namespace sluice {
namespace {

bool DeepFits(const Value& v, const DataType& type) {
  if (v.is_null()) return true;
  if (!ValueFitsType(v, type)) return false;
  switch (type.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      for (const Value& e : v.list()) {
        if (!DeepFits(e, *type.element())) return false;
      }
      return true;
    case TypeRoot::kMap:
      for (const auto& [k, e] : v.pairs()) {
        if (!DeepFits(k, *type.key()) || !DeepFits(e, *type.value())) return false;
      }
      return true;
    case TypeRoot::kRow: {
      if (v.list().size() != static_cast<size_t>(type.num_fields())) return false;
      for (int i = 0; i < type.num_fields(); ++i) {
        if (!DeepFits(v.list()[i], *type.fields()[i].type)) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

}  // namespace

Status FieldAggregator::CheckInput(const Value& v) const {
  if (DeepFits(v, *type_)) return Status::OK();
  return Status::InvalidArgument("value " + v.DebugString() + " is not a " + type_->ToString());
}

Result<Value> FieldAggregator::Retract(const Value&, const Value&) {
  return Status::NotSupported("Aggregate function '" + name_ +
                              "' does not support retraction, If you allow this function to "
                              "ignore retraction messages, you can configure "
                              "'fields.${field_name}.ignore-retract'='true'.");
}

}  // namespace sluice
