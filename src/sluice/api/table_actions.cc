#include "sluice/api/table_actions.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "sluice/catalog.h"
#include "sluice/meta/option_value.h"
#include "sluice/procedures.h"

namespace sluice {

namespace {

using ProcedureArgs = std::vector<std::pair<std::string, std::string>>;

// One table action: Java's argument names (beyond the catalog's, --database and --table), and
// how they become the arguments of the procedure of the action's name.
struct TableAction {
  ActionInfo info;
  std::vector<std::string_view> keys;
  // `table` is `db.table`; the builder adds the procedure's other arguments.
  std::function<Status(const ActionArguments& args, ProcedureArgs* out)> build;
  // Whether --table may be left out (or `*`): the action then runs on every table of the
  // database (remove_orphan_files).
  bool every_table_without_table = false;
};

// `--key` as Java's Long.parseLong reads it.
Result<std::optional<int64_t>> LongArg(const ActionArguments& args, std::string_view key) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> text, args.Get(key));
  if (!text) return std::optional<int64_t>();
  int64_t value = 0;
  const char* end = text->data() + text->size();
  const char* begin = text->data() + (!text->empty() && (*text)[0] == '+' ? 1 : 0);
  auto [ptr, error] = std::from_chars(begin, end, value);
  if (text->empty() || error != std::errc() || ptr != end) {
    return Status::InvalidArgument("--" + std::string(key) + " must be an integer, got '" + *text +
                                   "'");
  }
  return std::optional<int64_t>(value);
}

Status CopyLong(const ActionArguments& args, std::string_view key, const std::string& to,
                ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> value, LongArg(args, key));
  if (value) out->emplace_back(to, std::to_string(*value));
  return Status::OK();
}

Status CopyRequiredLong(const ActionArguments& args, std::string_view key, const std::string& to,
                        ProcedureArgs* out) {
  SLUICE_RETURN_NOT_OK(args.Required(key).status());
  return CopyLong(args, key, to, out);
}

Status Copy(const ActionArguments& args, std::string_view key, const std::string& to,
            ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> value, args.Get(key));
  if (value) out->emplace_back(to, *value);
  return Status::OK();
}

Status CopyRequired(const ActionArguments& args, std::string_view key, const std::string& to,
                    ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(std::string value, args.Required(key));
  out->emplace_back(to, std::move(value));
  return Status::OK();
}

Status CopyDuration(const ActionArguments& args, std::string_view key, const std::string& to,
                    ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> value, args.Get(key));
  if (!value) return Status::OK();
  SLUICE_RETURN_NOT_OK(ParseDurationOption("--" + std::string(key), *value).status());
  out->emplace_back(to, *value);
  return Status::OK();
}

Status CopyBool(const ActionArguments& args, std::string_view key, const std::string& to,
                ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> value, args.Get(key));
  if (!value) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(bool flag, ParseBooleanOption("--" + std::string(key), *value));
  out->emplace_back(to, flag ? "true" : "false");
  return Status::OK();
}

// create_tag / replace_tag (Java CreateOrReplaceTagActionFactory).
Status TagArgs(const ActionArguments& args, ProcedureArgs* out) {
  SLUICE_RETURN_NOT_OK(CopyRequired(args, "tag_name", "tag", out));
  SLUICE_RETURN_NOT_OK(CopyLong(args, "snapshot", "snapshot_id", out));
  return CopyDuration(args, "time_retained", "time_retained", out);
}

// expire_snapshots / expire_changelogs.
Status ExpireArgs(const ActionArguments& args, ProcedureArgs* out) {
  SLUICE_RETURN_NOT_OK(CopyLong(args, "retain_max", "retain_max", out));
  SLUICE_RETURN_NOT_OK(CopyLong(args, "retain_min", "retain_min", out));
  SLUICE_RETURN_NOT_OK(Copy(args, "older_than", "older_than", out));
  return CopyLong(args, "max_deletes", "max_deletes", out);
}

