// NestedWriter: the base of ORC column writers with child columns; StructWriter: STRUCT columns
// (no value streams of their own), and the root struct the file writer writes batches through.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/format/orc/writer/column_writer.h"

namespace sluice::orc {

// A column with child columns: statistics, row groups and type binding pass on to the
// children after the column itself.
class NestedWriter : public ColumnWriter {
 public:
  NestedWriter(uint32_t column, OrcType* type, std::vector<std::unique_ptr<ColumnWriter>> children)
      : ColumnWriter(column, type), children_(std::move(children)) {}
  int64_t BufferedBytes() const override {
    int64_t total = ColumnWriter::BufferedBytes();
    for (const auto& c : children_) total += c->BufferedBytes();
    return total;
  }
  void CollectStripeStats(size_t stripe, std::vector<OrcColumnStatistics>* out) const override {
    ColumnWriter::CollectStripeStats(stripe, out);
    for (const auto& c : children_) c->CollectStripeStats(stripe, out);
  }
  void CollectFileStats(std::vector<OrcColumnStatistics>* out) const override {
    ColumnWriter::CollectFileStats(out);
    for (const auto& c : children_) c->CollectFileStats(out);
  }
  void StartGroup() override {
    ColumnWriter::StartGroup();
    for (auto& c : children_) c->StartGroup();
  }
  void FinishGroup() override {
    ColumnWriter::FinishGroup();
    for (auto& c : children_) c->FinishGroup();
  }
  void BindTypes(std::vector<OrcType>* types) override {
    ColumnWriter::BindTypes(types);
    for (auto& c : children_) c->BindTypes(types);
  }

 protected:
  // The column's own streams, then each child's stripe.
  Status FlushValues(StripeSink* sink) override {
    SLUICE_RETURN_NOT_OK(ColumnWriter::FlushValues(sink));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->FlushStripe(sink));
    return Status::OK();
  }

  std::vector<std::unique_ptr<ColumnWriter>> children_;
};

class StructWriter : public NestedWriter {
 public:
  using NestedWriter::NestedWriter;
  const ColumnWriter& child(size_t i) const { return *children_[i]; }
  // Writes rows [begin, end) of a batch as the rows of this (root) struct.
  void WriteBatch(const ColumnBatch& batch, int64_t begin, int64_t end) {
    WritePresentRows(end - begin);
    for (size_t c = 0; c < children_.size(); ++c) {
      children_[c]->Write(*batch.column(static_cast<int>(c)), begin, end);
    }
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    // Children hold values only for rows where the struct is present.
    int64_t run = begin;
    for (int64_t i = begin; i <= end; ++i) {
      if (i == end || v.IsNull(i)) {
        if (i > run) {
          for (size_t c = 0; c < children_.size(); ++c) {
            children_[c]->Write(*v.child(static_cast<int>(c)), run, i);
          }
        }
        run = i + 1;
      }
    }
  }
};

}  // namespace sluice::orc
