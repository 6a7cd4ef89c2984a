#include "sluice/cdc/mysql/mysql_source.h"

#include <algorithm>
#include <cstring>
#include <regex>
#include <thread>

#include "sluice/cdc/mysql/binlog_event.h"
#include "sluice/cdc/mysql/binlog_rows.h"
#include "sluice/cdc/mysql/binlog_stream.h"
#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

// Snapshot messages per poll (each of scan.snapshot.fetch.size rows).
constexpr size_t kSnapshotMessagesPerPoll = 8;

// The first word of a statement, upper-cased ("BEGIN", "COMMIT", "ALTER", ...).
std::string FirstWord(std::string_view sql) {
  size_t start = 0;
  while (start < sql.size() && std::isspace(static_cast<unsigned char>(sql[start]))) ++start;
  std::string word;
  for (size_t i = start; i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i])); ++i) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i])));
  }
  return word;
}

// Statements that change a table's definition or create one.
bool IsDdl(std::string_view word) {
  return word == "ALTER" || word == "CREATE" || word == "DROP" || word == "RENAME" ||
         word == "TRUNCATE";
}

}  // namespace

MySqlSource::MySqlSource(MySqlSourceOptions options, TypeMapping type_mapping,
                         bool require_primary_keys, Log log)
    : options_(std::move(options)),
      type_mapping_(std::move(type_mapping)),
      require_primary_keys_(require_primary_keys),
      log_(std::move(log)) {}

MySqlSource::~MySqlSource() = default;

Result<std::unique_ptr<MySqlSource>> MySqlSource::Make(MySqlSourceOptions options,
                                                       TypeMapping type_mapping,
                                                       bool require_primary_keys, Log log) {
  std::unique_ptr<MySqlSource> source(new MySqlSource(std::move(options), std::move(type_mapping),
                                                      require_primary_keys, std::move(log)));
  auto zone = TimeZone::Load(source->options_.server_time_zone);
  if (!zone.ok()) {
    return zone.status().WithContext("--mysql_conf server-time-zone=" +
                                     source->options_.server_time_zone);
  }
  source->zone_ = std::move(*zone);
  return source;
}

std::string MySqlSource::Describe() const {
  return "mysql " + options_.connect.host + ":" + std::to_string(options_.connect.port) +
         " databases " + options_.database_pattern + " tables " + options_.table_pattern;
}

Status MySqlSource::Connect() {
  SLUICE_ASSIGN_OR_RETURN(connection_, MySqlConnection::Connect(options_.connect));
  SLUICE_ASSIGN_OR_RETURN(std::vector<MySqlRow> rows,
                          connection_->Query("SELECT @@global.binlog_format, "
                                             "@@global.binlog_row_image, @@global.log_bin, "
                                             "@@global.binlog_checksum"));
  const std::string format = rows.empty() ? "" : rows[0][0].value_or("");
  const std::string image = rows.empty() ? "" : rows[0][1].value_or("");
  const std::string log_bin = rows.empty() ? "" : rows[0][2].value_or("");
  checksum_crc32_ = !rows.empty() && rows[0][3].value_or("") == "CRC32";
  if (log_bin != "1" && log_bin != "ON") {
    return Status::InvalidArgument("mysql " + connection_->address() +
                                   ": the binary log is off (log_bin); the binlog source needs "
                                   "log_bin with binlog_format=ROW");
  }
  if (format != "ROW") {
    return Status::InvalidArgument("mysql " + connection_->address() + ": binlog_format is " +
                                   format + "; the binlog source needs ROW");
  }
  if (image != "FULL" && log_) {
    log_("mysql " + connection_->address() + ": binlog_row_image is " + image +
         ", not FULL: updates and deletes carry only the columns the server logs");
  }
  return Status::OK();
}

bool MySqlSource::Selected(const std::string& database, const std::string& table) const {
  return std::regex_match(database, std::regex(options_.database_pattern)) &&
         std::regex_match(table, std::regex(options_.table_pattern));
}

Result<MySqlTable*> MySqlSource::LoadTable(const std::string& database, const std::string& table) {
  SLUICE_ASSIGN_OR_RETURN(MySqlTable read,
                          ReadMySqlTable(*connection_, database, table, type_mapping_));
  if (require_primary_keys_ && read.primary_keys.empty()) {
    if (log_) log_("table " + read.Identifier() + " has no primary key: not synced (as Java)");
    return nullptr;
  }
  auto& slot = tables_[read.Identifier()];
  if (slot) {
    *slot = std::move(read);
  } else {
    slot = std::make_unique<MySqlTable>(std::move(read));
  }
  return slot.get();
}

