// CdcSource: where the ingestion runtime's messages come from (a Kafka consumer; later a binlog
// or a replication slot). The runtime opens it at the offsets its commits recorded and polls
// it; the source owns the connection and the startup mode for splits with no recorded offset.
//
// Thread safety: used by one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "sluice/cdc/source_message.h"
#include "sluice/cdc/source_offsets.h"
#include "sluice/result.h"

namespace sluice {

// How far a split is behind its end, for progress lines and metrics.
struct SplitLag {
  std::string split;
  int64_t next_offset = -1;  // the next offset the source will hand out
  int64_t end_offset = -1;   // the split's end (Kafka high watermark), -1 when unknown
};

class CdcSource {
 public:
  virtual ~CdcSource() = default;

  // Starts reading: a split named in `resume` at that offset, every other split as the
  // source's startup mode says. Errors name the source (brokers, topics) and what failed.
  virtual Status Open(const SourceOffsets& resume) = 0;

  // Replaces the messages of `out` with up to `max_messages` new ones, in offset order within
  // each split, waiting at most `timeout` for the first; none when nothing arrived in time. A
  // source may write the new messages over the old ones, reusing their strings' storage (the
  // runtime polls into one vector for the whole job).
  virtual Status Poll(std::chrono::milliseconds timeout, size_t max_messages,
                      std::vector<SourceMessage>* out) = 0;

  // Everything before `offsets` is committed to the tables: the source may let go of it
  // (Kafka: the consumer group's offsets, as Flink's source commits them on a checkpoint; a
  // replication slot: its confirmed position). A failure is reported, never fatal: the
  // job's own positions are in its commits.
  virtual Status Acknowledge(const SourceOffsets& offsets) { return Status::OK(); }

  // The lag of every split read so far.
  virtual std::vector<SplitLag> Lag() = 0;

  // Where the source reads from, for logs ("kafka 127.0.0.1:9092 topics shop").
  virtual std::string Describe() const = 0;
};

}  // namespace sluice
