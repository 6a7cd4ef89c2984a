#include "sluice/format/parquet/parquet_schema_writer.h"

#include <cmath>

#include "sluice/types/nested_field_ids.h"

namespace sluice::parquet {
namespace {

LogicalType MakeLogical(LogicalType::Kind kind) {
  LogicalType lt;
  lt.kind = kind;
  return lt;
}

LogicalType IntegerLogical(int8_t bits) {
  LogicalType lt = MakeLogical(LogicalType::Kind::kInteger);
  lt.bit_width = bits;
  lt.is_signed = true;
  return lt;
}

LogicalType TimeLogical(LogicalType::Kind kind, TimeUnit unit, bool utc) {
  LogicalType lt = MakeLogical(kind);
  lt.unit = unit;
  lt.is_adjusted_to_utc = utc;
  return lt;
}

class Builder {
 public:
  explicit Builder(ParquetWriteSchema* out) : out_(out) {}

  // Appends the elements of a field named `name` of `type` with id `field_id`; `id_parent` /
  // `depth` give the ids of list elements and map keys / values below it.
  Status AddField(const std::string& name, const DataTypePtr& type, std::optional<int32_t> field_id,
                  bool force_required, int16_t parent_def, int16_t parent_rep, int32_t id_parent,
                  int depth, std::vector<std::string> path, WriteNode* node) {
    node->type = type;
    node->optional = type->nullable() && !force_required;
    node->def_level = static_cast<int16_t>(parent_def + (node->optional ? 1 : 0));
    node->rep_level = parent_rep;
    path.push_back(name);

    SchemaElement e;
    e.name = name;
    e.repetition_type = node->optional ? Repetition::kOptional : Repetition::kRequired;
    e.field_id = field_id;
    switch (type->root()) {
      case TypeRoot::kRow: {
        e.num_children = type->num_fields();
        out_->elements.push_back(std::move(e));
        node->children.resize(type->fields().size());
        for (size_t i = 0; i < type->fields().size(); ++i) {
          const DataField& f = type->fields()[i];
          SLUICE_RETURN_NOT_OK(AddField(f.name, f.type, f.id, false, node->def_level, parent_rep,
                                        f.id, 0, path, &node->children[i]));
        }
        return Status::OK();
      }
      case TypeRoot::kArray:
      case TypeRoot::kVector: {
        e.num_children = 1;
        e.converted_type = ConvertedType::kList;
        e.logical_type = MakeLogical(LogicalType::Kind::kList);
        out_->elements.push_back(std::move(e));
        out_->elements.push_back(RepeatedGroup("list", 1, std::nullopt));
        path.push_back("list");
        node->children.resize(1);
        return AddField("element", type->element(), ArrayElementFieldId(id_parent, depth + 1),
                        false, static_cast<int16_t>(node->def_level + 1),
                        static_cast<int16_t>(parent_rep + 1), id_parent, depth + 1, path,
                        &node->children[0]);
      }
      case TypeRoot::kMap:
      case TypeRoot::kMultiset: {
        e.num_children = 1;
        e.converted_type = ConvertedType::kMap;
        e.logical_type = MakeLogical(LogicalType::Kind::kMap);
        out_->elements.push_back(std::move(e));
        out_->elements.push_back(RepeatedGroup("key_value", 2, ConvertedType::kMapKeyValue));
        path.push_back("key_value");
        node->children.resize(2);
        int16_t def = static_cast<int16_t>(node->def_level + 1);
        int16_t rep = static_cast<int16_t>(parent_rep + 1);
        DataTypePtr value_type =
            type->root() == TypeRoot::kMultiset ? DataType::Int(/*nullable=*/false) : type->value();
        SLUICE_RETURN_NOT_OK(AddField("key", type->key(), MapKeyFieldId(id_parent, depth + 1), true,
                                      def, rep, id_parent, depth + 1, path, &node->children[0]));
        return AddField("value", value_type, MapValueFieldId(id_parent, depth + 1), false, def, rep,
                        id_parent, depth + 1, path, &node->children[1]);
      }
      default:
        break;
    }

    WriteLeaf leaf;
    SLUICE_RETURN_NOT_OK(MapPrimitive(*type, &e, &leaf));
    leaf.path = std::move(path);
    leaf.type = type;
    leaf.max_def = node->def_level;
    leaf.max_rep = parent_rep;
    node->leaf = static_cast<int>(out_->leaves.size());
    out_->leaves.push_back(std::move(leaf));
    out_->elements.push_back(std::move(e));
    return Status::OK();
  }

 private:
  static SchemaElement RepeatedGroup(const char* name, int children,
                                     std::optional<ConvertedType> converted) {
    SchemaElement e;
    e.name = name;
    e.repetition_type = Repetition::kRepeated;
    e.num_children = children;
    e.converted_type = converted;
    return e;
  }

