// ComputedColumn: a `--computed_column 'name=expr(args)'` of Java's CDC actions (Java
// ComputedColumnUtils / ComputedColumn / Expression, Paimon 1.4.2): a column whose value is
// computed from another column of each record (or is a constant, or the time of ingestion).
//
//   year/month/day/hour/minute/second(col[, precision])  INT of a timestamp
//   date_format(col, pattern[, precision])               STRING, java.time pattern
//   substring(col, begin[, end])                         STRING, [begin, end) of the text
//   truncate(col, width)                                 col's type: numbers down to a multiple
//                                                        of width, text to width characters
//   upper/lower/trim(col)                                STRING, col must be VARCHAR
//   cast(value[, type])                                  the constant `value` of `type`
//                                                        (default STRING)
//   now()                                                TIMESTAMP(3), the ingestion time
//
// Temporal functions read the column's text as Java's DEFAULT_TIMESTAMP_FORMATTER does
// ("2024-01-02 03:04:05[.f]"), or, when a precision is given or the column is an integer type,
// as epoch seconds / millis / micros / nanos for precision 0 / 3 / 6 / 9. A NULL (or absent)
// input gives NULL. The ingestion time and epoch numbers are read in UTC (Java: the JVM's zone
// for now(), UTC for epoch numbers).
//
// Thread safety: immutable after Parse; Eval may run concurrently.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/cdc/cdc_record.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"

namespace sluice {

class ComputedColumn {
 public:
  enum class Function : unsigned char {
    kYear,
    kMonth,
    kDay,
    kHour,
    kMinute,
    kSecond,
    kDateFormat,
    kSubstring,
    kTruncate,
    kCast,
    kNow,
    kUpper,
    kLower,
    kTrim,
  };

  // Parses "name=expr(args)" and checks the arguments that need no column type, with Java's
  // messages (InvalidArgument): "Invalid computed column argument: ...", "Unsupported
  // expression: ...", "'substring' expression supports one or two arguments ...", ...
  static Result<ComputedColumn> Parse(std::string_view argument);
  // Parses every argument and orders them so that a column referencing another computed
  // column comes after it (Java sorts them the same way); a reference cycle is an error.
  static Result<std::vector<ComputedColumn>> ParseAll(const std::vector<std::string>& arguments);

  const std::string& name() const { return name_; }
  Function function() const { return function_; }
  // The column the value is computed from; empty for cast() and now().
  const std::string& field_reference() const { return field_reference_; }

  // The column's type, given the columns it may reference (the record's and the computed
  // columns before it). InvalidArgument as Java: "Referenced field 'x' is not in given fields",
  // "'upper' expression only supports type root of 'VARCHAR' ...", a truncate of a type it
  // cannot truncate (Java fails on the first record instead).
  Result<DataTypePtr> ResultType(const std::vector<DataField>& fields,
                                 bool case_sensitive = true) const;

  // The value for `record` (NULL when the referenced column is NULL or absent).
  // `referenced_type` is the referenced column's type (null: STRING, as the untyped formats
  // give); `local_zone` the zone of now() (null: UTC). InvalidArgument when the input does not
  // suit the function ("Cannot get substring from ...", an unparsable timestamp, ...).
  Result<std::optional<std::string>> Eval(const CdcRecord& record,
                                          const DataType* referenced_type = nullptr,
                                          const TimeZone* local_zone = nullptr) const;

 private:
  ComputedColumn() = default;

  Result<std::string> EvalText(const std::string& input, const DataType* referenced_type,
                               const TimeZone* local_zone) const;

  std::string name_;
  Function function_ = Function::kCast;
  std::string field_reference_;
  std::vector<std::string> literals_;  // the arguments after the column (cast: all, untrimmed)
  std::optional<int> precision_;       // temporal functions
  int begin_ = 0;                      // substring
  std::optional<int> end_;             // substring
  int width_ = 0;                      // truncate
  DataTypePtr cast_type_;              // cast
};

}  // namespace sluice
