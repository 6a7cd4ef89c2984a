#include "sluice/cdc/sync_job.h"

#include <algorithm>
#include <chrono>

#include "sluice/catalog/catalog_factory.h"
#include "sluice/cdc/computed_column.h"
#include "sluice/cdc/schema_evolution.h"
#include "sluice/cdc/table_sync_state.h"
#include "sluice/fs/file_io_factory.h"

namespace sluice {

namespace {

using Clock = std::chrono::steady_clock;

// Messages taken from the source per poll.
constexpr size_t kMessagesPerPoll = 4096;
// The longest a poll waits, so that a stop request is seen promptly.
constexpr std::chrono::milliseconds kMaxPollWait{200};

// "topic shop partition 0 offset 17", or the split for sources without topics.
std::string WhereIs(const SourceMessage& message) {
  if (!message.topic.empty()) {
    return "topic " + message.topic + " partition " + std::to_string(message.partition) +
           " offset " + std::to_string(message.offset);
  }
  return message.split + " offset " + std::to_string(message.offset);
}

// The columns of the dead-letter table: where a message came from, its bytes, and why it did
// not parse.
std::vector<DataField> DeadLetterColumns() {
  return {{0, "topic", DataType::String(), {}, {}},
          {1, "partition", DataType::Int(), {}, {}},
          {2, "offset", DataType::BigInt(), {}, {}},
          {3, "message_key", DataType::Bytes(), {}, {}},
          {4, "message_value", DataType::Bytes(), {}, {}},
          {5, "error", DataType::String(), {}, {}}};
}

// Splits "db.table" at its first dot. InvalidArgument naming `what` when there is none.
Result<std::pair<std::string, std::string>> SplitIdentifier(const std::string& identifier,
                                                            std::string_view what) {
  size_t dot = identifier.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == identifier.size()) {
    return Status::InvalidArgument(std::string(what) + " '" + identifier +
                                   "' is not of the form database.table");
  }
  return std::pair{identifier.substr(0, dot), identifier.substr(dot + 1)};
}

}  // namespace

SyncJob::SyncJob(SyncJobOptions options, std::unique_ptr<CdcSource> source,
                 std::unique_ptr<RecordParser> parser, Log log)
    : options_(std::move(options)),
      source_(std::move(source)),
      parser_(std::move(parser)),
      log_(std::move(log)) {
  context_.options = &options_;
  context_.log = log_;
}

SyncJob::~SyncJob() = default;

Result<std::unique_ptr<SyncJob>> SyncJob::Open(SyncJobOptions options,
                                               std::unique_ptr<CdcSource> source,
                                               std::unique_ptr<RecordParser> parser, Log log) {
  if (options.warehouse.empty()) return Status::InvalidArgument("argument --warehouse is required");
  if (options.database.empty()) return Status::InvalidArgument("argument --database is required");
  if (options.commit_user.empty()) {
    return Status::InvalidArgument("a sync job needs a commit user");
  }
  if (options.commit_interval.count() <= 0) {
    return Status::InvalidArgument("the commit interval must be positive, got " +
                                   std::to_string(options.commit_interval.count()) + " ms");
  }
  std::unique_ptr<SyncJob> job(
      new SyncJob(std::move(options), std::move(source), std::move(parser), std::move(log)));
  const SyncJobOptions& o = job->options_;
  if (o.table.empty()) {
    SLUICE_ASSIGN_OR_RETURN(TableNameConverter names,
                            TableNameConverter::ForDatabase(o.table_names));
    job->names_ = std::make_unique<TableNameConverter>(std::move(names));
  } else {
    job->names_ = std::make_unique<TableNameConverter>(TableNameConverter::ForTable(o.table));
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<ComputedColumn> computed,
                          ComputedColumn::ParseAll(o.computed_columns));
  for (ComputedColumn& column : computed) {
    job->computed_columns_.push_back(std::make_unique<ComputedColumn>(std::move(column)));
  }
  for (const std::string& name : o.metadata_columns) {
    SLUICE_RETURN_NOT_OK(MetadataColumnType(name).status());
  }
  if (!o.dead_letter_table.empty()) {
    SLUICE_RETURN_NOT_OK(SplitIdentifier(o.dead_letter_table, "--dead_letter_table").status());
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> io,
                          FileIOForPath(o.warehouse, o.catalog_options));
  std::map<std::string, std::string> catalog_options = o.catalog_options;
  catalog_options.emplace("warehouse", o.warehouse);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const CatalogBackend> catalog,
                          CreateCatalog(catalog_options));
  SLUICE_RETURN_NOT_OK(catalog->CreateDatabase(o.database, /*ignore_if_exists=*/true));
  job->progress_file_ =
      std::make_unique<SyncProgressFile>(io, catalog->DatabasePath(o.database), o.commit_user);
  job->catalog_ = std::move(catalog);
  return job;
}

