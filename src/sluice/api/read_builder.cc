#include "sluice/read_builder.h"

#include <cctype>

#include "sluice/api/api_access.h"
#include "sluice/api/metrics_access.h"
#include "sluice/api/read_context.h"
#include "sluice/predicate/predicate_parser.h"
#include "sluice/row_kind_column.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/batch_start.h"
#include "sluice/table/source/data_table_stream_scan.h"
#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

bool IsSystemColumn(std::string_view name) {
  return name == "_ROW_ID" || name == "_SEQUENCE_NUMBER";
}

std::string ColumnList(const DataType& row_type) {
  std::string out;
  for (const DataField& field : row_type.fields()) {
    if (!out.empty()) out += ", ";
    out += field.name;
  }
  return out;
}

// The version the request names; the table's time-travel options when it names none.
Result<TableVersion> SelectVersion(const FileStoreTable& table,
                                   const std::optional<int64_t>& snapshot_id,
                                   const std::optional<std::string>& tag,
                                   const std::optional<std::string>& as_of, const TimeZone* zone) {
  const int chosen = (snapshot_id ? 1 : 0) + (tag ? 1 : 0) + (as_of ? 1 : 0);
  if (chosen > 1) {
    return Status::InvalidArgument(
        "choose at most one of a snapshot id, a tag and an as-of time for one read");
  }
  if (snapshot_id) return TableVersion::SnapshotId(*snapshot_id);
  if (tag) return TableVersion::Tag(*tag);
  if (as_of) {
    SLUICE_ASSIGN_OR_RETURN(TableVersion version, TableVersion::AsOf(*as_of));
    bool epoch_millis = !as_of->empty();
    for (char c : *as_of)
      epoch_millis = epoch_millis && std::isdigit(static_cast<unsigned char>(c));
    if (!epoch_millis && zone != nullptr) {
      // A wall-clock time is read in the session time zone.
      int64_t seconds = version.time_millis / 1000;
      if (seconds * 1000 > version.time_millis) --seconds;
      version.time_millis =
          zone->LocalToUtc(seconds) * 1000 + (version.time_millis - seconds * 1000);
    }
    return version;
  }
  return TableVersion::FromOptions(table.options());
}

}  // namespace

ReadBuilder& ReadBuilder::WithSnapshot(int64_t snapshot_id) {
  snapshot_id_ = snapshot_id;
  return *this;
}
ReadBuilder& ReadBuilder::WithTag(std::string tag) {
  tag_ = std::move(tag);
  return *this;
}
ReadBuilder& ReadBuilder::WithAsOf(std::string time) {
  as_of_ = std::move(time);
  return *this;
}
ReadBuilder& ReadBuilder::WithBranch(std::string branch) {
  branch_ = std::move(branch);
  return *this;
}
ReadBuilder& ReadBuilder::WithSchemaId(int64_t schema_id) {
  schema_id_ = schema_id;
  return *this;
}
ReadBuilder& ReadBuilder::WithProjection(std::vector<std::string> columns) {
  projection_ = std::move(columns);
  return *this;
}
ReadBuilder& ReadBuilder::WithWhere(std::string expression) {
  where_ = std::move(expression);
  return *this;
}
ReadBuilder& ReadBuilder::WithFilter(PredicatePtr predicate) {
  filter_ = std::move(predicate);
  return *this;
}
ReadBuilder& ReadBuilder::WithPartition(std::vector<std::pair<std::string, std::string>> spec) {
  partition_ = std::move(spec);
  return *this;
}
ReadBuilder& ReadBuilder::WithMetricRegistry(MetricRegistry* registry) {
  metrics_ = registry;
  return *this;
}
ReadBuilder& ReadBuilder::WithBucket(int32_t bucket) {
  bucket_ = bucket;
  return *this;
}
ReadBuilder& ReadBuilder::WithMode(ScanMode mode) {
  mode_ = mode;
  return *this;
}
ReadBuilder& ReadBuilder::WithOption(std::string key, std::string value) {
  options_[std::move(key)] = std::move(value);
  return *this;
}
ReadBuilder& ReadBuilder::WithSessionTimeZone(std::string zone) {
  time_zone_ = std::move(zone);
  return *this;
}
ReadBuilder& ReadBuilder::WithPathRemap(std::string prefix, std::string dir) {
  path_remap_.emplace_back(std::move(prefix), std::move(dir));
  return *this;
}
ReadBuilder& ReadBuilder::WithLimit(int64_t rows) {
  limit_ = rows;
  return *this;
}
ReadBuilder& ReadBuilder::WithOrdered(bool ordered) {
  ordered_ = ordered;
  return *this;
}
ReadBuilder& ReadBuilder::WithThreads(int threads) {
  threads_ = threads;
  return *this;
}
ReadBuilder& ReadBuilder::WithMaxBufferedBatches(int batches) {
  max_buffered_batches_ = batches;
  return *this;
}
ReadBuilder& ReadBuilder::WithBatchRows(int64_t rows) {
  batch_rows_ = rows;
  return *this;
}

