// Helpers of the streaming-read scenarios: a table of (id BIGINT, v STRING) made through the
// public API, commits of one snapshot each, and a follower that drains a StreamTableScan into
// "<kind> <id> <v>" lines, one vector per plan.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::test {

// One written row: id, value, kind.
struct Change {
  int64_t id;
  std::string v;
  RowKind kind = RowKind::kInsert;
};

inline std::string Line(const Change& c) {
  return std::string(RowKindShortString(c.kind)) + " " + std::to_string(c.id) + " " + c.v;
}

class StreamTable {
 public:
  // `primary_key`: an `id` key; `options`: the table's options (bucket, changelog-producer...).
  static Result<StreamTable> Create(const std::string& warehouse, const std::string& name,
                                    bool primary_key,
                                    std::vector<std::pair<std::string, std::string>> options) {
    Catalog catalog = Catalog::Filesystem(warehouse);
    Status db = catalog.CreateDatabase("db");
    if (!db.ok() && db.code() != StatusCode::kAlreadyExists) return db;
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
    if (primary_key) spec.primary_keys = {"id"};
    spec.options = std::move(options);
    SLUICE_RETURN_NOT_OK(catalog.CreateTable("db." + name, spec));
    SLUICE_ASSIGN_OR_RETURN(Table table, catalog.GetTable("db." + name));
    return StreamTable(std::move(table));
  }

  const Table& table() const { return table_; }

  // Writes `rows` (and their kinds on primary-key tables) and commits them as one snapshot,
  // with `watermark` when given.
  Status Commit(const std::vector<Change>& rows, bool overwrite = false,
                std::optional<int64_t> watermark = std::nullopt) {
    WriteBuilder builder = table_.NewWriteBuilder();
    builder.WithCommitUser("stream-test");
    if (overwrite) builder.WithOverwrite();
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
    ColumnBatch batch(write->input_type());
    std::vector<RowKind> kinds;
    for (const Change& c : rows) {
      SLUICE_RETURN_NOT_OK(batch.AppendRow({Value::Int64(c.id), Value::String(c.v)}));
      kinds.push_back(c.kind);
    }
    if (!rows.empty()) SLUICE_RETURN_NOT_OK(write->Write(batch, kinds.data()));
    return Finish(builder, *write, watermark);
  }

  // A full compaction of every bucket, committed as one COMPACT snapshot.
  Status Compact() {
    WriteBuilder builder = table_.NewWriteBuilder();
    builder.WithCommitUser("stream-test");
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
    SLUICE_RETURN_NOT_OK(write->Compact({}, /*full=*/true));
    return Finish(builder, *write);
  }

 private:
  explicit StreamTable(Table table) : table_(std::move(table)) {}

  Status Finish(WriteBuilder& builder, TableWrite& write,
                std::optional<int64_t> watermark = std::nullopt) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages,
                            write.PrepareCommit(++identifier_));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
    SLUICE_RETURN_NOT_OK(commit->Commit(std::move(messages), identifier_, watermark).status());
    return write.Close();
  }

  Table table_;
  int64_t identifier_ = 0;
};

// A follower: a StreamTableScan and the TableRead of its splits.
class Follower {
 public:
  static Result<Follower> Open(const Table& table,
                               std::vector<std::pair<std::string, std::string>> options,
                               int32_t shard = 0, int32_t shards = 1) {
    ReadBuilder read = table.NewReadBuilder();
    read.WithMode(ScanMode::kDelta).WithOrdered(true).WithShard(shard, shards);
    for (auto& [k, v] : options) read.WithOption(k, v);
    SLUICE_ASSIGN_OR_RETURN(StreamTableScan scan, read.NewStreamScan());
    SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
    return Follower(std::move(scan), std::move(table_read));
  }

  StreamTableScan& scan() { return *scan_; }

  // The rows of the next Plan that reads a snapshot, sorted (splits of different buckets have
  // no order); nullopt when there is nothing new. A plan that only moved the position (a
  // starting scanner that reads no snapshot in full) is passed over, as Java's callers plan
  // again.
  Result<std::optional<std::vector<std::string>>> Next() {
    std::optional<int64_t> before = scan_->Checkpoint();
    SLUICE_ASSIGN_OR_RETURN(StreamScanPlan plan, scan_->Plan());
    while (!plan.snapshot_id && !plan.end_of_scan && scan_->Checkpoint() != before) {
      before = scan_->Checkpoint();
      SLUICE_ASSIGN_OR_RETURN(plan, scan_->Plan());
    }
    if (!plan.snapshot_id) return std::optional<std::vector<std::string>>();
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> rows, Read(std::move(plan.splits)));
    std::sort(rows.begin(), rows.end());
    return std::optional<std::vector<std::string>>(std::move(rows));
  }

  // Every plan until there is no new snapshot, one entry per plan.
  Result<std::vector<std::vector<std::string>>> Drain() {
    std::vector<std::vector<std::string>> plans;
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(auto rows, Next());
      if (!rows) return plans;
      plans.push_back(std::move(*rows));
    }
  }

  // The rows of `splits` in order.
  Result<std::vector<std::string>> Read(std::vector<Split> splits) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                            read_.CreateReader(std::move(splits)));
    std::vector<std::string> rows;
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) return rows;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const Value kind = batch.column(0)->GetValue(i);
        const Value id = batch.column(1)->GetValue(i);
        const Value v = batch.column(2)->GetValue(i);
        rows.push_back(std::string(kind.bytes()) + " " + std::to_string(id.int64()) + " " +
                       std::string(v.bytes()));
      }
    }
  }

 private:
  Follower(StreamTableScan scan, TableRead read)
      : scan_(std::make_unique<StreamTableScan>(std::move(scan))), read_(std::move(read)) {}

  std::unique_ptr<StreamTableScan> scan_;
  TableRead read_;
};

// Sorted lines of `changes`.
inline std::vector<std::string> Lines(const std::vector<Change>& changes) {
  std::vector<std::string> out;
  for (const Change& c : changes) out.push_back(Line(c));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sluice::test
