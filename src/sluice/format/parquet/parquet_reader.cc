#include "sluice/format/parquet/parquet_reader.h"

#include <algorithm>
#include <string>
#include <vector>

#include "sluice/base/coding.h"
#include "sluice/format/parquet/column_assembler.h"
#include "sluice/format/parquet/column_chunk_reader.h"
#include "sluice/format/parquet/parquet_schema.h"
#include "sluice/format/parquet/parquet_statistics.h"
#include "sluice/format/parquet/thrift_compact_reader.h"
#include "sluice/predicate/predicate.h"

namespace sluice::parquet {

namespace {

// Footers larger than this are rejected before allocation.
constexpr int64_t kMaxFooterSize = int64_t{1} << 30;

}  // namespace

Result<FileMetaData> ReadFileMetaData(const RandomAccessFile& file) {
  const std::string& path = file.path();
  const int64_t size = file.size();
  if (size < 12) {
    return Status::Corruption("parquet file '" + path + "': " + std::to_string(size) +
                              " bytes is too small for a Parquet file");
  }
  uint8_t head[4], tail[8];
  SLUICE_RETURN_NOT_OK(file.ReadAt(0, 4, head));
  SLUICE_RETURN_NOT_OK(file.ReadAt(size - 8, 8, tail));
  if (std::memcmp(tail + 4, "PARE", 4) == 0) {
    return Status::NotSupported("parquet file '" + path +
                                "': encrypted footer (PARE), encryption is not supported");
  }
  if (std::memcmp(head, kParquetMagic, 4) != 0 || std::memcmp(tail + 4, kParquetMagic, 4) != 0) {
    return Status::Corruption("parquet file '" + path + "': missing PAR1 magic");
  }
  int64_t len = DecodeFixed32LE(tail);
  if (len <= 0 || len > size - 12 || len > kMaxFooterSize) {
    return Status::Corruption("parquet file '" + path + "': footer length " + std::to_string(len) +
                              " does not fit in " + std::to_string(size) + " bytes");
  }
  std::string footer(static_cast<size_t>(len), '\0');
  SLUICE_RETURN_NOT_OK(file.ReadAt(size - 8 - len, len, reinterpret_cast<uint8_t*>(footer.data())));
  FileMetaData meta;
  SLUICE_RETURN_NOT_OK_CTX(DecodeFileMetaData(footer, &meta),
                           "parquet file '" + path + "': footer");
  if (meta.num_rows < 0) {
    return Status::Corruption("parquet file '" + path + "': negative row count");
  }
  return meta;
}

namespace {

class ParquetReader : public FormatReader {
 public:
  ParquetReader(std::shared_ptr<RandomAccessFile> file, DataTypePtr read_type,
                ReaderOptions options)
      : file_(std::move(file)), read_type_(std::move(read_type)), options_(std::move(options)) {}

  Status Init() {
    SLUICE_ASSIGN_OR_RETURN(meta_, ReadFileMetaData(*file_));
    auto schema = ParquetSchema::Make(meta_);
    if (!schema.ok()) return schema.status().WithContext(Prefix());
    schema_ = std::move(schema).value();
    metadata_offset_ = file_->size() - 8 - DecodeFooterLength();
    auto plan = MakeReadPlan(*schema_, *read_type_);
    if (!plan.ok()) return plan.status().WithContext(Prefix());
    plan_ = std::move(plan).value();
    assembler_ = std::make_unique<ColumnAssembler>(&plan_);
    chunks_.resize(plan_.leaves.size());
    offset_indexes_.resize(plan_.leaves.size());
    const size_t num_leaves = schema_->leaves().size();
    int64_t first_row = 0;
    for (size_t g = 0; g < meta_.row_groups.size(); ++g) {
      const RowGroup& rg = meta_.row_groups[g];
      if (rg.columns.size() != num_leaves) {
        return Error(g, "has " + std::to_string(rg.columns.size()) + " column chunks, the schema " +
                            std::to_string(num_leaves) + " columns");
      }
      if (rg.num_rows < 0) return Error(g, "has a negative row count");
      groups_.push_back(Group{static_cast<int>(g), first_row, rg.num_rows});
      first_row += rg.num_rows;
    }
    // Some writers leave the footer's row count at 0: the row groups are what gets read.
    num_rows_ = first_row;
    SelectGroups();
    if (options_.batch_size <= 0) {
      return Status::InvalidArgument("parquet reader: batch_size must be positive");
    }
    return Status::OK();
  }