Result<SourceOffsets> SyncJob::ResumeOffsets() {
  SLUICE_ASSIGN_OR_RETURN(std::optional<SourceOffsets> stored, progress_file_->Load());
  // Without a completed round (or with the file lost): the smallest offsets the job's commits
  // left in the database's tables; every message before them is in every table that has any.
  // The facts (SourceOffsets::kFactPrefix) come from the tables either way: a job killed between
  // a table's commit and the progress file's store left the fact in the table only.
  SourceOffsets resume = stored.value_or(SourceOffsets{});
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> tables, catalog_->ListTables(options_.database));
  for (const std::string& name : tables) {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                            catalog_->LoadTable(options_.database + "." + name));
    SLUICE_ASSIGN_OR_RETURN(TableSyncState state, LoadTableSyncState(*table, options_.commit_user));
    for (const auto& [split, next] : state.offsets.next) {
      if (stored && !SourceOffsets::IsFact(split)) continue;
      auto [it, inserted] = resume.next.emplace(split, next);
      if (!inserted && !SourceOffsets::IsFact(split)) it->second = std::min(it->second, next);
    }
  }
  return resume;
}

Status SyncJob::Run(const std::atomic<bool>& stop,
                    const std::function<void(const SyncJobProgress&)>& progress) {
  SLUICE_ASSIGN_OR_RETURN(consumed_, ResumeOffsets());
  SLUICE_RETURN_NOT_OK(source_->Open(consumed_));
  // Where the startup mode put the splits no commit named is stored before anything is read:
  // from then on the progress file always says where a restart must begin, even when this
  // run's first round never completes.
  for (const SplitLag& split : source_->Lag()) {
    if (split.next_offset >= 0) consumed_.next.emplace(split.split, split.next_offset);
  }
  SLUICE_RETURN_NOT_OK(progress_file_->Store(consumed_));
  if (log_) log_("reading " + source_->Describe());
  std::vector<SourceMessage> messages;
  Clock::time_point next_commit = Clock::now() + options_.commit_interval;
  Status status;
  while (status.ok() && !stop.load(std::memory_order_relaxed)) {
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_commit - Clock::now());
    wait = std::clamp(wait, std::chrono::milliseconds(0), kMaxPollWait);
    status = source_->Poll(wait, kMessagesPerPoll, &messages);
    if (metrics_) {
      metrics_->Fetched(messages, std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
    }
    if (status.ok() && messages.empty() && options_.stop_at_end && AtEnd()) break;
    // A stop request ends the batch too: a poll may hand out thousands of messages, and what
    // is left of them is read again after a restart (consumed_ ends before it).
    for (size_t i = 0; status.ok() && i < messages.size() && !stop.load(std::memory_order_relaxed);
         ++i) {
      status = Apply(messages[i]);
      if (!status.ok()) break;
      if (!SourceOffsets::IsFact(messages[i].split)) {
        consumed_.next[messages[i].split] = messages[i].offset + 1;
      }
      at_commit_point_ = messages[i].commit_point;
      if (context_.buffered_bytes >= options_.max_buffered_bytes) {
        status = CommitRound(progress, &next_commit);
      }
    }
    ReportMetrics(/*round=*/false);
    if (status.ok() && Clock::now() >= next_commit) status = CommitRound(progress, &next_commit);
  }
  bool all_committed = true;
  if (!at_commit_point_) {
    // Inside a unit that commits whole (SourceMessage::commit_point): the sinks drop it, and a
    // restart reads it again.
    for (auto& [name, sink] : sinks_) {
      Status dropped = sink->Close();
      if (!dropped.ok() && log_) log_(dropped.ToString());
    }
    all_committed = false;
  } else if (!status.ok()) {
    // A message that failed half way may have left some of its records in sinks: those sinks
    // drop what they buffered, so that no record of the failed message is committed under
    // offsets that say it is not. What they dropped came after their last commit, so the
    // progress file is left where it is and a restart replays it; sinks the message did not
    // reach commit what they hold (and skip it on the replay).
    for (CdcTableSink* sink : touched_) {
      Status dropped = sink->Close();
      if (!dropped.ok() && log_) log_(dropped.ToString());
      all_committed = false;
    }
  }
  // What was consumed before a stop or a failed message is committed: the failed message and
  // what follows it are not in consumed_.
  Status committed = CommitAll(all_committed);
  if (committed.ok()) ReportMetrics(/*round=*/true);
  if (committed.ok() && progress) progress(Progress());
  for (auto& [name, sink] : sinks_) {
    Status closed = sink->Close();
    if (committed.ok()) committed = closed;
  }
  return status.ok() ? committed : status;
}

