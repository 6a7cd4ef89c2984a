#include "sluice/temporal_text.h"

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

}  // namespace sluice
