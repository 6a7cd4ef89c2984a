#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/format/orc/writer/nested_writer.h"

namespace sluice::orc {

namespace {

class RepeatedWriter : public NestedWriter {
 public:
  RepeatedWriter(uint32_t column, std::vector<std::unique_ptr<ColumnWriter>> children)
      : NestedWriter(column, nullptr, std::move(children)) {
    SetValueStreams({&lengths_}, EncodingKind::kDirectV2);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    for (int64_t i = begin; i < end; ++i) {
      if (v.IsNull(i)) continue;
      lengths_.encoder().Write(v.ListEnd(i) - v.ListBegin(i));
    }
    // Elements of null rows form empty ranges, so the whole span can be written at once.
    int32_t first = v.ListBegin(begin);
    int32_t last = v.ListEnd(end - 1);
    if (last > first) {
      for (size_t c = 0; c < children_.size(); ++c) {
        children_[c]->Write(*v.child(static_cast<int>(c)), first, last);
      }
    }
  }

 private:
  RleStream<IntRleV2Encoder> lengths_{StreamKind::kLength, false};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewRepeatedWriter(
    uint32_t column, std::vector<std::unique_ptr<ColumnWriter>> children) {
  return std::make_unique<RepeatedWriter>(column, std::move(children));
}

}  // namespace sluice::orc
