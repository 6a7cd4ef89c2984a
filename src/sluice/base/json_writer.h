// JsonWriter: writes JSON text exactly as Java Jackson's default pretty printer
// (ObjectMapper.writerWithDefaultPrettyPrinter()), which is how Java Paimon writes schema,
// snapshot and tag files. Matching it byte for byte keeps diffs against Java tables empty.
//
// The layout it reproduces: `{`, then each entry on its own line indented by two spaces per
// object level as `"key" : value`; arrays stay on one line as `[ a, b ]`, so an array of
// objects reads `[ {` ... `}, {` ... `} ]`; empty containers are `{ }` and `[ ]`; no newline
// at the end. Strings are escaped as Jackson does: `\"`, `\\`, `\b \t \n \f \r`, other control
// characters as `\u00XX` (uppercase hex); everything else, including non-ASCII UTF-8, is
// copied through, ill-formed UTF-8 as Java decodes it (utf8.h AppendUtf8Replacing).
//
// Thread safety: a JsonWriter is not thread-safe; use one per document.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

class JsonWriter {
 public:
  JsonWriter() = default;

  // Containers. REQUIRES: calls are balanced; inside an object every value is preceded by Key().
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(std::string_view key);

  // Scalars.
  void String(std::string_view value);
  void Int(int64_t value);
  void Bool(bool value);
  void Null();
  // A number already formatted (e.g. Java BigDecimal text); written verbatim.
  // REQUIRES: `text` is a valid JSON number.
  void RawNumber(std::string_view text);

  // Key() followed by the value.
  void StringField(std::string_view key, std::string_view value) {
    Key(key);
    String(value);
  }
  void IntField(std::string_view key, int64_t value) {
    Key(key);
    Int(value);
  }

  // The text written so far. REQUIRES (for a complete document): all containers closed.
  const std::string& str() const { return out_; }
  std::string Finish() && { return std::move(out_); }

 private:
  struct Level {
    bool is_object;
    int count;
  };

  void BeforeValue();
  void NewLine();

  std::string out_;
  std::vector<Level> stack_;
  int object_depth_ = 0;  // Only objects indent; arrays are inline.
};

// Appends `value` to `out` as a quoted JSON string, escaped as Jackson does; always UTF-8.
void AppendJsonString(std::string_view value, std::string* out);

}  // namespace sluice
