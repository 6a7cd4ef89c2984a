#include "sluice/cli/sql_command.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

#include "sluice/catalog.h"
#include "sluice/cli/command_error.h"
#include "sluice/cli/row_printer.h"
#include "sluice/cli/table_argument.h"
#include "sluice/sql/sql_session.h"
#include "sluice/sql/sql_text.h"

namespace sluice::cli {

struct SqlFlags {
  std::string warehouse;
  std::string query;
  std::string format = "table";
  bool verbose = false;
  int threads = 0;
};

namespace {

Status PrintRows(BatchReader* rows, const std::string& format) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RowPrinter> printer,
                          RowPrinter::Make(format, *rows->output_type(), stdout));
  ColumnBatch batch(rows->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, rows->Next(&batch));
    if (!more) break;
    printer->Print(batch);
  }
  printer->Finish();
  return Status::OK();
}

Status Run(const SqlFlags& flags) {
  std::string warehouse = flags.warehouse;
  if (warehouse.empty()) {
    const char* env = std::getenv("SLUICE_WAREHOUSE");
    if (env != nullptr) warehouse = env;
  }
  if (warehouse.empty()) {
    return Status::InvalidArgument("sluice sql needs --warehouse DIR (or $SLUICE_WAREHOUSE)");
  }
  std::string query = flags.query;
  if (query.empty()) {
    query.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  std::vector<std::string> statements = sql::SplitStatements(query);
  if (statements.empty()) return Status::InvalidArgument("sluice sql: no statement given");
  sql::SqlOptions options;
  options.threads = flags.threads;
  options.report_pruning = flags.verbose;
  SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(warehouse));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<sql::SqlSession> session,
                          sql::SqlSession::Open(catalog, options));
  for (const std::string& statement : statements) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> rows, session->Execute(statement));
    if (rows != nullptr) SLUICE_RETURN_NOT_OK(PrintRows(rows.get(), flags.format));
    if (flags.verbose) {
      for (const sql::ScanReport& report : session->scan_reports()) {
        std::fprintf(stderr, "sluice_scan %s\n", report.ToString().c_str());
      }
    }
  }
  return Status::OK();
}

}  // namespace

std::shared_ptr<SqlFlags> AddSqlCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<SqlFlags>();
  CLI::App* sql = app->add_subcommand(
      "sql",
      "Run SQL on the warehouse's tables (db.t, db.t$snapshots, sluice_scan('db.t', snapshot => "
      "N)), CREATE TABLE / INSERT [OVERWRITE] / CALL sys.<procedure> included");
  sql->add_option("QUERY", flags->query, "Statements separated by ';' (default: standard input)");
  sql->add_option("--warehouse", flags->warehouse, "Warehouse directory");
  sql->add_option("--format", flags->format, "table (default), jsonl or csv");
  sql->add_flag("--verbose", flags->verbose,
                "Print what each scan planned (filter pushed, files planned / pruned) to stderr");
  sql->add_option("--threads", flags->threads, "DuckDB threads (default: the cores)");
  *command = sql;
  return flags;
}

int RunSql(const SqlFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("sql", status);
  return 0;
}

}  // namespace sluice::cli
