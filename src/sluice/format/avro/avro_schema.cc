#include "sluice/format/avro/avro_schema.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace sluice {

namespace {

using Json = nlohmann::json;

// Named types may be referenced many times, so a small document can describe a huge tree; every
// consumer walks the expanded tree, so its size is bounded.
constexpr int64_t kMaxExpandedNodes = 100000;
constexpr int kMaxDepth = 64;

struct PrimitiveName {
  std::string_view name;
  AvroType type;
};
constexpr PrimitiveName kPrimitives[] = {
    {"null", AvroType::kNull},   {"boolean", AvroType::kBoolean}, {"int", AvroType::kInt},
    {"long", AvroType::kLong},   {"float", AvroType::kFloat},     {"double", AvroType::kDouble},
    {"bytes", AvroType::kBytes}, {"string", AvroType::kString},
};

bool PrimitiveOf(std::string_view name, AvroType* type) {
  for (const PrimitiveName& p : kPrimitives) {
    if (p.name == name) {
      *type = p.type;
      return true;
    }
  }
  return false;
}

AvroLogicalType LogicalTypeOf(std::string_view name, AvroType type) {
  struct Entry {
    std::string_view name;
    AvroType type;
    AvroLogicalType logical;
  };
  static constexpr Entry kEntries[] = {
      {"decimal", AvroType::kBytes, AvroLogicalType::kDecimal},
      {"decimal", AvroType::kFixed, AvroLogicalType::kDecimal},
      {"date", AvroType::kInt, AvroLogicalType::kDate},
      {"time-millis", AvroType::kInt, AvroLogicalType::kTimeMillis},
      {"time-micros", AvroType::kLong, AvroLogicalType::kTimeMicros},
      {"timestamp-millis", AvroType::kLong, AvroLogicalType::kTimestampMillis},
      {"timestamp-micros", AvroType::kLong, AvroLogicalType::kTimestampMicros},
      {"timestamp-nanos", AvroType::kLong, AvroLogicalType::kTimestampNanos},
      {"local-timestamp-millis", AvroType::kLong, AvroLogicalType::kLocalTimestampMillis},
      {"local-timestamp-micros", AvroType::kLong, AvroLogicalType::kLocalTimestampMicros},
      {"local-timestamp-nanos", AvroType::kLong, AvroLogicalType::kLocalTimestampNanos},
      {"map", AvroType::kArray, AvroLogicalType::kMap},
  };
  for (const Entry& e : kEntries) {
    if (e.name == name && e.type == type) return e.logical;
  }
  return AvroLogicalType::kNone;
}

std::string_view LogicalTypeName(AvroLogicalType t) {
  switch (t) {
    case AvroLogicalType::kNone:
      return "";
    case AvroLogicalType::kDecimal:
      return "decimal";
    case AvroLogicalType::kDate:
      return "date";
    case AvroLogicalType::kTimeMillis:
      return "time-millis";
    case AvroLogicalType::kTimeMicros:
      return "time-micros";
    case AvroLogicalType::kTimestampMillis:
      return "timestamp-millis";
    case AvroLogicalType::kTimestampMicros:
      return "timestamp-micros";
    case AvroLogicalType::kTimestampNanos:
      return "timestamp-nanos";
    case AvroLogicalType::kLocalTimestampMillis:
      return "local-timestamp-millis";
    case AvroLogicalType::kLocalTimestampMicros:
      return "local-timestamp-micros";
    case AvroLogicalType::kLocalTimestampNanos:
      return "local-timestamp-nanos";
    case AvroLogicalType::kMap:
      return "map";
  }
  return "";
}

bool IsValidName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

class SchemaParser {
 public:
  Result<AvroSchemaPtr> Parse(const Json& j, const std::string& enclosing_ns, int depth) {
    if (depth > kMaxDepth) {
      return Status::InvalidArgument("Avro schema nests deeper than " + std::to_string(kMaxDepth));
    }
    if (j.is_string()) return ParseReference(j.get<std::string>(), enclosing_ns);
    if (j.is_array()) return ParseUnion(j, enclosing_ns, depth);
    if (!j.is_object()) {
      return Status::InvalidArgument("Avro schema must be a string, array or object, got " +
                                     Truncated(j.dump()));
    }
    auto type_it = j.find("type");
    if (type_it == j.end()) {
      return Status::InvalidArgument("Avro schema object without \"type\": " + Truncated(j.dump()));
    }
    if (!type_it->is_string()) {
      // {"type": {...}} or {"type": [...]}: a wrapped schema.
      return Parse(*type_it, enclosing_ns, depth + 1);
    }
    const std::string type_name = type_it->get<std::string>();
    auto node = std::make_shared<AvroSchema>();
    AvroType primitive;
    if (PrimitiveOf(type_name, &primitive)) {
      node->type = primitive;
    } else if (type_name == "record" || type_name == "error") {
      node->type = AvroType::kRecord;
    } else if (type_name == "enum") {
      node->type = AvroType::kEnum;
    } else if (type_name == "fixed") {
      node->type = AvroType::kFixed;
    } else if (type_name == "array") {
      node->type = AvroType::kArray;
    } else if (type_name == "map") {
      node->type = AvroType::kMap;
    } else {
      // {"type": "SomeNamedType"}.
      return ParseReference(type_name, enclosing_ns);
    }

    std::string ns = enclosing_ns;
    if (node->is_named()) {
      SLUICE_RETURN_NOT_OK(ParseName(j, enclosing_ns, node.get()));
      ns = node->name_space;
    }
    int64_t size = 1;
    switch (node->type) {
      case AvroType::kRecord: {
        auto fields_it = j.find("fields");
        if (fields_it == j.end() || !fields_it->is_array()) {
          return Status::InvalidArgument("Avro record " + node->full_name() +
                                         " has no \"fields\" array");
        }
        std::set<std::string> seen;
        for (const Json& f : *fields_it) {
          if (!f.is_object()) {
            return Status::InvalidArgument("Avro record " + node->full_name() +
                                           ": a field is not an object");
          }
          auto name_it = f.find("name");
          auto ftype_it = f.find("type");
          if (name_it == f.end() || !name_it->is_string() || ftype_it == f.end()) {
            return Status::InvalidArgument("Avro record " + node->full_name() +
                                           ": a field lacks \"name\" or \"type\"");
          }
          AvroField field;
          field.name = name_it->get<std::string>();
          if (!seen.insert(field.name).second) {
            return Status::InvalidArgument("Avro record " + node->full_name() +
                                           " has two fields named " + field.name);
          }
          auto st = Parse(*ftype_it, ns, depth + 1);
          if (!st.ok()) {
            return st.status().WithContext("field " + node->full_name() + "." + field.name);
          }
          field.schema = std::move(st).value();
          auto def_it = f.find("default");
          if (def_it != f.end()) field.default_json = def_it->dump();
          size += sizes_[field.schema.get()];
          node->fields.push_back(std::move(field));
        }
        break;
      }
      case AvroType::kEnum: {
        auto sym_it = j.find("symbols");
        if (sym_it == j.end() || !sym_it->is_array()) {
          return Status::InvalidArgument("Avro enum " + node->full_name() +
                                         " has no \"symbols\" array");
        }
        for (const Json& s : *sym_it) {
          if (!s.is_string()) {
            return Status::InvalidArgument("Avro enum " + node->full_name() +
                                           ": a symbol is not a string");
          }
          node->symbols.push_back(s.get<std::string>());
        }
        break;
      }
      case AvroType::kFixed: {
        auto size_it = j.find("size");
        if (size_it == j.end() || !size_it->is_number_integer() || size_it->get<int64_t>() < 0 ||
            size_it->get<int64_t>() > (int64_t{1} << 30)) {
          return Status::InvalidArgument("Avro fixed " + node->full_name() +
                                         " has no valid \"size\"");
        }
        node->fixed_size = static_cast<int32_t>(size_it->get<int64_t>());
        break;
      }
      case AvroType::kArray:
      case AvroType::kMap: {
        const char* key = node->type == AvroType::kArray ? "items" : "values";
        auto it = j.find(key);
        if (it == j.end()) {
          return Status::InvalidArgument("Avro " + std::string(AvroTypeName(node->type)) +
                                         " without \"" + key + "\"");
        }
        SLUICE_ASSIGN_OR_RETURN(node->items, Parse(*it, ns, depth + 1));
        size += sizes_[node->items.get()];
        break;
      }
      default:
        break;
    }

    auto logical_it = j.find("logicalType");
    if (logical_it != j.end() && logical_it->is_string()) {
      node->logical_type = LogicalTypeOf(logical_it->get<std::string>(), node->type);
      if (node->logical_type == AvroLogicalType::kDecimal) {
        SLUICE_RETURN_NOT_OK(ParseDecimal(j, node.get()));
      }
    }
    if (node->is_named()) {
      std::string full = node->full_name();
      if (named_.count(full) > 0) {
        return Status::InvalidArgument("Avro schema defines " + full + " twice");
      }
      named_[full] = node;
    }
    return Finish(std::move(node), size);
  }

