#include "sluice/format/orc/writer/column_writer.h"

#include <algorithm>
#include <cstring>

namespace sluice::orc {

void ColumnWriter::Write(const ColumnVector& v, int64_t begin, int64_t end) {
  int64_t n = end - begin;
  present_scratch_.resize(static_cast<size_t>(n));
  int64_t non_null = n;
  if (v.has_nulls()) {
    const uint8_t* valid = v.validity().data() + begin;
    std::memcpy(present_scratch_.data(), valid, static_cast<size_t>(n));
    non_null = 0;
    for (int64_t i = 0; i < n; ++i) non_null += valid[i];
  } else {
    std::fill(present_scratch_.begin(), present_scratch_.end(), 1);
  }
  if (non_null < n) stripe_has_null_ = true;
  present_.encoder().Write(present_scratch_.data(), n);
  stripe_rows_ += n;
  stats_.values += static_cast<uint64_t>(non_null);
  if (non_null < n) stats_.has_null = true;
  WriteValues(v, begin, end);
}

void ColumnWriter::WritePresentRows(int64_t n) {
  present_scratch_.assign(static_cast<size_t>(n), 1);
  present_.encoder().Write(present_scratch_.data(), n);
  stripe_rows_ += n;
  stats_.values += static_cast<uint64_t>(n);
}

void ColumnWriter::StartGroup() {
  group_positions_.emplace_back();
  present_.RecordPosition(&group_positions_.back());
  RecordPositions(&group_positions_.back());
}

void ColumnWriter::RecordPositions(std::vector<StreamPosition>* out) {
  for (ColumnStream* stream : value_streams_) stream->RecordPosition(out);
}

int64_t ColumnWriter::BufferedBytes() const {
  int64_t total = 0;
  for (const ColumnStream* stream : value_streams_) total += stream->BufferedBytes();
  return total;
}

void ColumnWriter::FinishGroup() {
  group_stats_.push_back(ToOrcStats(stats_, *type_));
  stripe_acc_.Merge(stats_);
  stats_ = StatsAccumulator();
}

Status ColumnWriter::FlushStripe(StripeSink* sink) {
  group_positions_.resize(group_stats_.size());  // drop a group that never got rows
  stream_chunks_.clear();
  if (stripe_has_null_) SLUICE_RETURN_NOT_OK(FlushStream(sink, &present_));
  SLUICE_RETURN_NOT_OK(FlushValues(sink));
  if (sink->row_index) SLUICE_RETURN_NOT_OK(WriteRowIndex(sink));
  present_.Reset();
  stripe_has_null_ = false;
  stripe_rows_ = 0;
  stripe_stats_.push_back(ToOrcStats(stripe_acc_, *type_));
  file_stats_.Merge(stripe_acc_);
  stripe_acc_ = StatsAccumulator();
  group_positions_.clear();
  group_stats_.clear();
  return Status::OK();
}

Status ColumnWriter::FlushValues(StripeSink* sink) {
  for (ColumnStream* stream : value_streams_) SLUICE_RETURN_NOT_OK(FlushStream(sink, stream));
  sink->encodings[column_] = {encoding_, 0};
  return Status::OK();
}

Status ColumnWriter::FlushStream(StripeSink* sink, ColumnStream* stream) {
  SLUICE_RETURN_NOT_OK(AddStream(sink, stream->kind(), stream->Finish()));
  stream->Reset();
  return Status::OK();
}

Status ColumnWriter::AddStream(StripeSink* sink, StreamKind kind, std::string_view bytes) {
  stream_chunks_.push_back({kind, {}, 0});
  size_t before = sink->data.size();
  SLUICE_RETURN_NOT_OK(sink->Add(column_, kind, bytes, &stream_chunks_.back().chunk_starts));
  stream_chunks_.back().compressed_size = sink->data.size() - before;
  return Status::OK();
}

Status ColumnWriter::WriteRowIndex(StripeSink* sink) {
  std::vector<RowIndexEntry> entries(group_stats_.size());
  for (size_t g = 0; g < entries.size(); ++g) {
    entries[g].statistics = group_stats_[g];
    for (const StreamPosition& p : group_positions_[g]) {
      const StreamChunks* chunks = nullptr;
      for (const StreamChunks& c : stream_chunks_) {
        if (c.kind == p.stream) chunks = &c;
      }
      if (chunks == nullptr) continue;  // e.g. no PRESENT stream in this stripe
      auto& out = entries[g].positions;
      if (sink->compression == OrcCompression::kNone) {
        out.push_back(p.offset);
      } else {
        uint64_t chunk = p.offset / sink->block_size;
        if (chunk < chunks->chunk_starts.size()) {
          out.push_back(chunks->chunk_starts[chunk]);
          out.push_back(p.offset % sink->block_size);
        } else {
          out.push_back(chunks->compressed_size);
          out.push_back(0);
        }
      }
      out.insert(out.end(), p.tail.begin(), p.tail.end());
    }
  }
  return sink->AddIndex(column_, SerializeRowIndex(entries));
}

}  // namespace sluice::orc
