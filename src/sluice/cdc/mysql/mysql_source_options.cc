#include "sluice/cdc/mysql/mysql_source_options.h"

#include "sluice/base/java_string_hash.h"
#include "sluice/cdc/action_arguments.h"
#include "sluice/cdc/source_conf.h"
#include "sluice/meta/option_value.h"
#include "sluice/secret_mask.h"

namespace sluice {

Result<MySqlSourceOptions> MySqlSourceOptions::Parse(
    const std::vector<std::pair<std::string, std::string>>& conf, bool sync_table,
    const std::string& job_identity) {
  MySqlSourceOptions options;
  options.connect.host.clear();
  bool has_table_name = false;
  std::optional<uint32_t> server_id;
  for (const auto& [key, value] : conf) {
    SLUICE_ASSIGN_OR_RETURN(bool tuning,
                            ReadSourceTuning("--mysql_conf", key, value, &options.tuning));
    if (tuning) continue;
    if (key == "hostname") {
      options.connect.host = value;
    } else if (key == "port") {
      SLUICE_ASSIGN_OR_RETURN(int64_t port, ParseConfInteger("--mysql_conf", key, value, 1, 65535));
      options.connect.port = static_cast<int32_t>(port);
    } else if (key == "username") {
      options.connect.user = value;
    } else if (key == "password") {
      options.connect.password = value;
    } else if (key == "database-name") {
      options.database_pattern = value;
    } else if (key == "table-name") {
      if (!sync_table) {
        return Status::InvalidArgument(
            "--mysql_conf table-name cannot be set for mysql_sync_database. If you want to sync "
            "several MySQL tables into one Paimon table, use mysql_sync_table instead.");
      }
      options.table_pattern = value;
      has_table_name = true;
    } else if (key == "server-id") {
      // "5400" or a range "5400-5408": this process is one reader, the range's first.
      std::string first = value.substr(0, value.find('-'));
      SLUICE_ASSIGN_OR_RETURN(int64_t id,
                              ParseConfInteger("--mysql_conf", key, first, 1, 4294967295LL));
      server_id = static_cast<uint32_t>(id);
    } else if (key == "server-time-zone") {
      options.server_time_zone = value;
    } else if (key == "scan.startup.mode") {
      if (value == "initial") {
        options.startup_mode = MySqlStartupMode::kInitial;
      } else if (value == "latest-offset") {
        options.startup_mode = MySqlStartupMode::kLatest;
      } else if (value == "earliest-offset") {
        options.startup_mode = MySqlStartupMode::kEarliest;
      } else if (value == "specific-offset") {
        options.startup_mode = MySqlStartupMode::kSpecificOffset;
      } else if (value == "snapshot") {
        options.startup_mode = MySqlStartupMode::kSnapshot;
      } else if (value == "timestamp") {
        return Status::NotSupported(
            "--mysql_conf scan.startup.mode=timestamp is not supported by the native binlog "
            "source (use specific-offset with a binlog file and position)");
      } else {
        return Status::InvalidArgument(
            "--mysql_conf scan.startup.mode=" + value +
            ": expected initial, latest-offset, earliest-offset, specific-offset or snapshot");
      }
    } else if (key == "scan.startup.specific-offset.file") {
      options.specific_offset_file = value;
    } else if (key == "scan.startup.specific-offset.pos") {
      SLUICE_ASSIGN_OR_RETURN(options.specific_offset_pos,
                              ParseConfInteger("--mysql_conf", key, value, 4, 4294967295LL));
    } else if (key == "scan.startup.specific-offset.gtid-set") {
      return Status::NotSupported(
          "--mysql_conf scan.startup.specific-offset.gtid-set: start from a binlog file and "
          "position (scan.startup.specific-offset.file / .pos)");
    } else if (IsFlinkCdcTuningKey(key)) {
      options.warnings.push_back("--mysql_conf " + key + "=" + MaskedOptionValue(key, value) +
                                 " has no effect on the native binlog source; ignored");
    } else {
      return Status::InvalidArgument("--mysql_conf " + key + "=" + MaskedOptionValue(key, value) +
                                     ": unknown MySQL source option");
    }
  }
  options.connect.connect_timeout = options.tuning.connect_timeout;
  if (options.connect.host.empty()) {
    return Status::InvalidArgument("--mysql_conf hostname is required");
  }
  if (options.connect.user.empty()) {
    return Status::InvalidArgument("--mysql_conf username is required");
  }
  if (options.database_pattern.empty()) {
    return Status::InvalidArgument("--mysql_conf database-name is required");
  }
  if (sync_table && !has_table_name) {
    return Status::InvalidArgument("--mysql_conf table-name is required for mysql_sync_table");
  }
  if (options.startup_mode == MySqlStartupMode::kSpecificOffset &&
      options.specific_offset_file.empty()) {
    return Status::InvalidArgument(
        "--mysql_conf scan.startup.mode=specific-offset needs "
        "scan.startup.specific-offset.file (and .pos)");
  }
  SLUICE_RETURN_NOT_OK(CheckConfRegex("--mysql_conf", "database-name", options.database_pattern));
  SLUICE_RETURN_NOT_OK(CheckConfRegex("--mysql_conf", "table-name", options.table_pattern));
  // A replica id of its own per job: two jobs dumping one server with one id would
  // disconnect each other.
  options.server_id =
      server_id.value_or(5400 + static_cast<uint32_t>(JavaStringHash(job_identity)) % 100000);
  return options;
}

}  // namespace sluice
