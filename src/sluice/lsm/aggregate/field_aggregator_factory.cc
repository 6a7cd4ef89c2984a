#include "sluice/lsm/aggregate/field_aggregator_factory.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/lsm/aggregate/bool_and_or.h"
#include "sluice/lsm/aggregate/collect.h"
#include "sluice/lsm/aggregate/ignore_retract.h"
#include "sluice/lsm/aggregate/listagg.h"
#include "sluice/lsm/aggregate/merge_map.h"
#include "sluice/lsm/aggregate/min_max.h"
#include "sluice/lsm/aggregate/nested_update.h"
#include "sluice/lsm/aggregate/roaring_bitmap.h"
#include "sluice/lsm/aggregate/sum_product.h"
#include "sluice/lsm/aggregate/value_pickers.h"
#include "sluice/types/data_type_family.h"

namespace sluice {
namespace {

using AggregatorResult = Result<std::unique_ptr<FieldAggregator>>;

// Java's FieldXxxAggFactory.create: `name` is the function's name, `field` the field's.
using Factory = AggregatorResult (*)(const std::string& name, const DataTypePtr& type,
                                     std::string_view field, const CoreOptions& options);

bool IsComparable(TypeRoot root) {
  switch (root) {
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
    case TypeRoot::kRow:
    case TypeRoot::kVariant:
    case TypeRoot::kBlob:
    case TypeRoot::kVector:
      return false;
    default:
      return true;
  }
}

Status WrongType(std::string_view what, const DataType& type) {
  return Status::InvalidArgument(std::string(what) + " but was '" + type.ToString() + "'.");
}

// The nested key / sequence field indexes of ARRAY<ROW> `type` for `field`.
Result<std::vector<int>> RowFieldIndexes(const DataType& row_type,
                                         const std::vector<std::string>& names,
                                         std::string_view field, std::string_view option) {
  std::vector<int> out;
  for (const std::string& n : names) {
    int i = row_type.FieldIndex(n);
    if (i < 0) {
      return Status::InvalidArgument("option 'fields." + std::string(field) + "." +
                                     std::string(option) + "': field '" + n + "' is not in " +
                                     row_type.ToString());
    }
    out.push_back(i);
  }
  return out;
}

Result<NestedKeys> MakeNestedKeys(const DataType& row_type, std::string_view field,
                                  const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<int> key_fields,
      RowFieldIndexes(row_type, options.FieldNestedKey(field), field, "nested-key"));
  std::vector<DataTypePtr> key_types;
  for (int i : key_fields) key_types.push_back(row_type.fields()[i].type);
  return NestedKeys(std::move(key_fields), std::move(key_types),
                    options.FieldNestedKeyNullStrategy(field));
}

// ---- One factory per function (or per family of functions taking the same types) ------------

template <typename Agg>
AggregatorResult CreateNumeric(const std::string& name, const DataTypePtr& type, std::string_view,
                               const CoreOptions&) {
  if (!IsNumeric(type->root())) {
    return WrongType("Data type for " + name + " column must be 'NumericType'", *type);
  }
  return std::make_unique<Agg>(name, type);
}

template <typename Agg>
AggregatorResult CreateComparable(const std::string& name, const DataTypePtr& type,
                                  std::string_view field, const CoreOptions&) {
  if (!IsComparable(type->root())) {
    return WrongType(
        "Data type for " + name + " column '" + std::string(field) + "' must be comparable", *type);
  }
  return std::make_unique<Agg>(name, type);
}

template <typename Agg>
AggregatorResult CreateAnyType(const std::string& name, const DataTypePtr& type, std::string_view,
                               const CoreOptions&) {
  return std::make_unique<Agg>(name, type);
}

template <typename Agg>
AggregatorResult CreateBoolean(const std::string& name, const DataTypePtr& type, std::string_view,
                               const CoreOptions&) {
  if (type->root() != TypeRoot::kBoolean) {
    return WrongType("Data type for " + name + " column must be 'BooleanType'", *type);
  }
  return std::make_unique<Agg>(name, type);
}

AggregatorResult CreateListagg(const std::string& name, const DataTypePtr& type,
                               std::string_view field, const CoreOptions& options) {
  const DataType& t = *type;
  if (t.root() != TypeRoot::kVarChar) {
    return WrongType("Data type for list agg column must be 'VarCharType'", t);
  }
  if (t.length() != DataType::kMaxLength) {
    return Status::InvalidArgument(
        "Data type for list agg column must be STRING (unbounded VARCHAR), but was VARCHAR(" +
        std::to_string(t.length()) + ").");
  }
  return std::make_unique<FieldListaggAgg>(name, type, options.FieldListAggDelimiter(field),
                                           options.FieldDistinct(field));
}

AggregatorResult CreateCollect(const std::string& name, const DataTypePtr& type,
                               std::string_view field, const CoreOptions& options) {
  if (type->root() != TypeRoot::kArray) {
    return WrongType("Data type for collect column must be 'Array'", *type);
  }
  return std::make_unique<FieldCollectAgg>(name, type, options.FieldDistinct(field));
}

AggregatorResult CreateMergeMap(const std::string& name, const DataTypePtr& type, std::string_view,
                                const CoreOptions&) {
  if (type->root() != TypeRoot::kMap) {
    return WrongType("Data type for merge_map column must be 'MAP'", *type);
  }
  return std::make_unique<FieldMergeMapAgg>(name, type);
}

AggregatorResult CreateMergeMapWithKeyTime(const std::string& name, const DataTypePtr& type,
                                           std::string_view field, const CoreOptions& options) {
  const DataType& t = *type;
  if (t.root() != TypeRoot::kMap) {
    return WrongType("Data type for field '" + std::string(field) + "' must be 'MAP'", t);
  }
  const DataType& row = *t.value();
  if (row.root() != TypeRoot::kRow || row.num_fields() < 2) {
    return WrongType("Value type of MAP for field '" + std::string(field) +
                         "' must be ROW with at least 2 fields",
                     row);
  }
  int ts = row.num_fields() - 1;
  if (std::optional<std::string> ts_name = options.FieldMergeMapTsField(field)) {
    ts = row.FieldIndex(*ts_name);
    if (ts < 0) {
      return Status::InvalidArgument("Timestamp field '" + *ts_name +
                                     "' not found in ROW type for field '" + std::string(field) +
                                     "'.");
    }
  }
  TypeRoot ts_root = row.fields()[ts].type->root();
  if (ts_root != TypeRoot::kVarChar && ts_root != TypeRoot::kChar) {
    return WrongType("Timestamp field of '" + std::string(field) + "' must be a STRING",
                     *row.fields()[ts].type);
  }
  return std::make_unique<FieldMergeMapWithKeyTimeAgg>(name, type, ts);
}

Status CheckNestedTable(const DataType& type) {
  if (type.root() != TypeRoot::kArray || type.element()->root() != TypeRoot::kRow) {
    return WrongType("Data type for nested table column must be 'Array<Row>'", type);
  }
  return Status::OK();
}

AggregatorResult CreateNestedUpdate(const std::string& name, const DataTypePtr& type,
                                    std::string_view field, const CoreOptions& options) {
  SLUICE_RETURN_NOT_OK(CheckNestedTable(*type));
  const DataType& row = *type->element();
  SLUICE_ASSIGN_OR_RETURN(NestedKeys keys, MakeNestedKeys(row, field, options));
  std::vector<std::string> sequence = options.FieldNestedSequenceField(field);
  if (keys.empty() && options.HasFieldNestedKeyNullStrategy(field)) {
    return Status::InvalidArgument(
        "Option 'fields.<field-name>.nested-key-null-strategy' requires "
        "'fields.<field-name>.nested-key' to be configured.");
  }
  if (keys.empty() && !sequence.empty()) {
    return Status::InvalidArgument(
        "Option 'fields.<field-name>.nested-sequence-field' requires "
        "'fields.<field-name>.nested-key' to be configured.");
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<int> sequence_fields,
                          RowFieldIndexes(row, sequence, field, "nested-sequence-field"));
  return std::make_unique<FieldNestedUpdateAgg>(
      name, type, std::move(keys), std::move(sequence_fields), options.FieldCountLimit(field));
}

AggregatorResult CreateNestedPartialUpdate(const std::string& name, const DataTypePtr& type,
                                           std::string_view field, const CoreOptions& options) {
  SLUICE_RETURN_NOT_OK(CheckNestedTable(*type));
  SLUICE_ASSIGN_OR_RETURN(NestedKeys keys, MakeNestedKeys(*type->element(), field, options));
  if (keys.empty()) {
    return Status::InvalidArgument("nested_partial_update needs 'fields." + std::string(field) +
                                   ".nested-key'.");
  }
  return std::make_unique<FieldNestedPartialUpdateAgg>(name, type, std::move(keys));
}

Status CheckVarBinary(const std::string& name, const DataType& type) {
  if (type.root() != TypeRoot::kVarBinary) {
    return WrongType("Data type for " + name + " column must be 'VarBinaryType'", type);
  }
  return Status::OK();
}

AggregatorResult CreateRoaringBitmap32(const std::string& name, const DataTypePtr& type,
                                       std::string_view, const CoreOptions&) {
  SLUICE_RETURN_NOT_OK(CheckVarBinary(name, *type));
  return std::make_unique<FieldRoaringBitmap32Agg>(name, type);
}

// rbm64 (Roaring64NavigableMap), hll_sketch and theta_sketch (DataSketches): Java library
// serializations.
AggregatorResult CreateJavaSerialized(const std::string& name, const DataTypePtr& type,
                                      std::string_view field, const CoreOptions&) {
  SLUICE_RETURN_NOT_OK(CheckVarBinary(name, *type));
  return Status::NotSupported("aggregate function '" + name + "' (field '" + std::string(field) +
                              "') is not supported: its values are serialized Java library "
                              "objects that Sluice does not merge");
}

// The identifiers of Java's factories.
constexpr std::pair<std::string_view, Factory> kFactories[] = {
    {"sum", CreateNumeric<FieldSumAgg>},
    {"product", CreateNumeric<FieldProductAgg>},
    {"max", CreateComparable<FieldMaxAgg>},
    {"min", CreateComparable<FieldMinAgg>},
    {"last_value", CreateAnyType<FieldLastValueAgg>},
    {"last_non_null_value", CreateAnyType<FieldLastNonNullValueAgg>},
    {"first_value", CreateAnyType<FieldFirstValueAgg>},
    {"first_non_null_value", CreateAnyType<FieldFirstNonNullValueAgg>},
    // Java FieldFirstNonNullValueAggLegacyFactory.
    {"first_not_null_value", CreateAnyType<FieldFirstNonNullValueAgg>},
    {"primary-key", CreateAnyType<FieldPrimaryKeyAgg>},
    {"bool_and", CreateBoolean<FieldBoolAndAgg>},
    {"bool_or", CreateBoolean<FieldBoolOrAgg>},
    {"listagg", CreateListagg},
    {"collect", CreateCollect},
    {"merge_map", CreateMergeMap},
    {"merge_map_with_keytime", CreateMergeMapWithKeyTime},
    {"nested_update", CreateNestedUpdate},
    {"nested_partial_update", CreateNestedPartialUpdate},
    {"rbm32", CreateRoaringBitmap32},
    {"rbm64", CreateJavaSerialized},
    {"hll_sketch", CreateJavaSerialized},
    {"theta_sketch", CreateJavaSerialized},
};

}  // namespace

