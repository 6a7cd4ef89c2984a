#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::orc {

namespace {

class FloatingWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    out->push_back({StreamKind::kData, data_.size(), {}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    if (v.kind() == PhysicalKind::kFloat) {
      ForEachValid<float>(v, begin, end, [&](float f) {
        stats_.AddDouble(f);
        data_.append(reinterpret_cast<const char*>(&f), 4);
      });
    } else {
      ForEachValid<double>(v, begin, end, [&](double d) {
        stats_.AddDouble(d);
        data_.append(reinterpret_cast<const char*>(&d), 8);
      });
    }
  }
  Status FlushValues(StripeSink* sink) override {
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, data_));
    data_.clear();
    sink->encodings[column_] = {EncodingKind::kDirect, 0};
    return Status::OK();
  }

 private:
  std::string data_;
};

}  // namespace

std::unique_ptr<ColumnWriter> NewFloatingWriter(uint32_t column) {
  return std::make_unique<FloatingWriter>(column, nullptr);
}

}  // namespace sluice::orc
