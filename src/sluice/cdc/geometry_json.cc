#include "sluice/cdc/geometry_json.h"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace sluice {

namespace {

// Geometry collections nest; WKB from a server nests a few levels at most.
constexpr int kMaxDepth = 32;

class WkbReader {
 public:
  explicit WkbReader(std::string_view bytes) : bytes_(bytes) {}

  bool done() const { return pos_ == bytes_.size(); }

  Status Geometry(std::string* coordinates, std::string* type, std::string* geometries, int depth) {
    if (depth > kMaxDepth) return Status::Corruption("WKB: geometry collections nest too deep");
    uint8_t order = 0;
    if (!Byte(&order) || order > 1) return Short("byte order");
    little_ = order == 1;
    uint32_t kind = 0;
    if (!U32(&kind)) return Short("geometry type");
    switch (kind) {
      case 1:
        *type = "Point";
        return Point(coordinates);
      case 2:
        *type = "LineString";
        return Points(coordinates);
      case 3:
        *type = "Polygon";
        return Rings(coordinates);
      case 4:
      case 5:
      case 6: {
        *type = kind == 4 ? "MultiPoint" : kind == 5 ? "MultiLineString" : "MultiPolygon";
        uint32_t count = 0;
        if (!U32(&count)) return Short("part count");
        *coordinates += '[';
        for (uint32_t i = 0; i < count; ++i) {
          if (i > 0) *coordinates += ',';
          std::string part_type, part, unused;
          SLUICE_RETURN_NOT_OK(Geometry(&part, &part_type, &unused, depth + 1));
          if (part_type != (kind == 4 ? "Point" : kind == 5 ? "LineString" : "Polygon")) {
            return Status::Corruption("WKB: a " + *type + " holds a " + part_type);
          }
          *coordinates += part;
        }
        *coordinates += ']';
        return Status::OK();
      }
      case 7: {
        *type = "GeometryCollection";
        uint32_t count = 0;
        if (!U32(&count)) return Short("geometry count");
        *geometries += '[';
        for (uint32_t i = 0; i < count; ++i) {
          if (i > 0) *geometries += ',';
          std::string part_type, part, nested;
          SLUICE_RETURN_NOT_OK(Geometry(&part, &part_type, &nested, depth + 1));
          *geometries += "{\"type\":\"" + part_type + "\",";
          *geometries += part_type == "GeometryCollection" ? "\"geometries\":" + nested
                                                           : "\"coordinates\":" + part;
          *geometries += '}';
        }
        *geometries += ']';
        return Status::OK();
      }
      default:
        return Status::Corruption("WKB: geometry type " + std::to_string(kind) +
                                  " is not a 2D OGC type");
    }
  }

 private:
  Status Short(std::string_view what) const {
    return Status::Corruption("WKB: " + std::string(what) + " past the end of " +
                              std::to_string(bytes_.size()) + " bytes");
  }
  bool Byte(uint8_t* out) {
    if (pos_ + 1 > bytes_.size()) return false;
    *out = static_cast<uint8_t>(bytes_[pos_++]);
    return true;
  }
  bool U32(uint32_t* out) {
    if (pos_ + 4 > bytes_.size()) return false;
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const uint32_t byte = static_cast<uint8_t>(bytes_[pos_ + (little_ ? i : 3 - i)]);
      value |= byte << (8 * i);
    }
    pos_ += 4;
    *out = value;
    return true;
  }
  bool Double(double* out) {
    if (pos_ + 8 > bytes_.size()) return false;
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t byte = static_cast<uint8_t>(bytes_[pos_ + (little_ ? i : 7 - i)]);
      bits |= byte << (8 * i);
    }
    pos_ += 8;
    std::memcpy(out, &bits, sizeof(bits));
    return true;
  }
  Status Point(std::string* out) {
    double x = 0, y = 0;
    if (!Double(&x) || !Double(&y)) return Short("point");
    *out += '[' + Number(x) + ',' + Number(y) + ']';
    return Status::OK();
  }
  Status Points(std::string* out) {
    uint32_t count = 0;
    if (!U32(&count)) return Short("point count");
    if (count > (bytes_.size() - pos_) / 16) return Short("points");
    *out += '[';
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) *out += ',';
      SLUICE_RETURN_NOT_OK(Point(out));
    }
    *out += ']';
    return Status::OK();
  }
  Status Rings(std::string* out) {
    uint32_t count = 0;
    if (!U32(&count)) return Short("ring count");
    if (count > (bytes_.size() - pos_) / 4) return Short("rings");
    *out += '[';
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) *out += ',';
      SLUICE_RETURN_NOT_OK(Points(out));
    }
    *out += ']';
    return Status::OK();
  }
  static std::string Number(double value) {
    char text[32];
    auto [end, error] = std::to_chars(text, text + sizeof(text), value);
    return std::string(text, error == std::errc() ? end : text);
  }

  std::string_view bytes_;
  size_t pos_ = 0;
  bool little_ = true;
};

}  // namespace

Result<std::string> WkbToJson(std::string_view wkb) {
  WkbReader reader(wkb);
  std::string coordinates, type, geometries;
  SLUICE_RETURN_NOT_OK(reader.Geometry(&coordinates, &type, &geometries, 0));
  if (!reader.done()) return Status::Corruption("WKB: bytes after the geometry");
  if (type == "GeometryCollection") {
    return "{\"geometries\":" + geometries + ",\"type\":\"" + type + "\",\"srid\":0}";
  }
  return "{\"coordinates\":" + coordinates + ",\"type\":\"" + type + "\",\"srid\":0}";
}

Result<std::string> MySqlGeometryToJson(std::string_view value) {
  if (value.size() < 4) return Status::Corruption("a MySQL geometry value shorter than its SRID");
  return WkbToJson(value.substr(4));
}

}  // namespace sluice
