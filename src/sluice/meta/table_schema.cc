#include "sluice/meta/table_schema.h"

#include "sluice/meta/option_value.h"

#include <algorithm>
#include <set>

#include "sluice/base/json_reader.h"
#include "sluice/base/json_writer.h"
#include "sluice/base/string_util.h"
#include "sluice/types/data_type_json.h"

namespace sluice {

namespace {

bool Contains(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// Java String.split(","): trailing empty strings are dropped.
std::vector<std::string> SplitComma(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    parts.emplace_back(s.substr(start, comma == std::string_view::npos ? s.npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

std::string JoinList(const std::vector<std::string>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ", ";
    out += list[i];
  }
  return out + "]";
}

Result<std::vector<std::string>> StringArray(const Json& json, std::string_view key) {
  SLUICE_ASSIGN_OR_RETURN(const Json* array, GetMember(json, key, key));
  SLUICE_RETURN_NOT_OK(ExpectArray(*array, key));
  std::vector<std::string> out;
  out.reserve(array->size());
  for (size_t i = 0; i < array->size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(std::string s, JsonToString((*array)[i], JsonIndexPath(key, i)));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Result<TableSchema> TableSchema::Make(int32_t version, int64_t id, std::vector<DataField> fields,
                                      int32_t highest_field_id,
                                      std::vector<std::string> partition_keys,
                                      std::vector<std::string> primary_keys, TableOptions options,
                                      std::optional<std::string> comment, int64_t time_millis) {
  TableSchema s;
  s.version_ = version;
  s.id_ = id;
  s.fields_ = std::move(fields);
  s.highest_field_id_ = highest_field_id;
  s.partition_keys_ = std::move(partition_keys);
  s.primary_keys_ = std::move(primary_keys);
  s.options_ = std::move(options);
  s.comment_ = std::move(comment);
  s.time_millis_ = time_millis;

  std::set<std::string_view> names;
  for (const DataField& f : s.fields_) {
    if (IsJavaBlank(f.name)) {
      return Status::InvalidArgument("field names must contain a non-whitespace character");
    }
    if (!names.insert(f.name).second) {
      return Status::InvalidArgument("duplicate field name '" + f.name + "'");
    }
  }
  for (const std::string& key : s.partition_keys_) {
    if (names.count(key) == 0) {
      return Status::InvalidArgument("partition key '" + key + "' is not a field");
    }
  }
  for (const std::string& key : s.primary_keys_) {
    if (names.count(key) == 0) {
      return Status::InvalidArgument("primary key '" + key + "' is not a field");
    }
    if (!Contains(s.partition_keys_, key)) s.trimmed_primary_keys_.push_back(key);
  }
  if (!s.primary_keys_.empty() && s.trimmed_primary_keys_.empty()) {
    return Status::InvalidArgument("primary key constraint " + JoinList(s.primary_keys_) +
                                   " should not be same with partition fields " +
                                   JoinList(s.partition_keys_));
  }

  const std::string* bucket_key = s.FindOption("bucket-key");
  if (bucket_key != nullptr && !IsJavaBlank(*bucket_key)) {
    s.bucket_keys_ = SplitComma(*bucket_key);
    for (const std::string& key : s.bucket_keys_) {
      if (names.count(key) == 0) {
        return Status::InvalidArgument("bucket key '" + key + "' is not a field");
      }
      if (Contains(s.partition_keys_, key)) {
        return Status::InvalidArgument("bucket key '" + key + "' is a partition key");
      }
      if (!s.primary_keys_.empty() && !Contains(s.primary_keys_, key)) {
        return Status::InvalidArgument("bucket key '" + key + "' is not a primary key");
      }
    }
  } else {
    s.bucket_keys_ = s.trimmed_primary_keys_;
  }
  // Java's constructor reads numBucket through CoreOptions; the typed value lives there.
  if (const std::string* bucket = s.FindOption("bucket"); bucket != nullptr) {
    SLUICE_RETURN_NOT_OK(ParseIntOption("bucket", *bucket).status());
  }
  return s;
}

Result<TableSchema> TableSchema::FromJson(std::string_view json_text) {
  SLUICE_ASSIGN_OR_RETURN(Json json, ParseJson(json_text));
  return FromJsonValue(json);
}

Result<TableSchema> TableSchema::FromJsonValue(const Json& json) {
  SLUICE_RETURN_NOT_OK(ExpectObject(json, "(root)"));
  int32_t version = kPaimon07Version;
  if (const Json* v = FindMember(json, "version"); v != nullptr) {
    SLUICE_ASSIGN_OR_RETURN(version, JsonToInt32(*v, "version"));
  }
  SLUICE_ASSIGN_OR_RETURN(const Json* id_json, GetMember(json, "id", "id"));
  SLUICE_ASSIGN_OR_RETURN(int64_t id, JsonToInt64(*id_json, "id"));

  SLUICE_ASSIGN_OR_RETURN(const Json* fields_json, GetMember(json, "fields", "fields"));
  SLUICE_RETURN_NOT_OK(ExpectArray(*fields_json, "fields"));
  std::vector<DataField> fields;
  fields.reserve(fields_json->size());
  for (size_t i = 0; i < fields_json->size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(DataField f,
                            DataFieldFromJson((*fields_json)[i], JsonIndexPath("fields", i)));
    fields.push_back(std::move(f));
  }

  SLUICE_ASSIGN_OR_RETURN(const Json* highest_json,
                          GetMember(json, "highestFieldId", "highestFieldId"));
  SLUICE_ASSIGN_OR_RETURN(int32_t highest_field_id, JsonToInt32(*highest_json, "highestFieldId"));
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> partition_keys,
                          StringArray(json, "partitionKeys"));
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> primary_keys, StringArray(json, "primaryKeys"));

  SLUICE_ASSIGN_OR_RETURN(const Json* options_json, GetMember(json, "options", "options"));
  SLUICE_RETURN_NOT_OK(ExpectObject(*options_json, "options"));
  TableOptions options;
  options.reserve(options_json->size());
  for (auto it = options_json->begin(); it != options_json->end(); ++it) {
    SLUICE_ASSIGN_OR_RETURN(std::string value,
                            JsonToString(it.value(), JsonFieldPath("options", it.key())));
    options.emplace_back(it.key(), std::move(value));
  }
  auto has_option = [&](std::string_view key) {
    return std::any_of(options.begin(), options.end(),
                       [&](const auto& kv) { return kv.first == key; });
  };
  if (version <= kPaimon07Version && !has_option("bucket")) options.emplace_back("bucket", "1");
  if (version <= kPaimon08Version && !has_option("file.format")) {
    options.emplace_back("file.format", "orc");
  }

  std::optional<std::string> comment;
  if (const Json* c = FindMember(json, "comment"); c != nullptr) {
    if (c->is_null()) {
      // pypaimon writes "comment": null; Java's SchemaSerializer reads it with asText(), which
      // gives the text "null".
      comment = "null";
    } else {
      SLUICE_ASSIGN_OR_RETURN(comment, JsonToString(*c, "comment"));
    }
  }
  int64_t time_millis = 0;
  if (const Json* t = FindMember(json, "timeMillis"); t != nullptr) {
    SLUICE_ASSIGN_OR_RETURN(time_millis, JsonToInt64(*t, "timeMillis"));
  }
  Result<TableSchema> schema =
      Make(version, id, std::move(fields), highest_field_id, std::move(partition_keys),
           std::move(primary_keys), std::move(options), std::move(comment), time_millis);
  if (!schema.ok()) return Status::Corruption(schema.status().message());
  return schema;
}

std::string TableSchema::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  w.IntField("version", version_);
  w.IntField("id", id_);
  w.Key("fields");
  w.BeginArray();
  for (const DataField& f : fields_) WriteDataFieldJson(f, &w);
  w.EndArray();
  w.IntField("highestFieldId", highest_field_id_);
  w.Key("partitionKeys");
  w.BeginArray();
  for (const std::string& k : partition_keys_) w.String(k);
  w.EndArray();
  w.Key("primaryKeys");
  w.BeginArray();
  for (const std::string& k : primary_keys_) w.String(k);
  w.EndArray();
  w.Key("options");
  w.BeginObject();
  for (const auto& [key, value] : options_) w.StringField(key, value);
  w.EndObject();
  if (comment_) w.StringField("comment", *comment_);
  w.IntField("timeMillis", time_millis_);
  w.EndObject();
  return std::move(w).Finish();
}

const std::string* TableSchema::FindOption(std::string_view key) const {
  for (const auto& [k, v] : options_) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string TableSchema::OptionOr(std::string_view key, std::string_view fallback) const {
  const std::string* v = FindOption(key);
  return v != nullptr ? *v : std::string(fallback);
}

const DataField* TableSchema::FieldByName(std::string_view name) const {
  int index = FieldIndex(name);
  return index < 0 ? nullptr : &fields_[index];
}

const DataField* TableSchema::FieldById(int32_t id) const {
  for (const DataField& f : fields_) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

int TableSchema::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> TableSchema::FieldNames() const {
  std::vector<std::string> names;
  names.reserve(fields_.size());
  for (const DataField& f : fields_) names.push_back(f.name);
  return names;
}

bool TableSchema::CrossPartitionUpdate() const {
  if (primary_keys_.empty() || partition_keys_.empty()) return false;
  return std::any_of(partition_keys_.begin(), partition_keys_.end(),
                     [&](const std::string& k) { return !Contains(primary_keys_, k); });
}

DataTypePtr TableSchema::LogicalRowType() const { return DataType::Row(fields_); }

DataTypePtr TableSchema::ProjectedRowType(const std::vector<std::string>& names) const {
  std::vector<DataField> projected;
  projected.reserve(names.size());
  for (const std::string& name : names) {
    if (const DataField* f = FieldByName(name); f != nullptr) projected.push_back(*f);
  }
  return DataType::Row(std::move(projected));
}

}  // namespace sluice
