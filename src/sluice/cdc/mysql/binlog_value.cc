#include "sluice/cdc/mysql/binlog_value.h"

#include <charconv>
#include <cstring>
#include <string>
#include <utility>

#include "sluice/base/base64.h"
#include "sluice/base/string_util.h"
#include "sluice/cdc/geometry_json.h"
#include "sluice/cdc/mysql/binlog_cursor.h"
#include "sluice/cdc/mysql/binlog_decimal.h"
#include "sluice/cdc/mysql/binlog_json.h"

namespace sluice {

namespace {

using T = BinlogColumnType;

Status Short(T type) {
  return Status::Corruption(BinlogColumnTypeName(type) + " value is truncated");
}

// --- numbers ---

template <typename Int>
void AppendInt(Int v, std::string* out) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

template <typename Float>
void AppendFloat(Float v, std::string* out) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

// An integer of `width` bytes, little-endian, signed or not.
Status ReadInteger(BinlogCursor* in, const BinlogColumn& column, size_t width, bool is_unsigned,
                   std::string* out) {
  uint64_t v;
  if (!in->ReadLE(width, &v)) return Short(column.type);
  if (is_unsigned) {
    AppendInt(v, out);
    return Status::OK();
  }
  const int shift = static_cast<int>(64 - 8 * width);
  AppendInt(static_cast<int64_t>(v << shift) >> shift, out);
  return Status::OK();
}

// --- dates and times ---

void Append2(uint32_t v, std::string* out) {
  out->push_back(static_cast<char>('0' + v / 10 % 10));
  out->push_back(static_cast<char>('0' + v % 10));
}

void AppendDate(uint32_t year, uint32_t month, uint32_t day, std::string* out) {
  Append2(year / 100, out);
  Append2(year % 100, out);
  out->push_back('-');
  Append2(month, out);
  out->push_back('-');
  Append2(day, out);
}

void AppendClock(uint32_t hour, uint32_t minute, uint32_t second, std::string* out) {
  if (hour >= 100) AppendInt(hour / 100, out);
  Append2(hour % 100, out);
  out->push_back(':');
  Append2(minute, out);
  out->push_back(':');
  Append2(second, out);
}

// ".fff" with `fsp` digits of `micros`; nothing for fsp 0.
void AppendFraction(uint32_t micros, uint32_t fsp, std::string* out) {
  if (fsp == 0) return;
  out->push_back('.');
  char buf[6];
  for (int i = 5; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + micros % 10);
    micros /= 10;
  }
  out->append(buf, fsp);
}

bool ValidClock(uint32_t hour, uint32_t minute, uint32_t second) {
  return hour <= 23 && minute <= 59 && second <= 59;
}

// Sets `out` to "YYYY-MM-DD[ HH:MM:SS[.f]]", or nullopt for a zero date (a zero month or day,
// which MySQL allows outside strict modes). Corruption for fields no date has.
Status SetDateTime(T type, uint32_t year, uint32_t month, uint32_t day, const uint32_t* clock,
                   uint32_t micros, uint32_t fsp, std::optional<std::string>* out) {
  if (year > 9999 || month > 12 || day > 31 ||
      (clock != nullptr && !ValidClock(clock[0], clock[1], clock[2])) || micros > 999999) {
    return Status::Corruption(BinlogColumnTypeName(type) + " value is not a date");
  }
  if (month == 0 || day == 0) {
    out->reset();
    return Status::OK();
  }
  std::string text;
  AppendDate(year, month, day, &text);
  if (clock != nullptr) {
    text.push_back(' ');
    AppendClock(clock[0], clock[1], clock[2], &text);
    AppendFraction(micros, fsp, &text);
  }
  *out = std::move(text);
  return Status::OK();
}

// The fraction of a TIME2 / DATETIME2 / TIMESTAMP2 value of `fsp` digits: big-endian in 0..3
// bytes, as hundredths / ten-thousandths / millionths of a second. Its raw value and bytes.
bool ReadFraction(BinlogCursor* in, uint32_t fsp, uint64_t* raw, size_t* width) {
  *width = (fsp + 1) / 2;
  return in->ReadBE(*width, raw);
}
uint32_t FractionMicros(uint64_t raw, size_t width) {
  static constexpr uint32_t kScale[4] = {0, 10000, 100, 1};
  return static_cast<uint32_t>(raw * kScale[width]);
}

// Days since 1970-01-01 as a civil date (H. Hinnant's civil_from_days).
void CivilFromDays(int64_t days, int64_t* year, uint32_t* month, uint32_t* day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<uint32_t>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<uint32_t>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

Status SetTimestamp(T type, int64_t seconds, uint32_t micros, uint32_t fsp, const TimeZone* zone,
                    std::optional<std::string>* out) {
  if (seconds == 0 && micros == 0) {  // '0000-00-00 00:00:00'
    out->reset();
    return Status::OK();
  }
  if (micros > 999999) {
    return Status::Corruption(BinlogColumnTypeName(type) + " value is not an instant");
  }
  const int64_t local = seconds + (zone != nullptr ? zone->OffsetAt(seconds) : 0);
  int64_t days = local / 86400, second_of_day = local % 86400;
  if (second_of_day < 0) {
    second_of_day += 86400;
    --days;
  }
  int64_t year;
  uint32_t month, day;
  CivilFromDays(days, &year, &month, &day);
  const uint32_t clock[3] = {static_cast<uint32_t>(second_of_day / 3600),
                             static_cast<uint32_t>(second_of_day / 60 % 60),
                             static_cast<uint32_t>(second_of_day % 60)};
  return SetDateTime(type, static_cast<uint32_t>(year), month, day, clock, micros, fsp, out);
}

Status SetTime(bool negative, uint64_t hour, uint64_t minute, uint64_t second, uint64_t micros,
               uint32_t fsp, T type, std::optional<std::string>* out) {
  if (hour > 838 || minute > 59 || second > 59 || micros > 999999) {
    return Status::Corruption(BinlogColumnTypeName(type) + " value is not a time");
  }
  std::string text;
  if (negative) text.push_back('-');
  AppendClock(static_cast<uint32_t>(hour), static_cast<uint32_t>(minute),
              static_cast<uint32_t>(second), &text);
  AppendFraction(static_cast<uint32_t>(micros), fsp, &text);
  *out = std::move(text);
  return Status::OK();
}

// MySQL 5.6's TIME2 (my_time_packed_from_binary): 3 bytes of sign-offset hours / minutes /
// seconds, then the fraction, which a negative value stores counted from the next second.
Status ReadTime2(BinlogCursor* in, const BinlogColumn& column, std::optional<std::string>* out) {
  const uint32_t fsp = column.meta;
  if (fsp > 6) return Status::Corruption("TIME2 has " + std::to_string(fsp) + " fraction digits");
  constexpr int64_t kIntOffset = 0x800000;
  uint64_t int_raw, frac_raw;
  size_t width;
  if (!in->ReadBE(3, &int_raw) || !ReadFraction(in, fsp, &frac_raw, &width)) {
    return Short(column.type);
  }
  int64_t packed;  // (hms << 24) + micros, signed
  if (width == 3) {
    packed = static_cast<int64_t>((int_raw << 24) | frac_raw) - (kIntOffset << 24);
  } else {
    int64_t int_part = static_cast<int64_t>(int_raw) - kIntOffset;
    int64_t frac = static_cast<int64_t>(frac_raw);
    if (int_part < 0 && frac != 0) {
      ++int_part;
      frac -= int64_t{1} << (8 * width);
    }
    packed = int_part * (int64_t{1} << 24) + frac * (width == 1 ? 10000 : width == 2 ? 100 : 0);
  }
  const bool negative = packed < 0;
  const uint64_t magnitude = negative ? static_cast<uint64_t>(-packed) : packed;
  const uint64_t hms = magnitude >> 24;
  return SetTime(negative, (hms >> 12) % 1024, (hms >> 6) % 64, hms % 64, magnitude % (1 << 24),
                 fsp, column.type, out);
}

Status ReadTemporal(BinlogCursor* in, const BinlogColumn& column, const TimeZone* zone,
                    std::optional<std::string>* out) {
  const T type = column.type;
  uint64_t v;
  switch (type) {
    case T::kDate:
    case T::kNewDate: {
      if (!in->ReadLE(3, &v)) return Short(type);
      return SetDateTime(type, static_cast<uint32_t>(v >> 9), (v >> 5) & 15, v & 31, nullptr, 0, 0,
                         out);
    }
    case T::kTime: {  // [-]HHMMSS as a signed 3-byte integer
      if (!in->ReadLE(3, &v)) return Short(type);
      const int64_t hms = static_cast<int64_t>(v << 40) >> 40;
      const uint64_t m = static_cast<uint64_t>(hms < 0 ? -hms : hms);
      return SetTime(hms < 0, m / 10000, m / 100 % 100, m % 100, 0, 0, type, out);
    }
    case T::kDateTime: {  // YYYYMMDDhhmmss as an integer
      if (!in->ReadLE(8, &v)) return Short(type);
      const uint64_t date = v / 1000000, time = v % 1000000;
      const uint32_t clock[3] = {static_cast<uint32_t>(time / 10000),
                                 static_cast<uint32_t>(time / 100 % 100),
                                 static_cast<uint32_t>(time % 100)};
      if (date / 10000 > 9999) return Status::Corruption("DATETIME value is not a date");
      return SetDateTime(type, static_cast<uint32_t>(date / 10000), date / 100 % 100, date % 100,
                         clock, 0, 0, out);
    }
    case T::kTimestamp:
      if (!in->ReadLE(4, &v)) return Short(type);
      return SetTimestamp(type, static_cast<int64_t>(v), 0, 0, zone, out);
    case T::kTimestamp2:
    case T::kDateTime2: {
      const uint32_t fsp = column.meta;
      if (fsp > 6) {
        return Status::Corruption(BinlogColumnTypeName(type) + " has " + std::to_string(fsp) +
                                  " fraction digits");
      }
      uint64_t frac;
      size_t width;
      if (!in->ReadBE(type == T::kTimestamp2 ? 4 : 5, &v) ||
          !ReadFraction(in, fsp, &frac, &width)) {
        return Short(type);
      }
      const uint32_t micros = FractionMicros(frac, width);
      if (type == T::kTimestamp2) {
        return SetTimestamp(type, static_cast<int64_t>(v), micros, fsp, zone, out);
      }
      // 1 sign bit (set: not negative), 17 bits year * 13 + month, 5 day, 5 hour, 6 minute,
      // 6 second.
      constexpr uint64_t kSign = uint64_t{1} << 39;
      if (v < kSign) return Status::Corruption("DATETIME2 value is negative");
      const uint64_t packed = v - kSign;
      const uint64_t ymd = packed >> 17, ym = ymd >> 5, hms = packed & 0x1FFFF;
      const uint32_t clock[3] = {static_cast<uint32_t>(hms >> 12),
                                 static_cast<uint32_t>((hms >> 6) & 63),
                                 static_cast<uint32_t>(hms & 63)};
      return SetDateTime(type, static_cast<uint32_t>(ym / 13), ym % 13, ymd & 31, clock, micros,
                         fsp, out);
    }
    case T::kTime2:
      return ReadTime2(in, column, out);
    default:
      return Status::Internal("not a temporal type");
  }
}

// --- strings ---

// MySQL's latin1 is Windows-1252 with the five bytes that code page leaves undefined mapped to
// the C1 controls (strings/ctype-latin1.cc): 0x80..0x9F.
constexpr uint16_t kCp1252High[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

void AppendLatin1AsUtf8(std::string_view bytes, std::string* out) {
  out->reserve(out->size() + bytes.size());
  for (char ch : bytes) {
    const uint8_t b = static_cast<uint8_t>(ch);
    const uint32_t cp = b >= 0x80 && b < 0xA0 ? kCp1252High[b - 0x80] : b;
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | cp >> 6));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xE0 | cp >> 12));
      out->push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
}

