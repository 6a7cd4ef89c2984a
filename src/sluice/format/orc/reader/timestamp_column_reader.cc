#include "sluice/format/orc/reader/column_readers.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

// Timestamps whose milliseconds fit an int64 (about +-285 million years).
constexpr int64_t kMaxTimestampSeconds = 9'000'000'000'000'000;

class TimestampColumnReader : public ColumnReader {
 public:
  TimestampColumnReader(uint32_t column, std::string path, bool instant, int precision)
      : ColumnReader(column, std::move(path)), instant_(instant) {
    int drop = 9 - std::clamp(precision, 0, 9);
    truncate_ = 1;
    for (int i = 0; i < drop; ++i) truncate_ *= 10;
  }

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    bool v2 = IsV2(stripe.Encoding(column_).kind);
    seconds_stream_ = &stripe.Stream(column_, StreamKind::kData);
    nanos_stream_ = &stripe.Stream(column_, StreamKind::kSecondary);
    seconds_.Reset(seconds_stream_->data.data(), seconds_stream_->data.size(), v2, true);
    nanos_.Reset(nanos_stream_->data.data(), nanos_stream_->data.size(), v2, false);
    zone_ = &stripe.WriterTimeZone();
    if (!instant_ && !zone_->is_utc()) {
      int64_t off = zone_->OffsetAt(kOrcEpochSeconds);
      epoch_ = kOrcEpochSeconds - zone_->OffsetAt(kOrcEpochSeconds - off);
    } else {
      epoch_ = kOrcEpochSeconds;
    }
    return Status::OK();
  }

  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    ResizeScratch(&scratch_, static_cast<size_t>(m) * 2 * sizeof(int64_t));
    int64_t* secs = scratch_.as<int64_t>();
    int64_t* nanos = secs + m;
    SLUICE_RETURN_NOT_OK(WithContext(seconds_.Next(secs, m).WithContext("DATA stream")));
    SLUICE_RETURN_NOT_OK(WithContext(nanos_.Next(nanos, m).WithContext("SECONDARY stream")));
    bool shift = !instant_ && !zone_->is_utc();
    for (int64_t i = 0; i < m; ++i) {
      // The C++ ORC writer (Arrow's) stores the remainder of a pre-1970 instant truncated
      // toward zero as negative nanoseconds (the seconds truncated toward zero too); its reader,
      // like ORC C++'s, shifts the stored value arithmetically, so those read as negative.
      const int64_t raw = nanos[i];
      const int64_t zeros = raw & 7;
      int64_t ns = raw >> 3;
      // Checked before scaling too, so that a corrupt value cannot overflow.
      if (zeros != 0 && ns <= 999999999 && ns >= -999999999) {
        for (int64_t z = 0; z <= zeros; ++z) ns *= 10;
      }
      if (ns < -999999999 || ns > 999999999) {
        return WithContext(Status::Corruption("SECONDARY stream: nanoseconds " +
                                              std::to_string(ns) + " out of range"));
      }
      if (secs[i] > kMaxTimestampSeconds || secs[i] < -kMaxTimestampSeconds) {
        return WithContext(Status::Corruption("DATA stream: timestamp seconds " +
                                              std::to_string(secs[i]) + " out of range"));
      }
      int64_t s = secs[i] + epoch_;
      // Java writers truncate negative instants toward zero; undo that on the instant, before
      // the zone shift (as ORC Java's reader does).
      if (s < 0 && ns > 999999) s -= 1;
      if (ns < 0) {
        s -= 1;
        ns += 1000000000;
      }
      if (shift) s += zone_->OffsetAt(s);  // the writer's wall clock, read as UTC
      ns -= ns % truncate_;
      secs[i] = s;
      nanos[i] = ns;
    }
    int64_t base = out->size();
    out->Resize(base + n);
    Timestamp* dst = out->data<Timestamp>() + base;
    const uint8_t* valid = valid_.data();
    int64_t j = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (valid[i]) {
        dst[i].millisecond = secs[j] * 1000 + nanos[j] / 1000000;
        dst[i].nano_of_millisecond = static_cast<int32_t>(nanos[j] % 1000000);
        ++j;
      } else {
        dst[i] = Timestamp{};
      }
    }
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    SLUICE_RETURN_NOT_OK(WithContext(seconds_.Skip(m)));
    return WithContext(nanos_.Skip(m));
  }

  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekRle(&seconds_, *seconds_stream_, pos, &index)));
    return WithContext(SeekRle(&nanos_, *nanos_stream_, pos, &index));
  }

 private:
  bool instant_;
  int64_t truncate_;
  const DecodedStream* seconds_stream_ = nullptr;
  const DecodedStream* nanos_stream_ = nullptr;
  IntRleDecoder seconds_;
  IntRleDecoder nanos_;
  const TimeZone* zone_ = nullptr;
  int64_t epoch_ = kOrcEpochSeconds;
  Buffer scratch_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewTimestampColumnReader(uint32_t column, const std::string& path,
                                                       bool instant, int precision) {
  return std::make_unique<TimestampColumnReader>(column, path, instant, precision);
}

}  // namespace sluice::orc
