#include "sluice/cdc/cdc_table_sink.h"

#include <utility>

#include "sluice/cdc/schema_evolution.h"
#include "sluice/cdc/table_sync_state.h"

namespace sluice {

namespace {

// Rows handed to the table's writer at a time.
constexpr int64_t kRowsPerWrite = 4096;

bool SameFields(const std::vector<DataField>& a, const std::vector<DataField>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name) return false;
    // Parsers hand out one type object per type, so most checks end at the pointers.
    if (a[i].type != b[i].type && !a[i].type->Equals(*b[i].type)) return false;
  }
  return true;
}

int64_t RecordBytes(const CdcRecord& record) {
  int64_t bytes = 16;
  for (const auto& [name, value] : record.fields) {
    bytes += static_cast<int64_t>(name.size()) + (value ? static_cast<int64_t>(value->size()) : 0);
  }
  return bytes;
}

}  // namespace

CdcTableSink::CdcTableSink(std::shared_ptr<const CatalogBackend> catalog, std::string identifier,
                           CdcSinkContext* context)
    : catalog_(std::move(catalog)), identifier_(std::move(identifier)), context_(context) {}

CdcTableSink::~CdcTableSink() = default;

Result<std::unique_ptr<CdcTableSink>> CdcTableSink::Open(
    std::shared_ptr<const CatalogBackend> catalog, std::string identifier,
    CdcSinkContext* context) {
  std::unique_ptr<CdcTableSink> sink(
      new CdcTableSink(std::move(catalog), std::move(identifier), context));
  SLUICE_RETURN_NOT_OK(sink->Reload());
  SLUICE_ASSIGN_OR_RETURN(TableSyncState state,
                          LoadTableSyncState(*sink->table_, context->options->commit_user));
  sink->committed_ = std::move(state.offsets);
  sink->next_identifier_ = state.last_identifier.value_or(0) + 1;
  return sink;
}

Status CdcTableSink::Reload() {
  DynamicOptions dynamic(context_->options->table_conf.begin(),
                         context_->options->table_conf.end());
  auto table = catalog_->LoadTable(identifier_, std::move(dynamic));
  if (!table.ok()) return table.status().WithContext("table " + identifier_);
  table_ = std::move(*table);
  converter_ = std::make_unique<CdcRecordConverter>(table_->schema().LogicalRowType());
  pending_.reset();
  pending_kinds_.clear();
  auto commit = FileStoreCommit::Make(table_, context_->options->commit_user);
  if (!commit.ok()) return commit.status().WithContext("table " + identifier_);
  commit_ = std::move(*commit);
  commit_->WithMetricRegistry(context_->metrics);
  auto maintenance = CommitMaintenance::Make(table_, context_->options->commit_user);
  if (!maintenance.ok()) return maintenance.status().WithContext("table " + identifier_);
  maintenance_ = std::move(*maintenance);
  maintenance_->WithMetricRegistry(context_->metrics);
  return Status::OK();
}

Status CdcTableSink::EnsureWriter() {
  if (write_) return Status::OK();
  FileStoreWriteOptions options;
  options.commit_user = context_->options->commit_user;
  options.metric_registry = context_->metrics;
  auto write = FileStoreWrite::Open(table_, std::move(options));
  if (!write.ok()) return write.status().WithContext("table " + identifier_);
  write_ = std::move(*write);
  return Status::OK();
}

