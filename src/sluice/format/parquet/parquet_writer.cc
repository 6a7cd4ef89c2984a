#include "sluice/format/parquet/parquet_writer.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "sluice/base/coding.h"
#include "sluice/base/string_util.h"
#include "sluice/format/parquet/thrift_compact_writer.h"

namespace sluice::parquet {
namespace {

constexpr int64_t kDefaultBlockSize = int64_t{128} << 20;

// Nodes on the longest path from a top-level column down to a leaf.
size_t NodeDepth(const WriteNode& node) {
  size_t deepest = 0;
  for (const WriteNode& child : node.children) deepest = std::max(deepest, NodeDepth(child));
  return deepest + 1;
}

Result<int64_t> SizeOption(const WriterOptions& options, const std::string& key, int64_t fallback) {
  auto it = options.options.find(key);
  if (it == options.options.end()) return fallback;
  const std::string& s = it->second;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  // Paimon's MemorySize strings ("128 mb", "1kb") are accepted for the block size too.
  std::string_view unit(end, static_cast<size_t>(s.data() + s.size() - end));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  int64_t scale = 1;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else if (unit == "k" || unit == "kb") {
    scale = int64_t{1} << 10;
  } else if (unit == "m" || unit == "mb") {
    scale = int64_t{1} << 20;
  } else if (unit == "g" || unit == "gb") {
    scale = int64_t{1} << 30;
  } else {
    ec = std::errc::invalid_argument;
  }
  if (ec != std::errc() || value <= 0) {
    return Status::InvalidArgument("Parquet writer: option " + key + " = '" + s +
                                   "' is not a positive size");
  }
  return value * scale;
}

// Checks that the buffers of the first `rows` rows of `vector` (and of the child rows they
// reach) are as large as its layout says, so that encoding never reads past them.
Status CheckVectorBuffers(const ColumnVector& vector, int64_t rows) {
  if (vector.has_nulls() && vector.validity().size() < static_cast<size_t>(rows)) {
    return Status::InvalidArgument("validity holds fewer than " + std::to_string(rows) + " rows");
  }
  const PhysicalKind kind = vector.kind();
  if (kind == PhysicalKind::kStruct) {
    for (int c = 0; c < vector.num_children(); ++c) {
      if (vector.child(c)->size() < rows) {
        return Status::InvalidArgument("a ROW field holds fewer rows than the ROW");
      }
      SLUICE_RETURN_NOT_OK(CheckVectorBuffers(*vector.child(c), rows));
    }
    return Status::OK();
  }
  const int width = FixedWidthOf(kind);
  if (width > 0) {
    if (vector.values().size() < static_cast<size_t>(rows) * static_cast<size_t>(width)) {
      return Status::InvalidArgument("values hold fewer than " + std::to_string(rows) + " rows");
    }
    return Status::OK();
  }
  if (vector.offsets().size() < static_cast<size_t>(rows + 1) * sizeof(int32_t)) {
    return Status::InvalidArgument("offsets hold fewer than " + std::to_string(rows) + " rows");
  }
  const int32_t* offsets = vector.offset_data();
  if (offsets[0] < 0) return Status::InvalidArgument("negative offset");
  for (int64_t i = 0; i < rows; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      return Status::InvalidArgument("offsets decrease at row " + std::to_string(i));
    }
  }
  const int64_t end = offsets[rows];
  if (kind == PhysicalKind::kBytes) {
    if (vector.values().size() < static_cast<size_t>(end)) {
      return Status::InvalidArgument("offsets run past the value bytes");
    }
    return Status::OK();
  }
  for (int c = 0; c < vector.num_children(); ++c) {
    if (vector.child(c)->size() < end) {
      return Status::InvalidArgument("offsets run past the elements");
    }
    SLUICE_RETURN_NOT_OK(CheckVectorBuffers(*vector.child(c), end));
  }
  return Status::OK();
}

}  // namespace

