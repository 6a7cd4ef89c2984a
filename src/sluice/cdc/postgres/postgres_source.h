// PostgresSource: the CDC source of Java's postgres_sync_table (and postgres_sync_database,
// beyond Java), reading PostgreSQL's logical replication natively through libpq: the slot's
// exported snapshot of the selected tables, then the pgoutput stream from the slot's
// consistent point.
//
// Splits and positions (source_offsets.h), as the binlog source's (mysql/mysql_source.h):
//   "snapshot"  the snapshot's messages; kSnapshotDone once every table is copied.
//   "fact:copied:<schema>.<table>"  the table's copy is committed, taken at the LSN the offset
//               is (a fact: committed with that table only).
//   "wal"       the commit LSN of the last transaction applied. One message per transaction; a
//               restart asks the slot for the transactions committed from the next LSN on.
//
// The slot's confirmed position moves (Acknowledge) only to what every table has committed, so
// the server keeps the WAL a restart needs. A table's copy commits whole; a job killed during
// the snapshot copies the tables not yet copied under a temporary slot's exported snapshot at
// a later LSN and skips those tables' changes committed before it, so every change lands once.
//
// DDL: pgoutput sends a Relation message before a table's first change after its columns
// changed; the table's columns are taken from it (names, types), so rows decode as they were
// written even when the job is behind.
//
// Thread safety: one thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sluice/cdc/cdc_source.h"
#include "sluice/cdc/postgres/postgres_source_options.h"
#include "sluice/cdc/postgres/postgres_table.h"
#include "sluice/cdc/type_mapping.h"

namespace sluice {

struct PgChange;
struct PgRelation;

class PostgresSource : public CdcSource {
 public:
  static constexpr const char* kSnapshotSplit = "snapshot";
  static constexpr const char* kWalSplit = "wal";
  static constexpr const char* kCopiedFactPrefix = "fact:copied:";
  static constexpr int64_t kSnapshotDone = int64_t{1} << 62;

  using Log = std::function<void(const std::string&)>;

  // `sync_table`: the publication covers the selected tables (else all tables);
  // `require_primary_keys`: tables without one are left out, with a log line.
  static Result<std::unique_ptr<PostgresSource>> Make(PostgresSourceOptions options,
                                                      TypeMapping type_mapping, bool sync_table,
                                                      bool require_primary_keys, Log log);
  ~PostgresSource() override;

  Status Open(const SourceOffsets& resume) override;
  Status Poll(std::chrono::milliseconds timeout, size_t max_messages,
              std::vector<SourceMessage>* out) override;
  Status Acknowledge(const SourceOffsets& offsets) override;
  std::vector<SplitLag> Lag() override;
  std::string Describe() const override;

 private:
  enum class Phase { kSnapshot, kStream };
  struct Route {
    PostgresTable* table = nullptr;  // nullptr: a table the job does not sync
    std::vector<int32_t> columns;    // the table column of each relation column
  };

  PostgresSource(PostgresSourceOptions options, TypeMapping type_mapping, bool sync_table,
                 bool require_primary_keys, Log log);

  Result<PostgresTable*> LoadTable(const std::string& schema, const std::string& table);
  Status EnsurePublication();
  Status StartSnapshot(bool slot_exists);
  Status PollSnapshot(size_t max_messages, std::vector<SourceMessage>* out);
  Status StartStream();
  Status PollStream(std::chrono::milliseconds timeout, size_t max_messages,
                    std::vector<SourceMessage>* out);
  Status HandleRelation(const PgRelation& relation);
  Status AddChange(const PgChange& change);
  Status SendStatus(bool reply_requested);

  PostgresSourceOptions options_;
  TypeMapping type_mapping_;
  bool sync_table_;
  bool require_primary_keys_;
  Log log_;
  std::unique_ptr<PostgresConnection> connection_;                // catalog queries
  std::unique_ptr<PostgresConnection> replication_;               // the slot's stream
  std::map<std::string, std::unique_ptr<PostgresTable>> tables_;  // by "schema.table"
  Phase phase_ = Phase::kStream;

  // The snapshot: the connection that imported the exported snapshot (and, after a restart,
  // the one holding the temporary slot that exported it), the tables left to copy, the LSN.
  std::unique_ptr<PostgresConnection> copy_;
  std::unique_ptr<PostgresConnection> temporary_slot_;
  std::vector<PostgresTable*> snapshot_tables_;
  size_t snapshot_table_ = 0;
  bool cursor_open_ = false;
  int64_t snapshot_next_ = 0;
  uint64_t snapshot_lsn_ = 0;
  std::map<std::string, uint64_t> copied_at_;

  // The stream: where it starts, the next LSN, the open transaction, the relations.
  uint64_t stream_start_ = 0;
  uint64_t wal_next_ = 0;
  uint64_t end_lsn_ = 0;  // the server's WAL end when the job opened (stop_at_end)
  uint64_t acknowledged_ = 0;
  std::chrono::steady_clock::time_point last_status_;
  bool in_transaction_ = false;
  uint64_t transaction_commit_lsn_ = 0;
  std::vector<RichCdcMultiplexRecord> pending_;
  std::unordered_map<uint32_t, Route> routes_;
  int32_t failures_ = 0;
};

}  // namespace sluice
