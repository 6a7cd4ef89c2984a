// compact and compact_database (Java CompactActionFactory / CompactDatabaseActionFactory) on
// the dedicated compactor (maintenance/dedicated_compactor.h).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>

#include "sluice/api/metrics_access.h"
#include "sluice/api/table_actions.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/maintenance/dedicated_compactor.h"
#include "sluice/meta/option_value.h"

namespace sluice {

namespace {

const char kStrategyUsage[] =
    "--compact_strategy determines how to pick files to be merged, the default is determined by "
    "the runtime execution mode. `full`: only supported in batch mode, all files will be selected "
    "for merging. `minor`: pick the set of files that need to be merged based on specified "
    "conditions.\n";
const char kSluiceUsage[] =
    "Sluice: --runtime-mode batch|streaming (a `sluice action` option before the action's name) "
    "stands for Flink's execution.runtime-mode (default streaming). --compaction_threads <n> "
    "(beyond Java; default 2) bounds the tables compacted at once; tables are served "
    "round-robin. --table_conf continuous.discovery-interval=<duration> (default 10 s) paces "
    "the reading of new snapshots and, in combined mode, of new tables.\n";

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Java ActionFactory.getPartitions: each --partition is `k=v,k2=v2`.
Result<std::vector<PartitionSpec>> Partitions(const ActionArguments& args) {
  std::vector<PartitionSpec> out;
  for (const std::string& text : args.GetMulti("partition")) {
    PartitionSpec spec;
    size_t start = 0;
    while (start <= text.size()) {
      const size_t comma = std::min(text.find(',', start), text.size());
      const std::string kv = text.substr(start, comma - start);
      start = comma + 1;
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::InvalidArgument("--partition '" + text +
                                       "' is not key1=value1,key2=value2,...");
      }
      spec.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    out.push_back(std::move(spec));
  }
  return out;
}

// What both actions share: --compact_strategy, --partition_idle_time, --table_conf,
// --compaction_threads and the catalog.
Status ReadShared(const ActionArguments& args, bool streaming, DedicatedCompactorOptions* out) {
  SLUICE_ASSIGN_OR_RETURN(auto catalog_options, ReadActionCatalogOptions(args));
  out->warehouse = catalog_options["warehouse"];
  SLUICE_ASSIGN_OR_RETURN(out->catalog, CreateCatalog(catalog_options));
  out->streaming = streaming;
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> strategy, args.Get("compact_strategy"));
  out->full = !streaming;  // Java: the default is the runtime mode's
  if (strategy) {
    const std::string s = Lower(*strategy);
    if (s != "full" && s != "minor") {
      return Status::InvalidArgument("--compact_strategy only supports 'full' or 'minor', but '" +
                                     *strategy + "' is configured");
    }
    out->full = s == "full";
  }
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> idle, args.Get("partition_idle_time"));
  if (idle) {
    SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds ms,
                            ParseDurationOption("--partition_idle_time", *idle));
    out->partition_idle_millis = ms.count();
  }
  SLUICE_ASSIGN_OR_RETURN(auto conf, args.ConfigMap("table_conf"));
  for (auto& [key, value] : conf) out->table_conf[key] = value;
  auto interval = out->table_conf.find("continuous.discovery-interval");
  if (interval != out->table_conf.end()) {
    SLUICE_ASSIGN_OR_RETURN(
        std::chrono::milliseconds ms,
        ParseDurationOption("--table_conf continuous.discovery-interval", interval->second));
    out->discovery_interval_millis = ms.count();
  }
  SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> threads, args.Get("compaction_threads"));
  if (threads) {
    int value = 0;
    auto [ptr, error] = std::from_chars(threads->data(), threads->data() + threads->size(), value);
    if (error != std::errc() || ptr != threads->data() + threads->size() || value < 1) {
      return Status::InvalidArgument("--compaction_threads must be a positive integer, got '" +
                                     *threads + "'");
    }
    out->threads = value;
  }
  return Status::OK();
}

ActionInfo Both(std::string name, std::string usage) {
  ActionInfo info;
  info.name = std::move(name);
  info.continuous = true;
  info.once = true;
  info.default_mode = ActionMode::kStreaming;
  info.usage = std::move(usage);
  return info;
}

}  // namespace

ActionInfo CompactActionInfo() {
  return Both(
      "compact",
      std::string("Action \"compact\" runs a dedicated job for compacting specified table.\n\n"
                  "Syntax:\n  compact --warehouse <warehouse_path> [--catalog_conf <key>=<value> "
                  "...] --database <database_name> \\\n  --table <table_name> [--partition "
                  "<key1=value1,key2=value2,...> ...] [--where <partition_predicate>] \\\n  "
                  "[--table_conf <key>=<value> ...] [--partition_idle_time <duration>] "
                  "[--compact_strategy <full|minor>] \\\n  [--compaction_threads <n>]\n") +
          "--partition_idle_time (batch mode only) compacts only partitions that have not "
          "received new data for that long.\n" +
          kStrategyUsage + kSluiceUsage);
}