ParquetWriter::ParquetWriter(std::unique_ptr<WritableFile> file, DataTypePtr write_type,
                             ParquetWriteSchema schema, const ColumnWriterOptions& column_options,
                             int64_t block_size)
    : file_(std::move(file)),
      write_type_(std::move(write_type)),
      schema_(std::move(schema)),
      compression_(column_options.compression),
      block_size_(block_size) {
  // One Slots per nesting depth, allocated once: ShredNode holds references into it.
  size_t depth = 0;
  for (const WriteNode& column : schema_.columns) depth = std::max(depth, NodeDepth(column));
  slots_.resize(depth + 1);
}

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(std::unique_ptr<WritableFile> file,
                                                           DataTypePtr write_type,
                                                           const WriterOptions& options) {
  std::string context = "Parquet writer " + file->path();
  SLUICE_ASSIGN_OR_RETURN(ParquetWriteSchema schema, MakeParquetWriteSchema(*write_type));

  ColumnWriterOptions column_options;
  std::string compression = options.compression;
  if (auto it = options.options.find("parquet.compression"); it != options.options.end()) {
    compression = it->second;
  }
  SLUICE_ASSIGN_OR_RETURN(column_options.compression, ParseCompressionKind(compression));
  // Java's Parquet writer takes "lz4" as CompressionCodecName.LZ4: Hadoop's framed LZ4, not
  // LZ4_RAW (which "lz4_raw" names).
  if (AsciiToLower(compression) == "lz4") column_options.compression = CompressionKind::kLz4Hadoop;
  switch (column_options.compression) {
    case CompressionKind::kNone:
    case CompressionKind::kSnappy:
    case CompressionKind::kGzip:
    case CompressionKind::kLz4Raw:
    case CompressionKind::kLz4Hadoop:
    case CompressionKind::kZstd:
      break;
    default:
      return Status::NotSupported(context + ": compression '" + compression +
                                  "' has no Parquet codec");
  }
  column_options.compression_level = options.compression_level;
  SLUICE_ASSIGN_OR_RETURN(column_options.page_size,
                          SizeOption(options, "parquet.page.size", column_options.page_size));
  SLUICE_ASSIGN_OR_RETURN(
      column_options.page_row_count_limit,
      SizeOption(options, "parquet.page.row.count.limit", column_options.page_row_count_limit));
  SLUICE_ASSIGN_OR_RETURN(
      column_options.dictionary_page_size,
      SizeOption(options, "parquet.dictionary.page.size", column_options.dictionary_page_size));
  if (auto it = options.options.find("parquet.enable.dictionary"); it != options.options.end()) {
    column_options.dictionary_enabled = it->second != "false";
  }
  SLUICE_ASSIGN_OR_RETURN(int64_t block_size,
                          SizeOption(options, "file.block-size", kDefaultBlockSize));
  SLUICE_ASSIGN_OR_RETURN(block_size, SizeOption(options, "parquet.block.size", block_size));

  std::unique_ptr<ParquetWriter> writer(new ParquetWriter(
      std::move(file), std::move(write_type), std::move(schema), column_options, block_size));
  for (const WriteLeaf& leaf : writer->schema_.leaves) {
    SLUICE_ASSIGN_OR_RETURN(auto column_writer, ColumnWriter::Make(leaf, column_options));
    writer->writers_.push_back(std::move(column_writer));
  }
  SLUICE_RETURN_NOT_OK(
      writer->file_->Append(std::string_view(kParquetMagic, sizeof(kParquetMagic))));
  writer->file_offset_ = sizeof(kParquetMagic);
  return writer;
}

Status ParquetWriter::CheckBatch(const ColumnBatch& batch) const {
  const auto& fields = write_type_->fields();
  if (batch.num_columns() != static_cast<int>(fields.size())) {
    return Status::InvalidArgument("Parquet writer " + file_->path() + ": batch has " +
                                   std::to_string(batch.num_columns()) + " columns, the file " +
                                   std::to_string(fields.size()));
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const ColumnVector* column = batch.column(static_cast<int>(i));
    if (!column->type()->EqualsIgnoreNullable(*fields[i].type) ||
        column->size() < batch.num_rows()) {
      return Status::InvalidArgument("Parquet writer " + file_->path() + ": column '" +
                                     fields[i].name + "' is " + column->type()->ToString() +
                                     " with " + std::to_string(column->size()) +
                                     " rows, expected " + fields[i].type->ToString() + " with " +
                                     std::to_string(batch.num_rows()));
    }
    SLUICE_RETURN_NOT_OK(
        CheckVectorBuffers(*column, batch.num_rows())
            .WithContext("Parquet writer " + file_->path() + ": column '" + fields[i].name + "'"));
  }
  return Status::OK();
}