Status MySqlSource::DiscoverTables() {
  SLUICE_ASSIGN_OR_RETURN(
      auto names, ListMySqlTables(*connection_, options_.database_pattern, options_.table_pattern));
  for (const auto& [database, table] : names) {
    SLUICE_RETURN_NOT_OK(LoadTable(database, table).status());
  }
  if (tables_.empty() && log_) {
    log_("mysql " + connection_->address() + ": no table matches databases " +
         options_.database_pattern + " tables " + options_.table_pattern + " yet");
  }
  return Status::OK();
}

Result<std::pair<std::string, BinlogPosition>> MySqlSource::MasterPosition() {
  SLUICE_ASSIGN_OR_RETURN(std::vector<MySqlRow> rows, connection_->Query("SHOW MASTER STATUS"));
  if (rows.empty() || !rows[0][0] || !rows[0][1]) {
    return Status::InvalidArgument("mysql " + connection_->address() +
                                   ": SHOW MASTER STATUS gives no binlog position (is log_bin "
                                   "on and the user granted REPLICATION CLIENT?)");
  }
  SLUICE_ASSIGN_OR_RETURN(uint32_t index, BinlogFileIndex(*rows[0][0]));
  return std::pair{*rows[0][0],
                   BinlogPosition{index, static_cast<uint32_t>(std::stoul(*rows[0][1]))}};
}

Status MySqlSource::Open(const SourceOffsets& resume) {
  SLUICE_RETURN_NOT_OK(Connect());
  SLUICE_RETURN_NOT_OK(DiscoverTables());
  const int64_t binlog = resume.Next(kBinlogSplit);
  const int64_t snapshot = resume.Next(kSnapshotSplit);
  const bool snapshot_done = snapshot > kSnapshotDone;
  const bool wants_snapshot = options_.startup_mode == MySqlStartupMode::kInitial ||
                              options_.startup_mode == MySqlStartupMode::kSnapshot;
  SLUICE_ASSIGN_OR_RETURN(auto master, MasterPosition());
  binlog_file_ = master.first;
  // Tables an earlier run copied, and the binlog position of the snapshot they were copied at.
  for (const auto& [split, next] : resume.next) {
    if (split.rfind(kCopiedFactPrefix, 0) == 0) {
      copied_at_[split.substr(std::strlen(kCopiedFactPrefix))] = BinlogPosition::Decode(next - 1);
    }
  }
  if (wants_snapshot && !snapshot_done) {
    snapshot_next_ = std::max<int64_t>(snapshot, 0);
    SLUICE_RETURN_NOT_OK(StartSnapshot());
    // A restarted snapshot still reads the binlog from the first attempt's position.
    if (binlog >= 0) binlog_next_ = BinlogPosition::Decode(binlog);
    return Status::OK();
  }
  if (snapshot_done) snapshot_next_ = snapshot;
  if (options_.startup_mode == MySqlStartupMode::kSnapshot) {
    phase_ = Phase::kDone;
    return Status::OK();
  }
  if (binlog >= 0) {
    binlog_next_ = BinlogPosition::Decode(binlog);
  } else if (options_.startup_mode == MySqlStartupMode::kEarliest) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<MySqlRow> logs, connection_->Query("SHOW BINARY LOGS"));
    if (logs.empty() || !logs[0][0]) {
      return Status::InvalidArgument("mysql " + connection_->address() + ": no binary log");
    }
    SLUICE_ASSIGN_OR_RETURN(uint32_t index, BinlogFileIndex(*logs[0][0]));
    binlog_next_ = {index, 4};
  } else if (options_.startup_mode == MySqlStartupMode::kSpecificOffset) {
    SLUICE_ASSIGN_OR_RETURN(uint32_t index, BinlogFileIndex(options_.specific_offset_file));
    binlog_next_ = {index, static_cast<uint32_t>(options_.specific_offset_pos)};
  } else {
    binlog_next_ = master.second;
  }
  return StartBinlog();
}

