#include "sluice/cdc/postgres/postgres_source.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <thread>

#include "sluice/cdc/postgres/pgoutput.h"

namespace sluice {

namespace {

// Snapshot messages per poll (each of scan.snapshot.fetch.size rows).
constexpr size_t kSnapshotMessagesPerPoll = 8;

// How often the stream reports the confirmed position when it has nothing else to say, well
// inside the server's wal_sender_timeout (60 s by default).
constexpr std::chrono::seconds kStatusInterval{10};
// PostgreSQL timestamps count microseconds from 2000-01-01.
constexpr int64_t kPostgresEpochMillis = 946684800000LL;

// A value of `type` for a NOT NULL column a key-only retraction does not carry.
std::string ZeroText(const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return "false";
    case TypeRoot::kDate:
      return "1970-01-01";
    case TypeRoot::kTime:
      return "00:00:00";
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return "1970-01-01 00:00:00";
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return "";
    case TypeRoot::kArray:
      return "[]";
    default:
      return "0";
  }
}

}  // namespace

PostgresSource::PostgresSource(PostgresSourceOptions options, TypeMapping type_mapping,
                               bool sync_table, bool require_primary_keys, Log log)
    : options_(std::move(options)),
      type_mapping_(std::move(type_mapping)),
      sync_table_(sync_table),
      require_primary_keys_(require_primary_keys),
      log_(std::move(log)) {}

PostgresSource::~PostgresSource() = default;

Result<std::unique_ptr<PostgresSource>> PostgresSource::Make(PostgresSourceOptions options,
                                                             TypeMapping type_mapping,
                                                             bool sync_table,
                                                             bool require_primary_keys, Log log) {
  return std::unique_ptr<PostgresSource>(new PostgresSource(std::move(options),
                                                            std::move(type_mapping), sync_table,
                                                            require_primary_keys, std::move(log)));
}

std::string PostgresSource::Describe() const {
  return "postgres " + options_.connect.host + ":" + std::to_string(options_.connect.port) + "/" +
         options_.connect.database + " slot " + options_.slot_name + " schemas " +
         options_.schema_pattern + " tables " + options_.table_pattern;
}

Result<PostgresTable*> PostgresSource::LoadTable(const std::string& schema,
                                                 const std::string& table) {
  SLUICE_ASSIGN_OR_RETURN(PostgresTable read,
                          ReadPostgresTable(*connection_, schema, table, type_mapping_));
  if (require_primary_keys_ && read.primary_keys.empty()) {
    if (log_) log_("table " + read.Identifier() + " has no primary key: not synced");
    return nullptr;
  }
  auto& slot = tables_[read.Identifier()];
  slot = std::make_unique<PostgresTable>(std::move(read));
  return slot.get();
}

Status PostgresSource::EnsurePublication() {
  SLUICE_ASSIGN_OR_RETURN(std::vector<PostgresRow> found,
                          connection_->Query("SELECT 1 FROM pg_publication WHERE pubname = " +
                                             connection_->QuoteLiteral(options_.publication_name)));
  if (!found.empty()) return Status::OK();
  std::string sql = "CREATE PUBLICATION " + connection_->QuoteIdentifier(options_.publication_name);
  if (sync_table_) {
    if (tables_.empty()) {
      return Status::InvalidArgument("postgres " + connection_->address() +
                                     ": no table matches schemas " + options_.schema_pattern +
                                     " tables " + options_.table_pattern);
    }
    sql += " FOR TABLE ";
    bool first = true;
    for (const auto& [id, table] : tables_) {
      sql += (first ? "" : ", ") + connection_->QuoteIdentifier(table->schema) + "." +
             connection_->QuoteIdentifier(table->name);
      first = false;
    }
  } else {
    sql += " FOR ALL TABLES";
  }
  if (log_) log_("creating publication " + options_.publication_name);
  return connection_->Execute(sql);
}

