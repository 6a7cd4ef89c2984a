#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <vector>

namespace sluice::orc {

namespace {

class TimestampWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(seconds_.output()->size() + nanos_.output()->size());
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    seconds_.Flush();
    out->push_back({StreamKind::kData, seconds_.output()->size(), {0}});
    nanos_.Flush();
    out->push_back({StreamKind::kSecondary, nanos_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    ForEachValid<Timestamp>(v, begin, end, [&](const Timestamp& ts) {
      stats_.AddTimestamp(ts);
      int64_t secs = ts.millisecond / 1000 - (ts.millisecond % 1000 < 0 ? 1 : 0);
      int64_t ms = ts.millisecond - secs * 1000;
      int64_t nanos = ms * 1000000 + ts.nano_of_millisecond;
      // Readers subtract a second from negative times with sub-millisecond... millisecond
      // fractions (the Java writer truncates toward zero); store what they undo.
      if (secs < 0 && nanos > 999999) secs += 1;
      seconds_.Write(secs - kOrcEpochSeconds);
      nanos_.Write(static_cast<int64_t>(EncodeNanos(nanos)));
    });
  }
  Status FlushValues(StripeSink* sink) override {
    seconds_.Flush();
    nanos_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *seconds_.output()));
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kSecondary, *nanos_.output()));
    seconds_.Reset();
    nanos_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    return Status::OK();
  }

 private:
  // Trailing decimal zeros are dropped and their count (minus one) kept in the low 3 bits.
  static uint64_t EncodeNanos(int64_t nanos) {
    if (nanos == 0) return 0;
    if (nanos % 100 != 0) return static_cast<uint64_t>(nanos) << 3;
    nanos /= 100;
    int zeros = 1;
    while (nanos % 10 == 0 && zeros < 7) {
      nanos /= 10;
      ++zeros;
    }
    return (static_cast<uint64_t>(nanos) << 3) | static_cast<uint64_t>(zeros);
  }

  mutable IntRleV2Encoder seconds_{true};
  mutable IntRleV2Encoder nanos_{false};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewTimestampWriter(uint32_t column) {
  return std::make_unique<TimestampWriter>(column, nullptr);
}

}  // namespace sluice::orc
