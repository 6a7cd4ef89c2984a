// Paimon types to Arrow schemas and back (arrow.h gives the mapping, after Java's paimon-arrow
// ArrowFieldTypeConversion and ArrowUtils.toArrowField).
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/api/arrow_internal.h"
#include "sluice/arrow.h"
#include "sluice/types/nested_field_ids.h"

namespace sluice {
namespace {

constexpr std::string_view kFieldIdKey = "PARQUET:field_id";
// Owns the strings and children of one exported ArrowSchema node.
struct SchemaNode {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseSchema(ArrowSchema* schema) {
  auto* node = static_cast<SchemaNode*>(schema->private_data);
  for (ArrowSchema* child : node->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  delete node;
  schema->release = nullptr;
}

void AppendInt32(std::string* out, int32_t v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

// Arrow's metadata encoding: the pair count, then each key and value with its length.
std::string FieldIdMetadata(int32_t field_id) {
  std::string value = std::to_string(field_id);
  std::string out;
  AppendInt32(&out, 1);
  AppendInt32(&out, static_cast<int32_t>(kFieldIdKey.size()));
  out.append(kFieldIdKey);
  AppendInt32(&out, static_cast<int32_t>(value.size()));
  out.append(value);
  return out;
}

// One node: `name` of `type` with `field_id`; `depth` counts the ARRAY / MAP levels above it
// within its field, as Java's toArrowField does.
Status BuildField(const std::string& name, int32_t field_id, const DataType& type, int depth,
                  const std::string& zone, const std::string& path, ArrowSchema* out);

void FillNode(std::unique_ptr<SchemaNode> node, int64_t flags, ArrowSchema* out) {
  node->child_pointers.clear();
  for (ArrowSchema& child : node->children) node->child_pointers.push_back(&child);
  out->format = node->format.c_str();
  out->name = node->name.c_str();
  out->metadata = node->metadata.empty() ? nullptr : node->metadata.c_str();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(node->children.size());
  out->children = node->child_pointers.empty() ? nullptr : node->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = node.release();
}

// Builds the children into `node` one by one, so that a failure releases those already built.
class ChildBuilder {
 public:
  explicit ChildBuilder(SchemaNode* node, size_t count) : node_(node) {
    node_->children.resize(count);
    for (ArrowSchema& c : node_->children) c.release = nullptr;
  }
  ~ChildBuilder() {
    if (ok_) return;
    for (ArrowSchema& c : node_->children) {
      if (c.release != nullptr) c.release(&c);
    }
  }
  ArrowSchema* at(size_t i) { return &node_->children[i]; }
  void Done() { ok_ = true; }

 private:
  SchemaNode* node_;
  bool ok_ = false;
};

Status BuildEntries(int32_t field_id, const DataType& key, const DataType& value, int depth,
                    const std::string& zone, const std::string& path, ArrowSchema* out) {
  auto node = std::make_unique<SchemaNode>();
  node->format = "+s";
  node->name = "entries";
  node->metadata = FieldIdMetadata(field_id);
  ChildBuilder children(node.get(), 2);
  SLUICE_RETURN_NOT_OK(BuildField("key", MapKeyFieldId(field_id, depth + 1),
                                  *key.WithNullable(false), depth + 1, zone, path + ".key",
                                  children.at(0)));
  SLUICE_RETURN_NOT_OK(BuildField("value", MapValueFieldId(field_id, depth + 1), value, depth + 1,
                                  zone, path + ".value", children.at(1)));
  children.Done();
  FillNode(std::move(node), 0, out);
  return Status::OK();
}

Status BuildField(const std::string& name, int32_t field_id, const DataType& type, int depth,
                  const std::string& zone, const std::string& path, ArrowSchema* out) {
  auto node = std::make_unique<SchemaNode>();
  SLUICE_ASSIGN_OR_RETURN(node->format, arrow_internal::FormatOf(type, zone, path));
  node->name = name;
  node->metadata = FieldIdMetadata(field_id);
  switch (type.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      ChildBuilder children(node.get(), 1);
      SLUICE_RETURN_NOT_OK(BuildField("$data$", ArrayElementFieldId(field_id, depth + 1),
                                      *type.element(), depth + 1, zone, path + "[]",
                                      children.at(0)));
      children.Done();
      break;
    }
    case TypeRoot::kMap: {
      ChildBuilder children(node.get(), 1);
      SLUICE_RETURN_NOT_OK(
          BuildEntries(field_id, *type.key(), *type.value(), depth, zone, path, children.at(0)));
      children.Done();
      break;
    }
    case TypeRoot::kMultiset: {
      ChildBuilder children(node.get(), 1);
      SLUICE_RETURN_NOT_OK(BuildEntries(field_id, *type.element(), *DataType::Int(false), depth,
                                        zone, path, children.at(0)));
      children.Done();
      break;
    }
    case TypeRoot::kRow: {
      ChildBuilder children(node.get(), type.fields().size());
      for (size_t i = 0; i < type.fields().size(); ++i) {
        const DataField& f = type.fields()[i];
        SLUICE_RETURN_NOT_OK(
            BuildField(f.name, f.id, *f.type, 0, zone, path + "." + f.name, children.at(i)));
      }
      children.Done();
      break;
    }
    default:
      break;
  }
  FillNode(std::move(node), type.nullable() ? ARROW_FLAG_NULLABLE : 0, out);
  return Status::OK();
}

// --- Import ---

std::string NameOf(const ArrowSchema& schema) {
  return schema.name != nullptr ? std::string(schema.name) : std::string();
}

// The "PARQUET:field_id" of `schema`'s metadata, if it holds a number.
std::optional<int32_t> FieldIdOf(const ArrowSchema& schema) {
  if (schema.metadata == nullptr) return std::nullopt;
  const char* p = schema.metadata;
  auto read_int = [&p]() {
    int32_t v;
    std::memcpy(&v, p, sizeof(v));
    p += sizeof(v);
    return v;
  };
  int32_t pairs = read_int();
  for (int32_t i = 0; i < pairs; ++i) {
    int32_t key_len = read_int();
    std::string_view key(p, static_cast<size_t>(key_len));
    p += key_len;
    int32_t value_len = read_int();
    std::string_view value(p, static_cast<size_t>(value_len));
    p += value_len;
    if (key == kFieldIdKey) {
      int32_t id = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
      if (ec == std::errc() && end == value.data() + value.size()) return id;
    }
  }
  return std::nullopt;
}

Status Unsupported(const ArrowSchema& schema, const std::string& path) {
  return Status::InvalidArgument("column '" + path + "' has Arrow format '" +
                                 std::string(schema.format) + "', which has no Paimon type");
}

Result<DataTypePtr> TypeOf(const ArrowSchema& schema, const std::string& path);

Result<std::vector<DataField>> FieldsOf(const ArrowSchema& schema, const std::string& prefix) {
  std::vector<DataField> fields;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const ArrowSchema& child = *schema.children[i];
    std::string name = NameOf(child);
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, TypeOf(child, prefix + name));
    fields.push_back(DataField{FieldIdOf(child).value_or(static_cast<int32_t>(i)), name,
                               std::move(type), std::nullopt, std::nullopt});
  }
  return fields;
}

Result<DataTypePtr> TypeOf(const ArrowSchema& schema, const std::string& path) {
  if (schema.format == nullptr) {
    return Status::InvalidArgument("column '" + path + "' has no Arrow format");
  }
  if (schema.dictionary != nullptr) {
    return Status::InvalidArgument("column '" + path +
                                   "' is dictionary-encoded, which Sluice does not import");
  }
  bool nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
  std::string_view f(schema.format);
  if (f.size() == 1) {
    switch (f[0]) {
      case 'b':
        return DataType::Boolean(nullable);
      case 'c':
        return DataType::TinyInt(nullable);
      case 's':
        return DataType::SmallInt(nullable);
      case 'i':
        return DataType::Int(nullable);
      case 'l':
        return DataType::BigInt(nullable);
      case 'f':
        return DataType::Float(nullable);
      case 'g':
        return DataType::Double(nullable);
      case 'u':
        return DataType::String(nullable);
      case 'z':
        return DataType::Bytes(nullable);
      default:
        return Unsupported(schema, path);
    }
  }
  if (f.starts_with("d:")) {
    int precision = 0;
    int scale = 0;
    int bits = 128;
    int n = std::sscanf(schema.format, "d:%d,%d,%d", &precision, &scale, &bits);
    if (n < 2 || bits != 128 || precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      return Unsupported(schema, path);
    }
    return DataType::Decimal(precision, scale, nullable);
  }
  if (f.starts_with("w:")) {
    int32_t width = 0;
    auto [end, ec] = std::from_chars(f.data() + 2, f.data() + f.size(), width);
    if (ec != std::errc() || end != f.data() + f.size() || width < 1) {
      return Unsupported(schema, path);
    }
    return DataType::Binary(width, nullable);
  }
  if (f == "tdD") return DataType::Date(nullable);
  if (f.size() == 3 && f.starts_with("tt")) {
    switch (f[2]) {
      case 's':
        return DataType::Time(0, nullable);
      case 'm':
        return DataType::Time(3, nullable);
      case 'u':
        return DataType::Time(6, nullable);
      case 'n':
        return DataType::Time(9, nullable);
      default:
        return Unsupported(schema, path);
    }
  }
  if (f.size() >= 4 && f.starts_with("ts") && f[3] == ':') {
    int precision = 0;
    switch (f[2]) {
      case 's':
        precision = 0;
        break;
      case 'm':
        precision = 3;
        break;
      case 'u':
        precision = 6;
        break;
      case 'n':
        precision = 9;
        break;
      default:
        return Unsupported(schema, path);
    }
    return f.size() > 4 ? DataType::TimestampLtz(precision, nullable)
                        : DataType::Timestamp(precision, nullable);
  }
  if (f == "+l" || f.starts_with("+w:")) {
    if (schema.n_children != 1) return Unsupported(schema, path);
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, TypeOf(*schema.children[0], path + "[]"));
    if (f == "+l") return DataType::Array(std::move(element), nullable);
    int32_t length = 0;
    auto [end, ec] = std::from_chars(f.data() + 3, f.data() + f.size(), length);
    if (ec != std::errc() || end != f.data() + f.size() || length < 1) {
      return Unsupported(schema, path);
    }
    return DataType::Vector(std::move(element), length, nullable);
  }
  if (f == "+m") {
    const ArrowSchema* entries = schema.n_children == 1 ? schema.children[0] : nullptr;
    if (entries == nullptr || entries->n_children != 2) return Unsupported(schema, path);
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr key, TypeOf(*entries->children[0], path + ".key"));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr value, TypeOf(*entries->children[1], path + ".value"));
    return DataType::Map(key->WithNullable(false), std::move(value), nullable);
  }
  if (f == "+s") {
    SLUICE_ASSIGN_OR_RETURN(std::vector<DataField> fields, FieldsOf(schema, path + "."));
    return DataType::Row(std::move(fields), nullable);
  }
  return Unsupported(schema, path);
}