Status PostgresSource::Open(const SourceOffsets& resume) {
  SLUICE_ASSIGN_OR_RETURN(connection_, PostgresConnection::Connect(options_.connect));
  SLUICE_ASSIGN_OR_RETURN(std::vector<PostgresRow> level, connection_->Query("SHOW wal_level"));
  if (level.empty() || level[0][0].value_or("") != "logical") {
    return Status::InvalidArgument("postgres " + connection_->address() + ": wal_level is " +
                                   (level.empty() ? "" : level[0][0].value_or("")) +
                                   "; logical replication needs wal_level=logical");
  }
  SLUICE_ASSIGN_OR_RETURN(auto names, ListPostgresTables(*connection_, options_.schema_pattern,
                                                         options_.table_pattern));
  for (const auto& [schema, table] : names) SLUICE_RETURN_NOT_OK(LoadTable(schema, table).status());
  SLUICE_RETURN_NOT_OK(EnsurePublication());
  for (const auto& [split, next] : resume.next) {
    if (split.rfind(kCopiedFactPrefix, 0) == 0) {
      copied_at_[split.substr(std::strlen(kCopiedFactPrefix))] = static_cast<uint64_t>(next - 1);
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<PostgresRow> end,
                          connection_->Query("SELECT pg_current_wal_lsn()"));
  SLUICE_ASSIGN_OR_RETURN(end_lsn_, ParseLsn(end.at(0).at(0).value_or("")));
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<PostgresRow> slot,
      connection_->Query("SELECT confirmed_flush_lsn, plugin FROM pg_replication_slots WHERE "
                         "slot_name = " +
                         connection_->QuoteLiteral(options_.slot_name)));
  const bool slot_exists = !slot.empty();
  if (slot_exists && slot[0][1].value_or("") != "pgoutput") {
    return Status::InvalidArgument("replication slot " + options_.slot_name + " uses plugin " +
                                   slot[0][1].value_or("") + ", not pgoutput");
  }
  const int64_t wal = resume.Next(kWalSplit);
  if (slot_exists && slot[0][0]) {
    SLUICE_ASSIGN_OR_RETURN(stream_start_, ParseLsn(*slot[0][0]));
  }
  // A position the slot no longer serves is never skipped past in silence.
  if (wal >= 0 && !slot_exists) {
    return Status::InvalidArgument(
        "replication slot " + options_.slot_name +
        " does not exist, but the job's tables hold "
        "changes up to LSN " +
        FormatLsn(static_cast<uint64_t>(wal)) +
        ": the slot was dropped and the changes after that position are gone. Sync into new "
        "tables (a new database or commit user) to start over with a snapshot");
  }
  if (wal >= 0 && stream_start_ > static_cast<uint64_t>(wal)) {
    return Status::InvalidArgument(
        "replication slot " + options_.slot_name + " has confirmed LSN " +
        FormatLsn(stream_start_) + ", past the job's position " +
        FormatLsn(static_cast<uint64_t>(wal)) +
        ": another client moved it, and the changes in between are gone. Sync into new tables "
        "to start over with a snapshot");
  }
  if (wal >= 0) stream_start_ = static_cast<uint64_t>(wal);
  const int64_t snapshot = resume.Next(kSnapshotSplit);
  SLUICE_ASSIGN_OR_RETURN(replication_, PostgresConnection::Connect(options_.connect, true));
  if (options_.snapshot && snapshot <= kSnapshotDone) {
    snapshot_next_ = std::max<int64_t>(snapshot, 0);
    return StartSnapshot(slot_exists);
  }
  snapshot_next_ = std::max<int64_t>(snapshot, 0);
  if (!slot_exists) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<PostgresRow> created,
                            replication_->Query("CREATE_REPLICATION_SLOT " +
                                                replication_->QuoteIdentifier(options_.slot_name) +
                                                " LOGICAL pgoutput (SNAPSHOT 'nothing')"));
    SLUICE_ASSIGN_OR_RETURN(stream_start_, ParseLsn(created.at(0).at(1).value_or("")));
  }
  return StartStream();
}

