// The binlog event type codes of MySQL and MariaDB (MariaDB Connector/C's mariadb_rpl.h,
// enum mariadb_rpl_event), with the names the servers give them, for messages.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

namespace sluice {

enum class BinlogEventType : uint8_t {
  kUnknown = 0,
  kQuery = 2,
  kStop = 3,
  kRotate = 4,
  kIntvar = 5,
  kRand = 13,
  kUserVar = 14,
  kFormatDescription = 15,
  kXid = 16,
  kTableMap = 19,
  kWriteRowsV1 = 23,
  kUpdateRowsV1 = 24,
  kDeleteRowsV1 = 25,
  kIncident = 26,
  kHeartbeat = 27,
  kRowsQuery = 29,
  kWriteRows = 30,
  kUpdateRows = 31,
  kDeleteRows = 32,
  kMySqlGtid = 33,
  kMySqlAnonymousGtid = 34,
  kMySqlPreviousGtids = 35,
  kPartialUpdateRows = 39,
  kTransactionPayload = 40,
  kHeartbeatV2 = 41,
  kAnnotateRows = 160,
  kBinlogCheckpoint = 161,
  kGtid = 162,
  kGtidList = 163,
  kStartEncryption = 164,
  kQueryCompressed = 165,
  kWriteRowsCompressedV1 = 166,
  kUpdateRowsCompressedV1 = 167,
  kDeleteRowsCompressedV1 = 168,
  kWriteRowsCompressed = 169,
  kUpdateRowsCompressed = 170,
  kDeleteRowsCompressed = 171,
};

// "TABLE_MAP_EVENT", "GTID_EVENT", ...; "event type 200" for a code neither server defines.
std::string BinlogEventTypeName(uint8_t type);

}  // namespace sluice
