// Columnar casts for schema evolution: a file written under an earlier type of a column is read
// as its current type. Which casts exist is types/cast_rules.h (Java CastExecutors, shared with
// ALTER TABLE); each rule converts as Java's does: numbers narrow as Java's casts, numbers to
// STRING print as Java's toString (FLOAT 0.1 -> "0.1", DOUBLE 1e7 -> "1.0E7"), CHAR / VARCHAR
// targets cut (and CHAR pads) to their length, BINARY / VARBINARY targets too, DATE / TIME /
// TIMESTAMP print in Java's layout, ARRAY / MAP / ROW print as "[a, b]" / "{k -> v}" / "{a, b}",
// TIMESTAMP <-> TIME / DATE keep the wall clock.
//
// Casts involving TIMESTAMP WITH LOCAL TIME ZONE and epoch seconds use the session time zone:
// a TIMESTAMP (and a DATE or STRING) is a wall clock in that zone, an LTZ value or an INT /
// BIGINT of seconds an instant. So TIMESTAMP <-> LTZ, INT <-> TIMESTAMP, LTZ -> DATE / TIME /
// STRING and STRING / DATE -> LTZ convert between the two through the zone (UTC when none is
// given), as the compatibility corpus' session-zone reads expect.
//
// Each cast is one typed loop per column; casts to STRING format per value (they only run on
// files older than an ALTER TABLE).
//
// Thread safety: free functions; `out` must not be shared while they write it.
#pragma once

#include <string_view>

#include "sluice/column_vector.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"

namespace sluice {

// OK if CastColumn can cast values of `from` to `to`; otherwise an error naming `column` and
// both types. Checked once per file, before any row is read.
Status CheckCastSupported(const DataType& from, const DataType& to, std::string_view column);

// Appends every row of `in`, cast to out->type(), to `out`. A value that does not fit the target
// (decimal overflow) becomes null as in Java; a string that does not parse is an error naming
// `column`, the value and both types. `session_zone` null means UTC.
Status CastColumn(const ColumnVector& in, std::string_view column, ColumnVector* out,
                  const TimeZone* session_zone = nullptr);

}  // namespace sluice