Status PostgresSource::StartSnapshot(bool slot_exists) {
  phase_ = Phase::kSnapshot;
  PostgresConnection* exporter = replication_.get();
  std::string slot = replication_->QuoteIdentifier(options_.slot_name);
  std::string kind;
  if (slot_exists) {
    // The slot's own snapshot is gone with the run that created it: a temporary slot exports
    // one at a later LSN for the tables not yet copied (its connection keeps it until copied).
    SLUICE_ASSIGN_OR_RETURN(temporary_slot_, PostgresConnection::Connect(options_.connect, true));
    exporter = temporary_slot_.get();
    slot = exporter->QuoteIdentifier(options_.slot_name + "_sluice_" + std::to_string(getpid()));
    kind = " TEMPORARY";
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<PostgresRow> created,
                          exporter->Query("CREATE_REPLICATION_SLOT " + slot + kind +
                                          " LOGICAL pgoutput (SNAPSHOT 'export')"));
  if (created.empty() || !created[0][1] || !created[0][2]) {
    return Status::IOError("postgres " + exporter->address() +
                           ": CREATE_REPLICATION_SLOT returned no snapshot");
  }
  SLUICE_ASSIGN_OR_RETURN(snapshot_lsn_, ParseLsn(*created[0][1]));
  if (!slot_exists) stream_start_ = snapshot_lsn_;
  SLUICE_ASSIGN_OR_RETURN(copy_, PostgresConnection::Connect(options_.connect));
  SLUICE_RETURN_NOT_OK(copy_->Execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
  SLUICE_RETURN_NOT_OK(
      copy_->Execute("SET TRANSACTION SNAPSHOT " + copy_->QuoteLiteral(*created[0][2])));
  snapshot_tables_.clear();
  for (auto& [id, table] : tables_) {
    if (!copied_at_.count(id)) snapshot_tables_.push_back(table.get());
  }
  snapshot_table_ = 0;
  if (log_) {
    log_("snapshot of " + std::to_string(snapshot_tables_.size()) + " tables (" +
         std::to_string(copied_at_.size()) + " copied before) at LSN " + FormatLsn(snapshot_lsn_));
  }
  return Status::OK();
}

Status PostgresSource::PollSnapshot(size_t max_messages, std::vector<SourceMessage>* out) {
  // A poll hands out a few messages of rows, not a whole table: the rows wait as text until the
  // job writes them.
  max_messages = std::min(max_messages, kSnapshotMessagesPerPoll);
  while (out->size() < max_messages) {
    if (snapshot_table_ >= snapshot_tables_.size()) {
      SLUICE_RETURN_NOT_OK(copy_->Execute("COMMIT"));
      copy_.reset();
      temporary_slot_.reset();
      SourceMessage done;
      done.split = kSnapshotSplit;
      done.offset = kSnapshotDone;
      out->push_back(std::move(done));
      snapshot_next_ = kSnapshotDone + 1;
      if (log_) log_("snapshot done");
      return StartStream();
    }
    const PostgresTable& table = *snapshot_tables_[snapshot_table_];
    if (!cursor_open_) {
      std::string select = "DECLARE sluice_copy NO SCROLL CURSOR FOR SELECT ";
      for (size_t i = 0; i < table.columns.size(); ++i) {
        select += (i > 0 ? ", " : "") + copy_->QuoteIdentifier(table.columns[i].name);
      }
      select += " FROM " + copy_->QuoteIdentifier(table.schema) + "." +
                copy_->QuoteIdentifier(table.name);
      SLUICE_RETURN_NOT_OK(copy_->Execute(select));
      cursor_open_ = true;
    }
    SLUICE_ASSIGN_OR_RETURN(
        std::vector<PostgresRow> rows,
        copy_->Query("FETCH " + std::to_string(options_.tuning.snapshot_fetch_size) +
                     " FROM sluice_copy"));
    if (!rows.empty()) {
      SourceMessage message;
      message.split = kSnapshotSplit;
      message.offset = snapshot_next_++;
      message.commit_point = false;
      for (PostgresRow& row : rows) {
        RichCdcMultiplexRecord& record = message.records.emplace_back();
        record.database = options_.connect.database;
        record.table = table.name;
        record.schema = table.schema_of_records;
        record.record.kind = RowKind::kInsert;
        for (size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
          std::optional<std::string> value;
          if (row[i]) {
            auto text = PostgresValueText(table.columns[i].type, *table.columns[i].data_type,
                                          std::move(*row[i]));
            if (!text.ok()) {
              return text.status().WithContext("postgres snapshot of " + table.Identifier() +
                                               " column " + table.columns[i].name);
            }
            value = std::move(*text);
          }
          record.record.fields.emplace_back(table.columns[i].name, std::move(value));
        }
      }
      out->push_back(std::move(message));
    }
    if (rows.size() < static_cast<size_t>(options_.tuning.snapshot_fetch_size)) {
      SLUICE_RETURN_NOT_OK(copy_->Execute("CLOSE sluice_copy"));
      cursor_open_ = false;
      ++snapshot_table_;
      copied_at_[table.Identifier()] = snapshot_lsn_;
      SourceMessage copied;
      copied.split = kCopiedFactPrefix + table.Identifier();
      copied.offset = static_cast<int64_t>(snapshot_lsn_);
      copied.fact_database = options_.connect.database;
      copied.fact_table = table.name;
      out->push_back(std::move(copied));
      if (log_) log_("table " + table.Identifier() + " copied");
    }
  }
  return Status::OK();
}

Status PostgresSource::StartStream() {
  phase_ = Phase::kStream;
  wal_next_ = std::max(wal_next_, stream_start_);
  routes_.clear();
  pending_.clear();
  in_transaction_ = false;
  last_status_ = std::chrono::steady_clock::now();
  return replication_->StartReplication(
      "START_REPLICATION SLOT " + replication_->QuoteIdentifier(options_.slot_name) + " LOGICAL " +
      FormatLsn(wal_next_) + " (proto_version '1', publication_names " +
      replication_->QuoteLiteral(options_.publication_name) + ")");
}

Status PostgresSource::Poll(std::chrono::milliseconds timeout, size_t max_messages,
                            std::vector<SourceMessage>* out) {
  out->clear();
  if (phase_ == Phase::kSnapshot) return PollSnapshot(max_messages, out);
  Status polled = PollStream(timeout, max_messages, out);
  if (polled.ok() || polled.code() != StatusCode::kIOError) return polled;
  // A lost connection or a restarted server: the stream starts again at the last message's
  // end, with backoff, before the job gives up.
  while (failures_ < options_.tuning.connect_max_retries) {
    ++failures_;
    if (log_)
      log_(polled.ToString() + "; reconnecting (attempt " + std::to_string(failures_) + ")");
    std::this_thread::sleep_for(std::chrono::seconds(1) * (1 << std::min(failures_ - 1, 5)));
    auto connected = PostgresConnection::Connect(options_.connect, true);
    if (connected.ok()) {
      replication_ = std::move(*connected);
      auto catalog = PostgresConnection::Connect(options_.connect);
      if (catalog.ok()) connection_ = std::move(*catalog);
      polled = catalog.ok() ? StartStream() : catalog.status();
      if (polled.ok()) return Status::OK();
    } else {
      polled = connected.status();
    }
  }
  return polled;
}

Status PostgresSource::PollStream(std::chrono::milliseconds timeout, size_t max_messages,
                                  std::vector<SourceMessage>* out) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool received = false;
  while (out->size() < max_messages) {
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    SLUICE_ASSIGN_OR_RETURN(
        std::optional<std::string> frame,
        replication_->ReadReplication(std::max(wait, std::chrono::milliseconds(0))));
    if (!frame) break;
    received = true;
    SLUICE_ASSIGN_OR_RETURN(PgReplicationFrame decoded, DecodeReplicationFrame(*frame));
    if (const auto* keepalive = std::get_if<PgKeepalive>(&decoded)) {
      // Every transaction committed before the server's sent position has reached us: with none
      // open, the position moves there.
      if (!in_transaction_ && keepalive->end_lsn > wal_next_) {
        wal_next_ = keepalive->end_lsn;
        SourceMessage position;
        position.split = kWalSplit;
        position.offset = static_cast<int64_t>(wal_next_) - 1;
        out->push_back(std::move(position));
      }
      if (keepalive->reply_requested) SLUICE_RETURN_NOT_OK(SendStatus(false));
      continue;
    }
    const PgXLogData& data = std::get<PgXLogData>(decoded);
    SLUICE_ASSIGN_OR_RETURN(PgMessage message, DecodePgOutput(data.payload));
    if (const auto* begin = std::get_if<PgBegin>(&message)) {
      in_transaction_ = true;
      transaction_commit_lsn_ = begin->final_lsn;
    } else if (const auto* relation = std::get_if<PgRelation>(&message)) {
      SLUICE_RETURN_NOT_OK(HandleRelation(*relation));
    } else if (const auto* change = std::get_if<PgChange>(&message)) {
      SLUICE_RETURN_NOT_OK(AddChange(*change));
    } else if (const auto* commit = std::get_if<PgCommit>(&message)) {
      in_transaction_ = false;
      if (commit->commit_lsn + 1 > wal_next_ || !pending_.empty()) {
        SourceMessage done;
        done.split = kWalSplit;
        done.offset = static_cast<int64_t>(commit->commit_lsn);
        done.timestamp_ms = commit->commit_time_us / 1000 + kPostgresEpochMillis;
        done.records.swap(pending_);
        out->push_back(std::move(done));
        wal_next_ = std::max(wal_next_, commit->commit_lsn + 1);
      }
      pending_.clear();
    }
  }
  if (!out->empty()) failures_ = 0;
  // Idle: ask the server where it is (its keepalive moves the position, above), and report the
  // confirmed position now and then.
  if (!received || std::chrono::steady_clock::now() - last_status_ > kStatusInterval) {
    SLUICE_RETURN_NOT_OK(SendStatus(!received));
  }
  return Status::OK();
}