ActionInfo CompactDatabaseActionInfo() {
  return Both(
      "compact_database",
      std::string("Action \"compact_database\" runs a dedicated job for compacting one or "
                  "multiple database.\n\nSyntax:\n  compact_database --warehouse "
                  "<warehouse_path> [--catalog_conf <key>=<value> ...] \\\n  "
                  "[--including_databases <database-name|name-regular-expr>] \\\n  "
                  "[--including_tables <paimon_table_name|name_regular_expr>] \\\n  "
                  "[--excluding_tables <paimon_table_name|name_regular_expr>] [--mode "
                  "<divided|combined>] \\\n  [--partition_idle_time <duration>] "
                  "[--compact_strategy <full|minor>] [--table_conf <key>=<value> ...] \\\n  "
                  "[--compaction_threads <n>]\n") +
          "--including_tables / --excluding_tables match `databaseName.tableName` (regular "
          "expressions, '|' separates several); --excluding_tables wins.\n"
          "--mode divided (default) compacts the tables found at the start; combined also picks "
          "up new matching tables as they appear.\n"
          "--partition_idle_time (batch mode only) compacts only partitions that have not "
          "received new data for that long.\n" +
          kStrategyUsage + kSluiceUsage);
}

Result<DedicatedCompactorOptions> CompactActionOptions(std::string_view name,
                                                       const ActionArguments& args,
                                                       bool streaming) {
  DedicatedCompactorOptions options;
  const bool database = name == "compact_database";
  std::vector<std::string_view> keys = {"warehouse",        "catalog_conf",
                                        "compact_strategy", "partition_idle_time",
                                        "table_conf",       "compaction_threads"};
  if (database) {
    for (std::string_view k :
         {"including_databases", "including_tables", "excluding_tables", "mode"}) {
      keys.push_back(k);
    }
  } else {
    for (std::string_view k :
         {"database", "table", "partition", "where", "order_strategy", "order_by"}) {
      keys.push_back(k);
    }
  }
  SLUICE_RETURN_NOT_OK(CheckActionKeys(name, args, keys));
  SLUICE_RETURN_NOT_OK(ReadShared(args, streaming, &options));
  if (database) {
    SLUICE_ASSIGN_OR_RETURN(auto databases, args.Get("including_databases"));
    SLUICE_ASSIGN_OR_RETURN(auto including, args.Get("including_tables"));
    SLUICE_ASSIGN_OR_RETURN(options.excluding_tables, args.Get("excluding_tables"));
    if (databases) options.database_pattern = *databases;
    if (including) options.including_tables = *including;
    SLUICE_ASSIGN_OR_RETURN(auto mode, args.Get("mode"));
    const std::string m = mode ? Lower(*mode) : "divided";
    if (m != "divided" && m != "combined") {
      return Status::InvalidArgument("--mode must be divided or combined, got '" + *mode + "'");
    }
    options.discover_new_tables = m == "combined";
  } else {
    if (args.Has("order_strategy") || args.Has("order_by")) {
      return Status::NotSupported(
          "--order_strategy / --order_by (sort compaction) are not supported");
    }
    SLUICE_ASSIGN_OR_RETURN(std::string db, args.Required("database"));
    SLUICE_ASSIGN_OR_RETURN(std::string table, args.Required("table"));
    options.table = db + "." + table;
    SLUICE_ASSIGN_OR_RETURN(options.partitions, Partitions(args));
    SLUICE_ASSIGN_OR_RETURN(auto where, args.Get("where"));
    options.where = where.value_or("");
  }
  SLUICE_RETURN_NOT_OK(DedicatedCompactor::Validate(options));
  return options;
}

Status RunCompactAction(std::string_view name, const ActionArguments& args, bool streaming,
                        const std::atomic<bool>& stop, const ActionHooks& hooks) {
  SLUICE_ASSIGN_OR_RETURN(DedicatedCompactorOptions options,
                          CompactActionOptions(name, args, streaming));
  options.log = hooks.log;
  options.metrics = MetricsAccess::ImplOf(hooks.metrics);
  if (hooks.progress) {
    options.progress = [&hooks](const DedicatedCompactorProgress& p) {
      ActionProgress out;
      out.commits = p.commits;
      out.tables = p.tables;
      hooks.progress(out);
    };
  }
  return DedicatedCompactor::Run(options, stop);
}

}  // namespace sluice
