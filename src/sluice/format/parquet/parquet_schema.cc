#include "sluice/format/parquet/parquet_schema.h"

#include <utility>

namespace sluice::parquet {

bool SchemaNode::IsListAnnotated() const {
  if (element->logical_type && element->logical_type->kind == LogicalType::Kind::kList) {
    return true;
  }
  return element->converted_type == ConvertedType::kList;
}

bool SchemaNode::IsMapAnnotated() const {
  if (element->logical_type && element->logical_type->kind == LogicalType::Kind::kMap) {
    return true;
  }
  return element->converted_type == ConvertedType::kMap ||
         element->converted_type == ConvertedType::kMapKeyValue;
}

namespace {

struct Builder {
  const std::vector<SchemaElement>& elements;
  size_t next = 1;
  std::vector<const SchemaNode*>* leaves;

  Status Build(SchemaNode* node, int depth) {
    if (depth > ParquetSchema::kMaxDepth) {
      return Status::Corruption("parquet schema nested deeper than " +
                                std::to_string(ParquetSchema::kMaxDepth));
    }
    const SchemaElement& e = *node->element;
    if (e.type.has_value()) {
      if (static_cast<int32_t>(*e.type) < 0 || static_cast<int32_t>(*e.type) > 7) {
        return Status::Corruption("parquet schema: column '" + node->path +
                                  "' has an invalid physical type");
      }
      if (*e.type == PhysicalType::kFixedLenByteArray &&
          (!e.type_length || *e.type_length <= 0 || *e.type_length > (1 << 20))) {
        return Status::Corruption("parquet schema: column '" + node->path +
                                  "' is FIXED_LEN_BYTE_ARRAY without a valid type_length");
      }
      node->leaf_index = static_cast<int>(leaves->size());
      leaves->push_back(node);
      return Status::OK();
    }
    int32_t n = e.num_children.value_or(0);
    if (n < 0 || static_cast<size_t>(n) > elements.size() - next) {
      return Status::Corruption("parquet schema: group '" + node->path + "' claims " +
                                std::to_string(n) + " children, more than the schema holds");
    }
    for (int32_t i = 0; i < n; ++i) {
      // Earlier children's subtrees may have used up the elements the count promised.
      if (next >= elements.size()) {
        return Status::Corruption("parquet schema: group '" + node->path + "' claims " +
                                  std::to_string(n) + " children, more than the schema holds");
      }
      auto child = std::make_unique<SchemaNode>();
      child->element = &elements[next++];
      child->parent = node;
      const SchemaElement& ce = *child->element;
      if (ce.repetition_type && (static_cast<int32_t>(*ce.repetition_type) < 0 ||
                                 static_cast<int32_t>(*ce.repetition_type) > 2)) {
        return Status::Corruption("parquet schema: field '" + ce.name +
                                  "' has an invalid repetition type");
      }
      bool repeated = ce.repetition_type == Repetition::kRepeated;
      // A missing repetition below the root is treated as OPTIONAL, as other readers do.
      bool required = ce.repetition_type == Repetition::kRequired;
      child->def_level = static_cast<int16_t>(node->def_level + (required ? 0 : 1));
      child->rep_level = static_cast<int16_t>(node->rep_level + (repeated ? 1 : 0));
      child->path = node->path.empty() ? ce.name : node->path + "." + ce.name;
      SLUICE_RETURN_NOT_OK(Build(child.get(), depth + 1));
      node->children.push_back(std::move(child));
    }
    return Status::OK();
  }
};

Status Unsupported(const SchemaNode& node, const std::string& what) {
  return Status::NotSupported("parquet column '" + node.path + "': " + what);
}

Result<DataTypePtr> PrimitiveToPaimon(const SchemaNode& node, bool nullable) {
  const SchemaElement& e = *node.element;
  const PhysicalType pt = *e.type;
  const std::optional<LogicalType>& lt = e.logical_type;
  using K = LogicalType::Kind;
  K kind = lt ? lt->kind : K::kNone;
  std::optional<ConvertedType> ct = e.converted_type;

  auto decimal = [&](int32_t precision, int32_t scale) -> Result<DataTypePtr> {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      return Unsupported(node, "DECIMAL(" + std::to_string(precision) + ", " +
                                   std::to_string(scale) + ") is out of Paimon's range");
    }
    return DataType::Decimal(precision, scale, nullable);
  };
  if (kind == K::kDecimal) return decimal(lt->precision, lt->scale);
  if (kind == K::kNone && ct == ConvertedType::kDecimal) {
    return decimal(e.precision.value_or(0), e.scale.value_or(0));
  }
  auto timestamp = [&](TimeUnit unit, bool utc) {
    int p = unit == TimeUnit::kMillis ? 3 : unit == TimeUnit::kMicros ? 6 : 9;
    return utc ? DataType::TimestampLtz(p, nullable) : DataType::Timestamp(p, nullable);
  };

