#include "sluice/cast.h"

#include "sluice/table/source/column_cast.h"

namespace sluice {

Status CheckColumnCast(const DataType& from, const DataType& to, std::string_view column) {
  return CheckCastSupported(from, to, column);
}

Status CastColumnValues(const ColumnVector& in, std::string_view column, ColumnVector* out) {
  return CastColumn(in, column, out);
}

}  // namespace sluice
