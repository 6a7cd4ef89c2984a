// Value: one scalar or nested value in Paimon's internal representation (InternalRow field
// values). A Value carries no DataType: read it with the type of the column it belongs to.
//
//   BOOLEAN                 -> bool
//   TINYINT / SMALLINT      -> int8_t / int16_t
//   INT, DATE (days), TIME (millis of day) -> int32_t
//   BIGINT                  -> int64_t
//   FLOAT / DOUBLE          -> float / double
//   DECIMAL(p, s)           -> Decimal (unscaled value, precision, scale)
//   CHAR / VARCHAR          -> string (UTF-8 bytes)
//   BINARY / VARBINARY / BLOB / VARIANT -> binary (bytes)
//   TIMESTAMP / TIMESTAMP_LTZ -> Timestamp (epoch millis + nano of milli)
//   ARRAY / MULTISET (as map) / MAP / ROW -> array / map / row of Values
//
// Thread safety: a value type; distinct objects may be used from distinct threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sluice {

using int128_t = __int128;

struct Decimal {
  int128_t unscaled = 0;
  int32_t precision = 0;
  int32_t scale = 0;

  // "12.30" for unscaled 1230, scale 2; exactly `scale` fraction digits.
  std::string ToString() const;
  bool operator==(const Decimal& o) const {
    return unscaled == o.unscaled && precision == o.precision && scale == o.scale;
  }
};

// Paimon's Timestamp: milliseconds since 1970-01-01 00:00:00 plus nanoseconds within that
// millisecond (0..999999).
struct Timestamp {
  int64_t millisecond = 0;
  int32_t nano_of_millisecond = 0;

  static Timestamp FromEpochMicros(int64_t micros);
  static Timestamp FromEpochNanos(int64_t nanos);
  int64_t ToEpochMicros() const { return millisecond * 1000 + nano_of_millisecond / 1000; }
  // "YYYY-MM-DD HH:MM:SS" followed by exactly `precision` fraction digits (0 = none).
  std::string ToString(int precision) const;

  bool operator==(const Timestamp& o) const {
    return millisecond == o.millisecond && nano_of_millisecond == o.nano_of_millisecond;
  }
  bool operator<(const Timestamp& o) const {
    return millisecond != o.millisecond ? millisecond < o.millisecond
                                        : nano_of_millisecond < o.nano_of_millisecond;
  }
};

// "YYYY-MM-DD" for days since the epoch (proleptic Gregorian).
std::string FormatDate(int32_t days);
// Days since the epoch of a civil date.
int32_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

class Value;
using ValueList = std::vector<Value>;
using ValuePairs = std::vector<std::pair<Value, Value>>;

class Value {
 public:
  enum class Kind : unsigned char {
    kNull,
    kBoolean,
    kInt8,
    kInt16,
    kInt32,
    kInt64,
    kFloat,
    kDouble,
    kDecimal,
    kString,
    kBinary,
    kTimestamp,
    kArray,
    kMap,
    kRow,
  };

  Value() = default;  // null
  static Value Null() { return Value(); }
  static Value Boolean(bool v) { return Value(Kind::kBoolean, v); }
  static Value Int8(int8_t v) { return Value(Kind::kInt8, v); }
  static Value Int16(int16_t v) { return Value(Kind::kInt16, v); }
  static Value Int32(int32_t v) { return Value(Kind::kInt32, v); }
  static Value Int64(int64_t v) { return Value(Kind::kInt64, v); }
  static Value Float(float v) { return Value(Kind::kFloat, v); }
  static Value Double(double v) { return Value(Kind::kDouble, v); }
  static Value FromDecimal(Decimal v) { return Value(Kind::kDecimal, v); }
  static Value String(std::string v) { return Value(Kind::kString, std::move(v)); }
  static Value Binary(std::string v) { return Value(Kind::kBinary, std::move(v)); }
  static Value FromTimestamp(Timestamp v) { return Value(Kind::kTimestamp, v); }
  static Value Array(ValueList v) {
    return Value(Kind::kArray, std::make_shared<ValueList>(std::move(v)));
  }
  static Value Map(ValuePairs v) {
    return Value(Kind::kMap, std::make_shared<ValuePairs>(std::move(v)));
  }
  static Value Row(ValueList v) {
    return Value(Kind::kRow, std::make_shared<ValueList>(std::move(v)));
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }

  // REQUIRES: the matching kind.
  bool boolean() const { return std::get<bool>(data_); }
  int8_t int8() const { return std::get<int8_t>(data_); }
  int16_t int16() const { return std::get<int16_t>(data_); }
  int32_t int32() const { return std::get<int32_t>(data_); }
  int64_t int64() const { return std::get<int64_t>(data_); }
  float float32() const { return std::get<float>(data_); }
  double float64() const { return std::get<double>(data_); }
  const Decimal& decimal() const { return std::get<Decimal>(data_); }
  // kString and kBinary.
  const std::string& bytes() const { return std::get<std::string>(data_); }
  const Timestamp& timestamp() const { return std::get<Timestamp>(data_); }
  // kArray and kRow.
  const ValueList& list() const { return *std::get<std::shared_ptr<ValueList>>(data_); }
  const ValuePairs& pairs() const { return *std::get<std::shared_ptr<ValuePairs>>(data_); }

  // Any integral kind widened to int64. REQUIRES: kInt8..kInt64 or kBoolean.
  int64_t AsInt64() const;

  bool operator==(const Value& other) const;
  bool operator!=(const Value& other) const { return !(*this == other); }

  // A debug rendering ("null", "42", "'abc'", "[1, 2]" ...), not a stable format.
  std::string DebugString() const;

 private:
  using Storage =
      std::variant<std::monostate, bool, int8_t, int16_t, int32_t, int64_t, float, double, Decimal,
                   std::string, Timestamp, std::shared_ptr<ValueList>, std::shared_ptr<ValuePairs>>;
  template <typename T>
  Value(Kind kind, T&& v) : kind_(kind), data_(std::forward<T>(v)) {}

  Kind kind_ = Kind::kNull;
  Storage data_;
};

}  // namespace sluice
