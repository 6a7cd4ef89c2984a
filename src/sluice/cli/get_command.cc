#include "sluice/cli/get_command.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/cli/command_error.h"
#include "sluice/cli/row_printer.h"
#include "sluice/cli/table_argument.h"
#include "sluice/table.h"
#include "sluice/table_lookup.h"
#include "sluice/value_parser.h"

namespace sluice::cli {

struct GetFlags {
  std::string table;
  std::string warehouse;
  std::optional<int64_t> snapshot;
  std::vector<std::string> keys;
  std::optional<std::string> keys_file;
  std::string format = "table";
};

namespace {

int Fail(const Status& status) { return PrintCommandError("get", status); }

// Splits "a=1,b=x" on every comma (a key value cannot hold one in this syntax).
std::vector<std::string> SplitFields(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    parts.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

// The key `text` (`field=value,...`) as values in primary-key order; `where` names its origin.
Result<ValueList> ParseKey(const std::string& text, const DataType& key_type,
                           const std::string& where) {
  const std::vector<DataField>& fields = key_type.fields();
  std::vector<std::optional<Value>> values(fields.size());
  for (const std::string& part : SplitFields(text)) {
    const size_t eq = part.find('=');
    if (eq == std::string::npos) {
      return Status::InvalidArgument(where + ": '" + part + "' is not field=value");
    }
    const std::string name = part.substr(0, eq);
    size_t index = 0;
    while (index < fields.size() && fields[index].name != name) ++index;
    if (index == fields.size()) {
      return Status::InvalidArgument(where + ": '" + name + "' is not a primary key field");
    }
    if (values[index]) {
      return Status::InvalidArgument(where + ": primary key field '" + name + "' given twice");
    }
    Result<Value> value = ParseValueText(part.substr(eq + 1), *fields[index].type);
    if (!value.ok()) {
      return Status::InvalidArgument(where + ": field '" + name + "': " + value.status().message());
    }
    values[index] = std::move(value).value();
  }
  ValueList key;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!values[i]) {
      return Status::InvalidArgument(where + ": primary key field '" + fields[i].name +
                                     "' is missing");
    }
    key.push_back(std::move(*values[i]));
  }
  return key;
}

Status Run(const GetFlags& flags) {
  if (flags.keys.empty() && !flags.keys_file) {
    return Status::InvalidArgument("give the keys with --key or --keys");
  }
  Result<Table> opened = OpenTableFolder(flags.table);
  if (!flags.warehouse.empty()) {
    SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(flags.warehouse));
    opened = catalog.GetTable(flags.table);
  }
  SLUICE_ASSIGN_OR_RETURN(Table table, std::move(opened));
  SLUICE_ASSIGN_OR_RETURN(TableLookup lookup, TableLookup::Make(table, flags.snapshot));
  std::vector<ValueList> keys;
  for (const std::string& text : flags.keys) {
    SLUICE_ASSIGN_OR_RETURN(ValueList key, ParseKey(text, *lookup.key_type(), "--key " + text));
    keys.push_back(std::move(key));
  }
  if (flags.keys_file) {
    std::ifstream in(*flags.keys_file);
    if (!in) return Status::IOError("cannot open --keys file " + *flags.keys_file);
    std::string line;
    for (int64_t number = 1; std::getline(in, line); ++number) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      SLUICE_ASSIGN_OR_RETURN(
          ValueList key,
          ParseKey(line, *lookup.key_type(), *flags.keys_file + " line " + std::to_string(number)));
      keys.push_back(std::move(key));
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RowPrinter> printer,
                          RowPrinter::Make(flags.format, *lookup.row_type(), stdout));
  ColumnBatch batch(lookup.row_type());
  SLUICE_RETURN_NOT_OK(lookup.Lookup(keys, &batch));
  if (batch.num_rows() > 0) printer->Print(batch);
  printer->Finish();
  return Status::OK();
}

}  // namespace

std::shared_ptr<GetFlags> AddGetCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<GetFlags>();
  CLI::App* get = app->add_subcommand(
      "get", "Print the latest row of primary keys (nothing for an absent key)");
  get->add_option("TABLE", flags->table, "Table folder, or DB.TABLE with --warehouse")->required();
  get->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  get->add_option("--snapshot", flags->snapshot, "Snapshot id (default: the latest)");
  get->add_option("--key", flags->keys, "A primary key k=v[,k2=v2] (repeatable)");
  get->add_option("--keys", flags->keys_file, "A file of keys, one k=v[,k2=v2] per line");
  get->add_option("--format", flags->format, "table (default), jsonl or csv");
  *command = get;
  return flags;
}

int RunGet(const GetFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return Fail(status);
  return 0;
}

}  // namespace sluice::cli
