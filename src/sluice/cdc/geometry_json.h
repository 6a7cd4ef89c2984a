// A MySQL geometry value as the JSON text Java Paimon's CDC sinks write for it (Java
// MySqlTypeUtils.convertWkbArray: ESRI's GeoJSON of the WKB, re-keyed): {"coordinates":[1,1],
// "type":"Point","srid":0}; a collection {"geometries":[{"type":"Point","coordinates":[10,10]},
// ...],"type":"GeometryCollection","srid":0}. Java writes srid 0 whatever the value's SRID
// (its GeoJSON carries none), and so does this. Numbers print as the shortest text that reads
// back (1 for 1.0).
//
// MySQL stores a geometry as a 4-byte little-endian SRID followed by the WKB (binlog and
// SELECT alike): MySqlGeometryToJson takes that form, WkbToJson the WKB alone.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// Corruption naming what is wrong for bytes that are not WKB of the seven OGC types (point,
// line string, polygon, their multi forms, geometry collection), 2D.
Result<std::string> WkbToJson(std::string_view wkb);
Result<std::string> MySqlGeometryToJson(std::string_view value);

}  // namespace sluice
