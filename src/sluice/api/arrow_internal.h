// What the Arrow files of the api layer share (arrow.h is the public side): the Arrow format
// string a Paimon type exports as, and the import of one Arrow column into a ColumnVector.
#pragma once

#include <cstdint>
#include <string>

#include "sluice/arrow.h"
#include "sluice/column_vector.h"
#include "sluice/data_type.h"
#include "sluice/status.h"

namespace sluice::arrow_internal {

// The Arrow format string of `type` ("i", "d:10,2", "tsu:UTC", "+l", ...), or InvalidArgument
// naming `path` for a type without a mapping.
Result<std::string> FormatOf(const DataType& type, const std::string& zone,
                             const std::string& path);

// Appends rows [offset, offset + length) of `array` (relative to its own offset) to `out`,
// checking that `schema` describes `out`'s type (arrow.h: ImportArrowArray) and that the
// buffers the rows use are there. `path` names the column in errors.
Status ImportColumn(const ArrowSchema& schema, const ArrowArray& array, int64_t offset,
                    int64_t length, ColumnVector* out, const std::string& path);

// Releases an imported array when the import is over, as the interface asks of its consumer.
class ArrayReleaser {
 public:
  explicit ArrayReleaser(ArrowArray* array) : array_(array) {}
  ~ArrayReleaser() {
    if (array_ != nullptr && array_->release != nullptr) array_->release(array_);
  }

 private:
  ArrowArray* array_;
};

}  // namespace sluice::arrow_internal