Status MySqlSource::StartSnapshot() {
  phase_ = Phase::kSnapshot;
  SLUICE_ASSIGN_OR_RETURN(snapshot_connection_, MySqlConnection::Connect(options_.connect));
  MySqlConnection& c = *snapshot_connection_;
  SLUICE_RETURN_NOT_OK(c.Execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ"));
  SLUICE_RETURN_NOT_OK(c.Execute("START TRANSACTION WITH CONSISTENT SNAPSHOT"));
  // MariaDB tells the binlog position its consistent snapshot sees, with no lock.
  SLUICE_ASSIGN_OR_RETURN(std::vector<MySqlRow> status,
                          c.Query("SHOW STATUS LIKE 'binlog_snapshot_%'"));
  std::string file;
  std::optional<uint32_t> offset;
  for (const MySqlRow& row : status) {
    if (!row[0] || !row[1]) continue;
    if (*row[0] == "Binlog_snapshot_file") file = *row[1];
    if (*row[0] == "Binlog_snapshot_position") offset = static_cast<uint32_t>(std::stoul(*row[1]));
  }
  if (file.empty() || !offset) {
    // MySQL proper: the position is read under the global read lock, held only while the
    // transaction starts.
    SLUICE_RETURN_NOT_OK(c.Execute("ROLLBACK"));
    SLUICE_RETURN_NOT_OK(c.Execute("FLUSH TABLES WITH READ LOCK"));
    Status started = c.Execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
    Result<std::vector<MySqlRow>> master =
        started.ok() ? c.Query("SHOW MASTER STATUS") : Result<std::vector<MySqlRow>>(started);
    SLUICE_RETURN_NOT_OK(c.Execute("UNLOCK TABLES"));
    if (!master.ok()) return master.status();
    if (master->empty() || !(*master)[0][0] || !(*master)[0][1]) {
      return Status::InvalidArgument("mysql " + c.address() +
                                     ": no binlog position for the snapshot");
    }
    file = *(*master)[0][0];
    offset = static_cast<uint32_t>(std::stoul(*(*master)[0][1]));
  }
  SLUICE_ASSIGN_OR_RETURN(uint32_t index, BinlogFileIndex(file));
  binlog_file_ = file;
  binlog_next_ = {index, *offset};
  snapshot_position_ = {index, *offset};
  snapshot_tables_.clear();
  for (auto& [name, table] : tables_) {
    if (!copied_at_.count(name)) snapshot_tables_.push_back(table.get());
  }
  snapshot_table_ = 0;
  if (log_) {
    log_("snapshot of " + std::to_string(snapshot_tables_.size()) + " tables (" +
         std::to_string(copied_at_.size()) + " copied before) at binlog " + file + ":" +
         std::to_string(*offset));
  }
  return Status::OK();
}

Status MySqlSource::PollSnapshot(size_t max_messages, std::vector<SourceMessage>* out) {
  MySqlRow row;
  // A poll hands out a few messages of rows, not a whole table: the rows wait as text until the
  // job writes them.
  max_messages = std::min(max_messages, kSnapshotMessagesPerPoll);
  while (out->size() < max_messages) {
    if (snapshot_table_ >= snapshot_tables_.size()) return FinishSnapshot(out);
    const MySqlTable& table = *snapshot_tables_[snapshot_table_];
    if (!snapshot_rows_) {
      SLUICE_ASSIGN_OR_RETURN(snapshot_rows_, snapshot_connection_->Stream(table.SnapshotQuery()));
    }
    SourceMessage message;
    message.split = kSnapshotSplit;
    message.offset = snapshot_next_;
    message.timestamp_ms = 0;
    // A table's rows commit together with its copy's end (see TableCopied).
    message.commit_point = false;
    bool more = true;
    while (message.records.size() < static_cast<size_t>(options_.tuning.snapshot_fetch_size)) {
      SLUICE_ASSIGN_OR_RETURN(more, snapshot_rows_->Next(&row));
      if (!more) break;
      if (row.size() != table.columns.size()) {
        return Status::Corruption("mysql snapshot of " + table.Identifier() + ": a row of " +
                                  std::to_string(row.size()) + " values for " +
                                  std::to_string(table.columns.size()) + " columns");
      }
      RichCdcMultiplexRecord& record = message.records.emplace_back();
      record.database = table.database;
      record.table = table.name;
      record.schema = table.schema;
      record.record.kind = RowKind::kInsert;
      record.record.fields.reserve(row.size());
      for (size_t i = 0; i < row.size(); ++i) {
        auto value = table.SnapshotValue(i, std::move(row[i]), *zone_);
        if (!value.ok()) {
          return value.status().WithContext("mysql snapshot of " + table.Identifier() + " column " +
                                            table.columns[i].name);
        }
        record.record.fields.emplace_back(table.columns[i].name, std::move(*value));
      }
    }
    if (!message.records.empty()) {
      ++snapshot_next_;
      out->push_back(std::move(message));
    }
    if (!more) {
      snapshot_rows_.reset();
      ++snapshot_table_;
      out->push_back(TableCopied(table));
    }
  }
  return Status::OK();
}

SourceMessage MySqlSource::TableCopied(const MySqlTable& table) {
  copied_at_[table.Identifier()] = snapshot_position_;
  SourceMessage copied;
  copied.split = kCopiedFactPrefix + table.Identifier();
  copied.offset = snapshot_position_.Encode();
  copied.fact_database = table.database;
  copied.fact_table = table.name;
  copied.timestamp_ms = 0;
  if (log_) log_("table " + table.Identifier() + " copied");
  return copied;
}

Status MySqlSource::FinishSnapshot(std::vector<SourceMessage>* out) {
  SLUICE_RETURN_NOT_OK(snapshot_connection_->Execute("COMMIT"));
  snapshot_connection_.reset();
  SourceMessage done;
  done.split = kSnapshotSplit;
  done.offset = kSnapshotDone;
  done.timestamp_ms = 0;
  out->push_back(std::move(done));
  snapshot_next_ = kSnapshotDone + 1;
  if (log_) log_("snapshot done");
  if (options_.startup_mode == MySqlStartupMode::kSnapshot) {
    phase_ = Phase::kDone;
    return Status::OK();
  }
  return StartBinlog();
}

Status MySqlSource::StartBinlog() {
  phase_ = Phase::kBinlog;
  const std::string file = BinlogFileName(binlog_file_, binlog_next_.file_index);
  stream_.reset();
  auto stream = BinlogStream::Open(options_.connect, options_.server_id, file, binlog_next_.offset,
                                   options_.tuning.heartbeat_interval);
  if (!stream.ok()) {
    return stream.status().WithContext(
        "the binlog position " + file + ":" + std::to_string(binlog_next_.offset) +
        " the job reads from is not on the server (purged?): sync into new tables with "
        "scan.startup.mode=initial, or start from a position the server has");
  }
  stream_ = std::move(*stream);
  decoder_ = std::make_unique<BinlogDecoder>();
  decoder_->set_checksum_before_format_description(checksum_crc32_);
  routes_.clear();
  in_transaction_ = false;
  pending_.clear();
  current_file_ = binlog_next_.file_index;
  return Status::OK();
}

Status MySqlSource::Poll(std::chrono::milliseconds timeout, size_t max_messages,
                         std::vector<SourceMessage>* out) {
  out->clear();
  switch (phase_) {
    case Phase::kSnapshot:
      return PollSnapshot(max_messages, out);
    case Phase::kDone:
      return Status::OK();
    case Phase::kBinlog:
      break;
  }
  Status polled = PollBinlog(timeout, max_messages, out);
  if (polled.ok() || polled.code() != StatusCode::kIOError) return polled;
  // A lost connection or a restarted server: the dump starts again at the last message's end
  // (a transaction's start), with backoff, before the job gives up.
  while (failures_ < options_.tuning.connect_max_retries) {
    ++failures_;
    if (log_)
      log_(polled.ToString() + "; reconnecting (attempt " + std::to_string(failures_) + ")");
    std::this_thread::sleep_for(std::chrono::seconds(1) * (1 << std::min(failures_ - 1, 5)));
    Status connected = Connect();
    if (connected.ok()) connected = StartBinlog();
    if (connected.ok()) return Status::OK();
    polled = connected;
  }
  return polled;
}

Status MySqlSource::PollBinlog(std::chrono::milliseconds timeout, size_t max_messages,
                               std::vector<SourceMessage>* out) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (out->size() < max_messages) {
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> event,
                            stream_->Next(std::max(wait, std::chrono::milliseconds(0))));
    if (!event) break;
    SLUICE_RETURN_NOT_OK(HandleEvent(*event, out));
  }
  if (!out->empty()) failures_ = 0;
  return Status::OK();
}