bool Has(const ProcedureArgs& args, std::string_view name) {
  return std::any_of(args.begin(), args.end(), [&](const auto& a) { return a.first == name; });
}

// expire_snapshots --options 'k=v,k2=v2': Java copies the table with them, and the unset
// arguments take the copy's snapshot options. The snapshot options become the arguments they
// stand for; others change nothing an expiry reads and are refused.
Status ExpireSnapshotsOptionArgs(const ActionArguments& args, ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> options, args.Get("options"));
  if (!options) return Status::OK();
  size_t start = 0;
  while (start <= options->size()) {
    const size_t comma = std::min(options->find(',', start), options->size());
    const std::string item = options->substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("--options item '" + item + "' is not key=value");
    }
    const std::string key = item.substr(0, eq);
    const std::string value = item.substr(eq + 1);
    std::string to;
    if (key == "snapshot.num-retained.max") {
      to = "retain_max";
    } else if (key == "snapshot.num-retained.min") {
      to = "retain_min";
    } else if (key == "snapshot.expire.limit") {
      to = "max_deletes";
    } else if (key == "snapshot.time-retained") {
      SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds retained,
                              ParseDurationOption("--options " + key, value));
      if (!Has(*out, "older_than")) {
        const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
        out->emplace_back("older_than", std::to_string(now - retained.count()));
      }
      continue;
    } else {
      return Status::InvalidArgument(
          "--options " + key +
          " is not an option expire_snapshots reads (snapshot.num-retained.max, "
          "snapshot.num-retained.min, snapshot.time-retained, snapshot.expire.limit)");
    }
    if (!Has(*out, to)) out->emplace_back(to, value);
  }
  return Status::OK();
}

// expire_partitions --table_conf: Java copies the table with them; of what PartitionExpire
// reads, the procedure takes `partition.expiration-max-num` (as max_expires).
Status ExpirePartitionsConfArgs(const ActionArguments& args, ProcedureArgs* out) {
  SLUICE_ASSIGN_OR_RETURN(auto conf, args.ConfigMap("table_conf"));
  for (const auto& [key, value] : conf) {
    if (key == "partition.expiration-max-num") {
      out->emplace_back("max_expires", value);
      continue;
    }
    return Status::InvalidArgument("--table_conf " + key +
                                   " is not supported by expire_partitions (it takes "
                                   "partition.expiration-max-num)");
  }
  return Status::OK();
}

const std::string kCatalogUsage =
    "--warehouse <warehouse_path> [--catalog_conf <key>=<value> ...] \\\n"
    "  --database <database_name> --table <table_name>";

std::string Usage(const std::string& name, const std::string& says, const std::string& rest) {
  return "Action \"" + name + "\" " + says + "\n\nSyntax:\n  " + name + " " + kCatalogUsage +
         (rest.empty() ? "" : " \\\n  " + rest) + "\n";
}

TableAction Once(std::string name, std::string usage, std::vector<std::string_view> keys,
                 std::function<Status(const ActionArguments&, ProcedureArgs*)> build) {
  TableAction action;
  action.info.name = std::move(name);
  action.info.once = true;
  action.info.default_mode = ActionMode::kBatch;
  action.info.usage = std::move(usage);
  action.keys = std::move(keys);
  action.build = std::move(build);
  return action;
}

