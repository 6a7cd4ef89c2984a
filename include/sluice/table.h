// The public API of Sluice (include/sluice/): what engines embed and what the `sluice` command
// uses, nothing else. Public headers include only public headers; the library's internals
// stay behind opaque handles.
//
//   SLUICE_ASSIGN_OR_RETURN(Table table, Table::Open("/warehouse/db.db/orders"));
//   ReadBuilder builder = table.NewReadBuilder().WithSnapshot(3).WithWhere("qty > 10");
//   SLUICE_ASSIGN_OR_RETURN(TableScan scan, builder.NewScan());
//   SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
//   SLUICE_ASSIGN_OR_RETURN(TableRead read, builder.NewRead());
//   SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, read.CreateReader(plan.splits()));
//   ColumnBatch batch(reader->output_type());
//   while (true) {
//     SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
//     if (!more) break;
//     ...
//   }
//
// Table: a handle on one table (its folder and FileIO), loaded once to check it is a table.
// Branches, dynamic options and the version read are chosen per read, on the ReadBuilder.
//
// Thread safety: a Table is an immutable value; share it freely.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/partition_spec.h"
#include "sluice/result.h"

namespace sluice {

class FileIO;
class FileStoreTable;
class ReadBuilder;
class WriteBuilder;

// One snapshot as `sluice snapshots` lists it (Java Snapshot).
struct SnapshotInfo {
  int64_t id = 0;
  int64_t schema_id = 0;
  // "APPEND", "COMPACT", "OVERWRITE" or "ANALYZE".
  std::string commit_kind;
  std::string commit_user;
  int64_t commit_identifier = 0;
  int64_t time_millis = 0;
  std::optional<int64_t> total_record_count;
  std::optional<int64_t> delta_record_count;
};

// What Table::Check walks (see the checks in Check's comment).
struct TableCheckOptions {
  // Every snapshot of the branch (true) or only the latest.
  bool all_snapshots = true;
  // Re-read every data file and compare its content with the manifests; false checks
  // existence and sizes only.
  bool read_data_files = true;
  // Recorded path prefix -> replacement, relative to the table folder unless absolute: for
  // external data and index files of tables copied from elsewhere.
  std::vector<std::pair<std::string, std::string>> path_remap;
};

struct TableCheckReport {
  int64_t snapshots = 0;
  int64_t manifests = 0;       // distinct manifest lists, manifests and index manifests
  int64_t data_files = 0;      // distinct data files checked for existence and size
  int64_t files_read = 0;      // of which re-read and compared with their metadata
  int64_t files_not_read = 0;  // in a format the checker cannot read (`.blob`)
  int64_t index_files = 0;
  // One line per problem, each naming the file it concerns.
  std::vector<std::string> problems;

  bool ok() const { return problems.empty(); }
};

class Table {
 public:
  // The table stored in `folder`, through `io` when given, else through the file system of the
  // folder's scheme (local paths and "file:", or "s3://bucket/..." with credentials from the
  // environment). NotFound naming the folder when it holds no table.
  static Result<Table> Open(std::string folder, std::shared_ptr<FileIO> io = nullptr);
  // The table stored in `folder`, through the file system of its scheme configured by
  // `options` (a catalog's options: s3.endpoint, s3.access-key, ...; Catalog::Open).
  static Result<Table> Open(std::string folder, const std::map<std::string, std::string>& options);

  // `name` is how errors refer to the table ("db.orders" from a catalog, else its folder).
  const std::string& name() const { return name_; }
  const std::string& path() const;
  // The branch this handle reads and writes ("main" unless opened with OnBranch).
  const std::string& branch() const;

  // The latest schema of the branch: its id, columns (as a ROW type, field ids included),
  // keys, options in file order, and comment.
  int64_t schema_id() const;
  const DataTypePtr& row_type() const { return row_type_; }
  const std::vector<std::string>& partition_keys() const;
  const std::vector<std::string>& primary_keys() const;
  const std::vector<std::pair<std::string, std::string>>& options() const;
  const std::optional<std::string>& comment() const;

  // The same table on another branch. NotFound naming the branch when it does not exist.
  Result<Table> OnBranch(std::string_view branch) const;

  // A read of this table; see read_builder.h.
  ReadBuilder NewReadBuilder() const;
  // A write of this table; see write_builder.h.
  WriteBuilder NewWriteBuilder() const;

  // The snapshots of the branch as they are now, oldest first.
  Result<std::vector<SnapshotInfo>> Snapshots() const;

  // A structural check of the table's files against its metadata (what `sluice check` runs):
  // every snapshot, manifest list, manifest, data file and index file exists with its
  // recorded size; re-read data files hold the recorded row counts, keys, statistics and
  // sequence numbers; record counts add up. Problems are reported, not returned as errors;
  // an error means the walk itself could not run.
  Result<TableCheckReport> Check(const TableCheckOptions& options = {}) const;

  // Java's `rescale` procedure: rewrites this fixed-bucket table, or the partitions matching
  // `partition`, into `bucket` buckets as one OVERWRITE snapshot (a reader sees the old layout
  // or the new, never a mix) and returns its id. The table's `bucket` option is left as it is:
  // ALTER it too to rescale the whole table for later writes, which Java refuses into a
  // partition whose bucket count differs. InvalidArgument for a bucket count below 1, a table
  // whose `bucket` is not fixed, a table without snapshot, or a spec matching no data file.
  Result<int64_t> Rescale(int32_t bucket, const PartitionSpec& partition = {}) const;

  // One JSON document describing the table at a snapshot (default: the latest): its schema
  // and snapshot files as stored, every manifest list record, every manifest entry with its
  // partition, keys and statistics decoded, and the index manifest (what `sluice meta` prints).
  Result<std::string> MetadataJson(std::optional<int64_t> snapshot_id = std::nullopt) const;

 private:
  friend struct ApiAccess;
  Table(std::string name, std::shared_ptr<FileStoreTable> table);

  std::string name_;
  std::shared_ptr<FileStoreTable> table_;
  DataTypePtr row_type_;
};

}  // namespace sluice