ReadBuilder& ReadBuilder::WithShard(int32_t index, int32_t count) {
  shard_index_ = index;
  shard_count_ = count;
  return *this;
}

Result<std::shared_ptr<const ReadContext>> ReadBuilder::Resolve(bool streaming) const {
  const std::string& name = table_.name();
  if (limit_ && *limit_ < 0) {
    return Status::InvalidArgument("limit must not be negative, got " + std::to_string(*limit_));
  }
  if (batch_rows_ && *batch_rows_ <= 0) {
    return Status::InvalidArgument("batch rows must be positive, got " +
                                   std::to_string(*batch_rows_));
  }
  auto state = std::make_shared<ReadContext>();
  const std::shared_ptr<FileStoreTable>& main = ApiAccess::FileStoreTableOf(table_);
  if (branch_.empty() && options_.empty()) {
    state->table = main;
  } else {
    auto table = FileStoreTable::Open(main->io(), main->path(),
                                      branch_.empty() ? main->branch() : branch_, options_);
    if (!table.ok()) return table.status().WithContext("table " + name);
    state->table = std::move(*table);
  }
  const FileStoreTable& table = *state->table;

  // Without a session time zone, the process's: where Java reads TIMESTAMP_LTZ text and as-of
  // times in the JVM's default zone.
  const std::string zone_name = time_zone_.empty() ? TimeZone::ProcessZoneName() : time_zone_;
  auto loaded = TimeZone::Load(zone_name);
  if (!loaded.ok()) return loaded.status().WithContext("session time zone '" + zone_name + "'");
  std::shared_ptr<const TimeZone> zone = std::move(*loaded);

  ScanOptions& scan = state->scan;
  scan.metric_registry = MetricsAccess::ImplOf(metrics_);
  if (snapshot_id_ || tag_ || as_of_ || streaming) {
    SLUICE_ASSIGN_OR_RETURN(scan.version,
                            SelectVersion(table, snapshot_id_, tag_, as_of_, zone.get()));
  } else {
    auto start = ResolveBatchStart(table);
    if (!start.ok()) return start.status().WithContext("table " + name);
    scan.version = start->version;
    scan.min_file_creation_millis = start->min_file_creation_millis;
    scan.incremental = start->incremental;
  }

  std::string what = "table " + name;
  if (!branch_.empty()) what += " branch " + branch_;
  if (as_of_) what += " as of '" + *as_of_ + "'";
  // An explicit schema id, else the schema the version was written with (Java time travel);
  // delta and incremental reads are read through the latest schema, as Java's are.
  auto schema = schema_id_ ? table.SchemaById(*schema_id_)
                : mode_ == ScanMode::kDelta || scan.incremental
                    ? Result<std::shared_ptr<const TableSchema>>(table.schema_ptr())
                    : table.SchemaForVersion(scan.version);
  if (!schema.ok()) return schema.status().WithContext(what);
  state->read_schema = std::move(*schema);
  const DataTypePtr row_type = state->read_schema->LogicalRowType();

  // Output columns: the projection by name (system columns on row-tracking tables).
  std::vector<DataField> output_fields;
  if (mode_ == ScanMode::kDelta) {
    output_fields.push_back(DataField{.id = -1,
                                      .name = std::string(kRowKindColumn),
                                      .type = DataType::String(false),
                                      .description = std::nullopt,
                                      .default_value = std::nullopt});
  }
  if (projection_.empty()) {
    for (const DataField& field : row_type->fields()) output_fields.push_back(field);
  } else {
    for (const std::string& column : projection_) {
      const int index = row_type->FieldIndex(column);
      if (index >= 0) {
        output_fields.push_back(row_type->fields()[static_cast<size_t>(index)]);
      } else if (IsSystemColumn(column) && table.options().row_tracking_enabled()) {
        output_fields.push_back(DataField{.id = -1,
                                          .name = column,
                                          .type = DataType::BigInt(false),
                                          .description = std::nullopt,
                                          .default_value = std::nullopt});
      } else {
        return Status::InvalidArgument(
            "unknown column '" + column + "' in the projection of " + name + " (schema " +
            std::to_string(state->read_schema->id()) + " has: " + ColumnList(*row_type) + ")");
      }
    }
  }
  state->output_type = DataType::Row(std::move(output_fields));

  PredicatePtr filter = filter_;
  if (!where_.empty()) {
    auto parsed = ParsePredicate(where_, *row_type);
    if (!parsed.ok()) return parsed.status().WithContext("where-expression of " + name);
    filter = filter ? Predicate::And({filter, *parsed}) : *parsed;
  }

  scan.mode = mode_;
  scan.partition_spec = partition_;
  scan.bucket = bucket_;
  scan.path_remap = path_remap_;
  // The planner prunes by the latest schema's fields; a filter over another schema only
  // filters rows.
  if (state->read_schema->id() == table.schema().id()) scan.filter = filter;
  state->name = what;
  if (!streaming) {
    auto fallback = FallbackTableOf(table, mode_);
    if (!fallback.ok()) return fallback.status().WithContext(what);
    scan.fallback_table = std::move(*fallback);
  }
  if (scan.fallback_table) {
    // The branches have the same columns (FallbackTableOf checks): the fallback branch's files
    // are read through its own schema, whose field ids they carry, with the same projection
    // and filter. A read of an earlier schema of the main branch reads them through that one.
    state->fallback_read_schema = state->read_schema->id() == table.schema().id()
                                      ? scan.fallback_table->schema_ptr()
                                      : state->read_schema;
  }

  state->read_options.projection = projection_;
  state->read_options.filter = filter;
  state->read_options.session_time_zone = zone_name;
  state->read_options.with_row_kind = mode_ == ScanMode::kDelta;
  // A batch read of incremental changes returns rows, not retractions (Java's batch
  // incremental query drops DELETE records; `--mode delta` keeps every change with its kind).
  state->read_options.drop_retractions = mode_ == ScanMode::kBatch && scan.incremental;
  if (batch_rows_) state->read_options.batch_size = *batch_rows_;
  state->limit = limit_;
  state->ordered = ordered_;
  state->threads = threads_;
  state->max_buffered_batches = std::max(1, max_buffered_batches_);
  return std::shared_ptr<const ReadContext>(std::move(state));
}

Result<TableScan> ReadBuilder::NewScan() const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const ReadContext> context, Resolve());
  return TableScan(std::move(context));
}

Result<StreamTableScan> ReadBuilder::NewStreamScan() const {
  // Streams are read through the latest schema, as delta reads are; the version options only
  // say where the stream starts.
  ReadBuilder stream = *this;
  stream.mode_ = ScanMode::kDelta;
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const ReadContext> context,
                          stream.Resolve(/*streaming=*/true));
  auto scan = DataTableStreamScan::Create(context->table, context->scan,
                                          StreamShard{shard_index_, shard_count_});
  if (!scan.ok()) return scan.status().WithContext(context->name);
  return StreamTableScan(context->name, std::move(*scan));
}

Result<TableRead> ReadBuilder::NewRead() const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const ReadContext> context, Resolve());
  return TableRead(std::move(context));
}

}  // namespace sluice
