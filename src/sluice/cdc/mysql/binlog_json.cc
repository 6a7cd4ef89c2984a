#include "sluice/cdc/mysql/binlog_json.h"

#include <charconv>
#include <cstdint>
#include <cstring>

#include "sluice/base/base64.h"
#include "sluice/cdc/mysql/binlog_cursor.h"
#include "sluice/cdc/mysql/binlog_decimal.h"

namespace sluice {

namespace {

enum JsonType : uint8_t {
  kSmallObject = 0x00,
  kLargeObject = 0x01,
  kSmallArray = 0x02,
  kLargeArray = 0x03,
  kLiteral = 0x04,
  kInt16 = 0x05,
  kUint16 = 0x06,
  kInt32 = 0x07,
  kUint32 = 0x08,
  kInt64 = 0x09,
  kUint64 = 0x0a,
  kDouble = 0x0b,
  kString = 0x0c,
  kOpaque = 0x0f,
};

constexpr int kMaxDepth = 100;

// Field types of opaque values that print as text (MySQL's enum_field_types).
constexpr uint8_t kFieldDate = 10, kFieldTime = 11, kFieldDateTime = 12, kFieldTimestamp = 7,
                  kFieldNewDecimal = 246;

Status Bad(const std::string& what) { return Status::Corruption("JSON value: " + what); }

uint64_t LittleEndian(std::string_view bytes, size_t offset, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) {
    v |= uint64_t{static_cast<uint8_t>(bytes[offset + i])} << (8 * i);
  }
  return v;
}

template <typename Number>
void AppendNumber(Number v, std::string* out) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
}

