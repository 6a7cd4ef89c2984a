#include "sluice/cdc/mysql/binlog_stream.h"

// mysql.h declares what mariadb_rpl.h uses.
#include <mysql.h>
// clang-format off
#include <mariadb_rpl.h>
// clang-format on

namespace sluice {

namespace {

// How much the reader may run ahead of the decoder.
constexpr size_t kMaxQueuedBytes = size_t{64} << 20;

}  // namespace

Result<std::unique_ptr<BinlogStream>> BinlogStream::Open(const MySqlConnectOptions& options,
                                                         uint32_t server_id,
                                                         const std::string& file, uint32_t position,
                                                         std::chrono::milliseconds heartbeat) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MySqlConnection> connection,
                          MySqlConnection::Connect(options));
  const std::string where =
      "mysql " + connection->address() + " binlog " + file + ":" + std::to_string(position);
  // Checksums as the server logs them (the decoder checks them), MariaDB's own events (GTIDs,
  // not their translation for old replicas), and heartbeats so that an idle server is told
  // from a lost one. The MySQL names are set too; each server ignores the other's.
  const int64_t heartbeat_ns = std::max<int64_t>(heartbeat.count(), 100) * 1000000;
  SLUICE_RETURN_NOT_OK(connection->Execute(
      "SET @master_binlog_checksum = @@global.binlog_checksum, "
      "@source_binlog_checksum = @@global.binlog_checksum, @mariadb_slave_capability = 4, "
      "@master_heartbeat_period = " +
      std::to_string(heartbeat_ns)));
  MARIADB_RPL* rpl = mariadb_rpl_init(connection->handle());
  if (rpl == nullptr) return connection->LastError("starting the binlog dump");
  mariadb_rpl_optionsv(rpl, MARIADB_RPL_FILENAME, file.c_str(), file.size());
  mariadb_rpl_optionsv(rpl, MARIADB_RPL_START, static_cast<unsigned long>(position));
  mariadb_rpl_optionsv(rpl, MARIADB_RPL_SERVER_ID, server_id);
  mariadb_rpl_optionsv(rpl, MARIADB_RPL_FLAGS, 0u);
  const int opened = mariadb_rpl_open(rpl);
  mariadb_rpl_close(rpl);
  if (opened != 0)
    return connection->LastError("binlog dump of " + file + ":" + std::to_string(position));
  std::unique_ptr<BinlogStream> stream(new BinlogStream(std::move(connection), where));
  stream->reader_ = std::thread([s = stream.get()] { s->ReadLoop(); });
  return stream;
}

BinlogStream::~BinlogStream() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  writable_.notify_all();
  connection_->Interrupt();
  if (reader_.joinable()) reader_.join();
}

void BinlogStream::ReadLoop() {
  MYSQL* mysql = connection_->handle();
  Status end;
  while (true) {
    const unsigned long length = mysql_net_read_packet(mysql);
    if (length == packet_error) {
      end = Status::IOError(where_ + ": the binlog dump ended: " + mysql_error(mysql) + " (error " +
                            std::to_string(mysql_errno(mysql)) + ")");
      break;
    }
    const unsigned char* packet = mysql->net.read_pos;
    if (length < 9 && packet[0] == 0xFE) {
      end = Status::IOError(where_ + ": the server ended the binlog dump");
      break;
    }
    if (length < 1 || packet[0] != 0x00) {
      end = Status::Corruption(where_ + ": a binlog dump packet of " + std::to_string(length) +
                               " bytes does not start with OK");
      break;
    }
    std::string event(reinterpret_cast<const char*>(packet) + 1, length - 1);
    std::unique_lock<std::mutex> lock(mu_);
    writable_.wait(lock, [&] { return stopping_ || queued_bytes_ < kMaxQueuedBytes; });
    if (stopping_) break;
    queued_bytes_ += event.size();
    queue_.push_back(std::move(event));
    lock.unlock();
    readable_.notify_one();
  }
  std::lock_guard<std::mutex> lock(mu_);
  end_ = stopping_ ? Status::Internal(where_ + ": the binlog stream was closed") : end;
  readable_.notify_all();
}

Result<std::optional<std::string>> BinlogStream::Next(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  readable_.wait_for(lock, timeout, [&] { return !queue_.empty() || end_.has_value(); });
  if (queue_.empty()) {
    if (end_) return *end_;
    return std::optional<std::string>();
  }
  std::string event = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= event.size();
  lock.unlock();
  writable_.notify_one();
  return std::optional<std::string>(std::move(event));
}

}  // namespace sluice