 private:
  static std::string Truncated(std::string s) {
    if (s.size() > 80) s = s.substr(0, 80) + "...";
    return s;
  }

  Result<AvroSchemaPtr> Finish(std::shared_ptr<AvroSchema> node, int64_t size) {
    if (size > kMaxExpandedNodes) {
      return Status::NotSupported("Avro schema expands to more than " +
                                  std::to_string(kMaxExpandedNodes) + " nodes");
    }
    sizes_[node.get()] = size;
    keep_.push_back(node);
    return AvroSchemaPtr(std::move(node));
  }

  Result<AvroSchemaPtr> ParseReference(const std::string& name, const std::string& ns) {
    AvroType primitive;
    if (PrimitiveOf(name, &primitive)) {
      auto node = std::make_shared<AvroSchema>();
      node->type = primitive;
      return Finish(std::move(node), 1);
    }
    auto it = named_.find(name);
    if (it == named_.end() && name.find('.') == std::string::npos && !ns.empty()) {
      it = named_.find(ns + "." + name);
    }
    if (it == named_.end()) {
      return Status::InvalidArgument("Avro schema refers to unknown (or recursive) type \"" +
                                     Truncated(name) + "\"");
    }
    return AvroSchemaPtr(it->second);
  }

  Result<AvroSchemaPtr> ParseUnion(const Json& j, const std::string& ns, int depth) {
    auto node = std::make_shared<AvroSchema>();
    node->type = AvroType::kUnion;
    int64_t size = 1;
    for (const Json& b : j) {
      SLUICE_ASSIGN_OR_RETURN(AvroSchemaPtr branch, Parse(b, ns, depth + 1));
      if (branch->type == AvroType::kUnion) {
        return Status::InvalidArgument("Avro union directly contains a union");
      }
      size += sizes_[branch.get()];
      node->branches.push_back(std::move(branch));
    }
    if (node->branches.empty()) return Status::InvalidArgument("Avro union has no branches");
    return Finish(std::move(node), size);
  }

