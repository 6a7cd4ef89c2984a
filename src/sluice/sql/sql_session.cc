#include "sluice/sql/sql_session.h"

#include <duckdb.h>

#include <map>
#include <set>
#include <utility>
#include <variant>

#include "sluice/arrow.h"
#include "sluice/procedures.h"
#include "sluice/sql/duckdb_result_reader.h"
#include "sluice/sql/filter_pushdown.h"
#include "sluice/sql/rows_reader.h"
#include "sluice/sql/sluice_scan.h"
#include "sluice/sql/sql_text.h"
#include "sluice/sql/statement_parser.h"
#include "sluice/system_tables.h"
#include "sluice/write_builder.h"

namespace sluice::sql {

namespace {

// DuckDB's message; a missing table or schema is NotFound, DuckDB's or Sluice's (a bind error
// of sluice_scan carries the Status text).
Status DuckDbError(std::string message) {
  if (message.rfind("Catalog Error", 0) == 0 ||
      message.find(" Error: Not found: ") != std::string::npos) {
    return Status::NotFound(std::move(message));
  }
  return Status::InvalidArgument(std::move(message));
}

// The error of a failed result, which is destroyed.
Status TakeResultError(duckdb_result* result) {
  const char* message = duckdb_result_error(result);
  Status status = DuckDbError(message != nullptr ? message : "DuckDB failed");
  duckdb_destroy_result(result);
  return status;
}

// The scratch table CREATE TABLE lets DuckDB parse its column definitions into.
constexpr char kScratchTable[] = "__sluice_create_table";

// Moves Java's `primary-key` / `partition` options into the spec, as Java's Schema does.
Status TakeKeyOption(const char* key, std::vector<std::string>* keys,
                     std::vector<std::pair<std::string, std::string>>* options) {
  for (auto it = options->begin(); it != options->end(); ++it) {
    if (it->first != key) continue;
    if (!keys->empty()) {
      return Status::InvalidArgument(std::string("option '") + key +
                                     "' repeats what the statement's clause already says");
    }
    std::string list = it->second;
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      std::string name = list.substr(start, comma - start);
      while (!name.empty() && name.front() == ' ') name.erase(0, 1);
      while (!name.empty() && name.back() == ' ') name.pop_back();
      if (!name.empty()) keys->push_back(name);
      start = comma + 1;
    }
    options->erase(it);
    return Status::OK();
  }
  return Status::OK();
}

std::unique_ptr<BatchReader> RowCount(int64_t rows) {
  ColumnBatch batch(
      DataType::Row({DataField{0, "rows", DataType::BigInt(false), std::nullopt, std::nullopt}}));
  batch.AppendRow({Value::Int64(rows)}).IgnoreError();  // a BIGINT always fits its column
  return std::make_unique<RowsReader>(std::move(batch));
}

}  // namespace

struct SqlSession::Rep {
  explicit Rep(Catalog catalog) : context(std::move(catalog)) {}
  ~Rep() {
    if (connection != nullptr) duckdb_disconnect(&connection);
    if (context.conversions != nullptr) duckdb_disconnect(&context.conversions);
    if (database != nullptr) duckdb_close(&database);
  }

  // Runs `sql` on the session's connection, dropping its result.
  Status Run(const std::string& sql);
  // The rows of a small result, as text (NULL as "").
  Result<std::vector<std::vector<std::string>>> Rows(const std::string& sql);
  // Prepares `sql` with `filters` handed to its scans; binds plan nothing when `types_only`.
  Result<duckdb_prepared_statement> Prepare(const std::string& sql,
                                            std::map<std::string, std::string> filters,
                                            bool types_only = false);
  // Where-expressions to push into the scans of a query (filter_pushdown.h).
  std::map<std::string, std::string> Filters(std::string_view query);

  Status DefineTableView(const std::string& identifier);
  Status DefineSystemTableViews(std::string_view statement);

