#include "sluice/cdc/kafka_sync_action.h"

#include "sluice/cdc/action_arguments.h"
#include "sluice/cdc/kafka/kafka_source.h"
#include "sluice/cdc/sync_action_options.h"

namespace sluice {

namespace {

constexpr std::string_view kSyncTable = "kafka_sync_table";
constexpr std::string_view kSyncDatabase = "kafka_sync_database";

}  // namespace

bool IsKafkaSyncAction(std::string_view action) {
  return action == kSyncTable || action == kSyncDatabase;
}

Result<std::unique_ptr<SyncJob>> NewKafkaSyncJob(std::string_view action,
                                                 const std::vector<std::string>& args,
                                                 SyncJob::Log log) {
  if (!IsKafkaSyncAction(action)) {
    return Status::InvalidArgument("'" + std::string(action) + "' is not a Kafka sync action");
  }
  SLUICE_ASSIGN_OR_RETURN(ActionArguments arguments, ActionArguments::Parse(args));
  if (!arguments.Has("kafka_conf")) {
    return Status::InvalidArgument("argument --kafka_conf is required");
  }
  SLUICE_ASSIGN_OR_RETURN(auto kafka_conf, arguments.ConfigMap("kafka_conf"));
  SyncActionShape shape;
  shape.sync_table = action == kSyncTable;
  shape.own_keys = {"kafka_conf"};
  if (!shape.sync_table) shape.own_keys.push_back("eager_init");
  // Java's five, and the record's table and database (beyond Java: its Kafka actions have none).
  shape.metadata_columns = {"topic",          "partition",  "offset",       "timestamp",
                            "timestamp_type", "table_name", "database_name"};
  shape.source_identity = ConfValue(kafka_conf, "topic");
  if (shape.source_identity.empty()) shape.source_identity = ConfValue(kafka_conf, "topic-pattern");
  SLUICE_ASSIGN_OR_RETURN(SyncJobOptions options, ReadSyncJobOptions(action, arguments, shape));
  std::string format = ConfValue(kafka_conf, "value.format");
  if (format.empty()) {
    return Status::InvalidArgument(
        "--kafka_conf value.format is required (canal-json, "
        "debezium-json, maxwell-json, ogg-json, aws-dms-json, json)");
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RecordParser> parser,
                          NewRecordParser(format, options.type_mapping));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<KafkaSource> source, KafkaSource::Make(kafka_conf));
  if (log) {
    for (const std::string& warning : source->warnings()) log(warning);
  }
  return SyncJob::Open(std::move(options), std::move(source), std::move(parser), std::move(log));
}

}  // namespace sluice
