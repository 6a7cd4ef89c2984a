#include "sluice/format/orc/writer/column_writer.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::orc {

namespace {

class StringWriter : public ColumnWriter {
 public:
  StringWriter(uint32_t column, OrcType* type, bool binary, double dictionary_threshold)
      : ColumnWriter(column, type), binary_(binary), threshold_(dictionary_threshold) {}
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(bytes_.size() + ends_.size() * 2);
  }

 protected:
  // The encoding is chosen at stripe flush, so only the value count is recorded here; the
  // stream positions are filled in by FlushValues.
  void RecordPositions(std::vector<StreamPosition>*) override {
    group_value_starts_.push_back(ends_.size());
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    for (int64_t i = begin; i < end; ++i) {
      if (v.IsNull(i)) continue;
      std::string_view s = v.GetBytes(i);
      if (binary_) {
        stats_.length_sum += static_cast<int64_t>(s.size());
      } else {
        stats_.AddString(s);
      }
      bytes_.append(s);
      ends_.push_back(bytes_.size());
    }
  }
  Status FlushValues(StripeSink* sink) override {
    size_t n = ends_.size();
    auto value = [&](size_t i) {
      size_t b = i == 0 ? 0 : ends_[i - 1];
      return std::string_view(bytes_).substr(b, ends_[i] - b);
    };
    // Like ORC Java, judge the dictionary by the first row group's worth of values, so that
    // unique strings are not sorted only to be written directly.
    bool dictionary = false;
    std::vector<uint32_t> order;
    size_t distinct = 0;
    if (!binary_ && n > 0) {
      size_t sample = std::min<size_t>(n, 10000);
      std::vector<std::string_view> head(sample);
      for (size_t i = 0; i < sample; ++i) head[i] = value(i);
      std::sort(head.begin(), head.end());
      size_t head_distinct =
          static_cast<size_t>(std::unique(head.begin(), head.end()) - head.begin());
      dictionary = static_cast<double>(head_distinct) <= threshold_ * static_cast<double>(sample);
    }
    if (dictionary) {
      order.resize(n);
      std::iota(order.begin(), order.end(), 0u);
      std::sort(order.begin(), order.end(),
                [&](uint32_t a, uint32_t b) { return value(a) < value(b); });
      for (size_t i = 0; i < n; ++i) {
        if (i == 0 || value(order[i]) != value(order[i - 1])) ++distinct;
      }
    }
    // Row groups that started (and got rows) in this stripe, by first value index.
    size_t groups = group_positions_.size();
    auto group_at = [&](size_t g) { return g < groups ? group_value_starts_[g] : SIZE_MAX; };
    RleStream<IntRleV2Encoder> lengths(StreamKind::kLength, false);
    if (dictionary) {
      std::vector<uint32_t> ids(n);
      std::string blob;
      uint32_t next = 0;
      for (size_t i = 0; i < n; ++i) {
        if (i > 0 && value(order[i]) != value(order[i - 1])) ++next;
        if (i == 0 || value(order[i]) != value(order[i - 1])) {
          blob.append(value(order[i]));
          lengths.encoder().Write(static_cast<int64_t>(value(order[i]).size()));
        }
        ids[order[i]] = next;
      }
      RleStream<IntRleV2Encoder> data(StreamKind::kData, false);
      size_t g = 0;
      for (size_t i = 0; i <= n; ++i) {
        while (group_at(g) == i) data.RecordPosition(&group_positions_[g++]);
        if (i < n) data.encoder().Write(ids[i]);
      }
      SLUICE_RETURN_NOT_OK(FlushStream(sink, &data));
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kDictionaryData, blob));
      SLUICE_RETURN_NOT_OK(FlushStream(sink, &lengths));
      sink->encodings[column_] = {EncodingKind::kDictionaryV2, static_cast<uint32_t>(distinct)};
    } else {
      size_t g = 0;
      for (size_t i = 0; i <= n; ++i) {
        while (group_at(g) == i) {
          uint64_t data_offset = i == 0 ? 0 : ends_[i - 1];
          group_positions_[g].push_back({StreamKind::kData, data_offset, {}});
          lengths.RecordPosition(&group_positions_[g++]);
        }
        if (i < n) lengths.encoder().Write(static_cast<int64_t>(value(i).size()));
      }
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, bytes_));
      SLUICE_RETURN_NOT_OK(FlushStream(sink, &lengths));
      sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    }
    group_value_starts_.clear();
    bytes_.clear();
    ends_.clear();
    return Status::OK();
  }

 private:
  bool binary_;
  double threshold_;
  std::string bytes_;
  std::vector<size_t> ends_;
  std::vector<size_t> group_value_starts_;
};

}  // namespace

std::unique_ptr<ColumnWriter> NewStringWriter(uint32_t column, bool binary,
                                              double dictionary_threshold) {
  return std::make_unique<StringWriter>(column, nullptr, binary, dictionary_threshold);
}

}  // namespace sluice::orc
