#include "sluice/value_json.h"

#include "sluice/base/json_writer.h"
#include "sluice/base/utf8.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace sluice {

namespace {

template <typename F>
void AppendFloating(F v, std::string* out) {
  if (std::isnan(v)) {
    out->append("\"NaN\"");
    return;
  }
  if (std::isinf(v)) {
    out->append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

}  // namespace

std::string FormatTime(int32_t millis_of_day, int precision) {
  char buf[32];
  int secs = millis_of_day / 1000;
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%02d", secs / 3600, (secs / 60) % 60, secs % 60);
  std::string out = buf;
  if (precision > 0) {
    std::snprintf(buf, sizeof(buf), "%03d000000", millis_of_day % 1000);
    out += '.';
    out.append(buf, static_cast<size_t>(precision > 9 ? 9 : precision));
  }
  return out;
}

void AppendValueJson(const Value& value, const DataType& type, std::string* out) {
  if (value.is_null()) {
    out->append("null");
    return;
  }
  switch (type.root()) {
    case TypeRoot::kBoolean:
      out->append(value.boolean() ? "true" : "false");
      return;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      out->append(std::to_string(value.AsInt64()));
      return;
    case TypeRoot::kFloat:
      AppendFloating(value.float32(), out);
      return;
    case TypeRoot::kDouble:
      AppendFloating(value.float64(), out);
      return;
    case TypeRoot::kDecimal: {
      Decimal d = value.decimal();
      d.scale = type.scale();
      AppendJsonString(d.ToString(), out);
      return;
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      AppendJsonString(value.bytes(), out);
      return;
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      out->append("{\"base64\": ");
      AppendJsonString(Base64Encode(value.bytes()), out);
      out->push_back('}');
      return;
    case TypeRoot::kDate:
      AppendJsonString(FormatDate(value.int32()), out);
      return;
    case TypeRoot::kTime:
      AppendJsonString(FormatTime(value.int32(), type.precision()), out);
      return;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      AppendJsonString(value.timestamp().ToString(type.precision()), out);
      return;
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      out->push_back('[');
      const ValueList& items = value.list();
      for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendValueJson(items[i], *type.element(), out);
      }
      out->push_back(']');
      return;
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      static const DataTypePtr kCount = DataType::Int(false);
      const DataType& key = type.root() == TypeRoot::kMap ? *type.key() : *type.element();
      const DataType& val = type.root() == TypeRoot::kMap ? *type.value() : *kCount;
      out->push_back('[');
      const ValuePairs& pairs = value.pairs();
      for (size_t i = 0; i < pairs.size(); ++i) {
        if (i > 0) out->append(", ");
        out->push_back('[');
        AppendValueJson(pairs[i].first, key, out);
        out->append(", ");
        AppendValueJson(pairs[i].second, val, out);
        out->push_back(']');
      }
      out->push_back(']');
      return;
    }
    case TypeRoot::kRow: {
      out->push_back('{');
      const ValueList& fields = value.list();
      for (size_t i = 0; i < fields.size() && i < type.fields().size(); ++i) {
        if (i > 0) out->append(", ");
        AppendJsonString(type.fields()[i].name, out);
        out->append(": ");
        AppendValueJson(fields[i], *type.fields()[i].type, out);
      }
      out->push_back('}');
      return;
    }
  }
}

void AppendValueText(const Value& value, const DataType& type, std::string* out) {
  if (value.is_null()) return;
  switch (type.root()) {
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      AppendUtf8Replacing(value.bytes(), out);
      return;
    case TypeRoot::kDecimal: {
      Decimal d = value.decimal();
      d.scale = type.scale();
      out->append(d.ToString());
      return;
    }
    case TypeRoot::kDate:
      out->append(FormatDate(value.int32()));
      return;
    case TypeRoot::kTime:
      out->append(FormatTime(value.int32(), type.precision()));
      return;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      out->append(value.timestamp().ToString(type.precision()));
      return;
    default:
      AppendValueJson(value, type, out);
      return;
  }
}

std::string ValueToJson(const Value& value, const DataType& type) {
  std::string out;
  AppendValueJson(value, type, &out);
  return out;
}

}  // namespace sluice