BinlogCharset CharsetOf(const BinlogColumn& column, const BinlogColumnFormat* format) {
  if (column.collation.has_value()) return BinlogCharsetOfCollation(*column.collation);
  return format != nullptr ? format->charset : BinlogCharset::kUtf8;
}

void AppendText(std::string_view bytes, BinlogCharset charset, std::string* out) {
  if (charset == BinlogCharset::kLatin1) {
    AppendLatin1AsUtf8(bytes, out);
  } else {
    out->append(bytes);
  }
}

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (char ch : text) {
    const uint8_t b = static_cast<uint8_t>(ch);
    if (ch == '"' || ch == '\\') {
      out->push_back('\\');
      out->push_back(ch);
    } else if (b < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out->append("\\u00");
      out->push_back(kHex[b >> 4]);
      out->push_back(kHex[b & 15]);
    } else {
      out->push_back(ch);
    }
  }
  out->push_back('"');
}

// The members of an ENUM / SET column (UTF-8 or, from the event, in the column's charset).
Status MembersOf(const BinlogColumn& column, const BinlogColumnFormat* format,
                 const std::vector<std::string>** members, BinlogCharset* charset) {
  if (column.members.has_value()) {
    *members = &*column.members;
    *charset = CharsetOf(column, nullptr);
    return Status::OK();
  }
  if (format != nullptr && !format->members.empty()) {
    *members = &format->members;
    *charset = BinlogCharset::kUtf8;
    return Status::OK();
  }
  return Status::InvalidArgument(
      BinlogColumnTypeName(column.real_type) +
      " members are unknown: the TABLE_MAP event has none (binlog_row_metadata=FULL gives "
      "them) and the column format lists none");
}

