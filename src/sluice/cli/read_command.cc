#include "sluice/cli/read_command.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/cli/command_error.h"
#include "sluice/cli/follow_reader.h"
#include "sluice/cli/row_printer.h"
#include "sluice/cli/table_argument.h"
#include "sluice/read_builder.h"
#include "sluice/system_tables.h"
#include "sluice/table.h"

namespace sluice::cli {

struct ReadFlags {
  std::string table;
  std::string warehouse;
  std::optional<int64_t> snapshot;
  std::optional<std::string> tag;
  std::optional<std::string> branch;
  std::optional<std::string> as_of;
  std::optional<int64_t> schema_id;
  std::vector<std::string> select;
  std::optional<std::string> where;
  std::vector<std::string> partition;
  std::optional<int32_t> bucket;
  std::string mode = "batch";
  std::vector<std::string> options;
  std::optional<std::string> timezone;
  std::vector<std::string> path_remap;
  std::optional<int64_t> limit;
  std::string format = "table";
  bool follow = false;
  std::optional<std::string> consumer_id;
};

namespace {

int Fail(const Status& status) { return PrintCommandError("read", status); }

Result<ScanMode> ParseMode(const std::string& mode) {
  if (mode == "batch") return ScanMode::kBatch;
  if (mode == "stream-full" || mode == "stream_full") return ScanMode::kStreamFull;
  if (mode == "delta") return ScanMode::kDelta;
  return Status::InvalidArgument("unknown --mode '" + mode +
                                 "' (expected batch, stream-full or delta)");
}

Result<Table> OpenTable(const ReadFlags& flags) {
  if (!flags.warehouse.empty()) {
    SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(flags.warehouse));
    return catalog.GetTable(flags.table);
  }
  return OpenTableFolder(flags.table);
}

// `db.table$snapshots` (with --warehouse) or `TABLE_DIR$snapshots`: a system table, printed
// whole (it is metadata; the row flags do not apply).
Result<ColumnBatch> ReadSystemTableRows(const ReadFlags& flags) {
  if (!flags.warehouse.empty()) {
    SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(flags.warehouse));
    return ReadSystemTable(catalog, flags.table);
  }
  const size_t dollar = flags.table.rfind('$');
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTableFolder(flags.table.substr(0, dollar)));
  if (flags.branch) {
    SLUICE_ASSIGN_OR_RETURN(table, table.OnBranch(*flags.branch));
  }
  return ReadSystemTable(table, flags.table.substr(dollar + 1));
}

Status RunSystemTable(const ReadFlags& flags) {
  Result<ColumnBatch> rows = ReadSystemTableRows(flags);
  SLUICE_RETURN_NOT_OK(rows.status());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RowPrinter> printer,
                          RowPrinter::Make(flags.format, *rows->schema(), stdout));
  printer->Print(*rows);
  printer->Finish();
  return Status::OK();
}

