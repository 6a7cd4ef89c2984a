#include "sluice/cdc/mysql/binlog_event.h"

#include <zlib.h>

#include <array>
#include <utility>

#include "sluice/base/coding.h"
#include "sluice/cdc/mysql/binlog_cursor.h"

namespace sluice {

namespace {

using E = BinlogEventType;

// FORMAT_DESCRIPTION_EVENT: binlog version (2), server version (50), create time (4), common
// header length (1), then the post-header lengths; servers with checksums add the algorithm
// (1) and the event's own checksum (4), whatever the algorithm.
constexpr size_t kServerVersionSize = 50;
constexpr size_t kFormatDescriptionFixedSize = 2 + kServerVersionSize + 4 + 1;
constexpr uint8_t kChecksumOff = 0;
constexpr uint8_t kChecksumCrc32 = 1;
constexpr uint8_t kChecksumUndefined = 255;

// Post-header lengths of binlog v4, for events before a format description.
constexpr size_t kQueryPostHeader = 13;
constexpr size_t kRotatePostHeader = 8;
constexpr size_t kTableMapPostHeader = 8;
constexpr size_t kRowsV1PostHeader = 8;
constexpr size_t kRowsV2PostHeader = 10;
// A post-header of 6 bytes for TABLE_MAP / ROWS means 4-byte table ids (MySQL 5.1.4 and older).
constexpr size_t kShortTableIdPostHeader = 6;

std::string Context(const BinlogEventHeader& header) {
  return BinlogEventTypeName(header.type) + " at log_pos " + std::to_string(header.log_pos);
}

Status Corrupt(const BinlogEventHeader& header, const std::string& what) {
  return Status::Corruption("binlog " + Context(header) + ": " + what);
}

uint32_t Crc32(std::string_view bytes) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

// The CRC32 in the last 4 bytes of `event` against the bytes before it.
Status VerifyCrc32(const BinlogEventHeader& header, std::string_view event) {
  if (event.size() < kBinlogEventHeaderSize + kBinlogChecksumSize) {
    return Corrupt(header, "the event has no room for its CRC32");
  }
  const std::string_view covered = event.substr(0, event.size() - kBinlogChecksumSize);
  const uint32_t stored =
      DecodeFixed32LE(reinterpret_cast<const uint8_t*>(event.data() + covered.size()));
  const uint32_t computed = Crc32(covered);
  if (stored != computed) {
    return Corrupt(header, "CRC32 mismatch (stored " + std::to_string(stored) + ", computed " +
                               std::to_string(computed) + ")");
  }
  return Status::OK();
}

// Whether a server of `version` ("10.11.6-MariaDB-log", "8.0.36") writes the checksum
// algorithm into its format description: MySQL 5.6.1 and MariaDB 5.3 on.
bool WritesChecksumAlgorithm(std::string_view version) {
  std::array<int, 3> parts = {0, 0, 0};
  size_t i = 0;
  for (int& part : parts) {
    while (i < version.size() && version[i] >= '0' && version[i] <= '9') {
      part = std::min(part * 10 + (version[i] - '0'), 100000);
      ++i;
    }
    if (i < version.size() && version[i] == '.') ++i;
  }
  const bool mariadb = version.find("MariaDB") != std::string_view::npos;
  return parts >= (mariadb ? std::array<int, 3>{5, 3, 0} : std::array<int, 3>{5, 6, 1});
}

}  // namespace

Result<BinlogEvent> BinlogDecoder::Decode(std::string_view event) {
  if (event.size() < kBinlogEventHeaderSize) {
    return Status::Corruption("binlog event of " + std::to_string(event.size()) +
                              " bytes is shorter than the 19-byte event header");
  }
  BinlogEvent out;
  BinlogEventHeader& header = out.header;
  BinlogCursor in(event);
  if (!in.ReadLE(&header.timestamp) || !in.ReadU8(&header.type) || !in.ReadLE(&header.server_id) ||
      !in.ReadLE(&header.event_length) || !in.ReadLE(&header.log_pos) ||
      !in.ReadLE(&header.flags)) {
    return Status::Internal("binlog event header unread");  // the size was checked above
  }
  if (header.event_length != event.size()) {
    return Corrupt(header, "the header says " + std::to_string(header.event_length) +
                               " bytes, the event has " + std::to_string(event.size()));
  }
  if (header.type == static_cast<uint8_t>(E::kFormatDescription)) {
    SLUICE_RETURN_NOT_OK(DecodeFormatDescription(header, event, &out));
    return out;
  }
  std::string_view body = event.substr(kBinlogEventHeaderSize);
  if (crc32_) {
    SLUICE_RETURN_NOT_OK(VerifyCrc32(header, event));
    body.remove_suffix(kBinlogChecksumSize);
  }
  SLUICE_RETURN_NOT_OK(DecodeBody(header, body, &out));
  return out;
}

std::shared_ptr<const BinlogTableMap> BinlogDecoder::table_map(uint64_t table_id) const {
  const auto it = tables_.find(table_id);
  return it == tables_.end() ? nullptr : it->second;
}

size_t BinlogDecoder::PostHeaderLength(uint8_t type, size_t fallback) const {
  if (type == 0 || type > post_header_lengths_.size()) return fallback;
  return static_cast<uint8_t>(post_header_lengths_[type - 1]);
}

Status BinlogDecoder::DecodeFormatDescription(const BinlogEventHeader& header,
                                              std::string_view event, BinlogEvent* out) {
  BinlogCursor in(event.substr(kBinlogEventHeaderSize));
  BinlogFormatDescription fde;
  std::string_view version;
  uint8_t header_length;
  if (!in.ReadLE(&fde.binlog_version) || !in.ReadBytes(kServerVersionSize, &version) ||
      !in.Skip(4) || !in.ReadU8(&header_length)) {
    return Corrupt(header, "the event is shorter than its " +
                               std::to_string(kFormatDescriptionFixedSize) + " fixed bytes");
  }
  fde.server_version = std::string(version.substr(0, version.find('\0')));
  if (fde.binlog_version != 4 || header_length != kBinlogEventHeaderSize) {
    return Status::NotSupported("binlog " + Context(header) + ": binlog version " +
                                std::to_string(fde.binlog_version) + " with " +
                                std::to_string(header_length) +
                                "-byte event headers (Sluice reads version 4: MySQL 5.0+)");
  }
  std::string_view lengths = in.rest();
  if (WritesChecksumAlgorithm(fde.server_version)) {
    if (lengths.size() < 1 + kBinlogChecksumSize) {
      return Corrupt(header, "the checksum algorithm is missing");
    }
    fde.checksum_alg = static_cast<uint8_t>(lengths[lengths.size() - 1 - kBinlogChecksumSize]);
    lengths.remove_suffix(1 + kBinlogChecksumSize);
    if (fde.checksum_alg == kChecksumCrc32) SLUICE_RETURN_NOT_OK(VerifyCrc32(header, event));
  }
  if (fde.checksum_alg == kChecksumUndefined) fde.checksum_alg = kChecksumOff;
  if (fde.checksum_alg != kChecksumOff && fde.checksum_alg != kChecksumCrc32) {
    return Status::NotSupported("binlog " + Context(header) + ": checksum algorithm " +
                                std::to_string(fde.checksum_alg) + " (Sluice reads NONE, CRC32)");
  }
  crc32_ = fde.checksum_alg == kChecksumCrc32;
  flavor_ = fde.server_version.find("MariaDB") != std::string::npos ? BinlogFlavor::kMariaDb
                                                                    : BinlogFlavor::kMySql;
  post_header_lengths_ = std::string(lengths);
  tables_.clear();  // a new binlog file or server: table ids start over
  out->body = std::move(fde);
  return Status::OK();
}

Status BinlogDecoder::DecodeBody(const BinlogEventHeader& header, std::string_view body,
                                 BinlogEvent* out) {
  BinlogCursor in(body);
  switch (static_cast<E>(header.type)) {
    case E::kQuery: {
      const size_t post_header = PostHeaderLength(header.type, kQueryPostHeader);
      BinlogQuery query;
      uint8_t db_length;
      uint16_t status_length;
      std::string_view db;
      if (post_header < kQueryPostHeader || !in.ReadLE(&query.thread_id) || !in.Skip(4) ||
          !in.ReadU8(&db_length) || !in.ReadLE(&query.error_code) || !in.ReadLE(&status_length) ||
          !in.Skip(post_header - kQueryPostHeader) || !in.Skip(status_length) ||
          !in.ReadBytes(db_length, &db) || !in.Skip(1)) {
        return Corrupt(header, "the status variables or the database name are truncated");
      }
      query.database = std::string(db);
      query.sql = std::string(in.rest());
      out->body = std::move(query);
      return Status::OK();
    }
    case E::kRotate: {
      BinlogRotate rotate;
      const size_t post_header = PostHeaderLength(header.type, kRotatePostHeader);
      if (post_header < 8 || !in.ReadLE(&rotate.position) || !in.Skip(post_header - 8)) {
        return Corrupt(header, "the position is truncated");
      }
      rotate.next_file = std::string(in.rest());
      out->body = std::move(rotate);
      return Status::OK();
    }
    case E::kXid: {
      BinlogXid xid;
      if (!in.ReadLE(&xid.xid)) return Corrupt(header, "the xid is truncated");
      out->body = xid;
      return Status::OK();
    }
    case E::kGtid: {
      BinlogGtid gtid;
      gtid.server_id = header.server_id;
      if (!in.ReadLE(&gtid.seq_no) || !in.ReadLE(&gtid.domain_id) || !in.ReadU8(&gtid.flags)) {
        return Corrupt(header, "the GTID is truncated");
      }
      if ((gtid.flags & BinlogGtid::kGroupCommit) != 0) {
        uint64_t commit_id;
        if (!in.ReadLE(&commit_id)) return Corrupt(header, "the commit id is truncated");
        gtid.commit_id = commit_id;
      }
      out->body = gtid;
      return Status::OK();
    }
    case E::kGtidList: {
      uint32_t count;
      if (!in.ReadLE(&count)) return Corrupt(header, "the GTID count is truncated");
      count &= 0x0FFFFFFF;  // the top 4 bits are flags
      constexpr size_t kGtidSize = 16;
      if (count > in.remaining() / kGtidSize) {
        return Corrupt(header, std::to_string(count) + " GTIDs do not fit the " +
                                   std::to_string(in.remaining()) + " bytes left");
      }
      BinlogGtidList list;
      list.gtids.resize(count);
      for (BinlogGtidList::Gtid& gtid : list.gtids) {
        if (!in.ReadLE(&gtid.domain_id) || !in.ReadLE(&gtid.server_id) ||
            !in.ReadLE(&gtid.seq_no)) {
          return Corrupt(header, "the GTID list is truncated");
        }
      }
      out->body = std::move(list);
      return Status::OK();
    }
    case E::kHeartbeat:
      out->body = BinlogHeartbeat{std::string(body)};
      return Status::OK();
    case E::kTableMap: {
      const size_t post_header = PostHeaderLength(header.type, kTableMapPostHeader);
      SLUICE_ASSIGN_OR_RETURN(
          BinlogTableMap table,
          ParseBinlogTableMap(body, post_header == kShortTableIdPostHeader ? 4 : 6, flavor_,
                              Context(header)));
      auto shared = std::make_shared<const BinlogTableMap>(std::move(table));
      tables_[shared->table_id] = shared;
      out->body = std::move(shared);
      return Status::OK();
    }
    case E::kWriteRowsV1:
    case E::kUpdateRowsV1:
    case E::kDeleteRowsV1:
    case E::kWriteRows:
    case E::kUpdateRows:
    case E::kDeleteRows:
      return DecodeRows(header, body, out);
    case E::kQueryCompressed:
    case E::kWriteRowsCompressedV1:
    case E::kUpdateRowsCompressedV1:
    case E::kDeleteRowsCompressedV1:
    case E::kWriteRowsCompressed:
    case E::kUpdateRowsCompressed:
    case E::kDeleteRowsCompressed:
      return Status::NotSupported("binlog " + Context(header) +
                                  ": compressed events are not supported; set the server's "
                                  "log_bin_compress=OFF");
    case E::kTransactionPayload:
      return Status::NotSupported("binlog " + Context(header) +
                                  ": compressed transactions are not supported; set the "
                                  "server's binlog_transaction_compression=OFF");
    case E::kPartialUpdateRows:
      return Status::NotSupported("binlog " + Context(header) +
                                  ": partial JSON updates are not supported; set the server's "
                                  "binlog_row_value_options=''");
    default:
      out->body = BinlogOtherEvent{};
      return Status::OK();
  }
}

Status BinlogDecoder::DecodeRows(const BinlogEventHeader& header, std::string_view body,
                                 BinlogEvent* out) {
  const E type = static_cast<E>(header.type);
  const bool v2 = type == E::kWriteRows || type == E::kUpdateRows || type == E::kDeleteRows;
  BinlogRowsEvent rows;
  rows.kind = type == E::kWriteRows || type == E::kWriteRowsV1     ? BinlogRowsKind::kWrite
              : type == E::kUpdateRows || type == E::kUpdateRowsV1 ? BinlogRowsKind::kUpdate
                                                                   : BinlogRowsKind::kDelete;
  rows.event_type = header.type;
  rows.log_pos = header.log_pos;
  const size_t post_header =
      PostHeaderLength(header.type, v2 ? kRowsV2PostHeader : kRowsV1PostHeader);
  BinlogCursor in(body);
  if (!in.ReadLE(post_header == kShortTableIdPostHeader ? 4 : 6, &rows.table_id) ||
      !in.ReadLE(&rows.flags)) {
    return Corrupt(header, "the table id is truncated");
  }
  if (v2) {  // extra row info: its length counts its own 2 bytes
    uint16_t extra_length;
    if (!in.ReadLE(&extra_length) || extra_length < 2 || !in.Skip(extra_length - 2)) {
      return Corrupt(header, "the extra row info is truncated");
    }
  }
  uint64_t column_count;
  if (!in.ReadPacked(&column_count) || column_count > in.remaining() * 8) {
    return Corrupt(header, "the column count is truncated or past the end");
  }
  auto read_bitmap = [&](std::vector<bool>* present) {
    std::string_view bits;
    if (!in.ReadBytes((column_count + 7) / 8, &bits)) return false;
    present->resize(column_count);
    for (size_t i = 0; i < column_count; ++i) {
      (*present)[i] = (static_cast<uint8_t>(bits[i / 8]) >> (i % 8) & 1) != 0;
    }
    return true;
  };
  const bool bitmaps_ok =
      rows.kind == BinlogRowsKind::kWrite ? read_bitmap(&rows.after_columns)
      : rows.kind == BinlogRowsKind::kDelete
          ? read_bitmap(&rows.before_columns)
          : read_bitmap(&rows.before_columns) && read_bitmap(&rows.after_columns);
  if (!bitmaps_ok) return Corrupt(header, "the columns-present bitmap is truncated");
  rows.rows = std::string(in.rest());
  rows.table = table_map(rows.table_id);
  if (rows.table == nullptr && !rows.rows.empty()) {
    return Corrupt(header, "rows of table id " + std::to_string(rows.table_id) +
                               ", which no TABLE_MAP event introduced");
  }
  if (rows.table != nullptr && rows.table->columns.size() != column_count) {
    return Corrupt(header, "rows of " + std::to_string(column_count) + " columns for `" +
                               rows.table->database + "`.`" + rows.table->table +
                               "`, whose TABLE_MAP has " +
                               std::to_string(rows.table->columns.size()));
  }
  if (rows.statement_end()) tables_.clear();
  out->body = std::move(rows);
  return Status::OK();
}

}  // namespace sluice
