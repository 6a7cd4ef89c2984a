#include "sluice/cli/table_commands.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/cli/check_command.h"
#include "sluice/cli/column_spec.h"
#include "sluice/cli/command_error.h"
#include "sluice/cli/table_argument.h"

namespace sluice::cli {

struct TableCommands {
  std::string warehouse;

  CLI::App* create_database = nullptr;
  CLI::App* drop_database = nullptr;
  std::string database;
  bool if_not_exists = false;
  bool if_exists = false;
  bool cascade = false;

  CLI::App* create_table = nullptr;
  std::string table;
  std::vector<std::string> columns;
  std::string primary_key;
  std::string partition;
  std::vector<std::string> options;
  std::optional<std::string> comment;

  CLI::App* alter_table = nullptr;
  std::vector<std::string> add_column, rename_column, drop_column, alter_column, move_column;
  std::vector<std::string> set_option, reset_option, after;
  bool first = false;
  std::optional<std::string> alter_comment;

  CLI::App* drop_table = nullptr;
  CLI::App* rename_table = nullptr;
  std::string rename_to;

  CLI::App* list = nullptr;
  std::optional<std::string> list_database;

  CLI::App* check = nullptr;
  CheckFlags check_flags;
};

namespace {

int Fail(std::string_view verb, const Status& st) { return PrintCommandError(verb, st); }

CLI::Option* AddWarehouse(CLI::App* command, TableCommands* c) {
  return command->add_option("--warehouse", c->warehouse,
                             "Warehouse folder (default: $SLUICE_WAREHOUSE)");
}

Result<Catalog> OpenCatalog(const TableCommands& c) {
  std::string warehouse = c.warehouse;
  if (warehouse.empty()) {
    if (const char* env = std::getenv("SLUICE_WAREHOUSE")) warehouse = env;
  }
  if (warehouse.empty()) {
    return Status::InvalidArgument("no warehouse: pass --warehouse DIR or set SLUICE_WAREHOUSE");
  }
  return OpenWarehouse(warehouse);
}

std::vector<std::string> SplitList(const std::string& text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t at = text.find(sep, start);
    std::string part = text.substr(start, at == std::string::npos ? std::string::npos : at - start);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    if (!part.empty()) out.push_back(std::move(part));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return out;
}

// "a.b" -> {"a", "b"}: a column inside ROW columns.
std::vector<std::string> ColumnPath(const std::string& text) { return SplitList(text, '.'); }

Status RunCreateTable(const TableCommands& c) {
  SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenCatalog(c));
  NewTableSpec spec;
  if (c.columns.empty()) return Status::InvalidArgument("a table needs at least one --column");
  for (const std::string& text : c.columns) {
    SLUICE_ASSIGN_OR_RETURN(DataField column, ParseColumnSpec(text));
    spec.columns.push_back(std::move(column));
  }
  spec.primary_keys = SplitList(c.primary_key, ',');
  spec.partition_keys = SplitList(c.partition, ',');
  for (const std::string& text : c.options) {
    SLUICE_ASSIGN_OR_RETURN(auto kv, SplitAssignment(text, "--option"));
    auto same = [&](const auto& e) { return e.first == kv.first; };
    auto it = std::find_if(spec.options.begin(), spec.options.end(), same);
    if (it != spec.options.end()) {
      it->second = kv.second;
    } else {
      spec.options.push_back(std::move(kv));
    }
  }
  spec.comment = c.comment;
  SLUICE_RETURN_NOT_OK(catalog.CreateTable(c.table, spec, c.if_not_exists));
  std::printf("created table %s\n", c.table.c_str());
  return Status::OK();
}

// The changes in command-line order: CLI11 records the order options were parsed in.
Result<std::vector<SchemaChange>> AlterChanges(const TableCommands& c) {
  std::map<const CLI::Option*, size_t> next;
  std::vector<SchemaChange> changes;
  // The change the last --add-column / --move-column made, which --first / --after place.
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t positioned = kNone;
  bool move_needs_position = false;
  auto value = [&](const CLI::Option* option) -> std::string {
    const size_t i = next[option]++;
    return i < option->results().size() ? option->results()[i] : std::string();
  };
  auto unplaced_move = [&]() {
    return Status::InvalidArgument("--move-column " + changes[positioned].move->field +
                                   " needs --first or --after COLUMN");
  };
  for (const CLI::Option* option : c.alter_table->parse_order()) {
    const std::string name = option->get_name();
    const std::string text = value(option);
    if (name == "--first" || name == "--after") {
      if (positioned == kNone) {
        return Status::InvalidArgument(name + " must follow --add-column or --move-column");
      }
      SchemaChange& change = changes[positioned];
      std::string field = change.move ? change.move->field : std::string();
      change.move = name == "--first" ? ColumnMove::First(std::move(field))
                                      : ColumnMove::After(std::move(field), text);
      positioned = kNone;
      move_needs_position = false;
      continue;
    }
    if (move_needs_position) return unplaced_move();
    positioned = kNone;
    if (name == "--add-column") {
      SLUICE_ASSIGN_OR_RETURN(DataField column, ParseColumnSpec(text));
      changes.push_back(
          SchemaChange::AddColumn(ColumnPath(column.name), column.type, column.description));
      positioned = changes.size() - 1;
    } else if (name == "--move-column") {
      changes.push_back(SchemaChange::UpdateColumnPosition(ColumnMove::Last(text)));
      positioned = changes.size() - 1;
      move_needs_position = true;
    } else if (name == "--rename-column") {
      SLUICE_ASSIGN_OR_RETURN(auto kv, SplitAssignment(text, "--rename-column"));
      changes.push_back(SchemaChange::RenameColumn(ColumnPath(kv.first), kv.second));
    } else if (name == "--drop-column") {
      changes.push_back(SchemaChange::DropColumn(ColumnPath(text)));
    } else if (name == "--alter-column") {
      SLUICE_ASSIGN_OR_RETURN(DataField column, ParseColumnSpec(text));
      changes.push_back(SchemaChange::UpdateColumnType(ColumnPath(column.name), column.type));
      if (column.description) {
        changes.push_back(
            SchemaChange::UpdateColumnComment(ColumnPath(column.name), column.description));
      }
    } else if (name == "--set-option") {
      SLUICE_ASSIGN_OR_RETURN(auto kv, SplitAssignment(text, "--set-option"));
      changes.push_back(SchemaChange::SetOption(kv.first, kv.second));
    } else if (name == "--reset-option") {
      changes.push_back(SchemaChange::RemoveOption(text));
    } else if (name == "--comment") {
      changes.push_back(SchemaChange::UpdateComment(text));
    }
  }
  if (move_needs_position) return unplaced_move();
  if (changes.empty()) return Status::InvalidArgument("no change given");
  return changes;
}

Status RunAlterTable(const TableCommands& c) {
  SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenCatalog(c));
  SLUICE_ASSIGN_OR_RETURN(std::vector<SchemaChange> changes, AlterChanges(c));
  SLUICE_ASSIGN_OR_RETURN(Table table, catalog.AlterTable(c.table, changes));
  std::printf("altered table %s: schema %lld, %zu changes\n", c.table.c_str(),
              static_cast<long long>(table.schema_id()), changes.size());
  return Status::OK();
}