  static Status MapPrimitive(const DataType& type, SchemaElement* e, WriteLeaf* leaf) {
    auto set = [&](PhysicalType physical) {
      e->type = physical;
      leaf->physical_type = physical;
    };
    switch (type.root()) {
      case TypeRoot::kBoolean:
        set(PhysicalType::kBoolean);
        break;
      case TypeRoot::kTinyInt:
        set(PhysicalType::kInt32);
        e->converted_type = ConvertedType::kInt8;
        e->logical_type = IntegerLogical(8);
        break;
      case TypeRoot::kSmallInt:
        set(PhysicalType::kInt32);
        e->converted_type = ConvertedType::kInt16;
        e->logical_type = IntegerLogical(16);
        break;
      case TypeRoot::kInt:
        set(PhysicalType::kInt32);
        break;
      case TypeRoot::kBigInt:
        set(PhysicalType::kInt64);
        break;
      case TypeRoot::kFloat:
        set(PhysicalType::kFloat);
        break;
      case TypeRoot::kDouble:
        set(PhysicalType::kDouble);
        break;
      case TypeRoot::kDecimal: {
        int32_t p = type.precision();
        if (p <= 9) {
          set(PhysicalType::kInt32);
        } else if (p <= 18) {
          set(PhysicalType::kInt64);
        } else {
          set(PhysicalType::kFixedLenByteArray);
          e->type_length = DecimalByteWidth(p);
          leaf->type_length = *e->type_length;
        }
        e->converted_type = ConvertedType::kDecimal;
        e->scale = type.scale();
        e->precision = p;
        LogicalType lt = MakeLogical(LogicalType::Kind::kDecimal);
        lt.scale = type.scale();
        lt.precision = p;
        e->logical_type = lt;
        break;
      }
      case TypeRoot::kChar:
      case TypeRoot::kVarChar:
        set(PhysicalType::kByteArray);
        e->converted_type = ConvertedType::kUtf8;
        e->logical_type = MakeLogical(LogicalType::Kind::kString);
        break;
      case TypeRoot::kBinary:
      case TypeRoot::kVarBinary:
      case TypeRoot::kBlob:
        set(PhysicalType::kByteArray);
        break;
      case TypeRoot::kDate:
        set(PhysicalType::kInt32);
        e->converted_type = ConvertedType::kDate;
        e->logical_type = MakeLogical(LogicalType::Kind::kDate);
        break;
      case TypeRoot::kTime:
        set(PhysicalType::kInt32);
        e->converted_type = ConvertedType::kTimeMillis;
        e->logical_type = TimeLogical(LogicalType::Kind::kTime, TimeUnit::kMillis, true);
        break;
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz: {
        bool utc = type.root() == TypeRoot::kTimestampLtz;
        if (type.precision() <= 3) {
          set(PhysicalType::kInt64);
          e->converted_type = ConvertedType::kTimestampMillis;
          e->logical_type = TimeLogical(LogicalType::Kind::kTimestamp, TimeUnit::kMillis, utc);
        } else if (type.precision() <= 6) {
          set(PhysicalType::kInt64);
          e->converted_type = ConvertedType::kTimestampMicros;
          e->logical_type = TimeLogical(LogicalType::Kind::kTimestamp, TimeUnit::kMicros, utc);
        } else {
          set(PhysicalType::kInt96);
        }
        break;
      }
      default:
        return Status::NotSupported("Parquet writer: type " + type.ToString() +
                                    " is not supported");
    }
    return Status::OK();
  }

  ParquetWriteSchema* out_;
};

}  // namespace

int32_t DecimalByteWidth(int32_t precision) {
  int32_t n = 1;
  while (std::pow(2.0, 8.0 * n - 1) < std::pow(10.0, precision)) ++n;
  return n;
}

Result<ParquetWriteSchema> MakeParquetWriteSchema(const DataType& row_type) {
  if (row_type.root() != TypeRoot::kRow) {
    return Status::InvalidArgument("Parquet writer: the write type must be a ROW, got " +
                                   row_type.ToString());
  }
  ParquetWriteSchema schema;
  SchemaElement root;
  root.name = kPaimonSchemaName;
  root.num_children = row_type.num_fields();
  schema.elements.push_back(std::move(root));
  schema.columns.resize(row_type.fields().size());
  Builder builder(&schema);
  for (size_t i = 0; i < row_type.fields().size(); ++i) {
    const DataField& f = row_type.fields()[i];
    size_t first_leaf = schema.leaves.size();
    SLUICE_RETURN_NOT_OK(
        builder.AddField(f.name, f.type, f.id, false, 0, 0, f.id, 0, {}, &schema.columns[i])
            .WithContext("column '" + f.name + "'"));
    for (size_t l = first_leaf; l < schema.leaves.size(); ++l) {
      schema.leaves[l].column = static_cast<int>(i);
      schema.leaves[l].is_top_level = !f.type->IsNested();
    }
  }
  return schema;
}

}  // namespace sluice::parquet
