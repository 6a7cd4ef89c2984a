// $binlog (Java BinlogTable): $audit_log with each data column as an ARRAY of its (nullable)
// type: [before, after] for an update a streaming read packs, [value] for every row of a batch
// read, which is what is served here.
#include "sluice/batch/column_take.h"
#include "sluice/table/system/system_table.h"

namespace sluice {

namespace {

DataTypePtr BinlogTypeOf(const std::vector<DataField>& data_fields) {
  std::vector<DataField> fields{RowKindSystemField()};
  for (const DataField& f : data_fields) {
    fields.push_back({f.id, f.name, DataType::Array(f.type->WithNullable(true)), f.description,
                      f.default_value});
  }
  return DataType::Row(std::move(fields));
}

class BinlogTable final : public SystemTable {
 public:
  explicit BinlogTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(BinlogTableType(*table_)) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    SLUICE_ASSIGN_OR_RETURN(ColumnBatch rows,
                            ReadDataRows(*table_, DataRowsRequest{.with_row_kind = true}));
    std::vector<DataField> data_fields(rows.schema()->fields().begin() + 1,
                                       rows.schema()->fields().end());
    ColumnBatch out(BinlogTypeOf(data_fields));
    const int64_t n = rows.num_rows();
    AppendAll(*rows.column(0), out.column(0));
    // One element a row: the elements are the column itself, the offsets 0, 1, ..., n.
    for (int c = 1; c < out.num_columns(); ++c) {
      ColumnVector* array = out.column(c);
      array->Resize(n);  // all valid
      int32_t* offsets = array->offset_data();
      for (int64_t i = 0; i <= n; ++i) offsets[i] = static_cast<int32_t>(i);
      AppendAll(*rows.column(c), array->child(0));
    }
    out.set_num_rows(n);
    return out;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

DataTypePtr BinlogTableType(const FileStoreTable& table) {
  return BinlogTypeOf(table.schema().LogicalRowType()->fields());
}

std::unique_ptr<SystemTable> NewBinlogTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<BinlogTable>(std::move(table));
}

}  // namespace sluice