Status SyncJob::Apply(SourceMessage& message) {
  ++messages_;
  records_.clear();
  touched_.clear();
  if (SourceOffsets::IsFact(message.split)) {
    // A table whose sink does not exist yet had no record to create it from: the fact is
    // dropped, and the source states it again after a restart.
    CdcTableSink* sink = nullptr;
    if (auto tables = routes_.find(message.fact_database); tables != routes_.end()) {
      if (auto route = tables->second.find(message.fact_table); route != tables->second.end()) {
        sink = route->second;
      }
    }
    if (sink != nullptr) sink->AddFact(message.split, message.offset + 1);
    return Status::OK();
  }
  Status parsed;
  if (parser_) {
    parsed = parser_->Parse(message, &records_);
  } else {
    records_.swap(message.records);
  }
  if (!parsed.ok()) {
    if (options_.dead_letter_table.empty()) return parsed.WithContext(WhereIs(message));
    return ApplyDeadLetter(message, parsed);
  }
  for (RichCdcMultiplexRecord& record : records_) {
    CdcTableSink* sink = nullptr;
    std::unordered_map<std::string, CdcTableSink*>& tables = routes_[record.database];
    if (auto route = tables.find(record.table); route != tables.end()) {
      sink = route->second;
    } else {
      const std::optional<std::string> table = names_->Convert(record.database, record.table);
      if (table) {
        if (table->empty()) {
          return Status::InvalidArgument(WhereIs(message) +
                                         ": the record names no table, and a whole-database sync "
                                         "routes records by their table");
        }
        SLUICE_ASSIGN_OR_RETURN(sink, SinkFor(*table, record));
      }
      tables.emplace(record.table, sink);
    }
    if (sink == nullptr) continue;
    if (sink->Holds(message.split, message.offset)) continue;
    SLUICE_RETURN_NOT_OK(AddDerivedColumns(message, &record));
    // A record that fails adds nothing to its sink (CdcRecordConverter::Append).
    Status added = sink->Add(record.schema, std::move(record.record), consumed_);
    if (!added.ok()) return added.WithContext(WhereIs(message));
    touched_.push_back(sink);
  }
  return Status::OK();
}

Status SyncJob::ApplyDeadLetter(const SourceMessage& message, const Status& error) {
  RichCdcMultiplexRecord letter;
  letter.schema =
      std::make_shared<const CdcSchema>(CdcSchema{DeadLetterColumns(), {}, std::nullopt});
  auto value = [](const std::optional<std::string>& bytes) { return bytes; };
  letter.record.fields = {{"topic", message.topic},
                          {"partition", std::to_string(message.partition)},
                          {"offset", std::to_string(message.offset)},
                          {"message_key", value(message.key)},
                          {"message_value", value(message.value)},
                          {"error", error.message()}};
  SLUICE_ASSIGN_OR_RETURN(auto name,
                          SplitIdentifier(options_.dead_letter_table, "--dead_letter_table"));
  std::string identifier = options_.dead_letter_table;
  if (!sinks_.count(identifier)) {
    SLUICE_RETURN_NOT_OK(catalog_->CreateDatabase(name.first, /*ignore_if_exists=*/true));
    NewTableSpec spec;
    spec.columns = DeadLetterColumns();
    Status created = catalog_->CreateTable(identifier, spec, /*ignore_if_exists=*/true);
    if (!created.ok()) return created.WithContext("dead-letter table " + identifier);
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<CdcTableSink> sink,
                            CdcTableSink::Open(catalog_, identifier, &context_));
    sinks_.emplace(identifier, std::move(sink));
  }
  CdcTableSink* sink = sinks_.at(identifier).get();
  ++dead_letters_;
  if (log_) log_("dead letter: " + WhereIs(message) + ": " + error.message());
  if (sink->Holds(message.split, message.offset)) return Status::OK();
  SLUICE_RETURN_NOT_OK(sink->Add(letter.schema, std::move(letter.record), consumed_));
  touched_.push_back(sink);
  return Status::OK();
}

