// MySqlSource: the CDC source of Java's mysql_sync_table / mysql_sync_database, reading a MySQL
// or MariaDB server natively (no Flink CDC, no Debezium): a consistent snapshot of the selected
// tables, then the row-based binlog from the snapshot's position.
//
// Splits and positions (source_offsets.h):
//   "snapshot"  the snapshot's messages, numbered on from where an earlier run's commits
//               ended; kSnapshotDone once every table is copied.
//   "fact:copied:<db>.<table>"  the table's copy is committed, taken at the binlog position
//               the offset encodes (a fact: a restart takes it from the table that holds it).
//   "binlog"    BinlogPosition::Encode of the end of the last event applied. Every message
//               ends at a transaction's end (or a standalone event: DDL, format description),
//               so that a restart dumps from a transaction's first event, never from its middle.
//
// The snapshot: one transaction WITH CONSISTENT SNAPSHOT over the tables, started at binlog
// position P (MariaDB says where, binlog_snapshot_file / _position, without a lock; MySQL
// proper: the global read lock is held only while the transaction starts and the position is
// read); then the binlog from P. A table's copy commits whole: only its last message is a
// commit point (SourceMessage::commit_point). A job killed during the snapshot copies the tables
// not yet copied in a new snapshot at P', still reads the binlog from P, and applies a table's
// binlog changes only after the position its own copy was taken at. So every change lands once,
// in append-only tables too; what a kill costs is the copy of the table it interrupted.
//
// Schema: a table's columns, types and keys come from information_schema when the table is
// first seen and again after a DDL statement in the binlog or a table map whose columns do not
// match; with binlog_row_metadata=FULL the events' own column names map the values, so rows
// written before an ALTER are still read right when the job is behind.
//
// Thread safety: one thread (the binlog's network reads run on a thread of BinlogStream).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sluice/cdc/cdc_source.h"
#include "sluice/cdc/mysql/binlog_position.h"
#include "sluice/cdc/mysql/binlog_value.h"
#include "sluice/cdc/mysql/mysql_source_options.h"
#include "sluice/cdc/mysql/mysql_table.h"
#include "sluice/cdc/type_mapping.h"

namespace sluice {

class BinlogDecoder;
class BinlogStream;
class MySqlRowStream;
class TimeZone;
struct BinlogRowsEvent;
struct BinlogTableMap;

class MySqlSource : public CdcSource {
 public:
  static constexpr const char* kSnapshotSplit = "snapshot";
  static constexpr const char* kBinlogSplit = "binlog";
  // "fact:copied:<db>.<table>" (a fact, source_offsets.h): the table's copy is committed, at
  // offset BinlogPosition::Encode of the snapshot it was copied at; its binlog changes are
  // applied from there on.
  static constexpr const char* kCopiedFactPrefix = "fact:copied:";
  // The snapshot split's last offset: its next offset is past it once the snapshot is done.
  static constexpr int64_t kSnapshotDone = int64_t{1} << 62;

  using Log = std::function<void(const std::string&)>;

  // `require_primary_keys`: tables without a primary key are left out, with a log line (Java's
  // mysql_sync_database syncs only tables with one).
  static Result<std::unique_ptr<MySqlSource>> Make(MySqlSourceOptions options,
                                                   TypeMapping type_mapping,
                                                   bool require_primary_keys, Log log);
  ~MySqlSource() override;

  Status Open(const SourceOffsets& resume) override;
  Status Poll(std::chrono::milliseconds timeout, size_t max_messages,
              std::vector<SourceMessage>* out) override;
  std::vector<SplitLag> Lag() override;
  std::string Describe() const override;

 private:
  enum class Phase { kSnapshot, kBinlog, kDone };
  // What a table map's table id stands for in the rows events that follow it.
  struct Route {
    // The table map it was made from.
    std::string database;
    std::string name;
    size_t table_map_columns = 0;
    MySqlTable* table = nullptr;  // nullptr: a table the job does not sync
    // The table column of each binlog column (-1: a column the table no longer has), and what
    // decoding the binlog column needs from the table's definition.
    std::vector<int32_t> columns;
    std::vector<BinlogColumnFormat> formats;
  };

  MySqlSource(MySqlSourceOptions options, TypeMapping type_mapping, bool require_primary_keys,
              Log log);

  Status Connect();
  // Reads the selected tables' definitions.
  Status DiscoverTables();
  // Whether `database`.`table` is one the job syncs (patterns and, when required, a key).
  bool Selected(const std::string& database, const std::string& table) const;
  // The table's definition, read (again) from the server.
  Result<MySqlTable*> LoadTable(const std::string& database, const std::string& table);
  // Where the server's binlog ends now ("SHOW MASTER STATUS").
  Result<std::pair<std::string, BinlogPosition>> MasterPosition();

  Status StartSnapshot();
  Status PollSnapshot(size_t max_messages, std::vector<SourceMessage>* out);
  // The message that ends `table`'s copy (the tables may commit after it).
  SourceMessage TableCopied(const MySqlTable& table);
  Status FinishSnapshot(std::vector<SourceMessage>* out);

  Status StartBinlog();
  Status PollBinlog(std::chrono::milliseconds timeout, size_t max_messages,
                    std::vector<SourceMessage>* out);
  Status HandleEvent(const std::string& event, std::vector<SourceMessage>* out);
  Status RouteTableMap(const BinlogTableMap& map);
  Status AddRows(const BinlogRowsEvent& event);
  // Ends the message of the events since the last one at `log_pos` of the current file.
  void EmitMessage(uint32_t log_pos, std::vector<SourceMessage>* out);

  MySqlSourceOptions options_;
  TypeMapping type_mapping_;
  bool require_primary_keys_;
  Log log_;
  std::shared_ptr<const TimeZone> zone_;
  std::unique_ptr<MySqlConnection> connection_;                // definitions and positions
  std::map<std::string, std::unique_ptr<MySqlTable>> tables_;  // by "db.table"
  Phase phase_ = Phase::kBinlog;

  // The snapshot: its own connection (holding the transaction), the tables left to copy and
  // the rows of the one being copied.
  std::unique_ptr<MySqlConnection> snapshot_connection_;
  std::vector<MySqlTable*> snapshot_tables_;
  size_t snapshot_table_ = 0;
  std::unique_ptr<MySqlRowStream> snapshot_rows_;
  int64_t snapshot_next_ = 0;
  // Where this run's snapshot is in the binlog, and where each copied table's snapshot was.
  BinlogPosition snapshot_position_;
  std::map<std::string, BinlogPosition> copied_at_;

  // The binlog: the file name the positions' indexes are made into names with, the next
  // position to apply, the stream and what decodes it, the open transaction's records.
  std::string binlog_file_;
  BinlogPosition binlog_next_;
  uint32_t current_file_ = 0;
  std::unique_ptr<BinlogStream> stream_;
  std::unique_ptr<BinlogDecoder> decoder_;
  std::unordered_map<uint64_t, Route> routes_;
  bool in_transaction_ = false;
  int64_t transaction_timestamp_ms_ = 0;
  std::vector<RichCdcMultiplexRecord> pending_;
  // Tables whose definitions are read again on their next table map (a DDL passed).
  std::set<std::string> stale_tables_;
  bool checksum_crc32_ = false;
  int32_t failures_ = 0;
};

}  // namespace sluice
