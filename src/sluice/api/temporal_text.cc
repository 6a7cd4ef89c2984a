#include "sluice/temporal_text.h"

#include "sluice/meta/option_value.h"
#include "sluice/predicate/literal.h"

namespace sluice {

Result<int32_t> ParseDateLiteral(std::string_view text) { return ParseDateText(text); }

Result<int32_t> ParseTimeLiteral(std::string_view text) { return ParseTimeText(text); }

Result<Value> ParseTimestampLiteral(std::string_view text, const DataType& type) {
  if (type.root() != TypeRoot::kTimestamp && type.root() != TypeRoot::kTimestampLtz) {
    return Status::InvalidArgument("'" + std::string(text) + "' is read as a timestamp for " +
                                   type.ToString() + ", which is not a TIMESTAMP type");
  }
  Literal literal;
  literal.kind = Literal::Kind::kTimestamp;
  literal.text = std::string(text);
  return ConvertLiteral(literal, type);
}

Result<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  Result<std::chrono::milliseconds> parsed = ParseDurationOption("duration", text);
  if (!parsed.ok()) {
    return Status::InvalidArgument("cannot parse '" + std::string(text) +
                                   "' as a duration (a number and a unit: ms, s, min, h, d)");
  }
  return parsed;
}

}  // namespace sluice
