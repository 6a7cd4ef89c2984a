#include "sluice/table/source/data_split.h"

namespace sluice {

int64_t DataSplit::RowCount() const {
  int64_t rows = 0;
  for (const auto& file : data_files) rows += file.row_count;
  return rows;
}

}  // namespace sluice
