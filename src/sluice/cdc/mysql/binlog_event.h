// Binlog events of MySQL 5.6+ / MariaDB 10+ (binlog format v4), decoded from their raw bytes:
// what a replication client (MariaDB Connector/C's mariadb_rpl_fetch) hands over per event, and
// what a binlog file holds back to back (binlog_reader.h). No network, no server: pure bytes in,
// events out.
//
// Every event starts with a 19-byte common header (BinlogEventHeader). The decoder keeps what
// later events need from earlier ones: the FORMAT_DESCRIPTION_EVENT (checksum algorithm,
// post-header lengths, and from the server version whether MariaDB or MySQL wrote the table
// maps' optional metadata) and the TABLE_MAP events by table id, which the ROWS events name. A
// ROWS event comes out with its table map and its row bytes; DecodeBinlogRows (binlog_rows.h)
// turns those into text values.
//
// Events whose content a CDC source cannot skip without losing changes and that Sluice does
// not decode (MariaDB's compressed query and rows events, MySQL's compressed transaction
// payloads and partial JSON updates) are NotSupported, never passed over as Other.
//
// Thread safety: a BinlogDecoder is not thread-safe (it keeps state between events); the
// values it returns are independent of it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "sluice/cdc/mysql/binlog_event_type.h"
#include "sluice/cdc/mysql/binlog_rows.h"
#include "sluice/cdc/mysql/binlog_table_map.h"
#include "sluice/result.h"

namespace sluice {

inline constexpr size_t kBinlogEventHeaderSize = 19;
inline constexpr size_t kBinlogChecksumSize = 4;

struct BinlogEventHeader {
  uint32_t timestamp = 0;  // seconds since the epoch, when the statement started
  uint8_t type = 0;        // BinlogEventType, or a code Sluice does not name
  uint32_t server_id = 0;
  uint32_t event_length = 0;  // the whole event: header, body and checksum
  // End position of the event in its binlog file (the next event's start); 0 for artificial
  // events a server makes up for a dump (the first ROTATE, a FORMAT_DESCRIPTION resent).
  uint32_t log_pos = 0;
  uint16_t flags = 0;  // 0x20 LOG_EVENT_ARTIFICIAL_F, ...
};

// The first event of every binlog file and of a dump.
struct BinlogFormatDescription {
  uint16_t binlog_version = 0;  // 4
  std::string server_version;   // "10.11.6-MariaDB-log"
  // 0 none, 1 CRC32: whether the events that follow end in a CRC32 of themselves.
  uint8_t checksum_alg = 0;
};

// The binlog goes on in another file (at the end of a file; first in a dump, artificial).
struct BinlogRotate {
  std::string next_file;
  uint64_t position = 0;
};

// A statement: BEGIN, COMMIT of non-transactional tables, DDL.
struct BinlogQuery {
  uint32_t thread_id = 0;
  uint16_t error_code = 0;
  std::string database;  // the default database of the session, maybe ""
  std::string sql;
};

// The commit of a transaction.
struct BinlogXid {
  uint64_t xid = 0;
};

// MariaDB's GTID event, which starts each event group: GTID domain_id-server_id-seq_no.
struct BinlogGtid {
  static constexpr uint8_t kStandalone = 1;   // no BEGIN / COMMIT: a DDL or the like
  static constexpr uint8_t kGroupCommit = 2;  // commit_id follows
  static constexpr uint8_t kTransactional = 4;
  static constexpr uint8_t kDdl = 32;

  uint32_t domain_id = 0;
  uint32_t server_id = 0;  // the header's
  uint64_t seq_no = 0;
  uint8_t flags = 0;
  std::optional<uint64_t> commit_id;

  bool standalone() const { return (flags & kStandalone) != 0; }
};

// MariaDB's GTID_LIST event at the start of each binlog file: the last GTID of each domain
// (server) before it.
struct BinlogGtidList {
  struct Gtid {
    uint32_t domain_id = 0;
    uint32_t server_id = 0;
    uint64_t seq_no = 0;
  };
  std::vector<Gtid> gtids;
};

// A master's keep-alive in a dump when it has nothing to send: the file it is at (the
// header's log_pos is the position).
struct BinlogHeartbeat {
  std::string log_file;
};

// Any other event: the header says which.
struct BinlogOtherEvent {};

struct BinlogEvent {
  BinlogEventHeader header;
  std::variant<BinlogOtherEvent, BinlogFormatDescription, BinlogRotate, BinlogQuery, BinlogXid,
               BinlogGtid, BinlogGtidList, BinlogHeartbeat, std::shared_ptr<const BinlogTableMap>,
               BinlogRowsEvent>
      body;
};

class BinlogDecoder {
 public:
  // Whether the events before the first FORMAT_DESCRIPTION_EVENT end in a CRC32 (false by
  // default). A dump starts with an artificial ROTATE that carries one when the client asked
  // for checksums (@master_binlog_checksum); from the FORMAT_DESCRIPTION_EVENT on, its
  // checksum algorithm decides.
  void set_checksum_before_format_description(bool crc32) { crc32_ = crc32; }

  // Decodes one whole event (`event` is exactly its event_length bytes). Corruption naming
  // the event type, its log_pos and the fault for a malformed event, a CRC32 mismatch and ROWS
  // of a table id that no TABLE_MAP event introduced; NotSupported for the events above.
  Result<BinlogEvent> Decode(std::string_view event);

  // The table map of `table_id` from the last TABLE_MAP event of the current statement, or
  // null. A statement's end (a ROWS event with STMT_END_F) forgets them, as servers write a
  // statement's table maps again before its rows.
  std::shared_ptr<const BinlogTableMap> table_map(uint64_t table_id) const;

 private:
  // The post-header length of `type` from the format description, or `fallback` (binlog v4's)
  // before one or for a type it does not cover.
  size_t PostHeaderLength(uint8_t type, size_t fallback) const;
  Status DecodeFormatDescription(const BinlogEventHeader& header, std::string_view event,
                                 BinlogEvent* out);
  Status DecodeBody(const BinlogEventHeader& header, std::string_view body, BinlogEvent* out);
  Status DecodeRows(const BinlogEventHeader& header, std::string_view body, BinlogEvent* out);

  bool crc32_ = false;
  BinlogFlavor flavor_ = BinlogFlavor::kMariaDb;
  std::string post_header_lengths_;
  std::unordered_map<uint64_t, std::shared_ptr<const BinlogTableMap>> tables_;
};

}  // namespace sluice