Status PostgresSource::HandleRelation(const PgRelation& relation) {
  Route route;
  const std::string id = relation.schema + "." + relation.name;
  auto known = tables_.find(id);
  PostgresTable* table = known != tables_.end() ? known->second.get() : nullptr;
  if (table == nullptr) {
    const bool selected = std::regex_match(relation.schema, std::regex(options_.schema_pattern)) &&
                          std::regex_match(relation.name, std::regex(options_.table_pattern));
    if (known == tables_.end() && selected) {
      if (log_) log_("table " + id + " appeared in the stream: syncing it");
      SLUICE_ASSIGN_OR_RETURN(table, LoadTable(relation.schema, relation.name));
    }
    if (table == nullptr) {
      tables_.emplace(id, nullptr);
      routes_[relation.id] = route;
      return Status::OK();
    }
  }
  // The stream's columns are the table's as the rows that follow were written.
  bool same = relation.columns.size() == table->columns.size();
  for (size_t i = 0; same && i < relation.columns.size(); ++i) {
    same = relation.columns[i].name == table->columns[i].name &&
           relation.columns[i].type_oid == table->columns[i].type_oid &&
           relation.columns[i].type_modifier == table->columns[i].type.modifier;
  }
  if (!same) {
    std::vector<PostgresColumn> columns;
    for (const PgRelation::Column& source : relation.columns) {
      PostgresColumn column;
      column.name = source.name;
      column.type_oid = source.type_oid;
      column.type.modifier = source.type_modifier;
      SLUICE_ASSIGN_OR_RETURN(
          std::vector<PostgresRow> type,
          connection_->Query("SELECT t.typname, (t.typtype = 'e' OR coalesce(e.typtype = 'e', "
                             "false)) FROM pg_type t LEFT JOIN pg_type e ON e.oid = t.typelem "
                             "AND t.typelem <> 0 WHERE t.oid = " +
                             std::to_string(source.type_oid)));
      if (type.empty()) {
        return Status::Corruption("pgoutput Relation " + id + ": unknown type oid " +
                                  std::to_string(source.type_oid));
      }
      column.type.name = type[0][0].value_or("");
      column.type.is_enum = type[0][1].value_or("f") == "t";
      for (const PostgresColumn& before : table->columns) {
        if (before.name == column.name) column.nullable = before.nullable;
      }
      columns.push_back(std::move(column));
    }
    table->columns = std::move(columns);
    SLUICE_RETURN_NOT_OK(table->Finish(type_mapping_));
    if (log_) log_("table " + id + ": columns changed in the stream");
  }
  route.table = table;
  route.columns.resize(relation.columns.size());
  for (size_t i = 0; i < relation.columns.size(); ++i) route.columns[i] = static_cast<int32_t>(i);
  routes_[relation.id] = std::move(route);
  return Status::OK();
}