Status ReadEnumOrSet(BinlogCursor* in, const BinlogColumn& column, const BinlogColumnFormat* format,
                     std::string* out) {
  const T type = column.real_type;
  uint64_t v;
  if (column.length == 0 || !in->ReadLE(column.length, &v)) return Short(type);
  const std::vector<std::string>* members;
  BinlogCharset charset;
  SLUICE_RETURN_NOT_OK(MembersOf(column, format, &members, &charset));
  if (type == T::kEnum) {
    if (v == 0) return Status::OK();  // the '' of an invalid value
    if (v > members->size()) {
      return Status::Corruption("ENUM index " + std::to_string(v) + " is past its " +
                                std::to_string(members->size()) + " members");
    }
    AppendText((*members)[v - 1], charset, out);
    return Status::OK();
  }
  out->push_back('[');
  bool first = true;
  for (size_t bit = 0; bit < 64 && (v >> bit) != 0; ++bit) {
    if (((v >> bit) & 1) == 0) continue;
    if (bit >= members->size()) {
      return Status::Corruption("SET bit " + std::to_string(bit) + " is past its " +
                                std::to_string(members->size()) + " members");
    }
    if (!first) out->push_back(',');
    first = false;
    std::string member;
    AppendText((*members)[bit], charset, &member);
    AppendJsonString(member, out);
  }
  out->push_back(']');
  return Status::OK();
}