  Result<std::unique_ptr<BatchReader>> RunDuckDb(std::string_view statement);
  Result<std::unique_ptr<BatchReader>> CreateTable(const CreateTableStatement& statement);
  Result<std::unique_ptr<BatchReader>> Insert(const InsertStatement& statement);
  // Writes the rows of an INSERT's query and commits them as one snapshot.
  Status WriteAndCommit(const WriteBuilder& builder, DuckDbResultReader* rows, TableWrite* write,
                        int64_t* written);
  // The CAST-to-the-table's-types query an INSERT writes.
  Result<std::string> InsertQuery(const Table& table, const InsertStatement& statement);

  ScanContext context;
  duckdb_database database = nullptr;
  duckdb_connection connection = nullptr;
  // Lower-case `db.t` -> the table's identifier and columns, for every table with a view.
  std::map<std::string, std::string> identifiers;
  std::map<std::string, DataTypePtr> tables;
  // Lower-case identifiers of the system tables with a view.
  std::set<std::string> system_views;
  // The database of unqualified table names, set by `USE db`.
  std::string default_database;
};

Status SqlSession::Rep::Run(const std::string& sql) {
  duckdb_result result;
  if (duckdb_query(connection, sql.c_str(), &result) != DuckDBSuccess) {
    return TakeResultError(&result);
  }
  duckdb_destroy_result(&result);
  return Status::OK();
}

Result<std::vector<std::vector<std::string>>> SqlSession::Rep::Rows(const std::string& sql) {
  duckdb_result result;
  if (duckdb_query(connection, sql.c_str(), &result) != DuckDBSuccess) {
    return TakeResultError(&result);
  }
  std::vector<std::vector<std::string>> rows(duckdb_row_count(&result));
  for (idx_t row = 0; row < rows.size(); ++row) {
    for (idx_t column = 0; column < duckdb_column_count(&result); ++column) {
      char* text = duckdb_value_varchar(&result, column, row);
      rows[row].push_back(text != nullptr ? text : "");
      if (text != nullptr) duckdb_free(text);
    }
  }
  duckdb_destroy_result(&result);
  return rows;
}

Result<duckdb_prepared_statement> SqlSession::Rep::Prepare(
    const std::string& sql, std::map<std::string, std::string> filters, bool types_only) {
  {
    std::lock_guard<std::mutex> lock(context.mu);
    context.filters = std::move(filters);
    context.types_only = types_only;
    context.reports.clear();
  }
  duckdb_prepared_statement prepared = nullptr;
  duckdb_state state = duckdb_prepare(connection, sql.c_str(), &prepared);
  {
    std::lock_guard<std::mutex> lock(context.mu);
    context.filters.clear();
    context.types_only = false;
  }
  if (state != DuckDBSuccess) {
    const char* message = duckdb_prepare_error(prepared);
    Status status = DuckDbError(message != nullptr ? message : "DuckDB cannot prepare: " + sql);
    duckdb_destroy_prepare(&prepared);
    return status;
  }
  return prepared;
}

std::map<std::string, std::string> SqlSession::Rep::Filters(std::string_view query) {
  Result<std::vector<Token>> tokens = Tokenize(query);
  if (!tokens.ok() || tokens->empty()) return {};
  size_t first = 0;
  if ((*tokens)[first].Is("explain")) ++first;
  if (first < tokens->size() && (*tokens)[first].Is("analyze")) ++first;
  if (first >= tokens->size()) return {};
  const Token& start = (*tokens)[first];
  if (!start.Is("select") && !start.Is("with") && !start.Is("from") && !start.Is("(")) return {};
  // json_serialize_sql takes only a constant, not a parameter.
  std::string sql = "SELECT json_serialize_sql(" + QuoteString(query.substr(start.begin)) + ")";
  duckdb_result result;
  std::map<std::string, std::string> out;
  if (duckdb_query(context.conversions, sql.c_str(), &result) == DuckDBSuccess &&
      duckdb_row_count(&result) == 1) {
    char* json = duckdb_value_varchar(&result, 0, 0);
    if (json != nullptr) {
      out = PushdownFilters(json, tables, default_database);
      duckdb_free(json);
    }
  }
  duckdb_destroy_result(&result);
  return out;
}

