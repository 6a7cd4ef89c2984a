#include "sluice/cdc/sync_action_options.h"

#include <algorithm>

#include "sluice/base/string_util.h"
#include "sluice/meta/option_value.h"

namespace sluice {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    size_t a = item.find_first_not_of(' ');
    size_t b = item.find_last_not_of(' ');
    if (a != std::string::npos) out.push_back(item.substr(a, b - a + 1));
    start = comma + 1;
  }
  return out;
}

std::string ConfValue(const std::vector<std::pair<std::string, std::string>>& conf,
                      std::string_view key) {
  for (auto it = conf.rbegin(); it != conf.rend(); ++it) {
    if (it->first == key) return it->second;
  }
  return {};
}

namespace {

// A repeated `k=v` argument as Java's optionalConfigMap reads it: blanks around the key and the
// value dropped, a later value of a key replacing an earlier one.
Result<std::map<std::string, std::string>> ReadKeyValues(const ActionArguments& args,
                                                         std::string_view key) {
  SLUICE_ASSIGN_OR_RETURN(auto pairs, args.ConfigMap(key));
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : pairs) out[std::string(JavaTrim(k))] = std::string(JavaTrim(v));
  return out;
}

Result<TableNameRules> ReadTableNameRules(const ActionArguments& args) {
  TableNameRules rules;
  SLUICE_ASSIGN_OR_RETURN(auto prefix, args.Get("table_prefix"));
  SLUICE_ASSIGN_OR_RETURN(auto suffix, args.Get("table_suffix"));
  rules.table_prefix = prefix.value_or("");
  rules.table_suffix = suffix.value_or("");
  SLUICE_ASSIGN_OR_RETURN(rules.database_prefixes, ReadKeyValues(args, "table_prefix_db"));
  SLUICE_ASSIGN_OR_RETURN(rules.database_suffixes, ReadKeyValues(args, "table_suffix_db"));
  SLUICE_ASSIGN_OR_RETURN(rules.table_mapping, ReadKeyValues(args, "table_mapping"));
  SLUICE_ASSIGN_OR_RETURN(auto including_tables, args.Get("including_tables"));
  if (including_tables) rules.including_tables = *including_tables;
  SLUICE_ASSIGN_OR_RETURN(rules.excluding_tables, args.Get("excluding_tables"));
  SLUICE_ASSIGN_OR_RETURN(auto including_dbs, args.Get("including_dbs"));
  if (including_dbs) rules.including_dbs = *including_dbs;
  SLUICE_ASSIGN_OR_RETURN(rules.excluding_dbs, args.Get("excluding_dbs"));
  return rules;
}

}  // namespace