Status ParquetWriter::NullInRequired(const WriteNode& node) const {
  return Status::InvalidArgument("Parquet writer " + file_->path() + ": null value in NOT NULL " +
                                 node.type->ToString() + " field");
}

Status ParquetWriter::Write(const ColumnBatch& batch) {
  if (finished_) return Status::Internal("Parquet writer: Write after Finish");
  SLUICE_RETURN_NOT_OK(CheckBatch(batch));
  const int64_t rows = batch.num_rows();
  for (int64_t begin = 0; begin < rows; begin += kSliceRows) {
    int64_t end = std::min(rows, begin + kSliceRows);
    slice_rows_ = end - begin;
    for (size_t c = 0; c < schema_.columns.size(); ++c) {
      const WriteNode& node = schema_.columns[c];
      const ColumnVector& vector = *batch.column(static_cast<int>(c));
      Status st;
      if (node.leaf >= 0) {
        st = WriteFlatColumn(node, vector, begin, end);
      } else {
        Slots& top = slots_[0];
        top.Resize(end - begin);
        int32_t* pos = top.pos.as<int32_t>();
        for (int64_t r = begin; r < end; ++r) pos[r - begin] = static_cast<int32_t>(r);
        std::memset(top.rep.data(), 0, top.rep.size());
        st = ShredNode(node, vector, top, 1);
      }
      if (!st.ok()) {
        return st.WithContext("column '" + write_type_->fields()[c].name + "'");
      }
    }
    row_group_rows_ += end - begin;
    total_rows_ += end - begin;
    if (BufferedSize() >= block_size_) SLUICE_RETURN_NOT_OK(FlushRowGroup());
  }
  return Status::OK();
}

Status ParquetWriter::WriteFlatColumn(const WriteNode& node, const ColumnVector& vector,
                                      int64_t begin, int64_t end) {
  const int64_t n = end - begin;
  LeafSlice slice;
  slice.num_rows = n;
  slice.num_levels = n;
  slice.first_position = begin;
  if (!vector.has_nulls()) {
    slice.num_values = n;
    return writers_[node.leaf]->Write(slice, vector);
  }
  const uint8_t* valid = vector.validity().data() + begin;
  int64_t present = 0;
  for (int64_t i = 0; i < n; ++i) present += valid[i] != 0;
  if (present == n) {
    slice.num_values = n;
    return writers_[node.leaf]->Write(slice, vector);
  }
  if (!node.optional) return NullInRequired(node);
  def_scratch_.Resize(static_cast<size_t>(n) * sizeof(int16_t));
  // One spare slot: the branch-free loop stores every row's position before deciding to keep it.
  pos_scratch_.Resize(static_cast<size_t>(present + 1) * sizeof(int32_t));
  int16_t* def = def_scratch_.as<int16_t>();
  int32_t* pos = pos_scratch_.as<int32_t>();
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    int16_t d = valid[i] != 0;
    def[i] = d;
    pos[k] = static_cast<int32_t>(begin + i);
    k += d;
  }
  slice.def_levels = def;
  slice.num_values = present;
  slice.positions = pos;
  return writers_[node.leaf]->Write(slice, vector);
}