Status SqlSession::Rep::DefineTableView(const std::string& identifier) {
  SLUICE_ASSIGN_OR_RETURN(Table table, context.catalog.GetTable(identifier));
  size_t dot = identifier.find('.');
  std::string database = identifier.substr(0, dot);
  SLUICE_RETURN_NOT_OK(Run("CREATE SCHEMA IF NOT EXISTS " + QuoteIdentifier(database)));
  std::string sql = "CREATE OR REPLACE VIEW " + QuoteIdentifier(database) + "." +
                    QuoteIdentifier(identifier.substr(dot + 1)) + " AS SELECT * FROM sluice_scan(" +
                    QuoteString(identifier) + ")";
  // Defining a view binds its query: types only, no planning.
  SLUICE_ASSIGN_OR_RETURN(duckdb_prepared_statement prepared, Prepare(sql, {}, true));
  duckdb_result result;
  duckdb_state state = duckdb_execute_prepared(prepared, &result);
  duckdb_destroy_prepare(&prepared);
  if (state != DuckDBSuccess) return TakeResultError(&result);
  duckdb_destroy_result(&result);
  identifiers[Lower(identifier)] = identifier;
  tables[Lower(identifier)] = table.row_type();
  return Status::OK();
}

Status SqlSession::Rep::DefineSystemTableViews(std::string_view statement) {
  Result<std::vector<Token>> tokens = Tokenize(statement);
  if (!tokens.ok()) return Status::OK();  // DuckDB reports it, in its words
  for (size_t i = 0; i + 2 < tokens->size(); ++i) {
    const Token& first = (*tokens)[i];
    const Token& dot = (*tokens)[i + 1];
    const Token& second = (*tokens)[i + 2];
    if (!first.IsIdentifier() || !dot.Is(".") || !second.IsIdentifier()) continue;
    std::string name = first.text + "." + second.text;
    if (!IsSystemTableIdentifier(name) || system_views.count(Lower(name)) > 0) continue;
    // The data table's own spelling, so the catalog finds it whatever case the query used.
    size_t dollar = name.find('$');
    if (dollar != std::string::npos) {
      auto it = identifiers.find(Lower(name.substr(0, dollar)));
      if (it == identifiers.end()) continue;  // DuckDB names the missing table
      name = it->second + name.substr(dollar);
    }
    SLUICE_RETURN_NOT_OK(Run("CREATE SCHEMA IF NOT EXISTS " + QuoteIdentifier(first.text)));
    SLUICE_RETURN_NOT_OK(Run("CREATE OR REPLACE VIEW " + QuoteIdentifier(first.text) + "." +
                             QuoteIdentifier(second.text) + " AS SELECT * FROM sluice_scan(" +
                             QuoteString(name) + ")"));
    system_views.insert(Lower(first.text + "." + second.text));
  }
  return Status::OK();
}