Status MySqlSource::HandleEvent(const std::string& bytes, std::vector<SourceMessage>* out) {
  SLUICE_ASSIGN_OR_RETURN(BinlogEvent event, decoder_->Decode(bytes));
  const BinlogEventHeader& header = event.header;
  if (const auto* rotate = std::get_if<BinlogRotate>(&event.body)) {
    SLUICE_ASSIGN_OR_RETURN(current_file_, BinlogFileIndex(rotate->next_file));
    binlog_file_ = rotate->next_file;
    return Status::OK();
  }
  if (const auto* gtid = std::get_if<BinlogGtid>(&event.body)) {
    if (!gtid->standalone()) {
      in_transaction_ = true;
      transaction_timestamp_ms_ = int64_t{header.timestamp} * 1000;
    }
    return Status::OK();
  }
  if (const auto* map = std::get_if<std::shared_ptr<const BinlogTableMap>>(&event.body)) {
    return RouteTableMap(**map);
  }
  if (const auto* rows = std::get_if<BinlogRowsEvent>(&event.body)) {
    if (!in_transaction_) transaction_timestamp_ms_ = int64_t{header.timestamp} * 1000;
    return AddRows(*rows);
  }
  if (std::holds_alternative<BinlogXid>(event.body)) {
    EmitMessage(header.log_pos, out);
    return Status::OK();
  }
  if (const auto* query = std::get_if<BinlogQuery>(&event.body)) {
    const std::string word = FirstWord(query->sql);
    if (word == "BEGIN") {
      in_transaction_ = true;
      transaction_timestamp_ms_ = int64_t{header.timestamp} * 1000;
      return Status::OK();
    }
    if (IsDdl(word)) {
      // Definitions are read again on each table's next table map: the statement may have
      // changed any table, or created one the patterns select.
      for (const auto& [name, table] : tables_) stale_tables_.insert(name);
      routes_.clear();
      if (log_) log_("DDL in the binlog: " + query->sql.substr(0, 200));
    }
    if (word == "COMMIT" || word == "ROLLBACK" || !in_transaction_)
      EmitMessage(header.log_pos, out);
    return Status::OK();
  }
  if (std::holds_alternative<BinlogHeartbeat>(event.body)) return Status::OK();
  // A format description, a GTID list, a checkpoint: where the next transaction starts.
  if (!in_transaction_) EmitMessage(header.log_pos, out);
  return Status::OK();
}

