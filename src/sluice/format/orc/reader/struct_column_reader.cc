#include "sluice/format/orc/reader/column_readers.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

class StructColumnReader : public ColumnReader {
 public:
  StructColumnReader(uint32_t column, std::string path,
                     std::vector<std::unique_ptr<ColumnReader>> children)
      : ColumnReader(column, std::move(path)), children_(std::move(children)) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->StartStripe(stripe));
    return Status::OK();
  }
  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    int64_t base = out->size();
    out->Resize(base + n);
    ApplyValidity(out, base, n, m);
    // Children decode with their own scratch; valid_ stays untouched while they run.
    const uint8_t* child_valid = m == n ? nullptr : valid_.data();
    for (size_t i = 0; i < children_.size(); ++i) {
      SLUICE_RETURN_NOT_OK(children_[i]->Read(n, child_valid, out->child(static_cast<int>(i))));
    }
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Skip(m));
    return Status::OK();
  }
  Status Seek(const RowGroupPositions& positions) override {
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(PositionsOf(positions), &index));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Seek(positions));
    return Status::OK();
  }

 private:
  std::vector<std::unique_ptr<ColumnReader>> children_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewStructColumnReader(
    uint32_t column, const std::string& path, std::vector<std::unique_ptr<ColumnReader>> children) {
  return std::make_unique<StructColumnReader>(column, path, std::move(children));
}

}  // namespace sluice::orc
