// CastFromCdcValueString: a CDC record's value text as a value of a table column's type (Java
// TypeUtils.castFromCdcValueString, Paimon 1.4.2). The forms Java accepts, and nothing it
// refuses except where noted:
//
//   BOOLEAN        "t" "true" "y" "yes" "1" / "f" "false" "n" "no" "0", any case
//   TINYINT..BIGINT Java Byte/Short/Integer/Long.valueOf: [+-]digits, in range
//   FLOAT / DOUBLE Java Double.parseDouble (surrounding blanks, "NaN", "Infinity", a trailing
//                  f/F/d/D); FLOAT refuses a number the float cannot hold to Java's printed
//                  precision ("0.1" is fine, "0.1234567891" is an error)
//   DECIMAL(p, s)  Java BigDecimal text ("1.5", "-2e3"), rounded HALF_UP to s; too many digits
//                  for p is NULL, as Java's Decimal.fromBigDecimal
//   CHAR / VARCHAR the text as is; more characters than the length is an error (no cutting, no
//                  padding)
//   BINARY         base64 (any length); VARBINARY / BYTES the text's UTF-8 bytes (not base64),
//                  at most the length
//   DATE           digits: days since the epoch; else "Y-M-D" (anything from the first space
//                  on ignored), "Y-M", "Y"
//   TIME           digits: milliseconds of the day; else "h[:m[:s[.fff]]]" with Java's odd
//                  "(+|-)hh[:mm]" suffix (added to the clock, not converted)
//   TIMESTAMP(p)   [-]digits: epoch seconds / millis / micros / nanos for p = 0 / 3 / 6 / 9
//                  (other p: error); else "yyyy-M-d[ H:m:s[.f{0,9}]]" or "yyyy-M-dTH:m[:s[.f]]"
//                  (the 'T' form is Paimon 1.5's; 1.4.2 refuses it), fraction cut to p, a day
//                  past the month's end moved back to its last day (java.time SMART)
//   TIMESTAMP_LTZ  the same text (no epoch numbers) as a wall clock in `local_zone` (Java:
//                  the JVM's default zone; here UTC when null)
//   ARRAY          a JSON array; a JSON object gives its values, another JSON scalar no
//                  elements; text that is not JSON is split on ',' (inside optional [ ]) for
//                  VARCHAR elements, else an error
//   MAP            a JSON object; a key is cast from its text; other JSON or non-JSON text is
//                  an empty map (1.4.2; later Paimon errors)
//   ROW            a JSON object, fields by name (absent or null: NULL); other JSON: all NULL;
//                  text that is not JSON is an error (1.4.2 builds a zero-field row)
//   elements       a JSON string's content, else the JSON text (numbers with a fraction as
//                  Java's Double.toString), cast with the element type; JSON null is NULL
//
// Other types (MULTISET, VARIANT, BLOB, VECTOR) are errors. Errors are InvalidArgument naming
// the value (quoted) and the type; the caller adds table, column and offset.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"
#include "sluice/value.h"

namespace sluice {

// `text` as a value of `type` (see above); a Value that is null only for a DECIMAL that does
// not fit and for nested nulls. `local_zone` is the zone of TIMESTAMP_LTZ wall clocks (null:
// UTC).
Result<Value> CastFromCdcValueString(std::string_view text, const DataType& type,
                                     const TimeZone* local_zone = nullptr);

}  // namespace sluice