Status RunList(const TableCommands& c) {
  SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenCatalog(c));
  std::vector<std::string> names;
  if (c.list_database) {
    SLUICE_ASSIGN_OR_RETURN(names, catalog.ListTables(*c.list_database));
  } else {
    SLUICE_ASSIGN_OR_RETURN(names, catalog.ListDatabases());
  }
  for (const std::string& name : names) std::printf("%s\n", name.c_str());
  return Status::OK();
}

}  // namespace

std::shared_ptr<TableCommands> AddTableCommands(CLI::App* app) {
  auto c = std::make_shared<TableCommands>();
  TableCommands* p = c.get();

  p->create_database = app->add_subcommand("create-database", "Create a database");
  p->create_database->add_option("DB", p->database, "Database name")->required();
  AddWarehouse(p->create_database, p);
  p->create_database->add_flag("--if-not-exists", p->if_not_exists, "No error if it exists");

  p->drop_database = app->add_subcommand("drop-database", "Drop a database");
  p->drop_database->add_option("DB", p->database, "Database name")->required();
  AddWarehouse(p->drop_database, p);
  p->drop_database->add_flag("--if-exists", p->if_exists, "No error if it does not exist");
  p->drop_database->add_flag("--cascade", p->cascade, "Drop its tables too");

  p->create_table = app->add_subcommand("create-table", "Create a table (schema 0)");
  p->create_table->add_option("TABLE", p->table, "DB.TABLE")->required();
  AddWarehouse(p->create_table, p);
  p->create_table
      ->add_option("--column", p->columns, "Column: 'name TYPE [NOT NULL] [COMMENT ...]'")
      ->allow_extra_args(false);
  p->create_table->add_option("--primary-key", p->primary_key, "Primary key columns: a,b");
  p->create_table->add_option("--partition", p->partition, "Partition columns: a,b");
  p->create_table->add_option("--option", p->options, "Table option KEY=VALUE")
      ->allow_extra_args(false);
  p->create_table->add_option("--comment", p->comment, "Table comment");
  p->create_table->add_flag("--if-not-exists", p->if_not_exists, "No error if it exists");

  p->alter_table = app->add_subcommand(
      "alter-table", "Change a table's schema; the changes apply in the order given");
  p->alter_table->add_option("TABLE", p->table, "DB.TABLE")->required();
  AddWarehouse(p->alter_table, p);
  auto repeated = [&](const char* name, std::vector<std::string>* out, const char* help) {
    p->alter_table->add_option(name, *out, help)->allow_extra_args(false);
  };
  repeated("--add-column", &p->add_column, "Add 'name TYPE [COMMENT ...]' (nullable)");
  repeated("--rename-column", &p->rename_column, "Rename OLD=NEW");
  repeated("--drop-column", &p->drop_column, "Drop a column");
  repeated("--alter-column", &p->alter_column, "Change a column's type: 'name TYPE'");
  repeated("--move-column", &p->move_column, "Move a column (with --first or --after)");
  repeated("--after", &p->after, "Place the column added or moved just before after COLUMN");
  p->alter_table->add_flag("--first", p->first, "Place the column added or moved first");
  repeated("--set-option", &p->set_option, "Set option KEY=VALUE");
  repeated("--reset-option", &p->reset_option, "Remove option KEY");
  p->alter_table->add_option("--comment", p->alter_comment, "Set the table comment");

  p->drop_table = app->add_subcommand("drop-table", "Drop a table and its files");
  p->drop_table->add_option("TABLE", p->table, "DB.TABLE")->required();
  AddWarehouse(p->drop_table, p);
  p->drop_table->add_flag("--if-exists", p->if_exists, "No error if it does not exist");

  p->rename_table = app->add_subcommand("rename-table", "Rename (move) a table");
  p->rename_table->add_option("FROM", p->table, "DB.TABLE")->required();
  p->rename_table->add_option("TO", p->rename_to, "DB.TABLE")->required();
  AddWarehouse(p->rename_table, p);

  p->list = app->add_subcommand("list", "List the databases, or the tables of DB");
  p->list->add_option("DB", p->list_database, "Database");
  AddWarehouse(p->list, p);

  p->check = app->add_subcommand(
      "check", "Check that a table's files match its metadata (sizes, rows, keys, statistics)");
  p->check->add_option("TABLE", p->check_flags.table, "DB.TABLE or a table folder")->required();
  p->check->add_option("--warehouse", p->check_flags.warehouse,
                       "Warehouse folder (default: $SLUICE_WAREHOUSE)");
  p->check->add_option("--branch", p->check_flags.branch, "Branch (default: main)");
  p->check->add_flag("--latest", p->check_flags.latest_only, "Only the latest snapshot");
  p->check->add_flag("--no-read", p->check_flags.no_read,
                     "Only existence and sizes, without re-reading data files");
  p->check
      ->add_option("--path-remap", p->check_flags.path_remap,
                   "Recorded path PREFIX=DIR for external files")
      ->allow_extra_args(false);
  return c;
}

