#include "sluice/base/java_string_hash.h"

#include <cstddef>

namespace sluice {

int32_t JavaStringHash(std::string_view utf8) {
  uint32_t h = 0;
  size_t i = 0;
  auto add = [&h](uint32_t unit) { h = 31 * h + unit; };
  while (i < utf8.size()) {
    const auto b = static_cast<uint8_t>(utf8[i]);
    uint32_t cp = b;
    size_t len = 1;
    if (b >= 0xF0) {
      len = 4;
      cp = b & 0x07;
    } else if (b >= 0xE0) {
      len = 3;
      cp = b & 0x0F;
    } else if (b >= 0xC0) {
      len = 2;
      cp = b & 0x1F;
    }
    if (i + len > utf8.size()) {
      len = 1;
      cp = b;
    } else {
      for (size_t k = 1; k < len; ++k) {
        cp = (cp << 6) | (static_cast<uint8_t>(utf8[i + k]) & 0x3F);
      }
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      add(0xD800 + (cp >> 10));
      add(0xDC00 + (cp & 0x3FF));
    } else {
      add(cp);
    }
    i += len;
  }
  return static_cast<int32_t>(h);
}

}  // namespace sluice
