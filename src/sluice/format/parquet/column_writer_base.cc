#include "sluice/format/parquet/column_writer_base.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "sluice/base/coding.h"
#include "sluice/format/parquet/encoder/dictionary_encoder.h"
#include "sluice/format/parquet/encoder/plain_encoder.h"
#include "sluice/format/parquet/encoder/rle_bit_packed_encoder.h"
#include "sluice/format/parquet/thrift_compact_writer.h"
#include "sluice/types/decimal_math.h"

namespace sluice::parquet {
namespace {

CompressionCodec ToParquetCodec(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone:
      return CompressionCodec::kUncompressed;
    case CompressionKind::kSnappy:
      return CompressionCodec::kSnappy;
    case CompressionKind::kGzip:
      return CompressionCodec::kGzip;
    case CompressionKind::kLz4Raw:
      return CompressionCodec::kLz4Raw;
    case CompressionKind::kLz4Hadoop:
      return CompressionCodec::kLz4;
    case CompressionKind::kZstd:
      return CompressionCodec::kZstd;
    default:
      return CompressionCodec::kUncompressed;
  }
}

}  // namespace

std::string Int128ToString(int128_t v) { return Decimal{v, 38, 0}.ToString(); }

Status ColumnWriterBase::WritePage(PageType type, std::string_view body, int32_t num_values,
                                   Encoding encoding, Buffer* dest, int64_t* page_bytes) {
  // Page sizes are int32 in the page header.
  constexpr size_t kMaxPageBytes = std::numeric_limits<int32_t>::max() - 1024;
  if (body.size() > kMaxPageBytes) {
    return Status::NotSupported("Parquet writer: column '" + leaf_.path.front() + "': a page of " +
                                std::to_string(body.size()) + " bytes exceeds 2 GiB");
  }
  std::string_view stored = body;
  if (codec_.kind() != CompressionKind::kNone) {
    compressed_.Clear();
    SLUICE_RETURN_NOT_OK(codec_.Compress(body, options_.compression_level, &compressed_));
    stored = compressed_.view();
  }
  PageHeader header;
  header.type = type;
  header.uncompressed_page_size = static_cast<int32_t>(body.size());
  header.compressed_page_size = static_cast<int32_t>(stored.size());
  if (type == PageType::kDictionaryPage) {
    DictionaryPageHeader d;
    d.num_values = num_values;
    d.encoding = Encoding::kPlainDictionary;
    header.dictionary_page_header = d;
  } else {
    DataPageHeader d;
    d.num_values = num_values;
    d.encoding = encoding;
    d.definition_level_encoding = Encoding::kRle;
    d.repetition_level_encoding = Encoding::kRle;
    header.data_page_header = d;
  }
  header_.clear();
  SerializePageHeader(header, &header_);
  dest->Append(header_);
  dest->Append(stored);
  chunk_uncompressed_ += static_cast<int64_t>(header_.size() + body.size());
  *page_bytes = static_cast<int64_t>(header_.size() + stored.size());
  return Status::OK();
}

Status ColumnWriterBase::FlushPage() {
  if (page_levels_ == 0) return Status::OK();
  if (dictionary_mode()) CheckDictionaryAtPageEnd();
  bool dict = dictionary_mode();
  page_body_.Clear();
  auto put_levels = [&](const Buffer& levels, int16_t max_level) {
    size_t len_at = page_body_.size();
    page_body_.Resize(len_at + 4);
    EncodeRleBitPacked(levels.as<int16_t>(), page_levels_, BitWidthOf(max_level), &page_body_);
    EncodeFixed32LE(page_body_.data() + len_at,
                    static_cast<uint32_t>(page_body_.size() - len_at - 4));
  };
  if (leaf_.max_rep > 0) put_levels(rep_levels_, leaf_.max_rep);
  if (leaf_.max_def > 0) put_levels(def_levels_, leaf_.max_def);
  EncodePageValues(&page_body_);
  EndPageStatistics();
  int64_t page_offset = static_cast<int64_t>(chunk_pages_.size());
  int64_t page_bytes = 0;
  SLUICE_RETURN_NOT_OK(
      WritePage(PageType::kDataPage, page_body_.view(), static_cast<int32_t>(page_levels_),
                dict ? Encoding::kPlainDictionary : Encoding::kPlain, &chunk_pages_, &page_bytes));
  (dict ? dictionary_data_pages_ : plain_data_pages_)++;
  page_records_.push_back({page_offset, static_cast<int32_t>(page_bytes), chunk_rows_, page_nulls_,
                           page_nulls_ == page_levels_});
  chunk_rows_ += page_rows_;
  def_levels_.Clear();
  rep_levels_.Clear();
  page_levels_ = 0;
  page_rows_ = 0;
  page_nulls_ = 0;
  return Status::OK();
}

