#include "sluice/lsm/column_row_comparator.h"

#include <algorithm>
#include <cstring>

#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

template <typename T>
int CompareScalars(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j) {
  const T x = a.data<T>()[i];
  const T y = b.data<T>()[j];
  return x < y ? -1 : (y < x ? 1 : 0);
}

}  // namespace

int CompareColumnRows(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j) {
  const bool a_null = a.IsNull(i);
  const bool b_null = b.IsNull(j);
  if (a_null || b_null) return a_null == b_null ? 0 : (a_null ? -1 : 1);
  switch (a.kind()) {
    case PhysicalKind::kUInt8:
      return CompareScalars<uint8_t>(a, i, b, j);
    case PhysicalKind::kInt8:
      return CompareScalars<int8_t>(a, i, b, j);
    case PhysicalKind::kInt16:
      return CompareScalars<int16_t>(a, i, b, j);
    case PhysicalKind::kInt32:
      return CompareScalars<int32_t>(a, i, b, j);
    case PhysicalKind::kInt64:
      return CompareScalars<int64_t>(a, i, b, j);
    case PhysicalKind::kInt128:
      return CompareScalars<int128_t>(a, i, b, j);
    case PhysicalKind::kFloat:
      return CompareFloat(a.data<float>()[i], b.data<float>()[j]);
    case PhysicalKind::kDouble:
      return CompareDouble(a.data<double>()[i], b.data<double>()[j]);
    case PhysicalKind::kTimestamp: {
      const Timestamp& x = a.data<Timestamp>()[i];
      const Timestamp& y = b.data<Timestamp>()[j];
      if (x.millisecond != y.millisecond) return x.millisecond < y.millisecond ? -1 : 1;
      if (x.nano_of_millisecond != y.nano_of_millisecond) {
        return x.nano_of_millisecond < y.nano_of_millisecond ? -1 : 1;
      }
      return 0;
    }
    case PhysicalKind::kBytes: {
      const std::string_view x = a.GetBytes(i);
      const std::string_view y = b.GetBytes(j);
      const size_t common = std::min(x.size(), y.size());
      const int c = common == 0 ? 0 : std::memcmp(x.data(), y.data(), common);
      if (c != 0) return c < 0 ? -1 : 1;
      return x.size() == y.size() ? 0 : (x.size() < y.size() ? -1 : 1);
    }
    case PhysicalKind::kList:
    case PhysicalKind::kMap:
    case PhysicalKind::kStruct:
      // Nested keys and sequence fields are rare: compare them as Values.
      return CompareValues(a.GetValue(i), b.GetValue(j), *a.type());
  }
  return 0;
}

}  // namespace sluice