  switch (pt) {
    case PhysicalType::kBoolean:
      return DataType::Boolean(nullable);
    case PhysicalType::kInt32:
      if (kind == K::kInteger) {
        if (!lt->is_signed) {
          if (lt->bit_width <= 8) return DataType::SmallInt(nullable);
          if (lt->bit_width <= 16) return DataType::Int(nullable);
          return DataType::BigInt(nullable);
        }
        if (lt->bit_width == 8) return DataType::TinyInt(nullable);
        if (lt->bit_width == 16) return DataType::SmallInt(nullable);
        return DataType::Int(nullable);
      }
      if (kind == K::kDate || ct == ConvertedType::kDate) return DataType::Date(nullable);
      if (kind == K::kTime || ct == ConvertedType::kTimeMillis) return DataType::Time(3, nullable);
      if (kind == K::kUnknown) return DataType::Int(nullable);
      if (ct == ConvertedType::kInt8) return DataType::TinyInt(nullable);
      if (ct == ConvertedType::kInt16) return DataType::SmallInt(nullable);
      if (ct == ConvertedType::kUint8) return DataType::SmallInt(nullable);
      if (ct == ConvertedType::kUint16) return DataType::Int(nullable);
      if (ct == ConvertedType::kUint32) return DataType::BigInt(nullable);
      return DataType::Int(nullable);
    case PhysicalType::kInt64:
      if (kind == K::kInteger && !lt->is_signed) return DataType::Decimal(20, 0, nullable);
      if (kind == K::kNone && ct == ConvertedType::kUint64)
        return DataType::Decimal(20, 0, nullable);
      if (kind == K::kTimestamp) return timestamp(lt->unit, lt->is_adjusted_to_utc);
      if (kind == K::kNone && ct == ConvertedType::kTimestampMillis) {
        return timestamp(TimeUnit::kMillis, true);
      }
      if (kind == K::kNone && ct == ConvertedType::kTimestampMicros) {
        return timestamp(TimeUnit::kMicros, true);
      }
      if (kind == K::kTime || ct == ConvertedType::kTimeMicros) return DataType::Time(3, nullable);
      return DataType::BigInt(nullable);
    case PhysicalType::kInt96:
      return DataType::Timestamp(9, nullable);
    case PhysicalType::kFloat:
      return DataType::Float(nullable);
    case PhysicalType::kDouble:
      return DataType::Double(nullable);
    case PhysicalType::kByteArray:
      if (kind == K::kString || kind == K::kEnum || kind == K::kJson ||
          (kind == K::kNone && (ct == ConvertedType::kUtf8 || ct == ConvertedType::kEnum ||
                                ct == ConvertedType::kJson))) {
        return DataType::String(nullable);
      }
      return DataType::Bytes(nullable);
    case PhysicalType::kFixedLenByteArray:
      if (kind == K::kFloat16) return DataType::Float(nullable);
      if (kind == K::kString || (kind == K::kNone && ct == ConvertedType::kUtf8)) {
        return DataType::Char(*e.type_length, nullable);
      }
      return DataType::Binary(*e.type_length, nullable);
  }
  return Unsupported(node, "unknown physical type");
}

}  // namespace

Result<std::unique_ptr<ParquetSchema>> ParquetSchema::Make(const FileMetaData& metadata) {
  if (metadata.schema.empty()) return Status::Corruption("parquet schema is empty");
  auto schema = std::unique_ptr<ParquetSchema>(new ParquetSchema());
  schema->root_.element = &metadata.schema[0];
  if (metadata.schema[0].type.has_value()) {
    return Status::Corruption("parquet schema root is not a group");
  }
  Builder b{metadata.schema, 1, &schema->leaves_};
  SLUICE_RETURN_NOT_OK(b.Build(&schema->root_, 0));
  if (b.next != metadata.schema.size()) {
    return Status::Corruption("parquet schema has " +
                              std::to_string(metadata.schema.size() - b.next) +
                              " elements outside the root's tree");
  }
  return schema;
}