std::optional<int> RunTableCommands(const TableCommands& c) {
  auto run = [](std::string_view verb, const Status& st) { return st.ok() ? 0 : Fail(verb, st); };
  if (c.create_database->parsed()) {
    Result<Catalog> catalog = OpenCatalog(c);
    if (!catalog.ok()) return Fail("create-database", catalog.status());
    Status st = catalog->CreateDatabase(c.database, c.if_not_exists);
    if (st.ok()) std::printf("created database %s\n", c.database.c_str());
    return run("create-database", st);
  }
  if (c.drop_database->parsed()) {
    Result<Catalog> catalog = OpenCatalog(c);
    if (!catalog.ok()) return Fail("drop-database", catalog.status());
    Status st = catalog->DropDatabase(c.database, c.if_exists, c.cascade);
    if (st.ok()) std::printf("dropped database %s\n", c.database.c_str());
    return run("drop-database", st);
  }
  if (c.create_table->parsed()) return run("create-table", RunCreateTable(c));
  if (c.alter_table->parsed()) return run("alter-table", RunAlterTable(c));
  if (c.drop_table->parsed()) {
    Result<Catalog> catalog = OpenCatalog(c);
    if (!catalog.ok()) return Fail("drop-table", catalog.status());
    Status st = catalog->DropTable(c.table, c.if_exists);
    if (st.ok()) std::printf("dropped table %s\n", c.table.c_str());
    return run("drop-table", st);
  }
  if (c.rename_table->parsed()) {
    Result<Catalog> catalog = OpenCatalog(c);
    if (!catalog.ok()) return Fail("rename-table", catalog.status());
    Status st = catalog->RenameTable(c.table, c.rename_to);
    if (st.ok()) std::printf("renamed table %s to %s\n", c.table.c_str(), c.rename_to.c_str());
    return run("rename-table", st);
  }
  if (c.list->parsed()) return run("list", RunList(c));
  if (c.check->parsed()) return RunCheck(c.check_flags);
  return std::nullopt;
}

}  // namespace sluice::cli
