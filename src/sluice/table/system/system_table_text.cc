#include "sluice/table/system/system_table_text.h"

#include "sluice/meta/file_paths.h"
#include "sluice/row/binary_row.h"

namespace sluice {

DataField SystemField(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

Value MillisTimestamp(int64_t millis) { return Value::FromTimestamp(Timestamp{millis, 0}); }

Value OptionalString(const std::optional<std::string>& s) {
  return s ? Value::String(*s) : Value::Null();
}

Value OptionalInt64(const std::optional<int64_t>& v) {
  return v ? Value::Int64(*v) : Value::Null();
}

std::string JavaValueText(const Value& value, const DataType& type) {
  if (value.is_null()) return "null";
  Result<std::optional<std::string>> text = LegacyPartitionValueText(value, type);
  if (!text.ok() || !text->has_value()) return value.DebugString();
  return **text;
}

namespace {

Result<std::string> JoinRow(const std::string& serialized, const DataType& type, char open,
                            char close) {
  SLUICE_ASSIGN_OR_RETURN(ValueList values, DecodeSerializedBinaryRow(serialized, type));
  std::string out(1, open);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += JavaValueText(values[i], *type.fields()[i].type);
  }
  out += close;
  return out;
}

}  // namespace

Result<std::string> RowArrayText(const std::string& serialized, const DataType& type) {
  return JoinRow(serialized, type, '[', ']');
}

Result<std::string> RowBraceText(const std::string& serialized, const DataType& type) {
  return JoinRow(serialized, type, '{', '}');
}

std::string MapText(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out += ", ";
    out += entries[i].first + "=" + entries[i].second;
  }
  return out + "}";
}

std::string JavaDurationText(const TagDuration& d) {
  if (d.seconds == 0 && d.nanos == 0) return "PT0S";
  const int64_t hours = d.seconds / 3600;
  const int64_t minutes = d.seconds % 3600 / 60;
  const int64_t secs = d.seconds % 60;
  std::string out = "PT";
  if (hours != 0) out += std::to_string(hours) + "H";
  if (minutes != 0) out += std::to_string(minutes) + "M";
  if (secs == 0 && d.nanos == 0) return out;
  out += std::to_string(secs);
  if (d.nanos > 0) {
    std::string fraction = std::to_string(1000000000 + d.nanos).substr(1);
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    out += "." + fraction;
  }
  return out + "S";
}

}  // namespace sluice
