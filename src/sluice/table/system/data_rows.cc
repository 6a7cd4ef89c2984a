// ReadDataRows: the batch read under the system tables over the data.
#include "sluice/batch/column_take.h"
#include "sluice/table/source/read_columns.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/table/system/system_table.h"

namespace sluice {

DataField RowKindSystemField() {
  return {kRowKindFieldId, "rowkind", DataType::String(), std::nullopt, std::nullopt};
}

Result<ColumnBatch> ReadDataRows(const FileStoreTable& table, const DataRowsRequest& request) {
  SLUICE_ASSIGN_OR_RETURN(TableVersion version, TableVersion::FromOptions(table.options()));
  ScanOptions scan;
  scan.version = version;
  const bool primary_key = table.schema().is_primary_key_table();
  if (request.top_level_only && primary_key) {
    const int32_t top = table.options().num_levels() - 1;
    scan.level_filter = [top](int32_t level) { return level == top; };
  }
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, scan));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TableSchema> schema,
                          table.SchemaForVersion(version));
  SplitReadOptions read;
  read.with_row_kind = request.with_row_kind;
  read.keep_delete = request.with_row_kind;
  std::vector<DataField> fields;
  if (request.with_row_kind) {
    fields.push_back(
        {kRowKindFieldId, kRowKindFieldName, DataType::String(false), std::nullopt, std::nullopt});
  }
  const DataTypePtr row_type = schema->LogicalRowType();
  for (const DataField& f : row_type->fields()) fields.push_back(f);
  ColumnBatch out(DataType::Row(std::move(fields)));
  for (DataSplit& split : plan.splits) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SplitReader> reader,
                            OpenSplitReader(table, schema, std::move(split), read));
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int c = 0; c < out.num_columns(); ++c) AppendAll(*batch.column(c), out.column(c));
      out.set_num_rows(out.num_rows() + batch.num_rows());
    }
  }
  return out;
}

}  // namespace sluice