Status MySqlSource::RouteTableMap(const BinlogTableMap& map) {
  auto cached = routes_.find(map.table_id);
  if (cached != routes_.end() && cached->second.table_map_columns == map.columns.size() &&
      cached->second.database == map.database && cached->second.name == map.table) {
    return Status::OK();
  }
  Route route;
  route.database = map.database;
  route.name = map.table;
  route.table_map_columns = map.columns.size();
  const std::string id = map.database + "." + map.table;
  auto known = tables_.find(id);
  MySqlTable* table = known != tables_.end() ? known->second.get() : nullptr;
  const bool stale = stale_tables_.erase(id) > 0;
  if (table == nullptr && known == tables_.end() && !Selected(map.database, map.table)) {
    routes_[map.table_id] = std::move(route);
    return Status::OK();
  }
  if (table == nullptr || stale) {
    if (table == nullptr && log_) log_("table " + id + " appeared in the binlog: syncing it");
    SLUICE_ASSIGN_OR_RETURN(table, LoadTable(map.database, map.table));
    if (table == nullptr) {
      routes_[map.table_id] = std::move(route);
      return Status::OK();
    }
  }
  // Binlog columns to table columns: by the event's names when the server logs them
  // (binlog_row_metadata=FULL), else by position, which needs the same columns.
  for (bool reloaded = false;; reloaded = true) {
    route.columns.assign(map.columns.size(), -1);
    bool complete = true;
    if (map.columns.empty() || !map.columns[0].name) {
      complete = map.columns.size() == table->columns.size();
      for (size_t i = 0; complete && i < map.columns.size(); ++i) {
        route.columns[i] = static_cast<int32_t>(i);
      }
    } else {
      for (size_t i = 0; i < map.columns.size(); ++i) {
        for (size_t j = 0; j < table->columns.size(); ++j) {
          if (table->columns[j].name == *map.columns[i].name)
            route.columns[i] = static_cast<int32_t>(j);
        }
        complete = complete && route.columns[i] >= 0;
      }
    }
    if (complete) break;
    if (reloaded) {
      return Status::NotSupported(
          "the binlog's table map of " + id + " has " + std::to_string(map.columns.size()) +
          " columns that the table's definition now (" + std::to_string(table->columns.size()) +
          " columns) does not match; with binlog_row_metadata=FULL the source maps rows "
          "written before a DDL by their column names");
    }
    SLUICE_ASSIGN_OR_RETURN(table, LoadTable(map.database, map.table));
    if (table == nullptr) break;
  }
  route.table = table;
  if (table != nullptr) {
    route.formats.resize(map.columns.size());
    for (size_t i = 0; i < map.columns.size(); ++i) {
      if (route.columns[i] < 0) continue;
      const MySqlColumn& column = table->columns[route.columns[i]];
      route.formats[i] = BinlogColumnFormatOf(column.type, column.charset);
    }
  }
  routes_[map.table_id] = std::move(route);
  return Status::OK();
}