Result<std::unique_ptr<BatchReader>> SqlSession::Rep::RunDuckDb(std::string_view statement) {
  SLUICE_RETURN_NOT_OK(DefineSystemTableViews(statement));
  std::string sql(statement);
  SLUICE_ASSIGN_OR_RETURN(duckdb_prepared_statement prepared, Prepare(sql, Filters(statement)));
  bool explain = duckdb_prepared_statement_type(prepared) == DUCKDB_STATEMENT_TYPE_EXPLAIN;
  duckdb_result result;
  if (duckdb_execute_prepared_streaming(prepared, &result) != DuckDBSuccess) {
    duckdb_destroy_prepare(&prepared);
    return TakeResultError(&result);
  }
  Result<std::vector<Token>> tokens = Tokenize(statement);
  if (tokens.ok() && tokens->size() == 2 && (*tokens)[0].Is("use") && (*tokens)[1].IsIdentifier()) {
    default_database = (*tokens)[1].text;
  }
  if (duckdb_result_return_type(result) != DUCKDB_RESULT_TYPE_QUERY_RESULT) {
    duckdb_destroy_result(&result);
    duckdb_destroy_prepare(&prepared);
    return std::unique_ptr<BatchReader>();
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<DuckDbResultReader> reader,
                          DuckDbResultReader::Make(result, prepared));
  if (!explain) return std::unique_ptr<BatchReader>(std::move(reader));
  // EXPLAIN: DuckDB's plan, then what each scan planned (DuckDB's plan cannot show it: the C
  // API gives table functions no say in EXPLAIN).
  ColumnBatch plan(reader->output_type());
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      Value value = batch.GetRow(row);
      SLUICE_RETURN_NOT_OK(plan.AppendRow(value.list()));
    }
  }
  std::vector<ScanReport> reports;
  {
    std::lock_guard<std::mutex> lock(context.mu);
    reports = context.reports;
  }
  for (const ScanReport& report : reports) {
    SLUICE_RETURN_NOT_OK(
        plan.AppendRow({Value::String("sluice_scan"), Value::String(report.ToString())}));
  }
  return std::unique_ptr<BatchReader>(std::make_unique<RowsReader>(std::move(plan)));
}

Result<std::unique_ptr<BatchReader>> SqlSession::Rep::CreateTable(
    const CreateTableStatement& statement) {
  // DuckDB parses the column definitions (its types, NOT NULL, PRIMARY KEY) into a scratch
  // table; its Arrow schema gives the Paimon types.
  // CREATE TABLE ... AS: the query's columns, named and typed by DuckDB (its binds plan
  // nothing).
  if (statement.query.empty()) {
    SLUICE_RETURN_NOT_OK(Run(std::string("CREATE OR REPLACE TEMP TABLE ") + kScratchTable + " (" +
                             statement.columns_sql + ")"));
  } else {
    SLUICE_RETURN_NOT_OK(DefineSystemTableViews(statement.query));
    SLUICE_ASSIGN_OR_RETURN(duckdb_prepared_statement prepared,
                            Prepare(std::string("CREATE OR REPLACE TEMP TABLE ") + kScratchTable +
                                        " AS SELECT * FROM (" + statement.query + "\n) LIMIT 0",
                                    {}, /*types_only=*/true));
    duckdb_result result;
    duckdb_state state = duckdb_execute_prepared(prepared, &result);
    duckdb_destroy_prepare(&prepared);
    if (state != DuckDBSuccess) return TakeResultError(&result);
    duckdb_destroy_result(&result);
  }
  std::string scratch_filter =
      std::string("table_name = '") + kScratchTable + "' AND database_name = 'temp'";
  auto nullable =
      Rows("SELECT CASE WHEN is_nullable THEN 'YES' ELSE 'NO' END FROM duckdb_columns() WHERE " +
           scratch_filter + " ORDER BY column_index");
  auto primary_key =
      Rows("SELECT unnest(constraint_column_names) FROM duckdb_constraints() WHERE " +
           scratch_filter + " AND constraint_type = 'PRIMARY KEY'");
  Result<std::unique_ptr<DuckDbResultReader>> columns = Status::Internal("unreached");
  {
    duckdb_result result;
    if (duckdb_query(connection, (std::string("SELECT * FROM temp.") + kScratchTable).c_str(),
                     &result) != DuckDBSuccess) {
      columns = TakeResultError(&result);
    } else {
      columns = DuckDbResultReader::Make(result);
    }
  }
  DataTypePtr row_type = columns.ok() ? (*columns)->output_type() : nullptr;
  columns = Status::Internal("released");
  SLUICE_RETURN_NOT_OK(Run(std::string("DROP TABLE temp.") + kScratchTable));
  if (!nullable.ok()) return nullable.status();
  if (!primary_key.ok()) return primary_key.status();
  if (row_type == nullptr) {
    return Status::InvalidArgument("a column of " + statement.name.Identifier() +
                                   " has no Paimon type");
  }

  NewTableSpec spec;
  for (const auto& row : *primary_key) spec.primary_keys.push_back(row[0]);
  spec.partition_keys = statement.partition_keys;
  spec.options = statement.options;
  spec.comment = statement.comment;
  SLUICE_RETURN_NOT_OK(TakeKeyOption("primary-key", &spec.primary_keys, &spec.options));
  SLUICE_RETURN_NOT_OK(TakeKeyOption("partition", &spec.partition_keys, &spec.options));
  const std::vector<DataField>& fields = row_type->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    DataField field = fields[i];
    bool key = false;
    for (const std::string& k : spec.primary_keys) key = key || k == field.name;
    bool not_null = key || (i < nullable->size() && (*nullable)[i][0] == "NO");
    field.type = field.type->WithNullable(!not_null);
    spec.columns.push_back(std::move(field));
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> existing,
                          context.catalog.ListTables(statement.name.database));
  bool existed = false;
  for (const std::string& name : existing) existed = existed || name == statement.name.table;
  SLUICE_RETURN_NOT_OK(
      context.catalog.CreateTable(statement.name.Identifier(), spec, statement.if_not_exists));
  SLUICE_RETURN_NOT_OK(DefineTableView(statement.name.Identifier()));
  // IF NOT EXISTS on an existing table writes nothing, as in Flink.
  if (statement.query.empty() || existed) return std::unique_ptr<BatchReader>();
  InsertStatement insert;
  insert.name = statement.name;
  insert.query = statement.query;
  return Insert(insert);
}

