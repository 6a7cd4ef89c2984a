#include "sluice/format/avro/avro_schema_converter.h"

#include <string>
#include <utility>

namespace sluice {

namespace {

std::shared_ptr<AvroSchema> Primitive(AvroType type,
                                      AvroLogicalType logical = AvroLogicalType::kNone) {
  auto s = std::make_shared<AvroSchema>();
  s->type = type;
  s->logical_type = logical;
  return s;
}

AvroSchemaPtr Nullable(AvroSchemaPtr schema, bool nullable) {
  if (!nullable) return schema;
  auto u = std::make_shared<AvroSchema>();
  u->type = AvroType::kUnion;
  u->branches = {Primitive(AvroType::kNull), std::move(schema)};
  return u;
}

bool IsValidAvroName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
          (i > 0 && c >= '0' && c <= '9'))) {
      return false;
    }
  }
  return true;
}

// Java passes dotted full names ("org.apache.paimon.avro.generated.record_f") to Avro's
// SchemaBuilder, which splits them at the last dot.
Result<std::shared_ptr<AvroSchema>> NamedRecord(const std::string& full_name) {
  auto s = std::make_shared<AvroSchema>();
  s->type = AvroType::kRecord;
  size_t dot = full_name.rfind('.');
  s->name = full_name.substr(dot + 1);
  s->name_space = full_name.substr(0, dot);
  if (!IsValidAvroName(s->name)) {
    return Status::NotSupported("cannot name an Avro record \"" + s->name +
                                "\": field names of nested rows must be valid Avro names");
  }
  return s;
}

bool IsStringKey(const DataType& key) {
  return key.root() == TypeRoot::kVarChar || key.root() == TypeRoot::kChar;
}

Result<AvroSchemaPtr> Convert(const DataType& type, const std::string& row_name) {
  AvroSchemaPtr s;
  switch (type.root()) {
    case TypeRoot::kBoolean:
      s = Primitive(AvroType::kBoolean);
      break;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
      s = Primitive(AvroType::kInt);
      break;
    case TypeRoot::kBigInt:
      s = Primitive(AvroType::kLong);
      break;
    case TypeRoot::kFloat:
      s = Primitive(AvroType::kFloat);
      break;
    case TypeRoot::kDouble:
      s = Primitive(AvroType::kDouble);
      break;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      s = Primitive(AvroType::kString);
      break;
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      s = Primitive(AvroType::kBytes);
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      bool ltz = type.root() == TypeRoot::kTimestampLtz;
      if (type.precision() > 6) {
        return Status::NotSupported("Avro cannot hold " + type.ToString() +
                                    ": timestamp precision above 6");
      }
      AvroLogicalType logical =
          type.precision() <= 3
              ? (ltz ? AvroLogicalType::kLocalTimestampMillis : AvroLogicalType::kTimestampMillis)
              : (ltz ? AvroLogicalType::kLocalTimestampMicros : AvroLogicalType::kTimestampMicros);
      s = Primitive(AvroType::kLong, logical);
      break;
    }
    case TypeRoot::kDate:
      s = Primitive(AvroType::kInt, AvroLogicalType::kDate);
      break;
    case TypeRoot::kTime:
      if (type.precision() > 3) {
        return Status::NotSupported("Avro cannot hold " + type.ToString() +
                                    ": time precision above 3");
      }
      s = Primitive(AvroType::kInt, AvroLogicalType::kTimeMillis);
      break;
    case TypeRoot::kDecimal: {
      auto d = Primitive(AvroType::kBytes, AvroLogicalType::kDecimal);
      d->precision = type.precision();
      d->scale = type.scale();
      s = d;
      break;
    }
    case TypeRoot::kRow: {
      SLUICE_ASSIGN_OR_RETURN(auto record, NamedRecord(row_name));
      for (const DataField& f : type.fields()) {
        AvroField field;
        field.name = f.name;
        auto child = Convert(*f.type, row_name + "_" + f.name);
        if (!child.ok()) return child.status().WithContext("field " + f.name);
        field.schema = std::move(child).value();
        if (f.type->nullable()) field.default_json = "null";
        record->fields.push_back(std::move(field));
      }
      s = record;
      break;
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      bool multiset = type.root() == TypeRoot::kMultiset;
      const DataType& key = multiset ? *type.element() : *type.key();
      DataTypePtr value = multiset ? DataType::Int() : type.value();
      if (IsStringKey(key)) {
        auto map = Primitive(AvroType::kMap);
        SLUICE_ASSIGN_OR_RETURN(map->items, Convert(*value, row_name));
        s = map;
        break;
      }
      SLUICE_ASSIGN_OR_RETURN(auto entry, NamedRecord(row_name));
      AvroField key_field;
      key_field.name = "key";
      SLUICE_ASSIGN_OR_RETURN(key_field.schema, Convert(key, row_name + "_key"));
      AvroField value_field;
      value_field.name = "value";
      SLUICE_ASSIGN_OR_RETURN(value_field.schema, Convert(*value, row_name + "_value"));
      if (value->nullable()) value_field.default_json = "null";
      entry->fields = {std::move(key_field), std::move(value_field)};
      auto array = Primitive(AvroType::kArray, AvroLogicalType::kMap);
      array->items = entry;
      s = array;
      break;
    }
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      auto array = Primitive(AvroType::kArray);
      SLUICE_ASSIGN_OR_RETURN(array->items, Convert(*type.element(), row_name));
      s = array;
      break;
    }
    case TypeRoot::kVariant:
      return Status::NotSupported("Avro cannot hold " + type.ToString());
  }
  return Nullable(std::move(s), type.nullable());
}

