#include "sluice/format/parquet/column_writer.h"

#include "sluice/format/parquet/column_writer_base.h"

namespace sluice::parquet {

Result<std::unique_ptr<ColumnWriter>> ColumnWriter::Make(const WriteLeaf& leaf,
                                                         const ColumnWriterOptions& options) {
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return NewNumericColumnWriter(leaf, options);
    case PhysicalType::kByteArray:
      return NewByteArrayColumnWriter(leaf, options);
    case PhysicalType::kFixedLenByteArray:
    case PhysicalType::kInt96:
      return NewFixedBytesColumnWriter(leaf, options);
  }
  return Status::Internal("Parquet column writer: unknown physical type");
}

}  // namespace sluice::parquet
