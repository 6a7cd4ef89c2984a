#include "sluice/base/json_writer.h"

#include <cassert>

#include "sluice/base/utf8.h"

namespace sluice {

void AppendJsonString(std::string_view value, std::string* out) {
  // Jackson writes a Java String, which holds no ill-formed UTF-8: bytes that are not UTF-8
  // became U+FFFD when Java decoded them.
  if (!IsValidUtf8(value)) {
    std::string repaired;
    AppendUtf8Replacing(value, &repaired);
    AppendJsonString(repaired, out);
    return;
  }
  static constexpr char kHex[] = "0123456789ABCDEF";
  out->push_back('"');
  for (char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\r':
        out->append("\\r");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xF]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

void JsonWriter::NewLine() {
  out_.push_back('\n');
  out_.append(static_cast<size_t>(object_depth_) * 2, ' ');
}

void JsonWriter::BeforeValue() {
  if (stack_.empty()) return;
  Level& top = stack_.back();
  if (top.is_object) return;  // Key() already wrote the separator.
  out_.append(top.count == 0 ? " " : ", ");
  ++top.count;
}

void JsonWriter::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().is_object);
  Level& top = stack_.back();
  if (top.count > 0) out_.push_back(',');
  NewLine();
  ++top.count;
  AppendJsonString(key, &out_);
  out_.append(" : ");
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_.push_back('{');
  ++object_depth_;
  stack_.push_back({true, 0});
}

void JsonWriter::EndObject() {
  assert(!stack_.empty() && stack_.back().is_object);
  --object_depth_;
  if (stack_.back().count > 0) {
    NewLine();
  } else {
    out_.push_back(' ');
  }
  out_.push_back('}');
  stack_.pop_back();
}

void JsonWriter::BeginArray() {
  BeforeValue();
  out_.push_back('[');
  stack_.push_back({false, 0});
}

void JsonWriter::EndArray() {
  assert(!stack_.empty() && !stack_.back().is_object);
  out_.append(" ]");
  stack_.pop_back();
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendJsonString(value, &out_);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  out_.append(std::to_string(value));
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_.append(value ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_.append("null");
}

void JsonWriter::RawNumber(std::string_view text) {
  BeforeValue();
  out_.append(text);
}

}  // namespace sluice
