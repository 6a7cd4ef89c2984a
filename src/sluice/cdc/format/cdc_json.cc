#include "sluice/cdc/format/cdc_json.h"

#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

#include "sluice/base/json_reader.h"

namespace sluice {

namespace {

// The binary subtype marking a number kept as its text.
constexpr std::uint64_t kNumberTextSubtype = 0x4e;

bool IsNumberText(const Json& value) {
  return value.is_binary() && value.get_binary().has_subtype() &&
         value.get_binary().subtype() == kNumberTextSubtype;
}

// Builds the document as nlohmann's DOM parser does, keeping floating numbers as text.
class NumberKeepingHandler {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  bool null() { return Add(Json(nullptr)); }
  bool boolean(bool value) { return Add(Json(value)); }
  bool number_integer(number_integer_t value) { return Add(Json(value)); }
  bool number_unsigned(number_unsigned_t value) { return Add(Json(value)); }
  bool number_float(number_float_t /*value*/, const string_t& text) {
    return Add(
        Json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kNumberTextSubtype));
  }
  bool string(string_t& value) { return Add(Json(std::move(value))); }
  bool binary(binary_t& value) { return Add(Json::binary(std::move(value))); }

  bool start_object(std::size_t /*size*/) { return Open(Json::object()); }
  bool key(string_t& name) {
    pending_ = &(*stack_.back())[name];
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*size*/) { return Open(Json::array()); }
  bool end_array() {
    stack_.pop_back();
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const std::exception& error) {
    error_ = "invalid JSON at byte " + std::to_string(position) + ": " + error.what();
    return false;
  }

  Json& root() { return root_; }
  const std::string& error() const { return error_; }

 private:
  // Places `value` where the parser is: the root, the next array element, or the member whose
  // key came last. Returns where it went.
  Json* Place(Json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    *pending_ = std::move(value);
    return pending_;
  }

  bool Add(Json value) {
    Place(std::move(value));
    return true;
  }

  bool Open(Json container) {
    if (stack_.size() >= static_cast<size_t>(kMaxCdcJsonDepth)) {
      error_ = "JSON nested deeper than " + std::to_string(kMaxCdcJsonDepth) + " levels";
      return false;
    }
    stack_.push_back(Place(std::move(container)));
    return true;
  }

  Json root_;
  // The open containers, outermost first. Only the innermost one grows, so the pointers to its
  // ancestors stay valid.
  std::vector<Json*> stack_;
  Json* pending_ = nullptr;
  std::string error_;
};

void AppendJson(const Json& value, std::string* out) {
  switch (value.type()) {
    case Json::value_t::object: {
      out->push_back('{');
      bool first = true;
      for (const auto& [name, member] : value.items()) {
        if (!first) out->push_back(',');
        first = false;
        out->append(Json(name).dump(-1, ' ', false, Json::error_handler_t::replace));
        out->push_back(':');
        AppendJson(member, out);
      }
      out->push_back('}');
      return;
    }
    case Json::value_t::array: {
      out->push_back('[');
      bool first = true;
      for (const Json& element : value) {
        if (!first) out->push_back(',');
        first = false;
        AppendJson(element, out);
      }
      out->push_back(']');
      return;
    }
    case Json::value_t::binary: {
      const auto& bytes = value.get_binary();
      out->append(bytes.begin(), bytes.end());
      return;
    }
    default:
      out->append(value.dump(-1, ' ', false, Json::error_handler_t::replace));
      return;
  }
}

}  // namespace

Result<Json> ParseCdcJson(std::string_view text) {
  NumberKeepingHandler handler;
  // nlohmann reports errors through the handler; anything else it throws stops here.
  try {
    if (!Json::sax_parse(text.begin(), text.end(), &handler)) {
      return Status::Corruption(handler.error().empty() ? std::string("invalid JSON")
                                                        : handler.error());
    }
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("invalid JSON: ") + e.what());
  }
  return std::move(handler.root());
}

bool IsCdcJsonNumber(const Json& value) { return value.is_number() || IsNumberText(value); }

std::string_view CdcJsonTypeName(const Json& value) {
  return IsNumberText(value) ? "number" : JsonTypeName(value);
}

std::optional<std::string> CdcJsonValueText(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return std::nullopt;
    case Json::value_t::string:
      return value.get_ref<const std::string&>();
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
      return std::to_string(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return std::to_string(value.get<std::uint64_t>());
    default:
      return CdcJsonToString(value);
  }
}

std::string CdcJsonToString(const Json& value) {
  std::string out;
  AppendJson(value, &out);
  return out;
}

}  // namespace sluice