  Status ParseName(const Json& j, const std::string& enclosing_ns, AvroSchema* node) {
    auto name_it = j.find("name");
    if (name_it == j.end() || !name_it->is_string()) {
      return Status::InvalidArgument("Avro " + std::string(AvroTypeName(node->type)) +
                                     " without a \"name\"");
    }
    std::string name = name_it->get<std::string>();
    std::string ns = enclosing_ns;
    auto ns_it = j.find("namespace");
    if (ns_it != j.end() && ns_it->is_string()) ns = ns_it->get<std::string>();
    size_t dot = name.rfind('.');
    if (dot != std::string::npos) {
      ns = name.substr(0, dot);
      name = name.substr(dot + 1);
    }
    if (!IsValidName(name)) {
      return Status::InvalidArgument("invalid Avro name \"" + Truncated(name) + "\"");
    }
    node->name = std::move(name);
    node->name_space = std::move(ns);
    return Status::OK();
  }

  static Status ParseDecimal(const Json& j, AvroSchema* node) {
    auto p = j.find("precision");
    auto s = j.find("scale");
    if (p == j.end() || !p->is_number_integer() || p->get<int64_t>() < 1 ||
        p->get<int64_t>() > 1000) {
      return Status::InvalidArgument("Avro decimal without a valid \"precision\"");
    }
    int64_t scale = 0;
    if (s != j.end()) {
      if (!s->is_number_integer()) return Status::InvalidArgument("Avro decimal scale invalid");
      scale = s->get<int64_t>();
    }
    if (scale < 0 || scale > p->get<int64_t>()) {
      return Status::InvalidArgument("Avro decimal scale " + std::to_string(scale) +
                                     " outside [0, precision]");
    }
    node->precision = static_cast<int32_t>(p->get<int64_t>());
    node->scale = static_cast<int32_t>(scale);
    return Status::OK();
  }

