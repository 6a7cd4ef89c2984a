#include "interop/column_type.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "sluice/types/data_type_json.h"

namespace sluice::test {

namespace {

std::string Base64(const std::string& bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(kAlphabet[(n >> shift) & 63]);
  }
  if (i < bytes.size()) {
    uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

int64_t Uniform(std::mt19937_64* rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(*rng);
}

std::string Date(int64_t days) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

std::string Fraction(int64_t nanos, int precision) {
  if (precision <= 0) return "";
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%09lld", static_cast<long long>(nanos));
  return "." + std::string(buf, static_cast<size_t>(precision));
}

std::string RandomText(std::mt19937_64* rng) {
  static const char* const kPieces[] = {"a", "b", "Zz", "0", "é", "日本", " ", "\"", "\\", "x_y"};
  std::string out;
  const int64_t n = Uniform(rng, 0, 6);
  for (int64_t i = 0; i < n; ++i) out += kPieces[Uniform(rng, 0, 9)];
  return out;
}

int64_t Pow10(int n) {
  int64_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

}  // namespace

nlohmann::json PaimonJson(const DataTypePtr& type) {
  return nlohmann::json::parse(DataTypeToJson(*type));
}

std::vector<DataTypePtr> ValueTypePool() {
  return {
      DataType::Boolean(),
      DataType::TinyInt(),
      DataType::SmallInt(),
      DataType::Int(),
      DataType::BigInt(),
      DataType::Float(),
      DataType::Double(),
      DataType::Decimal(5, 2),
      DataType::Decimal(18, 4),
      DataType::Decimal(38, 10),
      DataType::String(),
      DataType::Bytes(),
      DataType::Date(),
      DataType::Time(0),
      DataType::Time(3),
      DataType::Timestamp(0),
      DataType::Timestamp(3),
      DataType::Timestamp(6),
      DataType::Timestamp(9),
      DataType::TimestampLtz(3),
      DataType::TimestampLtz(6),
      DataType::Array(DataType::Int()),
      DataType::Map(DataType::String(false), DataType::BigInt()),
      DataType::Row({{0, "x", DataType::Int(), std::nullopt, std::nullopt},
                     {1, "y", DataType::String(), std::nullopt, std::nullopt},
                     {2, "z", DataType::Array(DataType::String()), std::nullopt, std::nullopt},
                     {3, "w", DataType::Decimal(20, 3), std::nullopt, std::nullopt}}),
  };
}

nlohmann::json RandomValue(const DataTypePtr& type, std::mt19937_64* rng) {
  if (type->nullable() && Uniform(rng, 0, 7) == 0) return nullptr;
  switch (type->root()) {
    case TypeRoot::kBoolean:
      return Uniform(rng, 0, 1) == 1;
    case TypeRoot::kTinyInt:
      return Uniform(rng, -128, 127);
    case TypeRoot::kSmallInt:
      return Uniform(rng, -32768, 32767);
    case TypeRoot::kInt:
      return Uniform(rng, INT32_MIN, INT32_MAX);
    case TypeRoot::kBigInt:
      return Uniform(rng, INT64_MIN, INT64_MAX);
    case TypeRoot::kFloat:
      // Multiples of 1/8: exact in a float, one shortest text in every language.
      return static_cast<double>(Uniform(rng, -80000, 80000)) / 8.0;
    case TypeRoot::kDouble:
      return std::uniform_real_distribution<double>(-1e9, 1e9)(*rng);
    case TypeRoot::kDecimal: {
      const int int_digits = type->precision() - type->scale();
      const bool negative = Uniform(rng, 0, 1) == 1;
      std::string digits;
      const int64_t n_int = Uniform(rng, 1, int_digits < 1 ? 1 : int_digits);
      for (int64_t i = 0; i < n_int; ++i) {
        digits += static_cast<char>('0' + Uniform(rng, i == 0 && n_int > 1 ? 1 : 0, 9));
      }
      if (int_digits < 1) digits = "0";
      std::string frac;
      for (int i = 0; i < type->scale(); ++i) frac += static_cast<char>('0' + Uniform(rng, 0, 9));
      std::string text = digits + (type->scale() > 0 ? "." + frac : "");
      const bool zero = text.find_first_not_of("0.") == std::string::npos;
      return (negative && !zero ? "-" : "") + text;
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return RandomText(rng);
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary: {
      std::string bytes;
      const int64_t n = Uniform(rng, 0, 9);
      for (int64_t i = 0; i < n; ++i) bytes.push_back(static_cast<char>(Uniform(rng, 0, 255)));
      return nlohmann::json{{"base64", Base64(bytes)}};
    }
    case TypeRoot::kDate:
      return Date(Uniform(rng, -25000, 50000));
    case TypeRoot::kTime: {
      const int64_t millis = Uniform(rng, 0, 86399999);
      const int64_t secs = millis / 1000;
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%02lld:%02lld:%02lld", static_cast<long long>(secs / 3600),
                    static_cast<long long>((secs / 60) % 60), static_cast<long long>(secs % 60));
      return buf +
             Fraction(type->precision() > 0 ? (millis % 1000) * 1000000 : 0, type->precision());
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      const int64_t seconds = Uniform(rng, -2208988800LL, 4102444799LL);  // 1900..2099
      int64_t nanos = Uniform(rng, 0, 999999999);
      if (type->precision() < 9) nanos -= nanos % Pow10(9 - type->precision());
      const int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
      const int64_t of_day = seconds - days * 86400;
      char buf[64];
      std::snprintf(
          buf, sizeof(buf), " %02lld:%02lld:%02lld", static_cast<long long>(of_day / 3600),
          static_cast<long long>((of_day / 60) % 60), static_cast<long long>(of_day % 60));
      return Date(days) + buf + Fraction(nanos, type->precision());
    }
    case TypeRoot::kArray: {
      nlohmann::json items = nlohmann::json::array();
      const int64_t n = Uniform(rng, 0, 4);
      for (int64_t i = 0; i < n; ++i) items.push_back(RandomValue(type->element(), rng));
      return items;
    }
    case TypeRoot::kMap: {
      nlohmann::json pairs = nlohmann::json::array();
      const int64_t n = Uniform(rng, 0, 3);
      for (int64_t i = 0; i < n; ++i) {
        // Distinct keys: "k0", "k1", ... with a random tail.
        pairs.push_back(
            {"k" + std::to_string(i) + RandomText(rng), RandomValue(type->value(), rng)});
      }
      return pairs;
    }
    case TypeRoot::kRow: {
      nlohmann::json fields = nlohmann::json::object();
      for (const DataField& f : type->fields()) fields[f.name] = RandomValue(f.type, rng);
      return fields;
    }
    default:
      return nullptr;
  }
}

nlohmann::json NormalizeValue(const nlohmann::json& value, const DataTypePtr& type) {
  if (value.is_null()) return value;
  switch (type->root()) {
    case TypeRoot::kFloat:
      if (value.is_number()) return static_cast<double>(value.get<float>());
      return value;
    case TypeRoot::kDouble:
      if (value.is_number()) return value.get<double>();
      return value;
    case TypeRoot::kArray: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : value) out.push_back(NormalizeValue(item, type->element()));
      return out;
    }
    case TypeRoot::kMap: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& pair : value) {
        out.push_back(
            {NormalizeValue(pair[0], type->key()), NormalizeValue(pair[1], type->value())});
      }
      // A map has no order (Java reads Avro maps through a hash map).
      std::sort(out.begin(), out.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return a.dump() < b.dump();
      });
      return out;
    }
    case TypeRoot::kRow: {
      nlohmann::json out = nlohmann::json::object();
      for (const DataField& f : type->fields()) {
        out[f.name] =
            NormalizeValue(value.contains(f.name) ? value[f.name] : nlohmann::json(), f.type);
      }
      return out;
    }
    default:
      return value;
  }
}

std::string NormalizeRow(const nlohmann::json& row, const std::vector<Column>& columns) {
  nlohmann::json out = nlohmann::json::object();
  if (row.contains("_ROW_KIND")) out["_ROW_KIND"] = row["_ROW_KIND"];
  for (const Column& column : columns) {
    out[column.name] = NormalizeValue(
        row.contains(column.name) ? row[column.name] : nlohmann::json(), column.type);
  }
  // Unknown members stay, so that a reader printing an extra column shows up as a mismatch.
  for (const auto& [name, value] : row.items()) {
    if (!out.contains(name)) out[name] = value;
  }
  return out.dump();
}

}  // namespace sluice::test