Result<ListShape> ResolveList(const SchemaNode& node, bool element_is_row, bool as_element) {
  if (node.is_repeated() && !as_element) return ListShape{&node, &node};
  if (node.is_leaf() || node.children.size() != 1 || !node.children[0]->is_repeated()) {
    return Status::NotSupported("parquet column '" + node.path +
                                "' is not a list (expected one repeated child)");
  }
  const SchemaNode* rep = node.children[0].get();
  if (rep->is_leaf() || rep->children.size() > 1) return ListShape{rep, rep};
  const std::string& name = rep->element->name;
  if (rep->children.empty() || name == "array" || name == node.element->name + "_tuple") {
    return ListShape{rep, rep};
  }
  const SchemaNode* only = rep->children[0].get();
  // A legacy one-field struct element: the reader wants a row but the single child is not one.
  if (element_is_row && only->is_leaf() && !only->is_repeated() && name != "list" &&
      name != "element") {
    return ListShape{rep, rep};
  }
  return ListShape{rep, only};
}

Result<MapShape> ResolveMap(const SchemaNode& node) {
  const SchemaNode* rep = &node;
  if (!node.is_repeated()) {
    if (node.is_leaf() || node.children.size() != 1 || !node.children[0]->is_repeated()) {
      return Status::NotSupported("parquet column '" + node.path +
                                  "' is not a map (expected one repeated key_value group)");
    }
    rep = node.children[0].get();
  }
  if (rep->is_leaf() || rep->children.empty() || rep->children.size() > 2) {
    return Status::NotSupported("parquet column '" + node.path +
                                "' is not a map (key_value needs a key and a value)");
  }
  MapShape shape{rep, rep->children[0].get(),
                 rep->children.size() == 2 ? rep->children[1].get() : nullptr};
  return shape;
}

namespace {

Result<DataTypePtr> NodeToPaimon(const SchemaNode& node, bool as_element, int depth);

Result<DataTypePtr> GroupToRow(const SchemaNode& node, bool nullable, int depth) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < node.children.size(); ++i) {
    const SchemaNode& c = *node.children[i];
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr t, NodeToPaimon(c, false, depth + 1));
    fields.push_back(DataField{c.element->field_id.value_or(static_cast<int32_t>(i)),
                               c.element->name, std::move(t), std::nullopt, std::nullopt});
  }
  return DataType::Row(std::move(fields), nullable);
}

Result<DataTypePtr> NodeToPaimon(const SchemaNode& node, bool as_element, int depth) {
  if (depth > ParquetSchema::kMaxDepth) return Unsupported(node, "nested too deeply");
  bool nullable = node.is_optional();
  if (node.is_repeated() && !as_element) {
    // An unannotated repeated field: a NOT NULL list of NOT NULL elements.
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr elem, NodeToPaimon(node, true, depth + 1));
    return DataType::Array(std::move(elem), false);
  }
  if (node.is_repeated()) nullable = false;
  if (node.is_leaf()) return PrimitiveToPaimon(node, nullable);
  if (node.IsListAnnotated() && (!node.is_repeated() || as_element)) {
    SLUICE_ASSIGN_OR_RETURN(ListShape shape, ResolveList(node, false, node.is_repeated()));
    SLUICE_ASSIGN_OR_RETURN(
        DataTypePtr elem, NodeToPaimon(*shape.element, shape.element == shape.repeated, depth + 1));
    return DataType::Array(std::move(elem), nullable);
  }
  if (node.IsMapAnnotated() && !node.is_repeated()) {
    SLUICE_ASSIGN_OR_RETURN(MapShape shape, ResolveMap(node));
    if (shape.value == nullptr) return Unsupported(node, "map without a value column");
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr k, NodeToPaimon(*shape.key, false, depth + 1));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr v, NodeToPaimon(*shape.value, false, depth + 1));
    return DataType::Map(std::move(k), std::move(v), nullable);
  }
  return GroupToRow(node, nullable, depth);
}

}  // namespace

Result<DataTypePtr> ParquetToPaimonType(const SchemaNode& node) {
  return NodeToPaimon(node, false, 0);
}

Result<DataTypePtr> ParquetSchema::ToPaimonType() const { return GroupToRow(root_, false, 0); }

}  // namespace sluice::parquet