Result<std::unique_ptr<FieldAggregator>> CreateFieldAggregator(const DataTypePtr& type,
                                                               std::string_view field,
                                                               std::string_view function,
                                                               const CoreOptions& options) {
  bool ignore_retract = options.FieldIgnoreRetract(field);
  if (options.aggregation_remove_record_on_delete() && ignore_retract) {
    return Status::InvalidArgument("aggregation.remove-record-on-delete and fields." +
                                   std::string(field) +
                                   ".ignore-retract have conflicting behavior so should not be "
                                   "enabled at the same time.");
  }
  const std::string name(function);
  for (const auto& [identifier, create] : kFactories) {
    if (identifier != function) continue;
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FieldAggregator> agg,
                            create(name, type, field, options));
    if (ignore_retract) return std::make_unique<FieldIgnoreRetractAgg>(std::move(agg));
    return agg;
  }
  return Status::InvalidArgument("Use unsupported aggregation: " + name +
                                 " or spell aggregate function incorrectly! (field '" +
                                 std::string(field) + "')");
}

bool IsAggregateFunctionName(std::string_view function) {
  for (const auto& [identifier, create] : kFactories) {
    if (identifier == function) return true;
  }
  return false;
}

std::string AggregateFunctionNames() {
  std::string names;
  for (const auto& [identifier, create] : kFactories) {
    names += (names.empty() ? "" : ", ") + std::string(identifier);
  }
  return names;
}

}  // namespace sluice