  int64_t num_rows() const override { return num_rows_; }

  Result<bool> Next(ColumnBatch* batch) override {
    batch->Clear();
    std::vector<ColumnVector*> out(static_cast<size_t>(batch->num_columns()));
    for (int i = 0; i < batch->num_columns(); ++i) out[static_cast<size_t>(i)] = batch->column(i);
    int64_t produced = 0;
    const int64_t want = options_.batch_size;
    while (produced < want) {
      if (!group_loaded_ || row_in_group_ == groups_[group_].num_rows) {
        if (group_loaded_) ++group_;
        group_loaded_ = false;
        if (group_ >= groups_.size()) break;
        SLUICE_RETURN_NOT_OK(LoadGroup());
        continue;
      }
      const Group& g = groups_[group_];
      int64_t take;
      if (!options_.row_positions) {
        take = std::min(want - produced, g.num_rows - row_in_group_);
      } else {
        const std::vector<int64_t>& pos = *options_.row_positions;
        // Positions in row groups skipped by statistics are never read.
        while (pos_index_ < pos.size() && pos[pos_index_] < g.first_row) ++pos_index_;
        if (pos_index_ >= pos.size() || pos[pos_index_] >= g.first_row + g.num_rows) {
          // No more selected rows here.
          row_in_group_ = g.num_rows;
          continue;
        }
        int64_t target = pos[pos_index_] - g.first_row;
        if (target < row_in_group_) {
          return Status::InvalidArgument("parquet reader: row positions must be ascending");
        }
        if (target > row_in_group_) {
          assembler_->Skip(target - row_in_group_);
          row_in_group_ = target;
        }
        take = 1;
        while (produced + take < want && pos_index_ + static_cast<size_t>(take) < pos.size() &&
               pos[pos_index_ + static_cast<size_t>(take)] == pos[pos_index_] + take &&
               target + take < g.num_rows) {
          ++take;
        }
        pos_index_ += static_cast<size_t>(take);
      }
      if (streaming_) {
        for (size_t i = 0; i < plan_.leaves.size(); ++i) {
          SLUICE_RETURN_NOT_OK_CTX(BufferRecords(i, take), GroupPrefix(g.index) + ": column '" +
                                                               plan_.leaves[i]->path + "'");
        }
      }
      SLUICE_RETURN_NOT_OK_CTX(assembler_->Append(take, out.data()), GroupPrefix(g.index));
      if (streaming_) {
        for (Stream& s : streams_) s.starts -= take;
      }
      row_in_group_ += take;
      produced += take;
    }
    batch->set_num_rows(produced);
    return produced > 0;
  }

 private:
  struct Group {
    int index;
    int64_t first_row;
    int64_t num_rows;
  };

  int64_t DecodeFooterLength() const {
    uint8_t tail[4];
    if (!file_->ReadAt(file_->size() - 8, 4, tail).ok()) return 0;
    return DecodeFixed32LE(tail);
  }

  std::string Prefix() const { return "parquet file '" + file_->path() + "'"; }
  std::string GroupPrefix(int g) const {
    return "parquet file '" + file_->path() + "': row group " + std::to_string(g);
  }
  Status Error(size_t g, const std::string& what) const {
    return Status::Corruption(GroupPrefix(static_cast<int>(g)) + " " + what);
  }