Status ReadBit(BinlogCursor* in, const BinlogColumn& column, std::string* out) {
  const uint32_t bits = (column.meta >> 8) * 8 + (column.meta & 0xFF);
  const size_t width = (bits + 7) / 8;
  std::string_view bytes;
  if (!in->ReadBytes(width, &bytes)) return Short(column.type);
  if (bits == 1) {
    out->push_back((bytes[0] & 1) != 0 ? '1' : '0');
  } else {
    out->append(Base64Encode(bytes));
  }
  return Status::OK();
}

}  // namespace

BinlogCharset BinlogCharsetOfCollation(uint32_t collation) {
  switch (collation) {
    case kBinaryCollation:
      return BinlogCharset::kBinary;
    // latin1_german1_ci, latin1_swedish_ci, latin1_danish_ci, latin1_german2_ci, latin1_bin,
    // latin1_general_ci, latin1_general_cs, latin1_spanish_ci; MariaDB's latin1_swedish_nopad_ci
    // and latin1_nopad_bin.
    case 5:
    case 8:
    case 15:
    case 31:
    case 47:
    case 48:
    case 49:
    case 94:
    case 1032:
    case 1071:
      return BinlogCharset::kLatin1;
    default:
      return BinlogCharset::kUtf8;
  }
}

BinlogColumnFormat BinlogColumnFormatOf(const MySqlType& type,
                                        std::string_view character_set_name) {
  BinlogColumnFormat format;
  format.is_unsigned = type.name.find("UNSIGNED") != std::string::npos ||
                       type.name.find("ZEROFILL") != std::string::npos || type.name == "SERIAL";
  const std::string charset = AsciiToLower(character_set_name);
  if (charset == "latin1") {
    format.charset = BinlogCharset::kLatin1;
  } else if (charset == "binary" ||
             (charset.empty() && (type.name.find("BINARY") != std::string::npos ||
                                  type.name.find("BLOB") != std::string::npos))) {
    format.charset = BinlogCharset::kBinary;
  }
  format.members = type.members;
  return format;
}