Status MySqlSource::AddRows(const BinlogRowsEvent& event) {
  auto found = routes_.find(event.table_id);
  if (found == routes_.end() || found->second.table == nullptr) return Status::OK();
  const Route& route = found->second;
  const MySqlTable& table = *route.table;
  // The table's snapshot holds every change before the position it was copied at.
  auto copied = copied_at_.find(table.Identifier());
  if (copied != copied_at_.end() &&
      BinlogPosition{current_file_, event.log_pos}.Encode() <= copied->second.Encode()) {
    return Status::OK();
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<BinlogRow> rows,
                          DecodeBinlogRows(event, route.formats, zone_.get()));
  auto add = [&](RowKind kind, std::vector<std::optional<std::string>>& image,
                 const std::vector<bool>& present) {
    RichCdcMultiplexRecord& record = pending_.emplace_back();
    record.database = table.database;
    record.table = table.name;
    record.schema = table.schema;
    record.record.kind = kind;
    record.record.fields.reserve(image.size());
    for (size_t i = 0; i < image.size(); ++i) {
      const int32_t column = route.columns[i];
      if (column < 0 || (i < present.size() && !present[i])) continue;
      record.record.fields.emplace_back(table.columns[column].name,
                                        table.BinlogValue(column, std::move(image[i])));
    }
  };
  for (BinlogRow& row : rows) {
    switch (event.kind) {
      case BinlogRowsKind::kWrite:
        add(RowKind::kInsert, row.after, event.after_columns);
        break;
      case BinlogRowsKind::kDelete:
        add(RowKind::kDelete, row.before, event.before_columns);
        break;
      case BinlogRowsKind::kUpdate:
        add(RowKind::kUpdateBefore, row.before, event.before_columns);
        add(RowKind::kUpdateAfter, row.after, event.after_columns);
        break;
    }
  }
  return Status::OK();
}

void MySqlSource::EmitMessage(uint32_t log_pos, std::vector<SourceMessage>* out) {
  const BinlogPosition end{current_file_, log_pos};
  // Artificial events (log_pos 0) and the format description a dump resends from the file's
  // start are not positions past the last one.
  if (end.Encode() <= binlog_next_.Encode()) {
    in_transaction_ = false;
    return;
  }
  binlog_next_ = end;
  SourceMessage message;
  message.split = kBinlogSplit;
  message.offset = binlog_next_.Encode() - 1;
  message.timestamp_ms = transaction_timestamp_ms_;
  message.records.swap(pending_);
  out->push_back(std::move(message));
  in_transaction_ = false;
}

std::vector<SplitLag> MySqlSource::Lag() {
  std::vector<SplitLag> lag;
  if (phase_ == Phase::kSnapshot || snapshot_next_ > 0) {
    const int64_t end = snapshot_next_ > kSnapshotDone ? snapshot_next_ : -1;
    lag.push_back({kSnapshotSplit, snapshot_next_, end});
  }
  if (phase_ != Phase::kDone || options_.startup_mode != MySqlStartupMode::kSnapshot) {
    int64_t end = -1;
    if (phase_ == Phase::kBinlog && connection_) {
      auto master = MasterPosition();
      if (master.ok()) end = master->second.Encode();
    }
    lag.push_back({kBinlogSplit, binlog_next_.Encode(), end});
  }
  return lag;
}

}  // namespace sluice