const char* UnitOf(int32_t precision) {
  if (precision == 0) return "s";
  if (precision <= 3) return "m";
  if (precision <= 6) return "u";
  return "n";
}

}  // namespace

namespace arrow_internal {

Result<std::string> FormatOf(const DataType& type, const std::string& zone,
                             const std::string& path) {
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return std::string("b");
    case TypeRoot::kTinyInt:
      return std::string("c");
    case TypeRoot::kSmallInt:
      return std::string("s");
    case TypeRoot::kInt:
      return std::string("i");
    case TypeRoot::kBigInt:
      return std::string("l");
    case TypeRoot::kFloat:
      return std::string("f");
    case TypeRoot::kDouble:
      return std::string("g");
    case TypeRoot::kDecimal:
      return "d:" + std::to_string(type.precision()) + "," + std::to_string(type.scale());
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return std::string("u");
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      return std::string("z");
    case TypeRoot::kDate:
      return std::string("tdD");
    case TypeRoot::kTime:
      return std::string("ttm");
    case TypeRoot::kTimestamp:
      return std::string("ts") + UnitOf(type.precision()) + ":";
    case TypeRoot::kTimestampLtz:
      return std::string("ts") + UnitOf(type.precision()) + ":" + zone;
    case TypeRoot::kArray:
      return std::string("+l");
    case TypeRoot::kVector:
      return "+w:" + std::to_string(type.length());
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
      return std::string("+m");
    case TypeRoot::kRow:
      return std::string("+s");
    case TypeRoot::kVariant:
      break;
  }
  return Status::InvalidArgument("column '" + path + "' is " + type.ToString() +
                                 ", which Sluice does not map to Arrow");
}

}  // namespace arrow_internal

