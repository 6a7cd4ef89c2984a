// The messages of PostgreSQL's pgoutput logical decoding plugin (protocol version 1), as a
// START_REPLICATION stream carries them inside XLogData: transactions (Begin ... Commit), the
// Relation message that describes a table before its first change (again after each change of
// its columns: that is how ALTER TABLE reaches the source), and Insert / Update / Delete with
// their tuples. Values arrive in the types' text output form; `u` marks a TOASTed value an
// update left unchanged (not sent).
//
// Also the replication stream's frames around them (XLogData, primary keepalive) and the
// standby status update a client sends back.
//
// A malformed message is Corruption naming its kind and what is wrong; never a read past its
// end.
//
// Thread safety: pure functions; values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sluice/result.h"

namespace sluice {

struct PgBegin {
  uint64_t final_lsn = 0;      // the transaction's commit LSN
  int64_t commit_time_us = 0;  // microseconds since 2000-01-01
  uint32_t xid = 0;
};

struct PgCommit {
  uint64_t commit_lsn = 0;
  uint64_t end_lsn = 0;  // the LSN after the commit record: where a restart resumes
  int64_t commit_time_us = 0;
};

struct PgRelation {
  struct Column {
    bool key = false;  // part of the replica identity
    std::string name;
    uint32_t type_oid = 0;
    int32_t type_modifier = -1;
  };
  uint32_t id = 0;
  std::string schema;
  std::string name;
  char replica_identity = 'd';
  std::vector<Column> columns;
};

// One tuple: per column, its text (nullopt for NULL) or, for a TOASTed value an update did not
// change, `unchanged`.
struct PgTuple {
  std::vector<std::optional<std::string>> values;
  std::vector<bool> unchanged;
};

struct PgChange {
  enum class Kind : uint8_t { kInsert, kUpdate, kDelete } kind = Kind::kInsert;
  uint32_t relation_id = 0;
  // The old tuple of an update / delete: the replica identity's columns ('K') or all ('O',
  // REPLICA IDENTITY FULL); absent for an update that changed no key.
  std::optional<PgTuple> old_tuple;
  std::optional<PgTuple> new_tuple;
};

// Truncate, Type, Origin and logical messages: nothing a table sync applies.
struct PgOther {
  char kind = 0;
};

using PgMessage = std::variant<PgBegin, PgCommit, PgRelation, PgChange, PgOther>;

Result<PgMessage> DecodePgOutput(std::string_view message);

// A frame of the replication stream.
struct PgXLogData {
  uint64_t start_lsn = 0;
  uint64_t end_lsn = 0;
  std::string_view payload;  // a pgoutput message, viewing the frame's bytes
};
struct PgKeepalive {
  uint64_t end_lsn = 0;
  bool reply_requested = false;
};
using PgReplicationFrame = std::variant<PgXLogData, PgKeepalive>;

Result<PgReplicationFrame> DecodeReplicationFrame(std::string_view frame);

// The standby status update: written, flushed (the slot's confirmed position may move there)
// and applied LSNs.
std::string StandbyStatusUpdate(uint64_t written, uint64_t flushed, uint64_t applied,
                                bool reply_requested);

// "16/B374D848" as an LSN, and back. InvalidArgument naming the text when it is not one.
Result<uint64_t> ParseLsn(std::string_view text);
std::string FormatLsn(uint64_t lsn);

}  // namespace sluice