Status PostgresSource::AddChange(const PgChange& change) {
  auto found = routes_.find(change.relation_id);
  if (found == routes_.end()) {
    return Status::Corruption("pgoutput change of relation " + std::to_string(change.relation_id) +
                              " before its Relation message");
  }
  const PostgresTable* table = found->second.table;
  if (table == nullptr) return Status::OK();
  // The table's copy holds every transaction committed before its snapshot.
  auto copied = copied_at_.find(table->Identifier());
  if (copied != copied_at_.end() && transaction_commit_lsn_ < copied->second) return Status::OK();
  auto add = [&](RowKind kind, const PgTuple& tuple) -> Status {
    RichCdcMultiplexRecord& record = pending_.emplace_back();
    record.database = options_.connect.database;
    record.table = table->name;
    record.schema = table->schema_of_records;
    record.record.kind = kind;
    for (size_t i = 0; i < tuple.values.size() && i < table->columns.size(); ++i) {
      // A TOASTed value an update left unchanged is not in the stream.
      if (tuple.unchanged[i]) continue;
      const PostgresColumn& column = table->columns[i];
      // Key-only old tuples (REPLICA IDENTITY DEFAULT) carry NULL in the other columns: those
      // are left out, and a NOT NULL one gets its type's zero value, which a retraction of a
      // primary-key table does not read (Java's sync stops at such a delete for good).
      if (!tuple.values[i] && kind != RowKind::kInsert && kind != RowKind::kUpdateAfter &&
          std::find(table->primary_keys.begin(), table->primary_keys.end(), column.name) ==
              table->primary_keys.end()) {
        if (!column.nullable)
          record.record.fields.emplace_back(column.name, ZeroText(*column.data_type));
        continue;
      }
      std::optional<std::string> value;
      if (tuple.values[i]) {
        auto text = PostgresValueText(column.type, *column.data_type, *tuple.values[i]);
        if (!text.ok())
          return text.status().WithContext("table " + table->Identifier() + " column " +
                                           column.name);
        value = std::move(*text);
      }
      record.record.fields.emplace_back(column.name, std::move(value));
    }
    return Status::OK();
  };
  switch (change.kind) {
    case PgChange::Kind::kInsert:
      return add(RowKind::kInsert, *change.new_tuple);
    case PgChange::Kind::kUpdate:
      if (change.old_tuple) SLUICE_RETURN_NOT_OK(add(RowKind::kUpdateBefore, *change.old_tuple));
      return add(RowKind::kUpdateAfter, *change.new_tuple);
    case PgChange::Kind::kDelete:
      return add(RowKind::kDelete, *change.old_tuple);
  }
  return Status::OK();
}

Status PostgresSource::SendStatus(bool reply_requested) {
  last_status_ = std::chrono::steady_clock::now();
  return replication_->WriteReplication(
      StandbyStatusUpdate(acknowledged_, acknowledged_, acknowledged_, reply_requested));
}

Status PostgresSource::Acknowledge(const SourceOffsets& offsets) {
  const int64_t wal = offsets.Next(kWalSplit);
  if (wal < 0 || phase_ != Phase::kStream) return Status::OK();
  acknowledged_ = std::max(acknowledged_, static_cast<uint64_t>(wal));
  return SendStatus(false);
}

std::vector<SplitLag> PostgresSource::Lag() {
  std::vector<SplitLag> lag;
  if (options_.snapshot) {
    const int64_t snapshot_end = snapshot_next_ > kSnapshotDone ? snapshot_next_ : -1;
    lag.push_back({kSnapshotSplit, snapshot_next_, snapshot_end});
  }
  lag.push_back({kWalSplit, static_cast<int64_t>(std::max(wal_next_, stream_start_)),
                 static_cast<int64_t>(end_lsn_)});
  return lag;
}

}  // namespace sluice
