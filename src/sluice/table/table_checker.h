// CheckTable: a structural check of a table's files against its metadata, for tests of the
// write path and for `sluice check`. It walks the snapshots of the table's branch and checks:
//
//   snapshots   the JSON has every key Java requires, its id is its file name's, its schema
//               resolves; its base manifest list holds exactly the files the previous
//               snapshot left live; totalRecordCount = rows of the live files of base + delta,
//               deltaRecordCount = rows added - rows deleted by the delta manifest list;
//   manifests   every manifest list / manifest / index manifest exists, with its recorded size
//               (snapshot *ManifestListSize, ManifestFileMeta file size); a manifest's added and
//               deleted counts and its bucket / level ranges match its entries; a DELETE entry
//               removes a file an earlier entry added;
//   data files  every live data file (and extra file) exists with its recorded size and schema;
//               re-read, it has the recorded row count, min / max key, key and value statistics
//               (value statistics as the column's stats mode truncates them, `value_stats_cols`
//               honoured), min / max sequence number and delete row count;
//   index files every deletion-vector / index file exists with its recorded size, every
//               deletion vector lies inside its file and belongs to a live data file of its
//               bucket; primary-key tables with deletion vectors, latest snapshot: every
//               deleted position points at a row a newer record of its key replaced
//               (deletion_vector_row_check.h);
//   hash index  dynamic-bucket tables: each bucket's HASH file holds its recorded count of
//               distinct hashes, no key hash is in two buckets of a partition, and every key
//               of a live data file has its hash in its bucket's HASH file (so each key lives
//               in exactly one bucket of its partition, where Java's assigner will look);
//   keys        cross-partition upsert tables: each live primary key (each bucket merged over
//               all its levels) lives in one bucket of one partition.
//
// Each problem found is one line naming the file it concerns. Files shared by several
// snapshots are checked once. Re-reading visits every cell as a Value: meant for tests and
// `sluice check`, not for hot paths. Formats the checker cannot decode (`.blob`) are counted in
// CheckReport::files_not_read; ORC bounds of TIMESTAMP WITH LOCAL TIME ZONE columns are not
// compared (Java shifts them by the writing JVM's time zone).
//
// Thread safety: reentrant; the table is only read.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct CheckOptions {
  // Every snapshot of the branch (true) or only the latest.
  bool all_snapshots = true;
  // Re-read every data file and compare its content with the manifest; false checks
  // existence and sizes only.
  bool read_data_files = true;
  // Recorded path prefix -> replacement, relative to the table directory unless absolute:
  // applied to external data and index file paths (tables copied from elsewhere).
  std::vector<std::pair<std::string, std::string>> path_remap;
  // The walk stops collecting after this many problems.
  int max_problems = 100;
};

struct CheckReport {
  int64_t snapshots = 0;
  int64_t manifests = 0;    // distinct manifest lists, manifests and index manifests
  int64_t data_files = 0;   // distinct data files whose existence and size were checked
  int64_t files_read = 0;   // of which re-read and compared with their metadata
  int64_t index_files = 0;  // distinct index files
  // Data files in a format the checker cannot read (e.g. `.blob`): existence and size only.
  int64_t files_not_read = 0;
  // One line per problem, each naming the file.
  std::vector<std::string> problems;

  bool ok() const { return problems.empty(); }
};

// OK when the table is sound; otherwise a Corruption whose message lists the problems (each
// naming its file). Failing to run the check at all (e.g. no such branch) is that error.
Status CheckTable(const FileStoreTable& table, const CheckOptions& options = {});

// The same walk, returning the counts and the problems instead of folding them into a Status.
Result<CheckReport> RunTableCheck(const FileStoreTable& table, const CheckOptions& options = {});

}  // namespace sluice
