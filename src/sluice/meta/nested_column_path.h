// Paths to nested columns, as Java SchemaManager walks them (NestedColumnModifier, getRootType,
// getArrayMapTypeWithTargetTypeRoot): `[r, f]` names field f of ROW column r, and the markers
// "element" / "value" step into an ARRAY's / MULTISET's elements and a MAP's values:
// `[v, element, f]` is field f of the ROW elements of ARRAY column v, and `[v, element]` of an
// ARRAY<INT> column is its INT elements (the path names column v at depth 0, and TypeInside
// reaches the element).
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/status.h"

namespace sluice {

// The type a path of `path_size` names that reaches column `type` at `depth` names inside it:
// `type` itself when the column is the path's last name, else its ARRAY / MULTISET element or
// MAP value, one level per remaining "element" / "value" marker (Java getRootType).
DataTypePtr TypeInside(const DataTypePtr& type, size_t depth, size_t path_size);

// `type` with TypeInside replaced by `target` (Java getArrayMapTypeWithTargetTypeRoot).
DataTypePtr WithTypeInside(const DataTypePtr& type, DataTypePtr target, size_t depth,
                           size_t path_size);

// Runs `update` on the field list that holds the field `path` names, with that field's name and
// its depth in `path`; the ROW types on the way are rebuilt around the updated list. NotFound
// naming the path when a name on it does not exist, NotSupported when a column on it holds no
// ROW to step into.
using FieldListUpdate =
    std::function<Status(std::vector<DataField>*, const std::string&, size_t depth)>;
Status UpdateFieldList(std::vector<DataField>* fields, const std::vector<std::string>& path,
                       size_t depth, const FieldListUpdate& update);

}  // namespace sluice