void AppendQuoted(std::string_view text, std::string* out) {
  out->push_back('"');
  for (char ch : text) {
    const uint8_t b = static_cast<uint8_t>(ch);
    switch (ch) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (b < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out->append("\\u00");
          out->push_back(kHex[b >> 4]);
          out->push_back(kHex[b & 15]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

void Append2(uint64_t v, std::string* out) {
  out->push_back(static_cast<char>('0' + v / 10 % 10));
  out->push_back(static_cast<char>('0' + v % 10));
}

// A temporal opaque value: MySQL's packed longlong (hms or ymdhms << 24 | microseconds).
void AppendPackedTemporal(uint8_t field_type, int64_t packed, std::string* out) {
  const bool negative = packed < 0;
  const uint64_t magnitude =
      negative ? 0 - static_cast<uint64_t>(packed) : static_cast<uint64_t>(packed);
  const uint64_t whole = magnitude >> 24, micros = magnitude % (1 << 24);
  const uint64_t hms = field_type == kFieldTime ? whole : whole % (1 << 17);
  out->push_back('"');
  if (field_type != kFieldTime) {
    const uint64_t ymd = whole >> 17, ym = ymd >> 5;
    Append2(ym / 13 / 100, out);
    Append2(ym / 13 % 100, out);
    out->push_back('-');
    Append2(ym % 13, out);
    out->push_back('-');
    Append2(ymd % 32, out);
    if (field_type == kFieldDate) {
      out->push_back('"');
      return;
    }
    out->push_back(' ');
  } else if (negative) {
    out->push_back('-');
  }
  const uint64_t hour = (hms >> 12) % 1024;
  if (hour >= 100) AppendNumber(hour / 100, out);
  Append2(hour % 100, out);
  out->push_back(':');
  Append2((hms >> 6) % 64, out);
  out->push_back(':');
  Append2(hms % 64, out);
  out->push_back('.');
  char buf[6];
  uint64_t m = micros;
  for (int i = 5; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + m % 10);
    m /= 10;
  }
  out->append(buf, 6);
  out->push_back('"');
}

// MySQL's variable-length length: 7 bits a byte, low first, the top bit set on all but the
// last (at most 5 bytes).
bool ReadVarLength(std::string_view bytes, size_t* pos, uint64_t* length) {
  *length = 0;
  for (int i = 0; i < 5; ++i) {
    if (*pos >= bytes.size()) return false;
    const uint8_t b = static_cast<uint8_t>(bytes[(*pos)++]);
    *length |= uint64_t{b & 0x7Fu} << (7 * i);
    if ((b & 0x80) == 0) return *length <= bytes.size() - *pos;
  }
  return false;
}

Status AppendValue(uint8_t type, std::string_view bytes, size_t offset, int depth,
                   std::string* out);

// An object or array whose count starts at `bytes[offset]`; offsets inside it count from there.
Status AppendContainer(uint8_t type, std::string_view bytes, size_t offset, int depth,
                       std::string* out) {
  if (depth > kMaxDepth) return Bad("nested deeper than " + std::to_string(kMaxDepth));
  const bool large = type == kLargeObject || type == kLargeArray;
  const bool object = type == kSmallObject || type == kLargeObject;
  const size_t word = large ? 4 : 2;
  if (bytes.size() - offset < 2 * word) return Bad("container header is truncated");
  const uint64_t count = LittleEndian(bytes, offset, word);
  const uint64_t size = LittleEndian(bytes, offset + word, word);
  if (size > bytes.size() - offset || size < 2 * word) return Bad("container size is past the end");
  const std::string_view container = bytes.substr(offset, size);
  const size_t key_entry = word + 2, value_entry = 1 + word;
  const uint64_t entries_end = 2 * word + count * ((object ? key_entry : 0) + value_entry);
  if (count > size || entries_end > size) return Bad("element count is past the end");
  out->push_back(object ? '{' : '[');
  for (uint64_t i = 0; i < count; ++i) {
    if (i > 0) out->append(", ");
    if (object) {
      const size_t entry = 2 * word + i * key_entry;
      const uint64_t key_offset = LittleEndian(container, entry, word);
      const uint64_t key_length = LittleEndian(container, entry + word, 2);
      if (key_offset > size || key_length > size - key_offset) return Bad("key is past the end");
      AppendQuoted(container.substr(key_offset, key_length), out);
      out->append(": ");
    }
    const size_t entry = 2 * word + (object ? count * key_entry : 0) + i * value_entry;
    const uint8_t value_type = static_cast<uint8_t>(container[entry]);
    // Literals and integers that fit the offset field are inlined in it.
    const bool inlined = value_type == kLiteral || value_type == kInt16 || value_type == kUint16 ||
                         (large && (value_type == kInt32 || value_type == kUint32));
    if (inlined) {
      SLUICE_RETURN_NOT_OK(AppendValue(value_type, container, entry + 1, depth + 1, out));
      continue;
    }
    const uint64_t value_offset = LittleEndian(container, entry + 1, word);
    if (value_offset >= size) return Bad("value offset is past the end");
    SLUICE_RETURN_NOT_OK(AppendValue(value_type, container, value_offset, depth + 1, out));
  }
  out->push_back(object ? '}' : ']');
  return Status::OK();
}

Status AppendValue(uint8_t type, std::string_view bytes, size_t offset, int depth,
                   std::string* out) {
  const size_t left = bytes.size() - offset;
  auto need = [&](size_t n) { return left >= n; };
  switch (type) {
    case kSmallObject:
    case kLargeObject:
    case kSmallArray:
    case kLargeArray:
      return AppendContainer(type, bytes, offset, depth, out);
    case kLiteral: {
      if (!need(1)) return Bad("literal is truncated");
      const uint8_t literal = static_cast<uint8_t>(bytes[offset]);
      if (literal > 2) return Bad("literal " + std::to_string(literal) + " is unknown");
      out->append(literal == 0 ? "null" : literal == 1 ? "true" : "false");
      return Status::OK();
    }
    case kInt16:
    case kUint16:
    case kInt32:
    case kUint32:
    case kInt64:
    case kUint64: {
      const size_t width = type <= kUint16 ? 2 : type <= kUint32 ? 4 : 8;
      if (!need(width)) return Bad("number is truncated");
      const uint64_t v = LittleEndian(bytes, offset, width);
      if (type == kUint16 || type == kUint32 || type == kUint64) {
        AppendNumber(v, out);
      } else {
        const int shift = static_cast<int>(64 - 8 * width);
        AppendNumber(static_cast<int64_t>(v << shift) >> shift, out);
      }
      return Status::OK();
    }
    case kDouble: {
      if (!need(8)) return Bad("double is truncated");
      const uint64_t bits = LittleEndian(bytes, offset, 8);
      double d;
      std::memcpy(&d, &bits, 8);
      AppendNumber(d, out);
      return Status::OK();
    }
    case kString: {
      size_t pos = offset;
      uint64_t length;
      if (!ReadVarLength(bytes, &pos, &length)) return Bad("string is truncated");
      AppendQuoted(bytes.substr(pos, length), out);
      return Status::OK();
    }
    case kOpaque: {
      if (!need(1)) return Bad("opaque value is truncated");
      const uint8_t field_type = static_cast<uint8_t>(bytes[offset]);
      size_t pos = offset + 1;
      uint64_t length;
      if (!ReadVarLength(bytes, &pos, &length)) return Bad("opaque value is truncated");
      const std::string_view data = bytes.substr(pos, length);
      if (field_type == kFieldNewDecimal && data.size() >= 2) {
        BinlogCursor in(data.substr(2));
        return ReadBinlogDecimal(&in, static_cast<uint8_t>(data[0]), static_cast<uint8_t>(data[1]),
                                 out);
      }
      if ((field_type == kFieldDate || field_type == kFieldTime || field_type == kFieldDateTime ||
           field_type == kFieldTimestamp) &&
          data.size() == 8) {
        AppendPackedTemporal(field_type, static_cast<int64_t>(LittleEndian(data, 0, 8)), out);
        return Status::OK();
      }
      // Other MySQL types (BLOB, BIT, GEOMETRY, ...): base64 of the bytes, as MySQL prints
      // them ("base64:type15:...").
      out->append("\"base64:type" + std::to_string(field_type) + ":" + Base64Encode(data) + "\"");
      return Status::OK();
    }
    default:
      return Bad("value type " + std::to_string(type) + " is unknown");
  }
}

}  // namespace

Status AppendBinlogJson(std::string_view value, std::string* out) {
  if (value.empty()) {
    out->append("null");
    return Status::OK();
  }
  return AppendValue(static_cast<uint8_t>(value[0]), value, 1, 0, out);
}

}  // namespace sluice
