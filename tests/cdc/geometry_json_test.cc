#include "sluice/cdc/geometry_json.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_util.h"

namespace sluice {
namespace {

// WKB built by hand, little-endian unless `big`.
class Wkb {
 public:
  explicit Wkb(bool big = false) : big_(big) {}
  Wkb& Header(uint32_t type) {
    bytes_.push_back(big_ ? 0 : 1);
    return U32(type);
  }
  Wkb& U32(uint32_t value) {
    for (int i = 0; i < 4; ++i) {
      bytes_.push_back(static_cast<char>(value >> (8 * (big_ ? 3 - i : i))));
    }
    return *this;
  }
  Wkb& Point(double x, double y) { return Double(x).Double(y); }
  Wkb& Append(const std::string& more) {
    bytes_ += more;
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  Wkb& Double(double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    for (int i = 0; i < 8; ++i) {
      bytes_.push_back(static_cast<char>(bits >> (8 * (big_ ? 7 - i : i))));
    }
    return *this;
  }
  bool big_;
  std::string bytes_;
};

// The texts Java's MySQL sync tests expect (KafkaCanalSyncTableActionITCase, Paimon 1.4.2).
TEST(GeometryJsonTest, WritesWhatJavaWrites) {
  EXPECT_EQ(*WkbToJson(Wkb().Header(1).Point(1, 1).bytes()),
            R"({"coordinates":[1,1],"type":"Point","srid":0})");
  EXPECT_EQ(*WkbToJson(Wkb(/*big=*/true).Header(1).Point(1.5, -2).bytes()),
            R"({"coordinates":[1.5,-2],"type":"Point","srid":0})");
  EXPECT_EQ(*WkbToJson(Wkb().Header(2).U32(3).Point(3, 0).Point(3, 3).Point(3, 5).bytes()),
            R"({"coordinates":[[3,0],[3,3],[3,5]],"type":"LineString","srid":0})");
  EXPECT_EQ(*WkbToJson(Wkb()
                           .Header(3)
                           .U32(1)
                           .U32(5)
                           .Point(1, 1)
                           .Point(2, 1)
                           .Point(2, 2)
                           .Point(1, 2)
                           .Point(1, 1)
                           .bytes()),
            R"({"coordinates":[[[1,1],[2,1],[2,2],[1,2],[1,1]]],"type":"Polygon","srid":0})");
  const std::string p1 = Wkb().Header(1).Point(1, 1).bytes();
  const std::string p2 = Wkb().Header(1).Point(2, 2).bytes();
  EXPECT_EQ(*WkbToJson(Wkb().Header(4).U32(2).Append(p1).Append(p2).bytes()),
            R"({"coordinates":[[1,1],[2,2]],"type":"MultiPoint","srid":0})");
  const std::string line = Wkb().Header(2).U32(2).Point(15, 15).Point(20, 20).bytes();
  EXPECT_EQ(
      *WkbToJson(Wkb()
                     .Header(7)
                     .U32(2)
                     .Append(Wkb().Header(1).Point(10, 10).bytes())
                     .Append(line)
                     .bytes()),
      R"({"geometries":[{"type":"Point","coordinates":[10,10]},{"type":"LineString","coordinates":[[15,15],[20,20]]}],"type":"GeometryCollection","srid":0})");
  // MySQL's own form: the SRID first (Java writes 0 whatever it is).
  EXPECT_EQ(*MySqlGeometryToJson(Wkb().U32(4326).Header(1).Point(1, 2).bytes()),
            R"({"coordinates":[1,2],"type":"Point","srid":0})");
}

TEST(GeometryJsonTest, MalformedWkbIsCorruption) {
  const std::string polygon =
      Wkb().Header(3).U32(1).U32(4).Point(0, 0).Point(1, 0).Point(1, 1).Point(0, 0).bytes();
  for (size_t cut = 0; cut < polygon.size(); ++cut) {
    EXPECT_TRUE(WkbToJson(polygon.substr(0, cut)).status().IsCorruption()) << cut;
  }
  EXPECT_TRUE(test::HasError(WkbToJson(Wkb().Header(99).bytes()).status(), StatusCode::kCorruption,
                             {"geometry type 99"}));
  EXPECT_TRUE(test::HasError(
      WkbToJson(Wkb().Header(4).U32(1).Append(Wkb().Header(2).U32(0).bytes()).bytes()).status(),
      StatusCode::kCorruption, {"MultiPoint", "LineString"}));
  EXPECT_TRUE(test::HasError(WkbToJson(polygon + "x").status(), StatusCode::kCorruption,
                             {"after the geometry"}));
  EXPECT_TRUE(
      test::HasError(MySqlGeometryToJson("ab").status(), StatusCode::kCorruption, {"SRID"}));
}

}  // namespace
}  // namespace sluice