  // Drops row groups that hold no requested position or whose statistics rule out the
  // predicate.
  void SelectGroups() {
    std::vector<Group> kept;
    const auto& positions = options_.row_positions;
    size_t p = 0;
    for (const Group& g : groups_) {
      if (g.num_rows == 0) continue;
      if (positions) {
        while (p < positions->size() && (*positions)[p] < g.first_row) ++p;
        if (p >= positions->size() || (*positions)[p] >= g.first_row + g.num_rows) continue;
      }
      if (options_.predicate && !options_.predicate->MightMatch(g.num_rows, GroupStats(g))) {
        continue;
      }
      kept.push_back(g);
    }
    groups_ = std::move(kept);
  }

  std::vector<ColumnStats> GroupStats(const Group& g) const {
    const RowGroup& rg = meta_.row_groups[static_cast<size_t>(g.index)];
    std::vector<ColumnStats> stats(plan_.columns.size());
    for (size_t c = 0; c < plan_.columns.size(); ++c) {
      const ReadNode& node = *plan_.columns[c];
      if (node.kind == ReadNode::Kind::kMissing) {
        stats[c].null_count = g.num_rows;
        continue;
      }
      if (node.kind != ReadNode::Kind::kLeaf) continue;
      const SchemaNode& leaf = *plan_.leaves[static_cast<size_t>(node.leaf)];
      const ColumnChunk& chunk = rg.columns[static_cast<size_t>(leaf.leaf_index)];
      if (!chunk.meta_data || !chunk.meta_data->statistics) continue;
      bool type_order =
          static_cast<size_t>(leaf.leaf_index) < meta_.column_orders.size() &&
          meta_.column_orders[static_cast<size_t>(leaf.leaf_index)].type_defined_order;
      stats[c] = ToColumnStats(*chunk.meta_data->statistics, leaf, *node.type, type_order);
    }
    return stats;
  }

  // The requested rows of group `g`, relative to its first row, as [begin, end) ranges.
  void WantedRows(const Group& g) {
    wanted_.clear();
    const std::vector<int64_t>& pos = *options_.row_positions;
    auto it = std::lower_bound(pos.begin(), pos.end(), g.first_row);
    for (; it != pos.end() && *it < g.first_row + g.num_rows; ++it) {
      int64_t row = *it - g.first_row;
      if (!wanted_.empty() && wanted_.back().second == row) {
        ++wanted_.back().second;
      } else {
        wanted_.emplace_back(row, row + 1);
      }
    }
  }

  // The byte ranges of the projected column chunks of groups_[g]; a chunk whose metadata is
  // malformed is left out (its reader reports it).
  std::vector<ReadRange> GroupRanges(size_t g) const {
    const RowGroup& rg = meta_.row_groups[static_cast<size_t>(groups_[g].index)];
    std::vector<ReadRange> ranges;
    for (const SchemaNode* leaf : plan_.leaves) {
      const ColumnChunk& chunk = rg.columns[static_cast<size_t>(leaf->leaf_index)];
      if (!chunk.meta_data) continue;
      const ColumnMetaData& m = *chunk.meta_data;
      int64_t start = m.data_page_offset;
      if (m.dictionary_page_offset && *m.dictionary_page_offset >= 4 &&
          *m.dictionary_page_offset < start) {
        start = *m.dictionary_page_offset;
      }
      const int64_t len = m.total_compressed_size;
      if (start < 4 || len <= 0 || start > metadata_offset_ || len > metadata_offset_ - start) {
        continue;
      }
      ranges.push_back(ReadRange{start, len});
    }
    return ranges;
  }

