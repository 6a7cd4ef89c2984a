// ColumnWriter: encodes one ORC column (and its subtree) of the rows written, stripe by stripe,
// into the streams of a StripeSink, with row-group positions and statistics. One writer per type
// family (writer/<family>_writer.cc), built by the file writer's schema builder (orc_writer.cc)
// through the New*Writer functions below.
//
// Thread safety: not thread-safe; one writer tree per OrcWriter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sluice/column_vector.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_stream.h"
#include "sluice/format/orc/rle_encoder.h"
#include "sluice/format/orc/writer/stats_accumulator.h"
#include "sluice/result.h"

namespace sluice::orc {
// Streams of one stripe being assembled: index streams first, then data streams.
struct StripeSink {
  OrcCompression compression;
  uint64_t block_size;
  int level;
  bool row_index;
  std::vector<StreamInfo> index_streams;
  std::string index;
  std::vector<StreamInfo> streams;
  std::string data;
  std::vector<ColumnEncoding> encodings;

  // Adds a data stream; *chunk_starts receives its compression chunks' offsets.
  Status Add(uint32_t column, StreamKind kind, std::string_view bytes,
             std::vector<uint64_t>* chunk_starts) {
    size_t before = data.size();
    SLUICE_RETURN_NOT_OK(EncodeStream(bytes, compression, block_size, level, &data, chunk_starts));
    streams.push_back(StreamInfo{kind, column, data.size() - before, static_cast<uint32_t>(kind)});
    return Status::OK();
  }
  Status AddIndex(uint32_t column, std::string_view bytes) {
    size_t before = index.size();
    SLUICE_RETURN_NOT_OK(EncodeStream(bytes, compression, block_size, level, &index));
    index_streams.push_back(StreamInfo{StreamKind::kRowIndex, column, index.size() - before,
                                       static_cast<uint32_t>(StreamKind::kRowIndex)});
    return Status::OK();
  }
};

// Where a stream stands at the start of a row group, in uncompressed bytes, followed by the
// RLE values (and bits) consumed there; translated to compressed positions at stripe flush.
struct StreamPosition {
  StreamKind stream;
  uint64_t offset;
  std::vector<uint64_t> tail;
};

// One stream of a column (PRESENT, DATA, SECONDARY, LENGTH) in the stripe being written: the
// bytes buffered so far, where the stream stands at the start of a row group, and its bytes at
// the stripe's flush. The family writers name their streams; ColumnWriter does the rest.
class ColumnStream {
 public:
  explicit ColumnStream(StreamKind kind) : kind_(kind) {}
  virtual ~ColumnStream() = default;
  ColumnStream(const ColumnStream&) = delete;
  ColumnStream& operator=(const ColumnStream&) = delete;

  StreamKind kind() const { return kind_; }
  // Encoded bytes buffered for the current stripe (before compression).
  virtual int64_t BufferedBytes() const = 0;
  // Appends where the stream stands now, the start of a row group.
  virtual void RecordPosition(std::vector<StreamPosition>* out) = 0;
  // The stripe's bytes, the last run ended; valid until Reset.
  virtual std::string_view Finish() = 0;
  // Empties the stream for the next stripe.
  virtual void Reset() = 0;

 private:
  StreamKind kind_;
};

// Bytes as they are (FLOAT / DOUBLE values, DECIMAL varints): a position is a byte offset.
class RawStream final : public ColumnStream {
 public:
  using ColumnStream::ColumnStream;
  std::string& bytes() { return bytes_; }
  int64_t BufferedBytes() const override { return static_cast<int64_t>(bytes_.size()); }
  void RecordPosition(std::vector<StreamPosition>* out) override {
    out->push_back({kind(), bytes_.size(), {}});
  }
  std::string_view Finish() override { return bytes_; }
  void Reset() override { bytes_.clear(); }

 private:
  std::string bytes_;
};

// A run-length encoded stream (ByteRleEncoder, BooleanRleEncoder or IntRleV2Encoder): a row group
// starts a fresh run, so its position is the byte offset, no values consumed, and (boolean) the
// bits taken from the current byte.
template <typename Encoder>
class RleStream final : public ColumnStream {
 public:
  template <typename... EncoderArgs>
  explicit RleStream(StreamKind kind, EncoderArgs... args)
      : ColumnStream(kind), encoder_(args...) {}
  Encoder& encoder() { return encoder_; }
  int64_t BufferedBytes() const override { return static_cast<int64_t>(encoder_.output()->size()); }
  void RecordPosition(std::vector<StreamPosition>* out) override {
    if constexpr (std::is_same_v<Encoder, BooleanRleEncoder>) {
      uint64_t offset, bits;
      encoder_.Position(&offset, &bits);
      out->push_back({kind(), offset, {0, bits}});
    } else {
      encoder_.Flush();
      out->push_back({kind(), encoder_.output()->size(), {0}});
    }
  }
  std::string_view Finish() override {
    encoder_.Flush();
    return *encoder_.output();
  }
  void Reset() override { encoder_.Reset(); }