Result<std::string> SqlSession::Rep::InsertQuery(const Table& table,
                                                 const InsertStatement& statement) {
  const std::string identifier = table.name();
  const std::vector<DataField>& fields = table.row_type()->fields();
  auto column_error = [&](const std::string& name) {
    std::string names;
    for (const DataField& f : fields) names += (names.empty() ? "" : ", ") + f.name;
    return Status::NotFound("column '" + name + "' is not a column of table " + identifier +
                            " (columns: " + names + ")");
  };
  auto find = [&](const std::string& name) -> int {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (Lower(fields[i].name) == Lower(name)) return static_cast<int>(i);
    }
    return -1;
  };
  // Per table column: the static partition value, or the query column giving it.
  std::vector<std::optional<std::string>> static_values(fields.size());
  for (const auto& [name, value] : statement.partition) {
    int index = find(name);
    if (index < 0) return column_error(name);
    static_values[index] = value;
  }
  std::vector<int> source(fields.size(), -1);
  int query_columns = 0;
  if (statement.columns.empty()) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (!static_values[i]) source[i] = query_columns++;
    }
  } else {
    for (const std::string& name : statement.columns) {
      int index = find(name);
      if (index < 0) return column_error(name);
      if (static_values[index] || source[index] >= 0) {
        return Status::InvalidArgument("column '" + name + "' of table " + identifier +
                                       " is given twice");
      }
      source[index] = query_columns++;
    }
  }
  // The query must give exactly those columns.
  SLUICE_ASSIGN_OR_RETURN(
      duckdb_prepared_statement inner,
      Prepare("SELECT * FROM (" + statement.query + "\n)", {}, /*types_only=*/true));
  idx_t given = duckdb_prepared_statement_column_count(inner);
  duckdb_destroy_prepare(&inner);
  if (given != static_cast<idx_t>(query_columns)) {
    return Status::InvalidArgument("INSERT into " + identifier + " expects " +
                                   std::to_string(query_columns) + " columns, the query gives " +
                                   std::to_string(given));
  }
  // The table's columns as DuckDB types them (its view's).
  SLUICE_ASSIGN_OR_RETURN(auto described,
                          Rows("SELECT column_type FROM (DESCRIBE SELECT * FROM sluice_scan(" +
                               QuoteString(identifier) + "))"));
  if (described.size() != fields.size()) {
    return Status::Internal("DuckDB describes " + identifier + " with another column count");
  }
  std::string select;
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string value = static_values[i] ? QuoteString(*static_values[i])
                        : source[i] >= 0 ? "#" + std::to_string(source[i] + 1)
                                         : std::string("NULL");
    select += (i > 0 ? ", " : "") + std::string("CAST(") + value + " AS " + described[i][0] +
              ") AS " + QuoteIdentifier(fields[i].name);
  }
  return "SELECT " + select + " FROM (" + statement.query + "\n)";
}