Status CdcTableSink::Add(const std::shared_ptr<const CdcSchema>& schema, CdcRecord record,
                         const SourceOffsets& consumed) {
  if (schema != checked_schema_ && !schema->fields.empty()) {
    std::vector<SchemaChange> changes;
    if (checked_schema_ == nullptr || !SameFields(schema->fields, checked_schema_->fields)) {
      SLUICE_ASSIGN_OR_RETURN(changes, SchemaChangesFor(identifier_, table_->schema(), *schema,
                                                        context_->options->type_mapping));
    }
    if (!changes.empty()) {
      // Every commit's rows have one schema: what is buffered goes in under the old one.
      if (has_pending()) SLUICE_RETURN_NOT_OK(Commit(consumed));
      SLUICE_RETURN_NOT_OK(Close());
      auto altered = catalog_->AlterTable(identifier_, changes);
      if (!altered.ok()) return altered.status().WithContext("table " + identifier_);
      SLUICE_RETURN_NOT_OK(Reload());
      context_->schema_changes += static_cast<int64_t>(changes.size());
      if (context_->log) {
        context_->log("table " + identifier_ + ": schema " + std::to_string(altered->id()) + " (" +
                      DescribeSchemaChanges(changes) + ")");
      }
    }
    checked_schema_ = schema;
  }
  if (!table_->schema().is_primary_key_table() && record.kind != RowKind::kInsert &&
      record.kind != RowKind::kUpdateAfter) {
    // As Java's append writer: retractions need a primary key, or `ignore-delete` to drop them.
    if (table_->options().ignore_delete()) return Status::OK();
    return Status::InvalidArgument(
        "table " + identifier_ + " has no primary key, so it cannot take a " +
        std::string(RowKindShortString(record.kind)) +
        " record (give the table primary keys, or set 'ignore-delete' = 'true' to drop "
        "retractions)");
  }
  if (record.kind == RowKind::kUpdateAfter && !table_->schema().is_primary_key_table()) {
    record.kind = RowKind::kInsert;
  }
  if (!pending_) pending_ = std::make_unique<ColumnBatch>(converter_->row_type());
  Status appended = converter_->Append(record, pending_.get(), &pending_kinds_);
  if (!appended.ok()) return appended.WithContext("table " + identifier_);
  int64_t bytes = RecordBytes(record);
  buffered_bytes_ += bytes;
  context_->buffered_bytes += bytes;
  ++context_->records;
  // Bounded batches: the writer's buffer holds the rows, not this batch.
  if (pending_rows() >= kRowsPerWrite) SLUICE_RETURN_NOT_OK(FlushPending());
  return Status::OK();
}

Status CdcTableSink::FlushPending() {
  if (pending_rows() == 0) return Status::OK();
  SLUICE_RETURN_NOT_OK(EnsureWriter());
  const RowKind* row_kinds =
      table_->schema().is_primary_key_table() ? pending_kinds_.data() : nullptr;
  Status written = write_->Write(*pending_, row_kinds);
  if (!written.ok()) return written.WithContext("table " + identifier_);
  has_unflushed_writes_ = true;
  pending_->Clear();
  pending_kinds_.clear();
  return Status::OK();
}

Status CdcTableSink::Commit(const SourceOffsets& consumed) {
  if (!has_pending()) {
    if (write_ && ++idle_commits_ >= context_->options->idle_commits_before_close) {
      SLUICE_RETURN_NOT_OK(Close());
    }
    return Status::OK();
  }
  idle_commits_ = 0;
  SLUICE_RETURN_NOT_OK(FlushPending());
  // A commit of facts alone has no writer yet.
  SLUICE_RETURN_NOT_OK(EnsureWriter());
  ManifestCommittable committable;
  committable.identifier = next_identifier_;
  auto messages = write_->PrepareCommit(next_identifier_, /*wait_compaction=*/false);
  if (!messages.ok()) return messages.status().WithContext("table " + identifier_);
  committable.messages = std::move(*messages);
  // A run that resumed behind this table's offsets skipped what the table holds: its commits
  // keep the table's offsets where they were for the splits it has not yet read past, or a
  // later restart from the table's offsets would apply those messages a second time.
  SourceOffsets offsets = committed_;
  offsets.AdvanceTo(consumed);
  for (const auto& [split, next] : facts_) offsets.next[split] = next;
  committable.properties.emplace_back(std::string(SourceOffsets::kSnapshotProperty),
                                      offsets.ToJson());
  auto result = commit_->Commit(committable);
  if (!result.ok()) return result.status().WithContext("commit of table " + identifier_);
  has_unflushed_writes_ = false;
  facts_.clear();
  context_->buffered_bytes -= buffered_bytes_;
  buffered_bytes_ = 0;
  ++next_identifier_;
  committed_ = std::move(offsets);
  ++context_->commits;
  if (!result->compaction_dropped.ok()) {
    // The writer's view of the bucket no longer matches the table: the next record reopens it.
    SLUICE_RETURN_NOT_OK(Close());
  }
  if (!result->snapshot_ids.empty()) {
    Status maintained = maintenance_->AfterCommit();
    if (!maintained.ok() && context_->log) {
      context_->log("table " + identifier_ +
                    ": maintenance after the commit failed: " + maintained.ToString());
    }
  }
  return Status::OK();
}

Status CdcTableSink::Close() {
  pending_.reset();
  facts_.clear();
  pending_kinds_.clear();
  context_->buffered_bytes -= buffered_bytes_;
  buffered_bytes_ = 0;
  has_unflushed_writes_ = false;
  if (!write_) return Status::OK();
  Status closed = write_->Close();
  write_.reset();
  return closed.WithContext("table " + identifier_);
}

}  // namespace sluice