Result<CdcTableSink*> SyncJob::SinkFor(const std::string& table,
                                       const RichCdcMultiplexRecord& record) {
  auto it = sinks_.find(table);
  if (it != sinks_.end()) return it->second.get();
  std::string identifier = options_.database + "." + table;
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> tables, catalog_->ListTables(options_.database));
  if (!std::binary_search(tables.begin(), tables.end(), table)) {
    NewTableRequest request;
    auto by_table = options_.partition_keys_by_table.find(record.table);
    request.partition_keys = by_table != options_.partition_keys_by_table.end()
                                 ? by_table->second
                                 : options_.partition_keys;
    request.primary_keys = options_.primary_keys;
    request.sync_primary_keys_from_source = options_.sync_primary_keys_from_source;
    request.type_mapping = options_.type_mapping;
    request.table_conf = options_.table_conf;
    for (const auto& column : computed_columns_) request.computed_columns.push_back(column.get());
    request.metadata_columns = options_.metadata_columns;
    request.metadata_column_prefix = options_.metadata_column_prefix;
    // Sync-table checks the given keys against the columns; sync-database drops keys a table
    // lacks (Java's strictlyCheckSpecified).
    request.strictly_check_specified = !options_.table.empty();
    SLUICE_ASSIGN_OR_RETURN(NewTableSpec spec,
                            BuildNewTableSpec(identifier, *record.schema, request));
    Status created = catalog_->CreateTable(identifier, spec, /*ignore_if_exists=*/true);
    if (!created.ok()) return created.WithContext("creating table " + identifier);
    if (log_) log_("table " + identifier + " created");
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<CdcTableSink> sink,
                          CdcTableSink::Open(catalog_, identifier, &context_));
  CdcTableSink* raw = sink.get();
  sinks_.emplace(table, std::move(sink));
  return raw;
}

Status SyncJob::AddDerivedColumns(const SourceMessage& message,
                                  RichCdcMultiplexRecord* record) const {
  for (const auto& column : computed_columns_) {
    const DataType* referenced = nullptr;
    for (const DataField& field : record->schema->fields) {
      if (field.name == column->field_reference()) referenced = field.type.get();
    }
    auto value = column->Eval(record->record, referenced);
    if (!value.ok()) return value.status().WithContext("computed column " + column->name());
    record->record.fields.emplace_back(column->name(), std::move(*value));
  }
  for (const std::string& name : options_.metadata_columns) {
    std::optional<std::string> value;
    if (name == "topic") {
      value = message.topic;
    } else if (name == "partition") {
      value = std::to_string(message.partition);
    } else if (name == "offset") {
      value = std::to_string(message.offset);
    } else if (name == "timestamp") {
      // TIMESTAMP_LTZ(3) text, the UTC wall clock of the message's epoch millis.
      if (message.timestamp_ms >= 0) value = Timestamp{message.timestamp_ms, 0}.ToString(3);
    } else if (name == "op_ts") {
      // As Java's OpTsConverter: the change's epoch millis as TIMESTAMP_LTZ(3) text.
      value = Timestamp{std::max<int64_t>(message.timestamp_ms, 0), 0}.ToString(3);
    } else if (name == "timestamp_type") {
      value = message.timestamp_type;
    } else if (name == "table_name") {
      value = record->table;
    } else if (name == "database_name") {
      value = record->database;
    }
    record->record.fields.emplace_back(options_.metadata_column_prefix + name, std::move(value));
  }
  return Status::OK();
}

Status SyncJob::CommitAll(bool store_progress) {
  for (auto& [name, sink] : sinks_) SLUICE_RETURN_NOT_OK(sink->Commit(consumed_));
  if (!store_progress) return Status::OK();
  SLUICE_RETURN_NOT_OK(progress_file_->Store(consumed_));
  Status acknowledged = source_->Acknowledge(consumed_);
  if (!acknowledged.ok() && log_) log_("acknowledging offsets failed: " + acknowledged.ToString());
  return Status::OK();
}

bool SyncJob::AtEnd() {
  for (const SplitLag& split : source_->Lag()) {
    if (split.end_offset < 0 || split.next_offset < split.end_offset) return false;
  }
  return true;
}

Status SyncJob::CommitRound(const std::function<void(const SyncJobProgress&)>& progress,
                            std::chrono::steady_clock::time_point* next_commit) {
  // Inside a unit that commits whole (SourceMessage::commit_point): the round waits for its end.
  if (!at_commit_point_) return Status::OK();
  SLUICE_RETURN_NOT_OK(CommitAll());
  *next_commit = Clock::now() + options_.commit_interval;
  ReportMetrics(/*round=*/true);
  if (progress) progress(Progress());
  return Status::OK();
}

void SyncJob::WithMetricRegistry(MetricRegistryImpl* registry) {
  context_.metrics = registry;
  metrics_ = registry == nullptr ? nullptr : std::make_unique<SourceMetrics>(registry->Group());
}

void SyncJob::ReportMetrics(bool round) {
  if (!metrics_) return;
  metrics_->Totals(context_.records, context_.schema_changes, dead_letters_,
                   static_cast<int64_t>(sinks_.size()));
  if (round) metrics_->CommitRound(source_->Lag());
}

SyncJobProgress SyncJob::Progress() {
  SyncJobProgress progress;
  progress.messages = messages_;
  progress.records = context_.records;
  progress.commits = context_.commits;
  progress.schema_changes = context_.schema_changes;
  progress.tables = static_cast<int64_t>(sinks_.size());
  progress.dead_letters = dead_letters_;
  progress.lag = source_->Lag();
  return progress;
}

}  // namespace sluice
