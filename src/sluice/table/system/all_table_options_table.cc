// sys.all_table_options (Java AllTableOptionsTable): the row type; the catalog fills the rows.
#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr AllTableOptionsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "database_name", DataType::String()),
      SystemField(1, "table_name", DataType::String()),
      SystemField(2, "key", DataType::String()),
      SystemField(3, "value", DataType::String()),
  });
  return type;
}

}  // namespace sluice
