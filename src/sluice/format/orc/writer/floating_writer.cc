#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::orc {

namespace {

class FloatingWriter : public ColumnWriter {
 public:
  explicit FloatingWriter(uint32_t column) : ColumnWriter(column, nullptr) {
    SetValueStreams({&data_}, EncodingKind::kDirect);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    std::string& data = data_.bytes();
    if (v.kind() == PhysicalKind::kFloat) {
      ForEachValid<float>(v, begin, end, [&](float f) {
        stats_.AddDouble(f);
        data.append(reinterpret_cast<const char*>(&f), 4);
      });
    } else {
      ForEachValid<double>(v, begin, end, [&](double d) {
        stats_.AddDouble(d);
        data.append(reinterpret_cast<const char*>(&d), 8);
      });
    }
  }

 private:
  RawStream data_{StreamKind::kData};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewFloatingWriter(uint32_t column) {
  return std::make_unique<FloatingWriter>(column);
}

}  // namespace sluice::orc
