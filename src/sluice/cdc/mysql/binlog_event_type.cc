#include "sluice/cdc/mysql/binlog_event_type.h"

namespace sluice {

std::string BinlogEventTypeName(uint8_t type) {
  static const char* const kMySqlNames[] = {"UNKNOWN_EVENT",
                                            "START_EVENT_V3",
                                            "QUERY_EVENT",
                                            "STOP_EVENT",
                                            "ROTATE_EVENT",
                                            "INTVAR_EVENT",
                                            "LOAD_EVENT",
                                            "SLAVE_EVENT",
                                            "CREATE_FILE_EVENT",
                                            "APPEND_BLOCK_EVENT",
                                            "EXEC_LOAD_EVENT",
                                            "DELETE_FILE_EVENT",
                                            "NEW_LOAD_EVENT",
                                            "RAND_EVENT",
                                            "USER_VAR_EVENT",
                                            "FORMAT_DESCRIPTION_EVENT",
                                            "XID_EVENT",
                                            "BEGIN_LOAD_QUERY_EVENT",
                                            "EXECUTE_LOAD_QUERY_EVENT",
                                            "TABLE_MAP_EVENT",
                                            "PRE_GA_WRITE_ROWS_EVENT",
                                            "PRE_GA_UPDATE_ROWS_EVENT",
                                            "PRE_GA_DELETE_ROWS_EVENT",
                                            "WRITE_ROWS_EVENT_V1",
                                            "UPDATE_ROWS_EVENT_V1",
                                            "DELETE_ROWS_EVENT_V1",
                                            "INCIDENT_EVENT",
                                            "HEARTBEAT_LOG_EVENT",
                                            "IGNORABLE_LOG_EVENT",
                                            "ROWS_QUERY_LOG_EVENT",
                                            "WRITE_ROWS_EVENT",
                                            "UPDATE_ROWS_EVENT",
                                            "DELETE_ROWS_EVENT",
                                            "GTID_LOG_EVENT",
                                            "ANONYMOUS_GTID_LOG_EVENT",
                                            "PREVIOUS_GTIDS_LOG_EVENT",
                                            "TRANSACTION_CONTEXT_EVENT",
                                            "VIEW_CHANGE_EVENT",
                                            "XA_PREPARE_LOG_EVENT",
                                            "PARTIAL_UPDATE_ROWS_EVENT",
                                            "TRANSACTION_PAYLOAD_EVENT",
                                            "HEARTBEAT_LOG_EVENT_V2"};
  static const char* const kMariaDbNames[] = {"ANNOTATE_ROWS_EVENT",
                                              "BINLOG_CHECKPOINT_EVENT",
                                              "GTID_EVENT",
                                              "GTID_LIST_EVENT",
                                              "START_ENCRYPTION_EVENT",
                                              "QUERY_COMPRESSED_EVENT",
                                              "WRITE_ROWS_COMPRESSED_EVENT_V1",
                                              "UPDATE_ROWS_COMPRESSED_EVENT_V1",
                                              "DELETE_ROWS_COMPRESSED_EVENT_V1",
                                              "WRITE_ROWS_COMPRESSED_EVENT",
                                              "UPDATE_ROWS_COMPRESSED_EVENT",
                                              "DELETE_ROWS_COMPRESSED_EVENT"};
  constexpr size_t kMySqlCount = sizeof(kMySqlNames) / sizeof(kMySqlNames[0]);
  constexpr size_t kMariaDbCount = sizeof(kMariaDbNames) / sizeof(kMariaDbNames[0]);
  if (type < kMySqlCount) return kMySqlNames[type];
  if (type >= 160 && type - 160u < kMariaDbCount) return kMariaDbNames[type - 160];
  return "event type " + std::to_string(type);
}

}  // namespace sluice
