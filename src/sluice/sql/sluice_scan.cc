#include "sluice/sql/sluice_scan.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/read_builder.h"
#include "sluice/sql/arrow_chunk_converter.h"
#include "sluice/sql/sql_text.h"
#include "sluice/sql/vector_filler.h"
#include "sluice/system_tables.h"

namespace sluice::sql {

namespace {

// The version a scan reads (named parameters of sluice_scan).
struct TimeTravel {
  std::optional<int64_t> snapshot;
  std::optional<std::string> tag;
  std::optional<std::string> timestamp;
  std::optional<std::string> branch;

  bool any() const { return snapshot || tag || timestamp || branch; }
};

struct ScanBind {
  std::string identifier;
  DataTypePtr row_type;
  // A data table: the request its splits are read with (time travel; no filter, see BindTable)
  // and the splits (planned with the filter).
  std::optional<ReadBuilder> builder;
  std::vector<Split> splits;
  // A system table: its rows.
  std::shared_ptr<const ColumnBatch> system_rows;
};

struct ScanGlobal {
  std::optional<TableRead> read;
  std::unique_ptr<ArrowChunkConverter> converter;
  // For each output column, the column of the converted chunk that fills it; -1 for a column
  // DuckDB asks for but never reads (the row id of COUNT(*)).
  std::vector<int> sources;
  // Per output column, its filler when every read column has one (the fast path, no Arrow);
  // empty otherwise.
  std::vector<std::optional<VectorFiller>> fillers;
  std::atomic<size_t> next_split{0};
};

struct ScanLocal {
  ~ScanLocal() {
    if (chunk != nullptr) duckdb_destroy_data_chunk(&chunk);
  }
  std::unique_ptr<BatchReader> reader;
  // The batch being cut into vectors (and its converted chunk off the fast path), and how far.
  std::shared_ptr<const ColumnBatch> batch;
  duckdb_data_chunk chunk = nullptr;
  idx_t offset = 0;
  idx_t size = 0;
};

template <typename T>
void Destroy(void* data) {
  delete static_cast<T*>(data);
}

// A named parameter as text (nullopt when absent or NULL).
std::optional<std::string> NamedText(duckdb_bind_info info, const char* name) {
  duckdb_value value = duckdb_bind_get_named_parameter(info, name);
  if (value == nullptr) return std::nullopt;
  std::optional<std::string> out;
  if (!duckdb_is_null_value(value)) {
    char* text = duckdb_get_varchar(value);
    out = std::string(text);
    duckdb_free(text);
  }
  duckdb_destroy_value(&value);
  return out;
}

int64_t FileCount(const std::vector<Split>& splits) {
  int64_t files = 0;
  for (const Split& split : splits) files += split.file_count();
  return files;
}

ReadBuilder ApplyTimeTravel(ReadBuilder builder, const TimeTravel& version) {
  if (version.branch) builder.WithBranch(*version.branch);
  if (version.snapshot) builder.WithSnapshot(*version.snapshot);
  if (version.tag) builder.WithTag(*version.tag);
  if (version.timestamp) builder.WithAsOf(*version.timestamp);
  return builder;
}

Status BindSystemTable(ScanContext* context, const TimeTravel& version, ScanBind* bind) {
  if (version.any()) {
    return Status::InvalidArgument("system table " + bind->identifier +
                                   " is read at its latest version (no snapshot, tag, "
                                   "as_of or branch parameter)");
  }
  SLUICE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadSystemTable(context->catalog, bind->identifier));
  bind->row_type = rows.schema();
  bind->system_rows = std::make_shared<ColumnBatch>(std::move(rows));
  return Status::OK();
}

Status BindTable(ScanContext* context, const TimeTravel& version, ScanBind* bind) {
  SLUICE_ASSIGN_OR_RETURN(Table table, context->catalog.GetTable(bind->identifier));
  ReadBuilder builder = ApplyTimeTravel(table.NewReadBuilder(), version);
  std::string filter;
  bool types_only;
  {
    std::lock_guard<std::mutex> lock(context->mu);
    auto it = context->filters.find(Lower(bind->identifier));
    if (it != context->filters.end()) filter = it->second;
    types_only = context->types_only;
  }
  if (types_only) {
    SLUICE_ASSIGN_OR_RETURN(TableRead read, builder.NewRead());
    bind->row_type = read.output_type();
    bind->builder = std::move(builder);
    return Status::OK();
  }
  ReadBuilder filtered = builder;
  if (!filter.empty()) filtered.WithWhere(filter);
  Result<TableScan> scan = filtered.NewScan();
  if (!scan.ok() && !filter.empty()) {
    // The pushed filter is an optimisation DuckDB's own filter repeats: a filter Sluice cannot
    // plan with is dropped, not reported.
    filter.clear();
    filtered = builder;
    scan = filtered.NewScan();
  }
  if (!scan.ok()) return scan.status();
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan->Plan());
  SLUICE_ASSIGN_OR_RETURN(TableRead read, builder.NewRead());
  ScanReport report;
  report.table = bind->identifier;
  report.filter = filter;
  report.snapshot_id = plan.snapshot_id;
  report.splits = static_cast<int64_t>(plan.splits.size());
  report.files = FileCount(plan.splits);
  if (!filter.empty() && context->report_pruning) {
    SLUICE_ASSIGN_OR_RETURN(TableScan unfiltered, builder.NewScan());
    SLUICE_ASSIGN_OR_RETURN(TableScanPlan all, unfiltered.Plan());
    report.files_unfiltered = FileCount(all.splits);
  }
  {
    std::lock_guard<std::mutex> lock(context->mu);
    context->reports.push_back(std::move(report));
  }
  bind->row_type = read.output_type();
  // The filter prunes files in planning; the rows of the splits are not tested again here, as
  // DuckDB filters every row it is given (a filter costs less in DuckDB's vectors than in a
  // second pass that copies the kept rows).
  bind->builder = std::move(builder);
  bind->splits = std::move(plan.splits);
  return Status::OK();
}