Result<std::unique_ptr<BatchReader>> SqlSession::Rep::Insert(const InsertStatement& statement) {
  SLUICE_ASSIGN_OR_RETURN(Table table, context.catalog.GetTable(statement.name.Identifier()));
  if (identifiers.count(Lower(table.name())) == 0) {
    SLUICE_RETURN_NOT_OK(DefineTableView(table.name()));
  }
  SLUICE_ASSIGN_OR_RETURN(std::string query, InsertQuery(table, statement));
  SLUICE_RETURN_NOT_OK(DefineSystemTableViews(statement.query));
  SLUICE_ASSIGN_OR_RETURN(duckdb_prepared_statement prepared, Prepare(query, Filters(query)));
  duckdb_result result;
  if (duckdb_execute_prepared_streaming(prepared, &result) != DuckDBSuccess) {
    duckdb_destroy_prepare(&prepared);
    return TakeResultError(&result);
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<DuckDbResultReader> rows,
                          DuckDbResultReader::Make(result, prepared));

  WriteBuilder builder = table.NewWriteBuilder();
  if (statement.overwrite) {
    if (!statement.partition.empty()) {
      builder.WithOverwrite(statement.partition);
    } else if (table.partition_keys().empty()) {
      builder.WithOverwrite();
    } else {
      // Java's default (dynamic-partition-overwrite): only the partitions written to.
      builder.WithDynamicOverwrite();
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
  int64_t written = 0;
  Status status = WriteAndCommit(builder, rows.get(), write.get(), &written);
  if (!status.ok()) {
    // Close deletes the files written so far that no commit took; the statement's error is
    // the one to report.
    write->Close().IgnoreError();
    return status;
  }
  SLUICE_RETURN_NOT_OK(write->Close());
  return RowCount(written);
}

Status SqlSession::Rep::WriteAndCommit(const WriteBuilder& builder, DuckDbResultReader* rows,
                                       TableWrite* write, int64_t* written) {
  while (true) {
    ArrowArray array;
    SLUICE_ASSIGN_OR_RETURN(bool more, rows->NextArrow(&array));
    if (!more) break;
    *written += array.length;
    SLUICE_RETURN_NOT_OK(write->Write(&array, rows->arrow_schema()));
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages, write->PrepareCommit());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
  return commit->Commit(std::move(messages)).status();
}

SqlSession::SqlSession(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
SqlSession::~SqlSession() = default;

Result<std::unique_ptr<SqlSession>> SqlSession::Open(Catalog catalog, SqlOptions options) {
  auto rep = std::make_unique<Rep>(std::move(catalog));
  rep->context.report_pruning = options.report_pruning;
  duckdb_config config;
  if (duckdb_create_config(&config) != DuckDBSuccess) {
    return Status::Internal("DuckDB cannot make a configuration");
  }
  if (options.threads > 0) {
    duckdb_set_config(config, "threads", std::to_string(options.threads).c_str());
  }
  char* error = nullptr;
  duckdb_state opened = duckdb_open_ext(nullptr, &rep->database, config, &error);
  duckdb_destroy_config(&config);
  if (opened != DuckDBSuccess) {
    std::string message = error != nullptr ? error : "unknown error";
    if (error != nullptr) duckdb_free(error);
    return Status::Internal("DuckDB does not open: " + message);
  }
  if (duckdb_connect(rep->database, &rep->connection) != DuckDBSuccess ||
      duckdb_connect(rep->database, &rep->context.conversions) != DuckDBSuccess) {
    return Status::Internal("DuckDB refuses a connection");
  }
  SLUICE_RETURN_NOT_OK(RegisterSluiceScan(rep->connection, &rep->context));
  // Sluice's default session zone: TIMESTAMP_LTZ values read and written as UTC instants.
  SLUICE_RETURN_NOT_OK(rep->Run("SET TimeZone = 'UTC'"));
  // A warehouse not made yet has no tables; CREATE DATABASE makes it.
  Result<std::vector<std::string>> databases = rep->context.catalog.ListDatabases();
  if (!databases.ok() && databases.status().code() != StatusCode::kNotFound) {
    return databases.status();
  }
  for (const std::string& database : databases.ok() ? *databases : std::vector<std::string>()) {
    SLUICE_RETURN_NOT_OK(rep->Run("CREATE SCHEMA IF NOT EXISTS " + QuoteIdentifier(database)));
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                            rep->context.catalog.ListTables(database));
    for (const std::string& name : names) {
      SLUICE_RETURN_NOT_OK(rep->DefineTableView(database + "." + name));
    }
  }
  return std::unique_ptr<SqlSession>(new SqlSession(std::move(rep)));
}

Result<std::unique_ptr<BatchReader>> SqlSession::Execute(std::string_view statement) {
  SLUICE_ASSIGN_OR_RETURN(SluiceStatement parsed, ParseStatement(statement));
  Rep& r = *rep_;
  {
    std::lock_guard<std::mutex> lock(r.context.mu);
    r.context.reports.clear();
  }
  if (std::holds_alternative<std::monostate>(parsed)) return r.RunDuckDb(statement);
  if (auto* s = std::get_if<CreateDatabaseStatement>(&parsed)) {
    SLUICE_RETURN_NOT_OK(r.context.catalog.CreateDatabase(s->database, s->if_not_exists));
    SLUICE_RETURN_NOT_OK(r.Run("CREATE SCHEMA IF NOT EXISTS " + QuoteIdentifier(s->database)));
    return std::unique_ptr<BatchReader>();
  }
  if (auto* s = std::get_if<DropDatabaseStatement>(&parsed)) {
    SLUICE_RETURN_NOT_OK(r.context.catalog.DropDatabase(s->database, s->if_exists, s->cascade));
    SLUICE_RETURN_NOT_OK(
        r.Run("DROP SCHEMA IF EXISTS " + QuoteIdentifier(s->database) + " CASCADE"));
    std::string prefix = Lower(s->database) + ".";
    for (auto it = r.tables.begin(); it != r.tables.end();) {
      if (it->first.rfind(prefix, 0) == 0) {
        r.identifiers.erase(it->first);
        it = r.tables.erase(it);
      } else {
        ++it;
      }
    }
    return std::unique_ptr<BatchReader>();
  }
  if (auto* s = std::get_if<CreateTableStatement>(&parsed)) return r.CreateTable(*s);
  if (auto* s = std::get_if<DropTableStatement>(&parsed)) {
    SLUICE_RETURN_NOT_OK(r.context.catalog.DropTable(s->name.Identifier(), s->if_exists));
    SLUICE_RETURN_NOT_OK(r.Run("DROP VIEW IF EXISTS " + QuoteIdentifier(s->name.database) + "." +
                               QuoteIdentifier(s->name.table)));
    r.tables.erase(Lower(s->name.Identifier()));
    r.identifiers.erase(Lower(s->name.Identifier()));
    return std::unique_ptr<BatchReader>();
  }
  if (auto* s = std::get_if<InsertStatement>(&parsed)) return r.Insert(*s);
  const auto& call = std::get<CallStatement>(parsed);
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> lines,
                          CallProcedure(r.context.catalog, call.procedure, call.args));
  return std::unique_ptr<BatchReader>(RowsReader::Lines("result", lines));
}

std::vector<ScanReport> SqlSession::scan_reports() const {
  std::lock_guard<std::mutex> lock(rep_->context.mu);
  return rep_->context.reports;
}

}  // namespace sluice::sql
