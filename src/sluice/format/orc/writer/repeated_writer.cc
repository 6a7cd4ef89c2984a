#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/format/orc/writer/nested_writer.h"

namespace sluice::orc {

namespace {

class RepeatedWriter : public NestedWriter {
 public:
  using NestedWriter::NestedWriter;
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(lengths_.output()->size()) + NestedWriter::BufferedBytes();
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    lengths_.Flush();
    out->push_back({StreamKind::kLength, lengths_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    for (int64_t i = begin; i < end; ++i) {
      if (v.IsNull(i)) continue;
      lengths_.Write(v.ListEnd(i) - v.ListBegin(i));
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
  Status FlushValues(StripeSink* sink) override {
    lengths_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kLength, *lengths_.output()));
    lengths_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->FlushStripe(sink));
    return Status::OK();
  }

 private:
  mutable IntRleV2Encoder lengths_{false};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewRepeatedWriter(
    uint32_t column, std::vector<std::unique_ptr<ColumnWriter>> children) {
  return std::make_unique<RepeatedWriter>(column, nullptr, std::move(children));
}

}  // namespace sluice::orc