const std::map<std::string, TableAction, std::less<>>& Registry() {
  static const std::map<std::string, TableAction, std::less<>> registry = [] {
    std::vector<TableAction> actions = {
        Once("create_tag",
             Usage("create_tag", "creates a tag from given snapshot.",
                   "--tag_name <tag_name> [--snapshot <snapshot_id>] "
                   "[--time_retained <time_retained>]"),
             {"tag_name", "snapshot", "time_retained"}, TagArgs),
        Once("replace_tag",
             Usage("replace_tag", "to replace an existing tag with new tag info.",
                   "--tag_name <tag_name> [--snapshot <snapshot_id>] "
                   "[--time_retained <time_retained>]"),
             {"tag_name", "snapshot", "time_retained"}, TagArgs),
        Once("create_tag_from_timestamp",
             Usage("create_tag_from_timestamp", "create tag from timestamp.",
                   "--tag <tag> --timestamp <epoch_millis> [--time_retained <duration>]"),
             {"tag", "timestamp", "time_retained"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(CopyRequired(a, "tag", "tag", out));
               SLUICE_RETURN_NOT_OK(CopyRequiredLong(a, "timestamp", "timestamp", out));
               return CopyDuration(a, "time_retained", "time_retained", out);
             }),
        Once("delete_tag",
             Usage("delete_tag", "deletes a tag by name.", "--tag_name <tag_name>[,<tag_name>...]"),
             {"tag_name"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               return CopyRequired(a, "tag_name", "tag", out);
             }),
        Once("rename_tag",
             Usage("rename_tag", "rename a tag with a new tag name.",
                   "--tag_name <tag_name> --target_tag_name <target_tag_name>"),
             {"tag_name", "target_tag_name"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(CopyRequired(a, "tag_name", "tagName", out));
               return CopyRequired(a, "target_tag_name", "targetTagName", out);
             }),
        Once("expire_tags",
             Usage("expire_tags", "expire tags by time.", "[--older_than <older_than>]"),
             {"older_than"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               return Copy(a, "older_than", "older_than", out);
             }),
        Once("expire_snapshots",
             Usage("expire_snapshots", "expire the target snapshots.",
                   "[--retain_max <max>] [--retain_min <min>] [--older_than <older_than>] "
                   "[--max_deletes <max_deletes>] [--options <key>=<value>,...]"),
             {"retain_max", "retain_min", "older_than", "max_deletes", "options"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(ExpireArgs(a, out));
               return ExpireSnapshotsOptionArgs(a, out);
             }),
        Once("expire_changelogs",
             Usage("expire_changelogs", "expire the target changelogs.",
                   "[--retain_max <max>] [--retain_min <min>] [--older_than <older_than>] "
                   "[--max_deletes <max_deletes>] [--delete_all <true/false>]"),
             {"retain_max", "retain_min", "older_than", "max_deletes", "delete_all"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(ExpireArgs(a, out));
               return CopyBool(a, "delete_all", "delete_all", out);
             }),
        Once("expire_partitions",
             Usage("expire_partitions", "expire table partitions by name.",
                   "--expiration_time <expiration_time> --timestamp_formatter "
                   "<timestamp_formatter> [--timestamp_pattern <timestamp_pattern>] "
                   "[--expire_strategy <values-time|update-time>] "
                   "[--table_conf partition.expiration-max-num=<n>]"),
             {"expiration_time", "timestamp_formatter", "timestamp_pattern", "expire_strategy",
              "table_conf"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(CopyRequired(a, "expiration_time", "expiration_time", out));
               SLUICE_RETURN_NOT_OK(
                   ParseDurationOption("--expiration_time", out->back().second).status());
               SLUICE_RETURN_NOT_OK(
                   CopyRequired(a, "timestamp_formatter", "timestamp_formatter", out));
               SLUICE_RETURN_NOT_OK(Copy(a, "timestamp_pattern", "timestamp_pattern", out));
               SLUICE_RETURN_NOT_OK(Copy(a, "expire_strategy", "expire_strategy", out));
               return ExpirePartitionsConfArgs(a, out);
             }),
        Once("create_branch",
             Usage("create_branch", "create a branch from given tag.",
                   "--branch_name <branch_name> [--tag_name <tag_name>] "
                   "[--ignore_if_exists <true/false>]"),
             {"branch_name", "tag_name", "ignore_if_exists"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(CopyRequired(a, "branch_name", "branch", out));
               SLUICE_RETURN_NOT_OK(Copy(a, "tag_name", "tag", out));
               return CopyBool(a, "ignore_if_exists", "ignoreIfExists", out);
             }),
        Once("delete_branch",
             Usage("delete_branch", "delete a branch by name.",
                   "--branch_name <branch_name>[,<branch_name>...]"),
             {"branch_name"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               return CopyRequired(a, "branch_name", "branch", out);
             }),
        Once("fast_forward",
             Usage("fast_forward", "fast_forward a branch by name.", "--branch_name <branch_name>"),
             {"branch_name"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               return CopyRequired(a, "branch_name", "branch", out);
             }),
        Once("rollback_to",
             Usage("rollback_to", "roll back a table to a specific snapshot ID or tag.",
                   "--version <version_string>\n  <version_string> can be a long value "
                   "representing a snapshot ID or a tag name."),
             {"version"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_ASSIGN_OR_RETURN(std::string version, a.Required("version"));
               // Java RollbackToAction: all digits is a snapshot id, anything else a tag.
               const bool id =
                   !version.empty() && std::all_of(version.begin(), version.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
               out->emplace_back(id ? "snapshot_id" : "tag", version);
               return Status::OK();
             }),
        Once("rollback_to_timestamp",
             Usage("rollback_to_timestamp", "roll back a table to a specific timestamp.",
                   "--timestamp <epoch_millis>"),
             {"timestamp"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               return CopyRequiredLong(a, "timestamp", "timestamp", out);
             }),
        Once("drop_partition",
             Usage("drop_partition", "drops data of specified partitions for a table.",
                   "--partition <key1=value1,key2=value2,...> [--partition ...]"),
             {"partition"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               std::vector<std::string> specs = a.GetMulti("partition");
               if (specs.empty()) return a.Required("partition").status();
               std::string joined;
               for (const std::string& spec : specs) {
                 if (spec.find(';') != std::string::npos || spec.find('=') == std::string::npos) {
                   return Status::InvalidArgument("--partition '" + spec +
                                                  "' is not key1=value1,key2=value2,...");
                 }
                 joined += (joined.empty() ? "" : ";") + spec;
               }
               out->emplace_back("partitions", joined);
               return Status::OK();
             }),
        Once("reset_consumer",
             Usage("reset_consumer",
                   "reset a consumer with a given consumer ID and next snapshot ID and delete a "
                   "consumer with a given consumer ID.",
                   "--consumer_id <consumer_id> [--next_snapshot <next_snapshot_id>]\n"
                   "  Without --next_snapshot the consumer is deleted."),
             {"consumer_id", "next_snapshot"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_RETURN_NOT_OK(CopyRequired(a, "consumer_id", "consumer_id", out));
               return CopyLong(a, "next_snapshot", "next_snapshot_id", out);
             }),
        Once("clear_consumers",
             Usage("clear_consumers",
                   "clear consumers with including consumers and excluding consumers.",
                   "[--including_consumers <consumer_id>[,...]] "
                   "[--excluding_consumers <consumer_id>[,...]]"),
             {"including_consumers", "excluding_consumers"},
             [](const ActionArguments& a, ProcedureArgs* out) {
               SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> including,
                                       a.Get("including_consumers"));
               // Java: '' stands for every consumer.
               if (including && !including->empty()) {
                 out->emplace_back("including_consumers", *including);
               }
               return Copy(a, "excluding_consumers", "excluding_consumers", out);
             }),
    };
    TableAction orphans = Once(
        "remove_orphan_files",
        "Action \"remove_orphan_files\" remove files which are not used by any snapshots or tags "
        "of a Paimon table.\n\nSyntax:\n  remove_orphan_files --warehouse <warehouse_path> "
        "[--catalog_conf <key>=<value> ...] \\\n  --database <database_name> [--table "
        "<table_name>|*] [--older_than <timestamp>] [--dry_run <false/true>] [--parallelism "
        "<n> (ignored)]\n  Without --table (or with *) every table of the database is cleaned. "
        "Only files older than a day are removed unless --older_than says otherwise.\n",
        {"older_than", "dry_run", "parallelism"}, [](const ActionArguments& a, ProcedureArgs* out) {
          SLUICE_RETURN_NOT_OK(Copy(a, "older_than", "older_than", out));
          SLUICE_RETURN_NOT_OK(LongArg(a, "parallelism").status());
          return CopyBool(a, "dry_run", "dry_run", out);
        });
    orphans.every_table_without_table = true;
    actions.push_back(std::move(orphans));
    std::map<std::string, TableAction, std::less<>> out;
    for (TableAction& action : actions) {
      std::string name = action.info.name;
      out.emplace(std::move(name), std::move(action));
    }
    return out;
  }();
  return registry;
}