Result<SyncJobOptions> ReadSyncJobOptions(std::string_view action, const ActionArguments& args,
                                          const SyncActionShape& shape) {
  const bool sync_table = shape.sync_table;
  std::vector<std::string_view> known = {
      "warehouse",         "database",
      "partition_keys",    "primary_keys",
      "type_mapping",      "computed_column",
      "metadata_column",   "metadata_column_prefix",
      "catalog_conf",      "table_conf",
      "commit_interval",   "max_buffered_bytes",
      "dead_letter_table", "commit_user",
      "stop_at_end",       "sync_primary_keys_from_source_schema"};
  if (sync_table) {
    known.push_back("table");
  } else {
    for (std::string_view key :
         {"table_prefix", "table_suffix", "table_prefix_db", "table_suffix_db", "table_mapping",
          "including_tables", "excluding_tables", "including_dbs", "excluding_dbs",
          "multiple_table_partition_keys"}) {
      known.push_back(key);
    }
  }
  known.insert(known.end(), shape.own_keys.begin(), shape.own_keys.end());
  SLUICE_RETURN_NOT_OK(CheckActionKeys(action, args, known));

  SyncJobOptions options;
  SLUICE_ASSIGN_OR_RETURN(options.catalog_options, ReadActionCatalogOptions(args));
  options.warehouse = options.catalog_options["warehouse"];
  SLUICE_ASSIGN_OR_RETURN(options.database, args.Required("database"));
  if (sync_table) {
    SLUICE_ASSIGN_OR_RETURN(options.table, args.Required("table"));
  } else {
    SLUICE_ASSIGN_OR_RETURN(options.table_names, ReadTableNameRules(args));
    SLUICE_ASSIGN_OR_RETURN(auto by_table, ReadKeyValues(args, "multiple_table_partition_keys"));
    for (const auto& [table, keys] : by_table) {
      options.partition_keys_by_table[table] = SplitList(keys);
    }
  }
  SLUICE_ASSIGN_OR_RETURN(auto partition_keys, args.Get("partition_keys"));
  if (partition_keys) options.partition_keys = SplitList(*partition_keys);
  SLUICE_ASSIGN_OR_RETURN(auto primary_keys, args.Get("primary_keys"));
  if (primary_keys) options.primary_keys = SplitList(*primary_keys);
  SLUICE_ASSIGN_OR_RETURN(auto sync_keys,
                          ReadJavaBoolean(args, "sync_primary_keys_from_source_schema"));
  options.sync_primary_keys_from_source = sync_keys.value_or(true);
  SLUICE_ASSIGN_OR_RETURN(auto type_mapping, args.Get("type_mapping"));
  if (type_mapping) {
    SLUICE_ASSIGN_OR_RETURN(options.type_mapping, TypeMapping::Parse(*type_mapping));
  }
  options.computed_columns = args.GetMulti("computed_column");
  std::vector<std::string> metadata = args.GetMulti("metadata_column");
  // As Java: one value is a comma-separated list, several values are one column each.
  options.metadata_columns = metadata.size() == 1 ? SplitList(metadata[0]) : metadata;
  for (const std::string& name : options.metadata_columns) {
    if (std::find(shape.metadata_columns.begin(), shape.metadata_columns.end(), name) ==
        shape.metadata_columns.end()) {
      std::string names;
      for (std::string_view known : shape.metadata_columns) {
        names += (names.empty() ? "" : ", ") + std::string(known);
      }
      return Status::InvalidArgument("Unsupported metadata column '" + name + "' of " +
                                     std::string(action) + " (supported: " + names + ")");
    }
  }
  SLUICE_ASSIGN_OR_RETURN(auto metadata_prefix, args.Get("metadata_column_prefix"));
  if (metadata_prefix) options.metadata_column_prefix = *metadata_prefix;
  SLUICE_ASSIGN_OR_RETURN(options.table_conf, args.ConfigMap("table_conf"));
  SLUICE_ASSIGN_OR_RETURN(auto interval, args.Get("commit_interval"));
  if (interval) {
    SLUICE_ASSIGN_OR_RETURN(options.commit_interval,
                            ParseDurationOption("--commit_interval", *interval));
  }
  SLUICE_ASSIGN_OR_RETURN(auto buffered, args.Get("max_buffered_bytes"));
  if (buffered) {
    SLUICE_ASSIGN_OR_RETURN(options.max_buffered_bytes,
                            ParseMemorySizeOption("--max_buffered_bytes", *buffered));
  }
  SLUICE_ASSIGN_OR_RETURN(auto dead_letter, args.Get("dead_letter_table"));
  options.dead_letter_table = dead_letter.value_or("");
  SLUICE_ASSIGN_OR_RETURN(auto stop_at_end, args.Get("stop_at_end"));
  if (stop_at_end) {
    if (*stop_at_end != "true" && *stop_at_end != "false") {
      return Status::InvalidArgument("--stop_at_end must be true or false, got '" + *stop_at_end +
                                     "'");
    }
    options.stop_at_end = *stop_at_end == "true";
  }
  SLUICE_ASSIGN_OR_RETURN(auto commit_user, args.Get("commit_user"));
  if (commit_user) {
    options.commit_user = *commit_user;
  } else {
    options.commit_user = "sluice-" + std::string(action) + "-" + options.database +
                          (sync_table ? "." + options.table : "") + "-" + shape.source_identity;
  }
  return options;
}

}  // namespace sluice
