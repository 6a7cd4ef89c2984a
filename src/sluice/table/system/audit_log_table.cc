// $audit_log (Java AuditLogTable): every row of the table with its row kind first, `rowkind`
// STRING (nullable, as Java's VARCHAR(MAX)), then the table's columns. A batch read shows each
// key's merged row with its kind, retractions kept (-D rows of deletes not yet compacted away).
// Java's `table-read.sequence-number.enabled` column (_SEQUENCE_NUMBER) is not served.
#include "sluice/batch/column_take.h"
#include "sluice/table/system/system_table.h"

namespace sluice {

namespace {

DataTypePtr WithRowKind(const DataType& row_type) {
  std::vector<DataField> fields{RowKindSystemField()};
  for (const DataField& f : row_type.fields()) fields.push_back(f);
  return DataType::Row(std::move(fields));
}

class AuditLogTable final : public SystemTable {
 public:
  explicit AuditLogTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(AuditLogTableType(*table_)) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    SLUICE_ASSIGN_OR_RETURN(ColumnBatch rows,
                            ReadDataRows(*table_, DataRowsRequest{.with_row_kind = true}));
    // The row kind column renamed and nullable; the data columns of the version read.
    std::vector<DataField> data_fields(rows.schema()->fields().begin() + 1,
                                       rows.schema()->fields().end());
    ColumnBatch out(WithRowKind(*DataType::Row(std::move(data_fields))));
    for (int c = 0; c < out.num_columns(); ++c) AppendAll(*rows.column(c), out.column(c));
    out.set_num_rows(rows.num_rows());
    return out;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

DataTypePtr AuditLogTableType(const FileStoreTable& table) {
  return WithRowKind(*table.schema().LogicalRowType());
}

std::unique_ptr<SystemTable> NewAuditLogTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<AuditLogTable>(std::move(table));
}

}  // namespace sluice