void Bind(duckdb_bind_info info) {
  auto* context = static_cast<ScanContext*>(duckdb_bind_get_extra_info(info));
  auto bind = std::make_unique<ScanBind>();
  duckdb_value name = duckdb_bind_get_parameter(info, 0);
  char* text = duckdb_get_varchar(name);
  bind->identifier = text != nullptr ? text : "";
  if (text != nullptr) duckdb_free(text);
  duckdb_destroy_value(&name);

  TimeTravel version;
  std::optional<std::string> snapshot = NamedText(info, "snapshot");
  if (snapshot) {
    char* end = nullptr;
    version.snapshot = std::strtoll(snapshot->c_str(), &end, 10);
  }
  version.tag = NamedText(info, "tag");
  version.timestamp = NamedText(info, "as_of");
  version.branch = NamedText(info, "branch");

  Status status = IsSystemTableIdentifier(bind->identifier)
                      ? BindSystemTable(context, version, bind.get())
                      : BindTable(context, version, bind.get());
  Result<std::unique_ptr<ArrowChunkConverter>> converter =
      status.ok() ? ArrowChunkConverter::Make(context->conversions, bind->row_type)
                  : Result<std::unique_ptr<ArrowChunkConverter>>(status);
  if (!converter.ok()) {
    duckdb_bind_set_error(info, converter.status().ToString().c_str());
    return;
  }
  const std::vector<DataField>& fields = bind->row_type->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    duckdb_bind_add_result_column(info, fields[i].name.c_str(), (*converter)->types()[i]);
  }
  int64_t rows = 0;
  if (bind->system_rows) rows = bind->system_rows->num_rows();
  for (const Split& split : bind->splits) rows += split.row_count();
  duckdb_bind_set_cardinality(info, static_cast<idx_t>(rows), bind->system_rows != nullptr);
  duckdb_bind_set_bind_data(info, bind.release(), Destroy<ScanBind>);
}

// The fast path's fillers of `global`'s output columns, read from batches of `row_type`; none
// unless every read column has one.
void ChooseFillers(const DataType& row_type, ScanGlobal* global) {
  std::vector<std::optional<VectorFiller>> fillers;
  for (int source : global->sources) {
    if (source < 0) {
      fillers.emplace_back();
      continue;
    }
    std::optional<VectorFiller> filler =
        VectorFiller::Make(*row_type.fields()[source].type, global->converter->types()[source]);
    if (!filler) return;
    fillers.push_back(filler);
  }
  global->fillers = std::move(fillers);
}

