// TableWrite::Write of Arrow data (table_write.h): the Arrow columns matched to the table's by
// name, imported into one ColumnBatch of the table's row type, and written as any batch is.
#include <string>
#include <utility>
#include <vector>

#include "sluice/api/arrow_internal.h"
#include "sluice/arrow.h"
#include "sluice/row_kind_column.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table_write.h"

namespace sluice {
namespace {

std::string ColumnList(const DataType& row_type) {
  std::string out;
  for (const DataField& f : row_type.fields()) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

}  // namespace

Status TableWrite::Write(ArrowArray* array, const ArrowSchema& schema) {
  arrow_internal::ArrayReleaser releaser(array);
  if (array->release == nullptr) return Status::InvalidArgument("the Arrow array is released");
  if (schema.format == nullptr || std::string(schema.format) != "+s") {
    return Status::InvalidArgument("an Arrow array of rows is a struct ('+s'), not '" +
                                   std::string(schema.format != nullptr ? schema.format : "") +
                                   "'");
  }
  if (array->n_children != schema.n_children) {
    return Status::InvalidArgument("the Arrow array has " + std::to_string(array->n_children) +
                                   " columns, its schema " + std::to_string(schema.n_children));
  }
  const std::string& table = table_->path();
  ColumnBatch batch(input_type_);
  ColumnVector kinds_column(DataType::String());
  bool has_kinds = false;
  std::vector<bool> seen(input_type_->fields().size(), false);
  for (int64_t i = 0; i < schema.n_children; ++i) {
    const char* raw_name = schema.children[i]->name;
    std::string name = raw_name != nullptr ? raw_name : "";
    ColumnVector* target = nullptr;
    if (name == kRowKindColumn) {
      if (has_kinds) {
        return Status::InvalidArgument("the Arrow data has column '" + name + "' twice");
      }
      has_kinds = true;
      target = &kinds_column;
    } else {
      int index = input_type_->FieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument("the Arrow data has column '" + name + "', table " + table +
                                       " has " + ColumnList(*input_type_));
      }
      if (seen[index]) {
        return Status::InvalidArgument("the Arrow data has column '" + name + "' twice");
      }
      seen[index] = true;
      target = batch.column(index);
    }
    SLUICE_RETURN_NOT_OK(arrow_internal::ImportColumn(*schema.children[i], *array->children[i],
                                                      array->offset, array->length, target, name));
  }
  for (size_t i = 0; i < seen.size(); ++i) {
    if (!seen[i]) {
      return Status::InvalidArgument("the Arrow data has no column '" +
                                     input_type_->fields()[i].name + "' of table " + table);
    }
  }
  batch.set_num_rows(array->length);
  std::vector<RowKind> kinds;
  if (has_kinds) {
    kinds.reserve(static_cast<size_t>(array->length));
    for (int64_t row = 0; row < array->length; ++row) {
      if (kinds_column.IsNull(row)) {
        return Status::InvalidArgument("row " + std::to_string(row) + " has a null " +
                                       std::string(kRowKindColumn));
      }
      SLUICE_ASSIGN_OR_RETURN(RowKind kind, ParseRowKind(kinds_column.GetBytes(row)));
      kinds.push_back(kind);
    }
  }
  return Write(batch, has_kinds ? kinds.data() : nullptr);
}

Status TableWrite::Write(ArrowArrayStream* stream) {
  struct StreamReleaser {
    ArrowArrayStream* stream;
    ~StreamReleaser() {
      if (stream->release != nullptr) stream->release(stream);
    }
  } releaser{stream};
  auto stream_error = [stream](const std::string& what, int code) {
    const char* message = stream->get_last_error(stream);
    return Status::IOError("the Arrow stream failed to " + what + " (errno " +
                           std::to_string(code) + ")" +
                           (message != nullptr ? ": " + std::string(message) : ""));
  };
  ArrowSchema schema;
  if (int code = stream->get_schema(stream, &schema); code != 0) {
    return stream_error("give its schema", code);
  }
  struct SchemaReleaser {
    ArrowSchema* schema;
    ~SchemaReleaser() {
      if (schema->release != nullptr) schema->release(schema);
    }
  } schema_releaser{&schema};
  while (true) {
    ArrowArray array;
    if (int code = stream->get_next(stream, &array); code != 0) {
      return stream_error("give its next array", code);
    }
    if (array.release == nullptr) return Status::OK();
    SLUICE_RETURN_NOT_OK(Write(&array, schema));
  }
}

}  // namespace sluice