bool IsCompact(std::string_view name) { return name == "compact" || name == "compact_database"; }

}  // namespace

std::vector<std::string> TableActionNames() {
  std::vector<std::string> names = {"compact", "compact_database"};
  for (const auto& [name, action] : Registry()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

const ActionInfo* FindTableAction(std::string_view name) {
  static const ActionInfo compact = CompactActionInfo();
  static const ActionInfo compact_database = CompactDatabaseActionInfo();
  if (name == "compact") return &compact;
  if (name == "compact_database") return &compact_database;
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : &it->second.info;
}

namespace {

// A table action's arguments read and checked: what its run needs.
struct PreparedTableAction {
  std::map<std::string, std::string> catalog_options;
  std::string database;
  std::optional<std::string> table;
  ProcedureArgs procedure_args;
};

Result<PreparedTableAction> Prepare(std::string_view name, const ActionArguments& args) {
  const TableAction& action = Registry().find(name)->second;
  std::vector<std::string_view> keys = {"warehouse", "catalog_conf", "database", "table"};
  keys.insert(keys.end(), action.keys.begin(), action.keys.end());
  SLUICE_RETURN_NOT_OK(CheckActionKeys(name, args, keys));
  PreparedTableAction prepared;
  SLUICE_ASSIGN_OR_RETURN(prepared.catalog_options, ReadActionCatalogOptions(args));
  SLUICE_ASSIGN_OR_RETURN(prepared.database, args.Required("database"));
  SLUICE_ASSIGN_OR_RETURN(prepared.table, args.Get("table"));
  if (!prepared.table && !action.every_table_without_table) {
    return args.Required("table").status();
  }
  SLUICE_RETURN_NOT_OK(action.build(args, &prepared.procedure_args));
  return prepared;
}

}  // namespace

Status CheckTableActionArguments(std::string_view name, const ActionArguments& args,
                                 bool streaming) {
  if (IsCompact(name)) return CompactActionOptions(name, args, streaming).status();
  return Prepare(name, args).status();
}

Status RunTableAction(std::string_view name, const ActionArguments& args, bool streaming,
                      const std::atomic<bool>& stop, const ActionHooks& hooks) {
  if (IsCompact(name)) return RunCompactAction(name, args, streaming, stop, hooks);
  SLUICE_ASSIGN_OR_RETURN(PreparedTableAction prepared, Prepare(name, args));
  const std::string& database = prepared.database;
  SLUICE_ASSIGN_OR_RETURN(const Catalog catalog, Catalog::Open(prepared.catalog_options));
  std::vector<std::string> tables;
  if (prepared.table && *prepared.table != "*") {
    tables.push_back(*prepared.table);
  } else {
    SLUICE_ASSIGN_OR_RETURN(tables, catalog.ListTables(database));
  }
  for (const std::string& t : tables) {
    ProcedureArgs call = {{"table", database + "." + t}};
    call.insert(call.end(), prepared.procedure_args.begin(), prepared.procedure_args.end());
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> lines,
                            CallProcedure(catalog, name, call, hooks.metrics));
    if (hooks.log) {
      for (const std::string& line : lines) hooks.log(line);
    }
  }
  return Status::OK();
}

}  // namespace sluice
