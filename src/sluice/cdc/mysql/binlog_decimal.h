// MySQL's binary DECIMAL(precision, scale), as the binlog writes DECIMAL columns and binary
// JSON writes decimal numbers (strings/decimal.cc, decimal2bin): the integer digits and the
// fraction digits each in groups of nine per four big-endian bytes, the leftover digits of the
// integer part first and of the fraction last in 1 to 4 bytes; the first byte's top bit set for
// a number >= 0, every bit inverted for a negative one.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <string>

#include "sluice/result.h"

namespace sluice {

class BinlogCursor;

// Bytes of a DECIMAL(precision, scale) value.
size_t BinlogDecimalSize(int precision, int scale);

// Reads one value at `in` and appends its exact text to `out`: "-12.50" for DECIMAL(p, 2),
// no leading zeros but one before the point, exactly `scale` fraction digits, no sign on zero.
// Corruption when the bytes run short, a group holds more than its digits, or precision /
// scale are not those of a MySQL decimal (1 <= precision <= 65, scale <= precision, scale <=
// 38).
Status ReadBinlogDecimal(BinlogCursor* in, int precision, int scale, std::string* out);

}  // namespace sluice