class ToRowType {
 public:
  Result<DataTypePtr> Convert(const AvroSchema& s) {
    if (s.type == AvroType::kUnion) {
      int null_branch = s.NullBranchOfOptional();
      if (null_branch < 0) {
        return Status::NotSupported("Avro union " + AvroSchemaToJson(s).substr(0, 80) +
                                    " has no Paimon type (only [\"null\", T] unions do)");
      }
      SLUICE_ASSIGN_OR_RETURN(DataTypePtr t, Convert(*s.branches[1 - null_branch]));
      return t->WithNullable(true);
    }
    switch (s.type) {
      case AvroType::kNull:
        return Status::NotSupported("a bare Avro null has no Paimon type");
      case AvroType::kBoolean:
        return DataType::Boolean(false);
      case AvroType::kInt:
        if (s.logical_type == AvroLogicalType::kDate) return DataType::Date(false);
        if (s.logical_type == AvroLogicalType::kTimeMillis) return DataType::Time(3, false);
        return DataType::Int(false);
      case AvroType::kLong:
        switch (s.logical_type) {
          case AvroLogicalType::kTimeMicros:
            return DataType::Time(6, false);
          case AvroLogicalType::kTimestampMillis:
            return DataType::Timestamp(3, false);
          case AvroLogicalType::kTimestampMicros:
            return DataType::Timestamp(6, false);
          case AvroLogicalType::kTimestampNanos:
            return DataType::Timestamp(9, false);
          case AvroLogicalType::kLocalTimestampMillis:
            return DataType::TimestampLtz(3, false);
          case AvroLogicalType::kLocalTimestampMicros:
            return DataType::TimestampLtz(6, false);
          case AvroLogicalType::kLocalTimestampNanos:
            return DataType::TimestampLtz(9, false);
          default:
            return DataType::BigInt(false);
        }
      case AvroType::kFloat:
        return DataType::Float(false);
      case AvroType::kDouble:
        return DataType::Double(false);
      case AvroType::kBytes:
      case AvroType::kFixed:
        if (s.logical_type == AvroLogicalType::kDecimal) {
          if (s.precision > 38) {
            return Status::NotSupported("Avro decimal precision " + std::to_string(s.precision) +
                                        " exceeds Paimon's 38");
          }
          return DataType::Decimal(s.precision, s.scale, false);
        }
        if (s.type == AvroType::kFixed) return DataType::Binary(s.fixed_size, false);
        return DataType::Bytes(false);
      case AvroType::kString:
      case AvroType::kEnum:
        return DataType::String(false);
      case AvroType::kArray: {
        if (s.logical_type == AvroLogicalType::kMap && IsKeyValueRecord(*s.items)) {
          const AvroSchema& entry = *s.items;
          SLUICE_ASSIGN_OR_RETURN(DataTypePtr key, Convert(*entry.fields[0].schema));
          SLUICE_ASSIGN_OR_RETURN(DataTypePtr value, Convert(*entry.fields[1].schema));
          return DataType::Map(std::move(key), std::move(value), false);
        }
        SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, Convert(*s.items));
        return DataType::Array(std::move(element), false);
      }
      case AvroType::kMap: {
        SLUICE_ASSIGN_OR_RETURN(DataTypePtr value, Convert(*s.items));
        return DataType::Map(DataType::String(false), std::move(value), false);
      }
      case AvroType::kRecord: {
        std::vector<DataField> fields;
        for (const AvroField& f : s.fields) {
          DataField field;
          field.id = next_id_++;
          field.name = f.name;
          auto t = Convert(*f.schema);
          if (!t.ok()) return t.status().WithContext("field " + f.name);
          field.type = std::move(t).value();
          fields.push_back(std::move(field));
        }
        return DataType::Row(std::move(fields), false);
      }
      case AvroType::kUnion:
        break;
    }
    return Status::NotSupported("unexpected Avro type");
  }

  // Java writes maps with non-string keys as arrays of {key, value} records with logical type
  // "map"; an array of such records without it is an ARRAY<ROW<key, value>>.
  static bool IsKeyValueRecord(const AvroSchema& s) {
    return s.type == AvroType::kRecord && s.fields.size() == 2 && s.fields[0].name == "key" &&
           s.fields[1].name == "value";
  }

 private:
  int32_t next_id_ = 0;
};

}  // namespace

Result<AvroSchemaPtr> RowTypeToAvroSchema(const DataType& row_type) {
  if (row_type.root() != TypeRoot::kRow) {
    return Status::InvalidArgument("an Avro file schema must be a ROW type, got " +
                                   row_type.ToString());
  }
  return Convert(*row_type.WithNullable(false),
                 std::string(kAvroRecordNamespace) + "." + std::string(kAvroRecordName));
}

Result<DataTypePtr> AvroSchemaToRowType(const AvroSchema& schema) {
  const AvroSchema* record = &schema;
  if (schema.type == AvroType::kUnion) {
    int null_branch = schema.NullBranchOfOptional();
    if (null_branch >= 0) record = schema.branches[1 - null_branch].get();
  }
  if (record->type != AvroType::kRecord) {
    return Status::NotSupported("Avro file schema is a " + std::string(AvroTypeName(record->type)) +
                                ", not a record");
  }
  ToRowType converter;
  return converter.Convert(*record);
}

}  // namespace sluice