Status ParquetWriter::ShredNode(const WriteNode& node, const ColumnVector& vector, const Slots& in,
                                size_t depth) {
  const int16_t* in_def = in.def.as<int16_t>();
  const int16_t* in_rep = in.rep.as<int16_t>();
  const int32_t* in_pos = in.pos.as<int32_t>();
  const int16_t null_def = static_cast<int16_t>(node.def_level - 1);
  const bool nullable = node.optional;

  if (node.leaf >= 0) {
    const WriteLeaf& leaf = schema_.leaves[node.leaf];
    def_scratch_.Resize(static_cast<size_t>(in.size) * sizeof(int16_t));
    pos_scratch_.Resize(static_cast<size_t>(in.size) * sizeof(int32_t));
    int16_t* def = def_scratch_.as<int16_t>();
    int32_t* pos = pos_scratch_.as<int32_t>();
    int64_t k = 0;
    for (int64_t i = 0; i < in.size; ++i) {
      int32_t p = in_pos[i];
      if (p < 0) {
        def[i] = in_def[i];
      } else if (vector.IsNull(p)) {
        if (!nullable) return NullInRequired(node);
        def[i] = null_def;
      } else {
        def[i] = node.def_level;
        pos[k++] = p;
      }
    }
    LeafSlice slice;
    slice.num_rows = slice_rows_;
    slice.num_levels = in.size;
    slice.def_levels = leaf.max_def > 0 ? def : nullptr;
    slice.rep_levels = leaf.max_rep > 0 ? in_rep : nullptr;
    slice.num_values = k;
    slice.positions = pos;
    return writers_[node.leaf]->Write(slice, vector);
  }

  Slots& out = slots_[depth];
  const TypeRoot root = node.type->root();
  if (root == TypeRoot::kRow) {
    out.Resize(in.size);
    int16_t* def = out.def.as<int16_t>();
    int32_t* pos = out.pos.as<int32_t>();
    std::memcpy(out.rep.data(), in_rep, static_cast<size_t>(in.size) * sizeof(int16_t));
    for (int64_t i = 0; i < in.size; ++i) {
      int32_t p = in_pos[i];
      if (p >= 0 && vector.IsNull(p)) {
        if (!nullable) return NullInRequired(node);
        def[i] = null_def;
        pos[i] = -1;
      } else {
        def[i] = in_def[i];
        pos[i] = p;
      }
    }
    for (size_t f = 0; f < node.children.size(); ++f) {
      SLUICE_RETURN_NOT_OK(
          ShredNode(node.children[f], *vector.child(static_cast<int>(f)), out, depth + 1)
              .WithContext("field '" + node.type->fields()[f].name + "'"));
    }
    return Status::OK();
  }

  // ARRAY / VECTOR / MAP / MULTISET: one entry per element, an empty or null collection keeps
  // one entry that ends here.
  const int32_t* offsets = vector.offset_data();
  int64_t total = 0;
  for (int64_t i = 0; i < in.size; ++i) {
    int32_t p = in_pos[i];
    int64_t count = p >= 0 && !vector.IsNull(p) ? offsets[p + 1] - offsets[p] : 0;
    total += count > 0 ? count : 1;
  }
  out.Resize(total);
  int16_t* def = out.def.as<int16_t>();
  int16_t* rep = out.rep.as<int16_t>();
  int32_t* pos = out.pos.as<int32_t>();
  const int16_t element_rep = static_cast<int16_t>(node.rep_level + 1);
  int64_t k = 0;
  for (int64_t i = 0; i < in.size; ++i) {
    int32_t p = in_pos[i];
    if (p < 0) {
      def[k] = in_def[i];
      rep[k] = in_rep[i];
      pos[k++] = -1;
      continue;
    }
    if (vector.IsNull(p)) {
      if (!nullable) return NullInRequired(node);
      def[k] = null_def;
      rep[k] = in_rep[i];
      pos[k++] = -1;
      continue;
    }
    int32_t b = offsets[p], e = offsets[p + 1];
    if (b == e) {
      def[k] = node.def_level;
      rep[k] = in_rep[i];
      pos[k++] = -1;
      continue;
    }
    for (int32_t j = b; j < e; ++j) {
      def[k] = 0;
      rep[k] = j == b ? in_rep[i] : element_rep;
      pos[k++] = j;
    }
  }
  SLUICE_RETURN_NOT_OK(ShredNode(node.children[0], *vector.child(0), out, depth + 1));
  if (node.children.size() > 1) {
    SLUICE_RETURN_NOT_OK(ShredNode(node.children[1], *vector.child(1), out, depth + 1));
  }
  return Status::OK();
}

