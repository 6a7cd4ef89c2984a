// Numbers as Java prints them: Double.toString / Float.toString (JDK 19+, the shortest decimal
// that rounds back to the value). Used wherever Paimon turns a number into text that another
// engine reads back: partition paths (meta/file_paths), casts to STRING (table/source/column_cast).
//
//   1.0 -> "1.0"   1e7 -> "1.0E7"   9999999.0 -> "9999999.0"   0.001 -> "0.001"
//   1e-4 -> "1.0E-4"   Double.MIN_VALUE -> "4.9E-324"   NaN -> "NaN"   -0.0 -> "-0.0"
//
// Thread safety: pure functions.
#pragma once

#include <string>

namespace sluice {

// Java Double.toString(value).
std::string JavaDoubleToString(double value);

// Java Float.toString(value): the shortest decimal that rounds back to the float (0.1f ->
// "0.1", not the double's "0.10000000149011612").
std::string JavaFloatToString(float value);

}  // namespace sluice