  std::map<std::string, std::shared_ptr<AvroSchema>> named_;
  std::map<const AvroSchema*, int64_t> sizes_;
  std::vector<std::shared_ptr<AvroSchema>> keep_;
};

void WriteJsonString(std::string_view s, std::string* out) { *out += Json(s).dump(); }

void ToJson(const AvroSchema& s, const std::string& enclosing_ns, std::set<std::string>* defined,
            std::string* out) {
  if (s.is_named()) {
    std::string full = s.full_name();
    if (defined->count(full) > 0) {
      WriteJsonString(s.name_space == enclosing_ns ? s.name : full, out);
      return;
    }
    defined->insert(full);
  }
  bool has_logical = s.logical_type != AvroLogicalType::kNone;
  switch (s.type) {
    case AvroType::kUnion:
      *out += '[';
      for (size_t i = 0; i < s.branches.size(); ++i) {
        if (i > 0) *out += ',';
        ToJson(*s.branches[i], enclosing_ns, defined, out);
      }
      *out += ']';
      return;
    case AvroType::kRecord:
    case AvroType::kEnum:
    case AvroType::kFixed: {
      *out += "{\"type\":";
      WriteJsonString(AvroTypeName(s.type), out);
      *out += ",\"name\":";
      WriteJsonString(s.name, out);
      if (s.name_space != enclosing_ns) {
        *out += ",\"namespace\":";
        WriteJsonString(s.name_space, out);
      }
      if (s.type == AvroType::kRecord) {
        *out += ",\"fields\":[";
        for (size_t i = 0; i < s.fields.size(); ++i) {
          if (i > 0) *out += ',';
          *out += "{\"name\":";
          WriteJsonString(s.fields[i].name, out);
          *out += ",\"type\":";
          ToJson(*s.fields[i].schema, s.name_space, defined, out);
          if (!s.fields[i].default_json.empty()) {
            *out += ",\"default\":";
            *out += s.fields[i].default_json;
          }
          *out += '}';
        }
        *out += ']';
      } else if (s.type == AvroType::kEnum) {
        *out += ",\"symbols\":[";
        for (size_t i = 0; i < s.symbols.size(); ++i) {
          if (i > 0) *out += ',';
          WriteJsonString(s.symbols[i], out);
        }
        *out += ']';
      } else {
        *out += ",\"size\":" + std::to_string(s.fixed_size);
      }
      break;
    }
    case AvroType::kArray:
    case AvroType::kMap:
      *out += "{\"type\":";
      WriteJsonString(AvroTypeName(s.type), out);
      *out += s.type == AvroType::kArray ? ",\"items\":" : ",\"values\":";
      ToJson(*s.items, enclosing_ns, defined, out);
      break;
    default:
      if (!has_logical) {
        WriteJsonString(AvroTypeName(s.type), out);
        return;
      }
      *out += "{\"type\":";
      WriteJsonString(AvroTypeName(s.type), out);
      break;
  }
  if (has_logical) {
    *out += ",\"logicalType\":";
    WriteJsonString(LogicalTypeName(s.logical_type), out);
    if (s.logical_type == AvroLogicalType::kDecimal) {
      *out += ",\"precision\":" + std::to_string(s.precision);
      *out += ",\"scale\":" + std::to_string(s.scale);
    }
  }
  *out += '}';
}

}  // namespace

std::string_view AvroTypeName(AvroType type) {
  switch (type) {
    case AvroType::kNull:
      return "null";
    case AvroType::kBoolean:
      return "boolean";
    case AvroType::kInt:
      return "int";
    case AvroType::kLong:
      return "long";
    case AvroType::kFloat:
      return "float";
    case AvroType::kDouble:
      return "double";
    case AvroType::kBytes:
      return "bytes";
    case AvroType::kString:
      return "string";
    case AvroType::kRecord:
      return "record";
    case AvroType::kEnum:
      return "enum";
    case AvroType::kArray:
      return "array";
    case AvroType::kMap:
      return "map";
    case AvroType::kUnion:
      return "union";
    case AvroType::kFixed:
      return "fixed";
  }
  return "?";
}

int AvroSchema::FieldIndex(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field_name) return static_cast<int>(i);
  }
  return -1;
}

int AvroSchema::NullBranchOfOptional() const {
  if (type != AvroType::kUnion || branches.size() != 2) return -1;
  if (branches[0]->type == AvroType::kNull && branches[1]->type != AvroType::kNull) return 0;
  if (branches[1]->type == AvroType::kNull && branches[0]->type != AvroType::kNull) return 1;
  return -1;
}

int AvroSchema::MinEncodedSize() const {
  switch (type) {
    case AvroType::kNull:
      return 0;
    case AvroType::kFloat:
      return 4;
    case AvroType::kDouble:
      return 8;
    case AvroType::kFixed:
      return fixed_size;
    case AvroType::kRecord: {
      int64_t total = 0;
      for (const AvroField& f : fields) {
        total = std::min<int64_t>(total + f.schema->MinEncodedSize(), 1 << 30);
      }
      return static_cast<int>(total);
    }
    default:
      return 1;
  }
}

Result<AvroSchemaPtr> ParseAvroSchema(std::string_view json) {
  Json doc = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("Avro schema is not valid JSON");
  try {
    SchemaParser parser;
    return parser.Parse(doc, "", 0);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("Avro schema rejected: ") + e.what());
  }
}

std::string AvroSchemaToJson(const AvroSchema& schema) {
  std::set<std::string> defined;
  std::string out;
  ToJson(schema, "", &defined, &out);
  return out;
}

}  // namespace sluice