Status Run(const ReadFlags& flags) {
  if (IsSystemTableIdentifier(flags.table)) return RunSystemTable(flags);
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTable(flags));
  ReadBuilder read = table.NewReadBuilder();
  // Rows print in split order, so the same read prints the same output.
  read.WithOrdered(true);
  if (flags.snapshot) read.WithSnapshot(*flags.snapshot);
  if (flags.tag) read.WithTag(*flags.tag);
  if (flags.branch) read.WithBranch(*flags.branch);
  if (flags.as_of) read.WithAsOf(*flags.as_of);
  if (flags.schema_id) read.WithSchemaId(*flags.schema_id);
  if (!flags.select.empty()) read.WithProjection(flags.select);
  if (flags.where) read.WithWhere(*flags.where);
  if (!flags.partition.empty()) {
    std::vector<std::pair<std::string, std::string>> spec;
    for (const std::string& item : flags.partition) {
      SLUICE_ASSIGN_OR_RETURN(auto kv, SplitAssignment(item, "--partition"));
      spec.push_back(std::move(kv));
    }
    read.WithPartition(std::move(spec));
  }
  if (flags.bucket) read.WithBucket(*flags.bucket);
  SLUICE_ASSIGN_OR_RETURN(ScanMode mode, ParseMode(flags.mode));
  read.WithMode(mode);
  for (const std::string& item : flags.options) {
    SLUICE_ASSIGN_OR_RETURN(auto kv, SplitAssignment(item, "--option"));
    read.WithOption(std::move(kv.first), std::move(kv.second));
  }
  if (flags.timezone) read.WithSessionTimeZone(*flags.timezone);
  for (const std::string& item : flags.path_remap) {
    SLUICE_ASSIGN_OR_RETURN(auto kv, SplitAssignment(item, "--path-remap"));
    read.WithPathRemap(std::move(kv.first), std::move(kv.second));
  }
  if (flags.follow) {
    if (flags.consumer_id) read.WithOption("consumer-id", *flags.consumer_id);
    return FollowTable(std::move(read), flags.format, flags.limit);
  }
  if (flags.consumer_id) {
    return Status::InvalidArgument("--consumer-id applies to streaming reads (--follow)");
  }
  if (flags.limit) read.WithLimit(*flags.limit);

  SLUICE_ASSIGN_OR_RETURN(TableScan scan, read.NewScan());
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
  SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RowPrinter> printer,
                          RowPrinter::Make(flags.format, *table_read.output_type(), stdout));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                          table_read.CreateReader(std::move(plan.splits)));
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    printer->Print(batch);
  }
  printer->Finish();
  return Status::OK();
}

}  // namespace

std::shared_ptr<ReadFlags> AddReadCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<ReadFlags>();
  CLI::App* read = app->add_subcommand("read", "Read a table's rows");
  read->add_option(
          "TABLE", flags->table,
          "Table folder, or DB.TABLE with --warehouse; a $NAME suffix reads a system table "
          "($snapshots, $files, ...; sys.all_table_options)")
      ->required();
  read->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  auto* snapshot = read->add_option("--snapshot", flags->snapshot, "Snapshot id");
  auto* tag = read->add_option("--tag", flags->tag, "Tag name");
  read->add_option("--branch", flags->branch, "Branch (default: main)");
  auto* as_of = read->add_option(
      "--as-of", flags->as_of,
      "The latest snapshot at or before a time: epoch millis or 'YYYY-MM-DD HH:MM:SS'");
  snapshot->excludes(tag)->excludes(as_of);
  tag->excludes(as_of);
  read->add_option("--schema-id", flags->schema_id, "Read through this schema");
  read->add_option("--select", flags->select, "Output columns, comma separated")->delimiter(',');
  read->add_option("--where", flags->where, "Row predicate, e.g. \"a > 3 AND b IN ('x', 'y')\"");
  read->add_option("--partition", flags->partition, "Partition spec k=v[,k=v]")->delimiter(',');
  read->add_option("--bucket", flags->bucket, "Bucket number");
  read->add_option("--mode", flags->mode, "batch (default), stream-full or delta");
  read->add_option("--option", flags->options, "Dynamic table option key=value (repeatable)");
  read->add_option("--timezone", flags->timezone, "Session time zone for casts (IANA name)");
  read->add_option("--path-remap", flags->path_remap,
                   "Read recorded paths starting with PREFIX under DIR: PREFIX=DIR (repeatable)");
  read->add_option("--limit", flags->limit, "Stop after this many rows");
  read->add_option("--format", flags->format, "table (default), jsonl or csv");
  auto* follow = read->add_flag(
      "--follow", flags->follow,
      "Keep reading: the first plan (by --option scan.mode=...), then each new snapshot's "
      "changes as they commit, _ROW_KIND first, until --limit rows or SIGINT / SIGTERM");
  read->add_option("--consumer-id", flags->consumer_id,
                   "With --follow: record progress in consumer/consumer-ID and resume from it");
  follow->excludes(snapshot)->excludes(tag)->excludes(as_of);
  *command = read;
  return flags;
}

int RunRead(const ReadFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return Fail(status);
  return 0;
}

}  // namespace sluice::cli