Result<ColumnChunk> ColumnWriterBase::FlushChunk(WritableFile* file, int64_t file_offset) {
  SLUICE_RETURN_NOT_OK(FlushPage());
  ColumnMetaData meta;
  meta.type = leaf_.physical_type;
  meta.path_in_schema = leaf_.path;
  meta.codec = ToParquetCodec(options_.compression);
  meta.num_values = chunk_levels_;

  int64_t offset = file_offset;
  int64_t compressed_total = 0;
  Buffer dictionary_page;
  int32_t entries = 0;
  page_body_.Clear();
  if (EncodeDictionaryPage(&page_body_, &entries)) {
    int64_t page_bytes = 0;
    SLUICE_RETURN_NOT_OK(WritePage(PageType::kDictionaryPage, page_body_.view(), entries,
                                   Encoding::kPlainDictionary, &dictionary_page, &page_bytes));
    SLUICE_RETURN_NOT_OK(file->Append(dictionary_page.view()));
    meta.dictionary_page_offset = offset;
    offset += page_bytes;
    compressed_total += page_bytes;
    meta.encoding_stats.push_back({PageType::kDictionaryPage, Encoding::kPlainDictionary, 1});
  }
  meta.data_page_offset = offset;
  SLUICE_RETURN_NOT_OK(file->Append(chunk_pages_.view()));
  compressed_total += static_cast<int64_t>(chunk_pages_.size());

  if (meta.dictionary_page_offset) meta.encodings.push_back(Encoding::kPlainDictionary);
  meta.encodings.push_back(Encoding::kRle);
  if (plain_data_pages_ > 0) meta.encodings.push_back(Encoding::kPlain);
  if (dictionary_data_pages_ > 0) {
    meta.encoding_stats.push_back(
        {PageType::kDataPage, Encoding::kPlainDictionary, dictionary_data_pages_});
  }
  if (plain_data_pages_ > 0) {
    meta.encoding_stats.push_back({PageType::kDataPage, Encoding::kPlain, plain_data_pages_});
  }
  meta.total_uncompressed_size = chunk_uncompressed_;
  meta.total_compressed_size = compressed_total;
  meta.statistics = ChunkStatistics();

  // Page index (parquet-mr writes one for every column chunk).
  offset_index_ = OffsetIndex();
  ColumnIndex column_index;
  for (const PageRecord& page : page_records_) {
    offset_index_.page_locations.push_back(
        {meta.data_page_offset + page.offset, page.size, page.first_row});
    column_index.null_pages.push_back(page.all_null);
    column_index.null_counts.push_back(page.nulls);
  }
  column_index_.reset();
  if (FillColumnIndex(&column_index)) column_index_ = std::move(column_index);

  ColumnChunk chunk;
  chunk.file_offset = file_offset;
  chunk.meta_data = std::move(meta);

  file_nulls_ += chunk_nulls_;
  page_records_.clear();
  chunk_rows_ = 0;
  ResetChunk();
  chunk_pages_.Clear();
  chunk_levels_ = 0;
  chunk_nulls_ = 0;
  chunk_uncompressed_ = 0;
  dictionary_data_pages_ = 0;
  plain_data_pages_ = 0;
  return chunk;
}

}  // namespace sluice::parquet