Status InitScan(duckdb_init_info info, const ScanBind& bind, ScanGlobal* global) {
  auto* context = static_cast<ScanContext*>(duckdb_init_get_extra_info(info));
  const std::vector<DataField>& fields = bind.row_type->fields();
  std::vector<idx_t> columns;
  for (idx_t i = 0; i < duckdb_init_get_column_count(info); ++i) {
    columns.push_back(duckdb_init_get_column_index(info, i));
  }
  if (bind.system_rows) {
    for (idx_t column : columns) {
      global->sources.push_back(column < fields.size() ? static_cast<int>(column) : -1);
    }
    SLUICE_ASSIGN_OR_RETURN(global->converter,
                            ArrowChunkConverter::Make(context->conversions, bind.row_type));
    ChooseFillers(*bind.row_type, global);
    duckdb_init_set_max_threads(info, 1);
    return Status::OK();
  }
  // Only the columns DuckDB reads; with none (COUNT(*)) the first still counts the rows.
  std::vector<std::string> projection;
  for (idx_t column : columns) {
    if (column < fields.size()) {
      global->sources.push_back(static_cast<int>(projection.size()));
      projection.push_back(fields[column].name);
    } else {
      global->sources.push_back(-1);
    }
  }
  if (projection.empty()) projection.push_back(fields[0].name);
  ReadBuilder builder = *bind.builder;
  builder.WithProjection(std::move(projection));
  SLUICE_ASSIGN_OR_RETURN(TableRead read, builder.NewRead());
  SLUICE_ASSIGN_OR_RETURN(global->converter,
                          ArrowChunkConverter::Make(context->conversions, read.output_type()));
  ChooseFillers(*read.output_type(), global);
  global->read = std::move(read);
  duckdb_init_set_max_threads(info, std::max<idx_t>(1, bind.splits.size()));
  return Status::OK();
}

void Init(duckdb_init_info info) {
  const auto& bind = *static_cast<const ScanBind*>(duckdb_init_get_bind_data(info));
  auto global = std::make_unique<ScanGlobal>();
  Status status = InitScan(info, bind, global.get());
  if (!status.ok()) {
    duckdb_init_set_error(info, status.ToString().c_str());
    return;
  }
  duckdb_init_set_init_data(info, global.release(), Destroy<ScanGlobal>);
}

void LocalInit(duckdb_init_info info) {
  duckdb_init_set_init_data(info, new ScanLocal(), Destroy<ScanLocal>);
}

// Converts the next batch of this thread's splits into `local->chunk`; false when none is left.
Result<bool> NextChunk(const ScanBind& bind, ScanGlobal* global, ScanLocal* local) {
  if (local->chunk != nullptr) duckdb_destroy_data_chunk(&local->chunk);
  local->batch.reset();
  local->offset = 0;
  local->size = 0;
  std::shared_ptr<const ColumnBatch> batch;
  if (bind.system_rows) {
    if (global->next_split.fetch_add(1) > 0) return false;
    batch = bind.system_rows;
  } else {
    while (batch == nullptr) {
      if (local->reader == nullptr) {
        size_t index = global->next_split.fetch_add(1);
        if (index >= bind.splits.size()) return false;
        SLUICE_ASSIGN_OR_RETURN(local->reader, global->read->CreateReader(bind.splits[index]));
      }
      // A fresh batch each time: DuckDB's vectors may still hold the previous one.
      auto next = std::make_shared<ColumnBatch>(global->read->output_type());
      SLUICE_ASSIGN_OR_RETURN(bool more, local->reader->Next(next.get()));
      if (!more) {
        local->reader.reset();
      } else if (next->num_rows() > 0) {
        batch = std::move(next);
      }
    }
  }
  local->size = static_cast<idx_t>(batch->num_rows());
  if (global->fillers.empty()) {
    SLUICE_ASSIGN_OR_RETURN(local->chunk, global->converter->Convert(batch));
  }
  local->batch = std::move(batch);
  return true;
}

