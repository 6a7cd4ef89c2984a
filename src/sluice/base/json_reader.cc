#include "sluice/base/json_reader.h"

#include <limits>

namespace sluice {

namespace {

Status WrongType(const Json& value, std::string_view field, std::string_view expected) {
  return Status::Corruption("field '" + std::string(field) + "': expected " +
                            std::string(expected) + ", got " + std::string(JsonTypeName(value)));
}

}  // namespace

Result<Json> ParseJson(std::string_view text) {
  // nlohmann-json reports syntax errors only by exception; they stop here.
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    return Status::Corruption("invalid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("invalid JSON: ") + e.what());
  }
}

std::string_view JsonTypeName(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      return "object";
    case Json::value_t::array:
      return "array";
    case Json::value_t::string:
      return "string";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "number";
    case Json::value_t::null:
      return "null";
    default:
      return "binary";
  }
}

std::string JsonFieldPath(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  std::string out(parent);
  out.push_back('.');
  out.append(key);
  return out;
}

std::string JsonIndexPath(std::string_view parent, size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

const Json* FindMember(const Json& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Result<const Json*> GetMember(const Json& object, std::string_view key, std::string_view field) {
  const Json* member = FindMember(object, key);
  if (member == nullptr) return Status::Corruption("missing field '" + std::string(field) + "'");
  return member;
}

Status ExpectObject(const Json& value, std::string_view field) {
  return value.is_object() ? Status::OK() : WrongType(value, field, "object");
}

Status ExpectArray(const Json& value, std::string_view field) {
  return value.is_array() ? Status::OK() : WrongType(value, field, "array");
}

Result<int64_t> JsonToInt64(const Json& value, std::string_view field) {
  if (value.is_number_integer() && !value.is_number_unsigned()) {
    return value.get<int64_t>();
  }
  if (value.is_number_unsigned()) {
    const uint64_t u = value.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return static_cast<int64_t>(u);
    }
    return Status::Corruption("field '" + std::string(field) + "': value " + std::to_string(u) +
                              " is out of the 64-bit range");
  }
  return WrongType(value, field, "an integer");
}

Result<int32_t> JsonToInt32(const Json& value, std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(int64_t v, JsonToInt64(value, field));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return Status::Corruption("field '" + std::string(field) + "': value " + std::to_string(v) +
                              " is out of the 32-bit range");
  }
  return static_cast<int32_t>(v);
}

Result<std::string> JsonToString(const Json& value, std::string_view field) {
  if (!value.is_string()) return WrongType(value, field, "string");
  return value.get<std::string>();
}

}  // namespace sluice
