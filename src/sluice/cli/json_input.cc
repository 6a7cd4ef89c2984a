#include "sluice/cli/json_input.h"

namespace sluice::cli {

Result<Json> ParseJson(std::string_view text) {
  // nlohmann-json reports syntax errors only by exception; they stop here.
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    return Status::InvalidArgument("invalid JSON at byte " + std::to_string(e.byte) + ": " +
                                   e.what());
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("invalid JSON: ") + e.what());
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

const Json* FindMember(const Json& object, std::string_view key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace sluice::cli
