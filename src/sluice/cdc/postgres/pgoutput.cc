#include "sluice/cdc/postgres/pgoutput.h"

#include <chrono>
#include <cstdio>

namespace sluice {

namespace {

// Big-endian reads that check the bytes left.
class Reader {
 public:
  Reader(std::string_view data, const char* what) : data_(data), what_(what) {}

  bool U8(uint8_t* out) {
    if (pos_ + 1 > data_.size()) return false;
    *out = static_cast<uint8_t>(data_[pos_++]);
    return true;
  }
  template <typename T>
  bool Int(T* out) {
    if (pos_ + sizeof(T) > data_.size()) return false;
    uint64_t value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      value = (value << 8) | static_cast<uint8_t>(data_[pos_ + i]);
    }
    pos_ += sizeof(T);
    *out = static_cast<T>(value);
    return true;
  }
  // A NUL-terminated string.
  bool CString(std::string* out) {
    size_t end = data_.find('\0', pos_);
    if (end == std::string_view::npos) return false;
    out->assign(data_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return true;
  }
  bool Bytes(size_t n, std::string_view* out) {
    if (n > data_.size() - pos_) return false;
    *out = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  Status Short(std::string_view field) const {
    return Status::Corruption(std::string("pgoutput ") + what_ + " message: " + std::string(field) +
                              " past its end (" + std::to_string(data_.size()) + " bytes)");
  }

 private:
  std::string_view data_;
  const char* what_;
  size_t pos_ = 0;
};

Result<PgTuple> ReadTuple(Reader* in) {
  uint16_t columns = 0;
  if (!in->Int(&columns)) return in->Short("tuple column count");
  PgTuple tuple;
  tuple.values.resize(columns);
  tuple.unchanged.assign(columns, false);
  for (uint16_t i = 0; i < columns; ++i) {
    uint8_t kind = 0;
    if (!in->U8(&kind)) return in->Short("tuple value kind");
    switch (kind) {
      case 'n':
        break;
      case 'u':
        tuple.unchanged[i] = true;
        break;
      case 't': {
        uint32_t length = 0;
        std::string_view bytes;
        if (!in->Int(&length) || !in->Bytes(length, &bytes)) return in->Short("tuple value");
        tuple.values[i].emplace(bytes);
        break;
      }
      default:
        return Status::Corruption("pgoutput tuple: value kind '" +
                                  std::string(1, static_cast<char>(kind)) +
                                  "' (binary values are not asked for)");
    }
  }
  return tuple;
}

}  // namespace

Result<PgMessage> DecodePgOutput(std::string_view message) {
  if (message.empty()) return Status::Corruption("pgoutput: an empty message");
  const char kind = message[0];
  switch (kind) {
    case 'B': {
      Reader r(message.substr(1), "Begin");
      PgBegin begin;
      if (!r.Int(&begin.final_lsn) || !r.Int(&begin.commit_time_us) || !r.Int(&begin.xid)) {
        return r.Short("header");
      }
      return PgMessage(begin);
    }
    case 'C': {
      Reader r(message.substr(1), "Commit");
      uint8_t flags = 0;
      PgCommit commit;
      if (!r.U8(&flags) || !r.Int(&commit.commit_lsn) || !r.Int(&commit.end_lsn) ||
          !r.Int(&commit.commit_time_us)) {
        return r.Short("header");
      }
      return PgMessage(commit);
    }
    case 'R': {
      Reader r(message.substr(1), "Relation");
      PgRelation relation;
      uint8_t identity = 0;
      uint16_t columns = 0;
      if (!r.Int(&relation.id) || !r.CString(&relation.schema) || !r.CString(&relation.name) ||
          !r.U8(&identity) || !r.Int(&columns)) {
        return r.Short("header");
      }
      relation.replica_identity = static_cast<char>(identity);
      for (uint16_t i = 0; i < columns; ++i) {
        PgRelation::Column column;
        uint8_t flags = 0;
        if (!r.U8(&flags) || !r.CString(&column.name) || !r.Int(&column.type_oid) ||
            !r.Int(&column.type_modifier)) {
          return r.Short("column " + std::to_string(i));
        }
        column.key = (flags & 1) != 0;
        relation.columns.push_back(std::move(column));
      }
      return PgMessage(std::move(relation));
    }
    case 'I':
    case 'U':
    case 'D': {
      const char* name = kind == 'I' ? "Insert" : kind == 'U' ? "Update" : "Delete";
      Reader r(message.substr(1), name);
      PgChange change;
      change.kind = kind == 'I'   ? PgChange::Kind::kInsert
                    : kind == 'U' ? PgChange::Kind::kUpdate
                                  : PgChange::Kind::kDelete;
      uint8_t marker = 0;
      if (!r.Int(&change.relation_id) || !r.U8(&marker)) return r.Short("header");
      if (marker == 'K' || marker == 'O') {
        if (kind == 'I') return Status::Corruption("pgoutput Insert message with an old tuple");
        SLUICE_ASSIGN_OR_RETURN(change.old_tuple, ReadTuple(&r));
        if (kind == 'U' && !r.U8(&marker)) return r.Short("new tuple marker");
      }
      if (kind != 'D') {
        if (marker != 'N') {
          return Status::Corruption(std::string("pgoutput ") + name + " message: tuple marker '" +
                                    std::string(1, static_cast<char>(marker)) + "'");
        }
        SLUICE_ASSIGN_OR_RETURN(change.new_tuple, ReadTuple(&r));
      } else if (!change.old_tuple) {
        return Status::Corruption("pgoutput Delete message without an old tuple");
      }
      return PgMessage(std::move(change));
    }
    case 'T':
    case 'Y':
    case 'O':
    case 'M':
      return PgMessage(PgOther{kind});
    default:
      return Status::Corruption("pgoutput: unknown message kind '" + std::string(1, kind) + "'");
  }
}

Result<PgReplicationFrame> DecodeReplicationFrame(std::string_view frame) {
  if (frame.empty()) return Status::Corruption("replication stream: an empty frame");
  if (frame[0] == 'w') {
    Reader r(frame.substr(1), "XLogData");
    PgXLogData data;
    int64_t send_time = 0;
    if (!r.Int(&data.start_lsn) || !r.Int(&data.end_lsn) || !r.Int(&send_time)) {
      return r.Short("header");
    }
    data.payload = frame.substr(25);
    return PgReplicationFrame(data);
  }
  if (frame[0] == 'k') {
    Reader r(frame.substr(1), "keepalive");
    PgKeepalive keepalive;
    int64_t send_time = 0;
    uint8_t reply = 0;
    if (!r.Int(&keepalive.end_lsn) || !r.Int(&send_time) || !r.U8(&reply)) {
      return r.Short("header");
    }
    keepalive.reply_requested = reply != 0;
    return PgReplicationFrame(keepalive);
  }
  return Status::Corruption("replication stream: unknown frame '" + std::string(1, frame[0]) + "'");
}

std::string StandbyStatusUpdate(uint64_t written, uint64_t flushed, uint64_t applied,
                                bool reply_requested) {
  std::string out = "r";
  auto put = [&out](uint64_t value) {
    for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
  };
  put(written);
  put(flushed);
  put(applied);
  // Microseconds since 2000-01-01, PostgreSQL's epoch.
  constexpr int64_t kPostgresEpochMicros = 946684800LL * 1000000;
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count() -
                      kPostgresEpochMicros;
  put(static_cast<uint64_t>(now));
  out.push_back(reply_requested ? 1 : 0);
  return out;
}

Result<uint64_t> ParseLsn(std::string_view text) {
  unsigned int high = 0, low = 0;
  char tail = 0;
  const std::string copy(text);
  if (std::sscanf(copy.c_str(), "%X/%X%c", &high, &low, &tail) != 2) {
    return Status::InvalidArgument("'" + copy + "' is not an LSN");
  }
  return (static_cast<uint64_t>(high) << 32) | low;
}

std::string FormatLsn(uint64_t lsn) {
  char text[32];
  std::snprintf(text, sizeof(text), "%X/%X", static_cast<unsigned>(lsn >> 32),
                static_cast<unsigned>(lsn & 0xFFFFFFFF));
  return text;
}

}  // namespace sluice