Status ParquetWriter::WritePageIndexes() {
  // As parquet-mr lays them out: every column index, then every offset index, before the footer.
  std::string bytes;
  size_t next = 0;
  for (RowGroup& rg : row_groups_) {
    for (ColumnChunk& chunk : rg.columns) {
      const PageIndex& index = page_indexes_[next++];
      if (!index.column_index) continue;
      bytes.clear();
      SerializeColumnIndex(*index.column_index, &bytes);
      chunk.column_index_offset = file_offset_;
      chunk.column_index_length = static_cast<int32_t>(bytes.size());
      SLUICE_RETURN_NOT_OK(file_->Append(bytes));
      file_offset_ += static_cast<int64_t>(bytes.size());
    }
  }
  next = 0;
  for (RowGroup& rg : row_groups_) {
    for (ColumnChunk& chunk : rg.columns) {
      const PageIndex& index = page_indexes_[next++];
      bytes.clear();
      SerializeOffsetIndex(index.offset_index, &bytes);
      chunk.offset_index_offset = file_offset_;
      chunk.offset_index_length = static_cast<int32_t>(bytes.size());
      SLUICE_RETURN_NOT_OK(file_->Append(bytes));
      file_offset_ += static_cast<int64_t>(bytes.size());
    }
  }
  page_indexes_.clear();
  return Status::OK();
}

int64_t ParquetWriter::BufferedSize() const {
  int64_t total = 0;
  for (const auto& w : writers_) total += w->BufferedSize();
  return total;
}

int64_t ParquetWriter::EstimatedSize() const { return file_offset_ + BufferedSize(); }

Status ParquetWriter::FlushRowGroup() {
  if (row_group_rows_ == 0) return Status::OK();
  RowGroup rg;
  rg.num_rows = row_group_rows_;
  rg.file_offset = file_offset_;
  rg.ordinal = static_cast<int16_t>(row_groups_.size());
  int64_t compressed = 0;
  for (auto& w : writers_) {
    SLUICE_ASSIGN_OR_RETURN(ColumnChunk chunk, w->FlushChunk(file_.get(), file_offset_));
    PageIndex index;
    w->TakePageIndex(&index.offset_index, &index.column_index);
    page_indexes_.push_back(std::move(index));
    const ColumnMetaData& meta = *chunk.meta_data;
    file_offset_ += meta.total_compressed_size;
    compressed += meta.total_compressed_size;
    rg.total_byte_size += meta.total_uncompressed_size;
    rg.columns.push_back(std::move(chunk));
  }
  rg.total_compressed_size = compressed;
  row_groups_.push_back(std::move(rg));
  row_group_rows_ = 0;
  return Status::OK();
}

Result<WriteResult> ParquetWriter::Finish() {
  if (finished_) return Status::Internal("Parquet writer: Finish called twice");
  finished_ = true;
  SLUICE_RETURN_NOT_OK(FlushRowGroup().WithContext("Parquet writer " + file_->path()));

  SLUICE_RETURN_NOT_OK(WritePageIndexes().WithContext("Parquet writer " + file_->path()));

  FileMetaData meta;
  meta.version = 1;
  meta.schema = schema_.elements;
  meta.num_rows = total_rows_;
  meta.row_groups = std::move(row_groups_);
  meta.created_by = kSluiceCreatedBy;
  meta.column_orders.assign(schema_.leaves.size(), ColumnOrder{});
  std::string footer;
  SerializeFileMetaData(meta, &footer);
  uint8_t len[4];
  EncodeFixed32LE(len, static_cast<uint32_t>(footer.size()));
  footer.append(reinterpret_cast<const char*>(len), 4);
  footer.append(kParquetMagic, sizeof(kParquetMagic));
  SLUICE_RETURN_NOT_OK(file_->Append(footer));
  file_offset_ += static_cast<int64_t>(footer.size());
  SLUICE_RETURN_NOT_OK(file_->Close());

  WriteResult result;
  result.row_count = total_rows_;
  result.file_size = file_offset_;
  result.stats.resize(schema_.columns.size());
  for (size_t c = 0; c < schema_.columns.size(); ++c) {
    const WriteNode& node = schema_.columns[c];
    // Paimon keeps no statistics for nested columns.
    if (node.leaf >= 0) result.stats[c] = writers_[node.leaf]->FileStats();
  }
  return result;
}

}  // namespace sluice::parquet