Status ReadBinlogValue(BinlogCursor* in, const BinlogColumn& column,
                       const BinlogColumnFormat* format, const TimeZone* server_zone,
                       std::optional<std::string>* out) {
  const bool is_unsigned = column.is_unsigned.value_or(format != nullptr && format->is_unsigned);
  std::string& text = out->emplace();
  switch (column.type) {
    case T::kTiny:
      return ReadInteger(in, column, 1, is_unsigned, &text);
    case T::kShort:
      return ReadInteger(in, column, 2, is_unsigned, &text);
    case T::kInt24:
      return ReadInteger(in, column, 3, is_unsigned, &text);
    case T::kLong:
      return ReadInteger(in, column, 4, is_unsigned, &text);
    case T::kLongLong:
      return ReadInteger(in, column, 8, is_unsigned, &text);
    case T::kYear: {
      uint8_t year;
      if (!in->ReadU8(&year)) return Short(column.type);
      AppendInt(year == 0 ? 0 : 1900 + year, &text);
      return Status::OK();
    }
    case T::kFloat: {
      uint64_t bits;
      if (!in->ReadLE(4, &bits)) return Short(column.type);
      float f;
      const uint32_t bits32 = static_cast<uint32_t>(bits);
      std::memcpy(&f, &bits32, 4);
      AppendFloat(f, &text);
      return Status::OK();
    }
    case T::kDouble: {
      uint64_t bits;
      if (!in->ReadLE(8, &bits)) return Short(column.type);
      double d;
      std::memcpy(&d, &bits, 8);
      AppendFloat(d, &text);
      return Status::OK();
    }
    case T::kNewDecimal:
      return ReadBinlogDecimal(in, column.meta >> 8, column.meta & 0xFF, &text);
    case T::kDate:
    case T::kNewDate:
    case T::kTime:
    case T::kDateTime:
    case T::kTimestamp:
    case T::kTimestamp2:
    case T::kDateTime2:
    case T::kTime2:
      return ReadTemporal(in, column, server_zone, out);
    case T::kVarchar:
    case T::kVarString: {
      uint64_t length;
      std::string_view bytes;
      if (!in->ReadLE(column.meta < 256 ? 1 : 2, &length) || !in->ReadBytes(length, &bytes)) {
        return Short(column.type);
      }
      AppendText(bytes, CharsetOf(column, format), &text);
      return Status::OK();
    }
    case T::kString:
    case T::kEnum:
    case T::kSet: {
      if (column.real_type != T::kString) return ReadEnumOrSet(in, column, format, &text);
      uint64_t length;
      std::string_view bytes;
      if (!in->ReadLE(column.length < 256 ? 1 : 2, &length) || !in->ReadBytes(length, &bytes)) {
        return Short(column.type);
      }
      const BinlogCharset charset = CharsetOf(column, format);
      AppendText(bytes, charset, &text);
      if (charset == BinlogCharset::kBinary && text.size() < column.length) {
        text.resize(column.length, '\0');
      }
      return Status::OK();
    }
    case T::kBlob:
    case T::kTinyBlob:
    case T::kMediumBlob:
    case T::kLongBlob:
    case T::kJson: {
      uint64_t length;
      std::string_view bytes;
      if (column.meta < 1 || column.meta > 4 || !in->ReadLE(column.meta, &length) ||
          !in->ReadBytes(length, &bytes)) {
        return Short(column.type);
      }
      if (column.type == T::kJson) return AppendBinlogJson(bytes, &text);
      AppendText(bytes, CharsetOf(column, format), &text);
      return Status::OK();
    }
    case T::kBit:
      return ReadBit(in, column, &text);
    case T::kGeometry: {
      // A BLOB of the SRID and the WKB, as Java's sinks write it: geometry_json.h.
      uint64_t length;
      std::string_view bytes;
      if (column.meta < 1 || column.meta > 4 || !in->ReadLE(column.meta, &length) ||
          !in->ReadBytes(length, &bytes)) {
        return Short(column.type);
      }
      SLUICE_ASSIGN_OR_RETURN(text, MySqlGeometryToJson(bytes));
      return Status::OK();
    }
    case T::kVarcharCompressed:
    case T::kBlobCompressed:
      return Status::NotSupported(BinlogColumnTypeName(column.type) +
                                  " (a MariaDB compressed column) is not supported");
    case T::kDecimal:
      return Status::NotSupported("pre-5.0 DECIMAL values are not supported");
    case T::kNull:
      return Status::Corruption("a NULL-type column holds a value");
  }
  return Status::NotSupported(BinlogColumnTypeName(column.type) + " values are not supported");
}

}  // namespace sluice
