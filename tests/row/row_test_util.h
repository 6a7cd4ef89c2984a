// Small helpers shared by the row tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sluice/data_type.h"

namespace sluice::test {

// "0a00 ff" -> bytes; spaces are ignored.
inline std::string FromHex(std::string_view hex) {
  std::string out;
  int nibbles = 0;
  unsigned cur = 0;
  for (char c : hex) {
    if (c == ' ') continue;
    unsigned v = (c >= '0' && c <= '9') ? c - '0' : (c | 0x20) - 'a' + 10;
    cur = cur * 16 + v;
    if (++nibbles % 2 == 0) {
      out.push_back(static_cast<char>(cur));
      cur = 0;
    }
  }
  return out;
}

inline std::string ToHex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// ROW<f0 t0, f1 t1, ...> with field ids 0, 1, ...
inline DataTypePtr RowOf(std::vector<DataTypePtr> types) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < types.size(); ++i) {
    DataField field;
    field.id = static_cast<int32_t>(i);
    field.name = "f" + std::to_string(i);
    field.type = types[i];
    fields.push_back(std::move(field));
  }
  return DataType::Row(std::move(fields));
}

}  // namespace sluice::test
