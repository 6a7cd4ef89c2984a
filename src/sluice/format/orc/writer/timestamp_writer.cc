#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <vector>

namespace sluice::orc {

namespace {

// DATA: seconds since the ORC epoch; SECONDARY: the nanoseconds, encoded.
class TimestampWriter : public ColumnWriter {
 public:
  explicit TimestampWriter(uint32_t column) : ColumnWriter(column, nullptr) {
    SetValueStreams({&seconds_, &nanos_}, EncodingKind::kDirectV2);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    IntRleV2Encoder& seconds = seconds_.encoder();
    IntRleV2Encoder& nano_codes = nanos_.encoder();
    ForEachValid<Timestamp>(v, begin, end, [&](const Timestamp& ts) {
      stats_.AddTimestamp(ts);
      int64_t secs = ts.millisecond / 1000 - (ts.millisecond % 1000 < 0 ? 1 : 0);
      int64_t ms = ts.millisecond - secs * 1000;
      int64_t nanos = ms * 1000000 + ts.nano_of_millisecond;
      // Readers subtract a second from negative times with sub-millisecond... millisecond
      // fractions (the Java writer truncates toward zero); store what they undo.
      if (secs < 0 && nanos > 999999) secs += 1;
      seconds.Write(secs - kOrcEpochSeconds);
      nano_codes.Write(static_cast<int64_t>(EncodeNanos(nanos)));
    });
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

  RleStream<IntRleV2Encoder> seconds_{StreamKind::kData, true};
  RleStream<IntRleV2Encoder> nanos_{StreamKind::kSecondary, false};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewTimestampWriter(uint32_t column) {
  return std::make_unique<TimestampWriter>(column);
}

}  // namespace sluice::orc
