#include "sluice/cdc/mysql/binlog_decimal.h"

#include <cstdint>
#include <string_view>

#include "sluice/cdc/mysql/binlog_cursor.h"

namespace sluice {

namespace {

constexpr int kDigitsPerGroup = 9;
constexpr int kGroupBytes = 4;
// Bytes of a leftover group of 0..8 digits.
constexpr int kLeftoverBytes[kDigitsPerGroup] = {0, 1, 1, 2, 2, 3, 3, 4, 4};
constexpr uint32_t kPowersOf10[kDigitsPerGroup + 1] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

uint32_t BigEndian(const uint8_t* p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// Appends `value` as exactly `digits` digits (leading zeros kept).
void AppendDigits(uint32_t value, int digits, std::string* out) {
  char buf[kDigitsPerGroup];
  for (int i = digits - 1; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out->append(buf, digits);
}

}  // namespace

size_t BinlogDecimalSize(int precision, int scale) {
  const int integer = precision - scale;
  return (integer / kDigitsPerGroup) * kGroupBytes + kLeftoverBytes[integer % kDigitsPerGroup] +
         (scale / kDigitsPerGroup) * kGroupBytes + kLeftoverBytes[scale % kDigitsPerGroup];
}

Status ReadBinlogDecimal(BinlogCursor* in, int precision, int scale, std::string* out) {
  if (precision < 1 || precision > 65 || scale < 0 || scale > precision || scale > 38) {
    return Status::Corruption("DECIMAL(" + std::to_string(precision) + ", " +
                              std::to_string(scale) + ") is not a MySQL decimal type");
  }
  const size_t size = BinlogDecimalSize(precision, scale);
  std::string_view raw;
  if (!in->ReadBytes(size, &raw)) {
    return Status::Corruption("DECIMAL(" + std::to_string(precision) + ", " +
                              std::to_string(scale) + ") value of " + std::to_string(size) +
                              " bytes is truncated");
  }
  uint8_t bytes[40];  // at most 30 for precision 65
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(raw[i]);
  const bool negative = (bytes[0] & 0x80) == 0;
  bytes[0] ^= 0x80;
  if (negative) {
    for (size_t i = 0; i < size; ++i) bytes[i] ^= 0xFF;
  }

  // The digits in order, integer part first; each group checked against its digit count.
  std::string digits;
  const uint8_t* p = bytes;
  bool valid = true;
  auto group = [&](int count) {
    const int width = count == kDigitsPerGroup ? kGroupBytes : kLeftoverBytes[count];
    const uint32_t value = BigEndian(p, width);
    p += width;
    if (value >= kPowersOf10[count]) valid = false;
    AppendDigits(value, count, &digits);
  };
  const int integer = precision - scale;
  if (integer % kDigitsPerGroup > 0) group(integer % kDigitsPerGroup);
  for (int i = 0; i < integer / kDigitsPerGroup; ++i) group(kDigitsPerGroup);
  for (int i = 0; i < scale / kDigitsPerGroup; ++i) group(kDigitsPerGroup);
  if (scale % kDigitsPerGroup > 0) group(scale % kDigitsPerGroup);
  if (!valid) {
    return Status::Corruption("DECIMAL(" + std::to_string(precision) + ", " +
                              std::to_string(scale) + ") value has a group beyond its digits");
  }

  const std::string_view all(digits);
  std::string_view integer_digits = all.substr(0, integer);
  const std::string_view fraction_digits = all.substr(integer);
  while (!integer_digits.empty() && integer_digits.front() == '0') integer_digits.remove_prefix(1);
  const bool zero =
      integer_digits.empty() && fraction_digits.find_first_not_of('0') == std::string_view::npos;
  if (negative && !zero) out->push_back('-');
  if (integer_digits.empty()) {
    out->push_back('0');
  } else {
    out->append(integer_digits);
  }
  if (scale > 0) {
    out->push_back('.');
    out->append(fraction_digits);
  }
  return Status::OK();
}

}  // namespace sluice