 private:
  mutable Encoder encoder_;  // output() is not const
};

class ColumnWriter {
 public:
  ColumnWriter(uint32_t column, OrcType* type) : column_(column), type_(type) {}
  virtual ~ColumnWriter() = default;
  ColumnWriter(const ColumnWriter&) = delete;
  ColumnWriter& operator=(const ColumnWriter&) = delete;

  // Writes rows [begin, end) of `v`.
  void Write(const ColumnVector& v, int64_t begin, int64_t end);

  // Writes n present rows that carry no values of their own (the root struct).
  void WritePresentRows(int64_t n);

  // Marks the start of a row group: records where each stream stands.
  virtual void StartGroup();
  // Ends the current row group; its statistics go to the row index.
  virtual void FinishGroup();

  // REQUIRES: the last group is finished.
  virtual Status FlushStripe(StripeSink* sink);

  // Encoded bytes of the value streams buffered for the current stripe (before compression).
  virtual int64_t BufferedBytes() const;

  // Statistics per stripe, then of the file, in column order (this column, then children).
  virtual void CollectStripeStats(size_t stripe, std::vector<OrcColumnStatistics>* out) const {
    out->push_back(stripe_stats_[stripe]);
  }
  virtual void CollectFileStats(std::vector<OrcColumnStatistics>* out) const {
    out->push_back(ToOrcStats(file_stats_, *type_));
  }
  const StatsAccumulator& file_stats() const { return file_stats_; }
  // Points the writers at their entries of the finished type list.
  virtual void BindTypes(std::vector<OrcType>* types) { type_ = &(*types)[column_]; }

 protected:
  virtual void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) = 0;
  // Writes the stripe's value streams and the column's encoding; by default the streams of
  // SetValueStreams, in order, with its encoding.
  virtual Status FlushValues(StripeSink* sink);
  // Appends the positions of this column's value streams (after PRESENT), in reader order; by
  // default those of the streams of SetValueStreams.
  virtual void RecordPositions(std::vector<StreamPosition>* out);
  bool Valid(const ColumnVector& v, int64_t i) const { return !v.IsNull(i); }

  // The column's value streams (members of the family writer), in reader order, and its
  // encoding: what the default BufferedBytes, RecordPositions and FlushValues walk. A family
  // writer calls it once, from its constructor.
  void SetValueStreams(std::vector<ColumnStream*> streams, EncodingKind encoding) {
    value_streams_ = std::move(streams);
    encoding_ = encoding;
  }

  Status AddStream(StripeSink* sink, StreamKind kind, std::string_view bytes);
  // AddStream of the stream's bytes, then Reset.
  Status FlushStream(StripeSink* sink, ColumnStream* stream);

  Status WriteRowIndex(StripeSink* sink);

  struct StreamChunks {
    StreamKind kind;
    std::vector<uint64_t> chunk_starts;
    uint64_t compressed_size;
  };

  uint32_t column_;
  OrcType* type_;
  RleStream<BooleanRleEncoder> present_{StreamKind::kPresent};
  std::vector<uint8_t> present_scratch_;
  bool stripe_has_null_ = false;
  int64_t stripe_rows_ = 0;
  StatsAccumulator stats_;       // the current row group
  StatsAccumulator stripe_acc_;  // finished groups of the current stripe
  StatsAccumulator file_stats_;
  std::vector<OrcColumnStatistics> stripe_stats_;
  std::vector<std::vector<StreamPosition>> group_positions_;
  std::vector<OrcColumnStatistics> group_stats_;
  std::vector<StreamChunks> stream_chunks_;

 private:
  std::vector<ColumnStream*> value_streams_;
  EncodingKind encoding_ = EncodingKind::kDirect;
};

template <typename T>
void ForEachValid(const ColumnVector& v, int64_t begin, int64_t end, auto&& fn) {
  const T* values = v.data<T>();
  for (int64_t i = begin; i < end; ++i) {
    if (!v.IsNull(i)) fn(values[i]);
  }
}

// The writers of the leaf families: BOOLEAN; TINYINT (byte RLE); SMALLINT / INT / BIGINT / DATE /
// TIME (integer RLE v2); FLOAT / DOUBLE; strings (dictionary or direct) and binaries (direct);
// DECIMAL; TIMESTAMP / TIMESTAMP_LTZ.
std::unique_ptr<ColumnWriter> NewBooleanWriter(uint32_t column);
std::unique_ptr<ColumnWriter> NewByteWriter(uint32_t column);
std::unique_ptr<ColumnWriter> NewIntegerWriter(uint32_t column);
std::unique_ptr<ColumnWriter> NewFloatingWriter(uint32_t column);
std::unique_ptr<ColumnWriter> NewStringWriter(uint32_t column, bool binary,
                                              double dictionary_threshold);
std::unique_ptr<ColumnWriter> NewDecimalWriter(uint32_t column);
std::unique_ptr<ColumnWriter> NewTimestampWriter(uint32_t column);
// LIST and MAP columns: a LENGTH stream over the element (or key and value) writers.
std::unique_ptr<ColumnWriter> NewRepeatedWriter(
    uint32_t column, std::vector<std::unique_ptr<ColumnWriter>> children);

}  // namespace sluice::orc
