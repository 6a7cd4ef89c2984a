#include "sluice/cdc/type_mapping.h"

#include <array>
#include <string>
#include <utility>

#include "sluice/base/string_util.h"

namespace sluice {

namespace {

constexpr std::array<std::pair<std::string_view, TypeMappingMode>, 8> kOptions = {{
    {"tinyint1-not-bool", TypeMappingMode::kTinyInt1NotBool},
    {"to-nullable", TypeMappingMode::kToNullable},
    {"to-string", TypeMappingMode::kToString},
    {"char-to-string", TypeMappingMode::kCharToString},
    {"longtext-to-bytes", TypeMappingMode::kLongtextToBytes},
    {"decimal-no-change", TypeMappingMode::kDecimalNoChange},
    {"bigint-unsigned-to-bigint", TypeMappingMode::kBigintUnsignedToBigint},
    {"allow-non-string-to-string", TypeMappingMode::kAllowNonStringToString},
}};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

Result<TypeMapping> TypeMapping::Parse(std::string_view text) {
  TypeMapping mapping;
  if (Trim(text).empty()) return mapping;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    // Java lower-cases and trims each option before looking it up.
    const std::string option = AsciiToLower(Trim(text.substr(start, comma - start)));
    bool found = false;
    for (const auto& [name, mode] : kOptions) {
      if (option == name) {
        mapping.Add(mode);
        found = true;
        break;
      }
    }
    if (!found) return Status::InvalidArgument("Unsupported type mapping option: " + option);
    start = comma + 1;
  }
  return mapping;
}

}  // namespace sluice