Status Fill(const ScanBind& bind, ScanGlobal* global, ScanLocal* local, duckdb_data_chunk out) {
  while (local->offset >= local->size) {
    SLUICE_ASSIGN_OR_RETURN(bool more, NextChunk(bind, global, local));
    if (!more) {
      duckdb_data_chunk_set_size(out, 0);
      return Status::OK();
    }
  }
  idx_t rows = std::min<idx_t>(duckdb_vector_size(), local->size - local->offset);
  if (!global->fillers.empty()) {
    for (size_t column = 0; column < global->sources.size(); ++column) {
      if (global->sources[column] < 0) continue;
      global->fillers[column]->Fill(*local->batch->column(global->sources[column]),
                                    static_cast<int64_t>(local->offset), rows,
                                    duckdb_data_chunk_get_vector(out, column));
    }
    duckdb_data_chunk_set_size(out, rows);
    local->offset += rows;
    return Status::OK();
  }
  bool whole = local->offset == 0 && rows == local->size;
  duckdb_selection_vector selection = nullptr;
  if (!whole) {
    selection = duckdb_create_selection_vector(rows);
    sel_t* positions = duckdb_selection_vector_get_data_ptr(selection);
    for (idx_t i = 0; i < rows; ++i) positions[i] = static_cast<sel_t>(local->offset + i);
  }
  for (size_t column = 0; column < global->sources.size(); ++column) {
    if (global->sources[column] < 0) continue;
    duckdb_vector target = duckdb_data_chunk_get_vector(out, column);
    duckdb_vector_reference_vector(
        target, duckdb_data_chunk_get_vector(local->chunk, global->sources[column]));
    // A slice shares the selection's buffer, so the selection can go right after.
    if (!whole) duckdb_slice_vector(target, selection, rows);
  }
  if (selection != nullptr) duckdb_destroy_selection_vector(selection);
  duckdb_data_chunk_set_size(out, rows);
  local->offset += rows;
  return Status::OK();
}

void Scan(duckdb_function_info info, duckdb_data_chunk out) {
  const auto& bind = *static_cast<const ScanBind*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<ScanGlobal*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<ScanLocal*>(duckdb_function_get_local_init_data(info));
  Status status = Fill(bind, global, local, out);
  if (!status.ok()) duckdb_function_set_error(info, status.ToString().c_str());
}

}  // namespace

Status RegisterSluiceScan(duckdb_connection connection, ScanContext* context) {
  duckdb_table_function function = duckdb_create_table_function();
  duckdb_table_function_set_name(function, "sluice_scan");
  duckdb_logical_type varchar = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
  duckdb_logical_type bigint = duckdb_create_logical_type(DUCKDB_TYPE_BIGINT);
  duckdb_logical_type any = duckdb_create_logical_type(DUCKDB_TYPE_ANY);
  duckdb_table_function_add_parameter(function, varchar);
  duckdb_table_function_add_named_parameter(function, "snapshot", bigint);
  duckdb_table_function_add_named_parameter(function, "tag", varchar);
  // A TIMESTAMP, or text / epoch millis as ReadBuilder::WithAsOf takes them (`timestamp` is
  // a keyword of DuckDB's grammar, so the name is `sluice read`'s --as-of).
  duckdb_table_function_add_named_parameter(function, "as_of", any);
  duckdb_table_function_add_named_parameter(function, "branch", varchar);
  duckdb_destroy_logical_type(&varchar);
  duckdb_destroy_logical_type(&bigint);
  duckdb_destroy_logical_type(&any);
  duckdb_table_function_set_extra_info(function, context, nullptr);
  duckdb_table_function_set_bind(function, Bind);
  duckdb_table_function_set_init(function, Init);
  duckdb_table_function_set_local_init(function, LocalInit);
  duckdb_table_function_set_function(function, Scan);
  duckdb_table_function_supports_projection_pushdown(function, true);
  duckdb_state state = duckdb_register_table_function(connection, function);
  duckdb_destroy_table_function(&function);
  if (state != DuckDBSuccess) return Status::Internal("DuckDB refused the sluice_scan function");
  return Status::OK();
}

}  // namespace sluice::sql
