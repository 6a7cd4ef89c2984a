// Literal: a constant as written in an expression (`15.0`, `'abc'`, `DATE '2024-01-01'`), and
// its conversion to the internal representation of the column it is compared with. Also the
// date / time / timestamp text parsers the conversion uses, which partition values and option
// strings need too.
//
// Thread safety: value types and stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

struct Literal {
  enum class Kind : unsigned char {
    kNull,       // NULL
    kBoolean,    // TRUE / FALSE
    kNumber,     // -12, 15.0, 1.5e3: `text` holds the number as written, with its sign
    kString,     // 'it''s': `text` holds the content, quotes resolved
    kBinary,     // X'0aff': `text` holds the decoded bytes
    kDate,       // DATE '2024-01-01': `text` holds the quoted content
    kTime,       // TIME '12:00:00.5'
    kTimestamp,  // TIMESTAMP '2024-01-01 12:00:00.123456789'
  };

  Kind kind = Kind::kNull;
  std::string text;
  bool boolean = false;

  // The literal as it would be written back ("'abc'", "DATE '2024-01-01'", "15.0").
  std::string ToString() const;
};

// Converts `literal` to the internal representation of `type` (value.h), or explains why it
// cannot: a number that is out of range or not integral for an integer column, text that does
// not parse as the column's type, a kind that does not compare with it (a number against a
// STRING column). DECIMAL literals keep their exact value: `1.005` against DECIMAL(10, 2) stays
// 1.005 (scale 3), which compares correctly with every DECIMAL(10, 2) value. Strings convert to
// numbers, booleans, dates, times and timestamps when their content parses as one.
// A TIMESTAMP literal for a TIMESTAMP WITH LOCAL TIME ZONE column may end in a UTC offset
// ("2024-01-01 08:00:00+08:00", "...Z") and is read as UTC without one; plain TIMESTAMP columns
// hold wall-clock time and refuse an offset.
Result<Value> ConvertLiteral(const Literal& literal, const DataType& type);

// "YYYY-MM-DD" (year 0000..9999) -> days since 1970-01-01.
Result<int32_t> ParseDateText(std::string_view text);
// "HH:MM[:SS[.fff]]" -> milliseconds of the day. More than 3 fraction digits must be zeros.
Result<int32_t> ParseTimeText(std::string_view text);
// "YYYY-MM-DD[( |T)HH:MM[:SS[.fffffffff]]]" -> Timestamp (up to nanoseconds).
Result<Timestamp> ParseTimestampText(std::string_view text);

}  // namespace sluice