  // Reads a chunk's offset index; false when it is absent or unreadable (the chunk is then read
  // whole, so a bad index costs speed, not correctness).
  bool ReadOffsetIndex(const ColumnChunk& chunk, OffsetIndex* index) {
    if (!chunk.offset_index_offset || !chunk.offset_index_length) return false;
    int64_t off = *chunk.offset_index_offset, len = *chunk.offset_index_length;
    if (off < 4 || len <= 0 || len > (1 << 24) || off > metadata_offset_ ||
        len > metadata_offset_ - off) {
      return false;
    }
    std::string bytes(static_cast<size_t>(len), '\0');
    if (!file_->ReadAt(off, len, reinterpret_cast<uint8_t*>(bytes.data())).ok()) return false;
    *index = OffsetIndex();
    return DecodeOffsetIndex(bytes, index).ok();
  }

  // Decodes pages of plan leaf `i` until the `n` records after the assembler's cursor are
  // complete, first dropping what is assembled: memory stays at about a batch and a page.
  Status BufferRecords(size_t i, int64_t n) {
    Stream& s = streams_[i];
    const SchemaNode& leaf = *plan_.leaves[i];
    const int64_t rows = groups_[group_].num_rows;
    auto complete = [&] {
      return leaf.rep_level == 0 || s.finished || s.starts == 0 ? s.starts : s.starts - 1;
    };
    if (complete() >= n) return Status::OK();
    assembler_->Release(static_cast<int>(i));
    ColumnChunkData& d = chunks_[i];
    while (complete() < n) {
      if (s.finished) {
        return Status::Corruption("holds " + std::to_string(s.records) + " rows, the row group " +
                                  std::to_string(rows));
      }
      const int64_t from = d.num_levels;
      SLUICE_ASSIGN_OR_RETURN(bool more, s.reader->DecodePage(&d));
      if (!more) {
        s.finished = true;
        if (s.records != rows) {
          return Status::Corruption("holds " + std::to_string(s.records) + " rows, the row group " +
                                    std::to_string(rows));
        }
        continue;
      }
      int64_t added = d.num_levels - from;
      if (leaf.rep_level > 0) {
        if (s.reader->levels_read() == added && added > 0 && d.rep_levels[from] != 0) {
          return Status::Corruption("the first repetition level is not 0");
        }
        const int16_t* rep = d.rep_levels.data();
        int64_t starts = 0;
        for (int64_t j = from; j < d.num_levels; ++j) starts += rep[j] == 0;
        added = starts;
      }
      s.records += added;
      s.starts += added;
      if (s.records > rows) {
        return Status::Corruption("holds more than the row group's " + std::to_string(rows) +
                                  " rows");
      }
    }
    return Status::OK();
  }

