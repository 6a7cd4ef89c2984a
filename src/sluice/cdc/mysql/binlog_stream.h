// BinlogStream: the binlog of a MySQL / MariaDB server from a position on, as a replica reads it
// (COM_BINLOG_DUMP through MariaDB Connector/C's replication API), one raw event at a time.
//
// A thread of its own reads the connection into a bounded queue, so that the network and the
// server's sending overlap with decoding and writing; Next takes from the queue. Events are
// the bytes the server sends (header, body, checksum when the server logs one), decoded by
// binlog_event.h. The dump asks the server for its checksums as logged, MariaDB's GTID events
// (slave capability 4) and heartbeats at `heartbeat` when idle.
//
// Thread safety: Next and the destructor from one thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sluice/cdc/mysql/mysql_connection.h"
#include "sluice/result.h"

namespace sluice {

class BinlogStream {
 public:
  // Starts the dump of `file` at `position`. IOError naming the server, file and position
  // when the server refuses (a purged file: "Could not find first log file name").
  static Result<std::unique_ptr<BinlogStream>> Open(const MySqlConnectOptions& options,
                                                    uint32_t server_id, const std::string& file,
                                                    uint32_t position,
                                                    std::chrono::milliseconds heartbeat);
  ~BinlogStream();

  // The next event, waiting at most `timeout`; nullopt when none arrived in time. The error
  // the connection failed with, once the queue before it is drained.
  Result<std::optional<std::string>> Next(std::chrono::milliseconds timeout);

 private:
  BinlogStream(std::unique_ptr<MySqlConnection> connection, std::string where)
      : connection_(std::move(connection)), where_(std::move(where)) {}
  void ReadLoop();

  std::unique_ptr<MySqlConnection> connection_;
  std::string where_;  // "mysql host:port binlog file:position", for errors
  std::thread reader_;

  std::mutex mu_;
  std::condition_variable readable_;  // an event or the end arrived
  std::condition_variable writable_;  // the queue has room
  std::deque<std::string> queue_;
  size_t queued_bytes_ = 0;
  bool stopping_ = false;
  std::optional<Status> end_;  // set when the reader stopped
};

}  // namespace sluice
