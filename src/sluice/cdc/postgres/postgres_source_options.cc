#include "sluice/cdc/postgres/postgres_source_options.h"

#include "sluice/cdc/action_arguments.h"
#include "sluice/cdc/source_conf.h"
#include "sluice/meta/option_value.h"
#include "sluice/secret_mask.h"

namespace sluice {

Result<PostgresSourceOptions> PostgresSourceOptions::Parse(
    const std::vector<std::pair<std::string, std::string>>& conf, bool sync_table) {
  PostgresSourceOptions options;
  options.connect.host.clear();
  bool has_table_name = false;
  for (const auto& [key, value] : conf) {
    SLUICE_ASSIGN_OR_RETURN(bool tuning,
                            ReadSourceTuning("--postgres_conf", key, value, &options.tuning));
    if (tuning) continue;
    if (key == "hostname") {
      options.connect.host = value;
    } else if (key == "port") {
      SLUICE_ASSIGN_OR_RETURN(int64_t port,
                              ParseConfInteger("--postgres_conf", key, value, 1, 65535));
      options.connect.port = static_cast<int32_t>(port);
    } else if (key == "username") {
      options.connect.user = value;
    } else if (key == "password") {
      options.connect.password = value;
    } else if (key == "database-name") {
      options.connect.database = value;
    } else if (key == "schema-name") {
      options.schema_pattern = value;
    } else if (key == "table-name") {
      if (!sync_table) {
        return Status::InvalidArgument(
            "--postgres_conf table-name cannot be set for postgres_sync_database (use "
            "--including_tables)");
      }
      options.table_pattern = value;
      has_table_name = true;
    } else if (key == "slot.name") {
      options.slot_name = value;
    } else if (key == "decoding.plugin.name") {
      if (value != "pgoutput") {
        return Status::NotSupported("--postgres_conf decoding.plugin.name=" + value +
                                    ": the native source reads pgoutput only");
      }
    } else if (key == "debezium.publication.name") {
      options.publication_name = value;
    } else if (key == "scan.startup.mode") {
      if (value == "initial") {
        options.snapshot = true;
      } else if (value == "latest-offset") {
        options.snapshot = false;
      } else {
        return Status::InvalidArgument("--postgres_conf scan.startup.mode=" + value +
                                       ": expected initial or latest-offset");
      }
    } else if (IsFlinkCdcTuningKey(key)) {
      options.warnings.push_back("--postgres_conf " + key + "=" + MaskedOptionValue(key, value) +
                                 " has no effect on the native replication source; ignored");
    } else {
      return Status::InvalidArgument("--postgres_conf " + key + "=" +
                                     MaskedOptionValue(key, value) +
                                     ": unknown Postgres source option");
    }
  }
  options.connect.connect_timeout = options.tuning.connect_timeout;
  for (const auto& [field, key] : {std::pair{&options.connect.host, "hostname"},
                                   {&options.connect.user, "username"},
                                   {&options.connect.database, "database-name"},
                                   {&options.schema_pattern, "schema-name"},
                                   {&options.slot_name, "slot.name"}}) {
    if (field->empty())
      return Status::InvalidArgument(std::string("--postgres_conf ") + key + " is required");
  }
  if (sync_table && !has_table_name) {
    return Status::InvalidArgument(
        "--postgres_conf table-name is required for postgres_sync_table");
  }
  SLUICE_RETURN_NOT_OK(CheckConfRegex("--postgres_conf", "schema-name", options.schema_pattern));
  SLUICE_RETURN_NOT_OK(CheckConfRegex("--postgres_conf", "table-name", options.table_pattern));
  return options;
}

}  // namespace sluice