  Status LoadGroup() {
    const Group& g = groups_[group_];
    const RowGroup& rg = meta_.row_groups[static_cast<size_t>(g.index)];
    streaming_ = !options_.row_positions;
    if (streaming_) {
      // A store of round trips fetches this row group's projected chunks and the next one's
      // while this one is decoded (RandomAccessFile::Prefetch; local files ignore it).
      if (prefetched_group_ != group_) file_->Prefetch(GroupRanges(group_));
      if (group_ + 1 < groups_.size()) file_->Prefetch(GroupRanges(group_ + 1));
      prefetched_group_ = group_ + 1;
      if (streams_.size() != plan_.leaves.size()) {
        streams_.clear();
        for (const SchemaNode* leaf : plan_.leaves) {
          streams_.push_back(
              Stream{std::make_unique<ColumnChunkReader>(file_.get(), leaf, metadata_offset_)});
        }
      }
      for (Stream& s : streams_) {
        s.records = s.starts = 0;
        s.finished = false;
      }
      assembler_->Start(&chunks_, g.num_rows);
      // Column by column, the chunk and its first page: the first bad column is the one named.
      for (size_t i = 0; i < plan_.leaves.size(); ++i) {
        const SchemaNode* leaf = plan_.leaves[i];
        const std::string context = GroupPrefix(g.index) + ": column '" + leaf->path + "'";
        SLUICE_RETURN_NOT_OK_CTX(
            streams_[i].reader->Open(rg.columns[static_cast<size_t>(leaf->leaf_index)],
                                     &chunks_[i]),
            context);
        SLUICE_RETURN_NOT_OK_CTX(BufferRecords(i, 1), context);
      }
      group_loaded_ = true;
      row_in_group_ = 0;
      return Status::OK();
    }
    if (options_.row_positions) WantedRows(g);
    for (size_t i = 0; i < plan_.leaves.size(); ++i) {
      const SchemaNode* leaf = plan_.leaves[i];
      ColumnChunkReader reader(file_.get(), leaf, metadata_offset_);
      const ColumnChunk& chunk = rg.columns[static_cast<size_t>(leaf->leaf_index)];
      if (options_.row_positions) {
        reader.set_wanted_rows(&wanted_);
        if (leaf->rep_level == 0 && ReadOffsetIndex(chunk, &offset_indexes_[i])) {
          reader.set_offset_index(&offset_indexes_[i], g.num_rows);
        }
      }
      SLUICE_RETURN_NOT_OK_CTX(
          reader.Read(rg.columns[static_cast<size_t>(leaf->leaf_index)], &chunks_[i]),
          GroupPrefix(g.index) + ": column '" + leaf->path + "'");
    }
    SLUICE_RETURN_NOT_OK_CTX(assembler_->Reset(&chunks_, g.num_rows), GroupPrefix(g.index));
    group_loaded_ = true;
    row_in_group_ = 0;
    return Status::OK();
  }

  std::shared_ptr<RandomAccessFile> file_;
  DataTypePtr read_type_;
  ReaderOptions options_;
  FileMetaData meta_;
  std::unique_ptr<ParquetSchema> schema_;
  int64_t metadata_offset_ = 0;
  int64_t num_rows_ = 0;
  ReadPlan plan_;
  std::unique_ptr<ColumnAssembler> assembler_;
  std::vector<ColumnChunkData> chunks_;
  std::vector<Group> groups_;
  size_t group_ = 0;
  bool group_loaded_ = false;
  // The last row group handed to Prefetch (groups_.size() and beyond: none).
  size_t prefetched_group_ = SIZE_MAX;
  int64_t row_in_group_ = 0;
  size_t pos_index_ = 0;
  std::vector<std::pair<int64_t, int64_t>> wanted_;
  std::vector<OffsetIndex> offset_indexes_;
  // Streaming state of each plan leaf (reads without row positions).
  struct Stream {
    std::unique_ptr<ColumnChunkReader> reader;
    // Records decoded from the chunk, and record starts at or after the assembler's cursor.
    int64_t records = 0;
    int64_t starts = 0;
    bool finished = false;
  };
  bool streaming_ = false;
  std::vector<Stream> streams_;
};

}  // namespace

Result<std::unique_ptr<FormatReader>> OpenParquetReader(std::shared_ptr<RandomAccessFile> file,
                                                        DataTypePtr read_type,
                                                        const ReaderOptions& options) {
  if (read_type == nullptr || read_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("parquet reader: the read type must be a ROW type");
  }
  auto reader = std::make_unique<ParquetReader>(std::move(file), std::move(read_type), options);
  SLUICE_RETURN_NOT_OK(reader->Init());
  return std::unique_ptr<FormatReader>(std::move(reader));
}

Result<DataTypePtr> ReadParquetFileType(const RandomAccessFile& file) {
  SLUICE_ASSIGN_OR_RETURN(FileMetaData meta, ReadFileMetaData(file));
  auto schema = ParquetSchema::Make(meta);
  if (!schema.ok()) return schema.status().WithContext("parquet file '" + file.path() + "'");
  auto type = (*schema)->ToPaimonType();
  if (!type.ok()) return type.status().WithContext("parquet file '" + file.path() + "'");
  return type;
}

}  // namespace sluice::parquet