Status ExportArrowSchema(const DataType& row_type, ArrowSchema* out, const ArrowOptions& options) {
  if (row_type.root() != TypeRoot::kRow) {
    return Status::InvalidArgument("an Arrow schema is made of a ROW type, not " +
                                   row_type.ToString());
  }
  auto node = std::make_unique<SchemaNode>();
  node->format = "+s";
  ChildBuilder children(node.get(), row_type.fields().size());
  for (size_t i = 0; i < row_type.fields().size(); ++i) {
    const DataField& f = row_type.fields()[i];
    SLUICE_RETURN_NOT_OK(
        BuildField(f.name, f.id, *f.type, 0, options.timestamp_ltz_zone, f.name, children.at(i)));
  }
  children.Done();
  FillNode(std::move(node), 0, out);
  return Status::OK();
}

Result<DataTypePtr> ImportArrowSchema(const ArrowSchema& schema) {
  if (schema.release == nullptr) {
    return Status::InvalidArgument("the Arrow schema is released");
  }
  if (schema.format == nullptr || std::string_view(schema.format) != "+s") {
    return Status::InvalidArgument("an Arrow schema of a table is a struct ('+s'), not '" +
                                   std::string(schema.format != nullptr ? schema.format : "") +
                                   "'");
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<DataField> fields, FieldsOf(schema, ""));
  return DataType::Row(std::move(fields), false);
}

}  // namespace sluice
