#include "sluice/format/parquet/column_chunk_reader.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "sluice/base/coding.h"
#include "sluice/format/compression/codec.h"
#include "sluice/format/parquet/decoder/byte_stream_split_decoder.h"
#include "sluice/format/parquet/decoder/delta_binary_packed_decoder.h"
#include "sluice/format/parquet/decoder/delta_byte_array_decoder.h"
#include "sluice/format/parquet/decoder/delta_length_byte_array_decoder.h"
#include "sluice/format/parquet/decoder/plain_decoder.h"
#include "sluice/format/parquet/decoder/rle_bit_packed_decoder.h"
#include "sluice/format/parquet/thrift_compact_reader.h"

namespace sluice::parquet {

namespace {

// Levels per byte of compressed chunk a page may claim: a run-length-encoded all-null column
// compresses extremely well, but not without bound; this stops lying value counts from
// allocating gigabytes.
constexpr int64_t kMaxLevelsPerChunkByte = 4096;
constexpr int64_t kMinLevelBudget = int64_t{1} << 20;
// Largest page we decompress.
constexpr int64_t kMaxPageSize = int64_t{1} << 30;
// A streaming read fetches at least this much of a chunk at a time, and first tries to decode
// a page header from this many bytes.
constexpr size_t kReadAhead = size_t{1} << 20;
constexpr size_t kFirstHeaderRead = 4096;

const char* EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kPlain:
      return "PLAIN";
    case Encoding::kPlainDictionary:
      return "PLAIN_DICTIONARY";
    case Encoding::kRle:
      return "RLE";
    case Encoding::kBitPacked:
      return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary:
      return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
  }
  return "unknown";
}

Status UnsupportedEncoding(Encoding e, PhysicalType t) {
  return Status::NotSupported(
      std::string("encoding ") + EncodingName(e) + " (" + std::to_string(static_cast<int>(e)) +
      ") is not supported for physical type " + std::to_string(static_cast<int>(t)));
}

Result<CompressionKind> CodecKind(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
      return CompressionKind::kNone;
    case CompressionCodec::kSnappy:
      return CompressionKind::kSnappy;
    case CompressionCodec::kGzip:
      return CompressionKind::kGzip;
    case CompressionCodec::kLz4:
      return CompressionKind::kLz4Hadoop;
    case CompressionCodec::kZstd:
      return CompressionKind::kZstd;
    case CompressionCodec::kLz4Raw:
      return CompressionKind::kLz4Raw;
    case CompressionCodec::kBrotli:
      return Status::NotSupported("compression codec BROTLI is not supported");
    case CompressionCodec::kLzo:
      return Status::NotSupported("compression codec LZO is not supported");
  }
  return Status::NotSupported("unknown compression codec " +
                              std::to_string(static_cast<int>(codec)));
}

int64_t CountEqual(const std::vector<int16_t>& levels, size_t from, int16_t value) {
  int64_t n = 0;
  for (size_t i = from; i < levels.size(); ++i) n += levels[i] == value;
  return n;
}

// The RLE level stream at data[*header, *header + *len): a 4-byte length first in v1 pages.
Status RleLevelStream(const uint8_t* data, size_t size, bool length_prefixed, size_t* header,
                      size_t* len) {
  *header = 0;
  *len = size;
  if (!length_prefixed) return Status::OK();
  if (size < 4) return Status::Corruption("level stream length runs past the end of the page");
  *header = 4;
  *len = DecodeFixed32LE(data);
  if (*len > size - 4) {
    return Status::Corruption("level stream of " + std::to_string(*len) +
                              " bytes runs past the end of the page");
  }
  return Status::OK();
}

}  // namespace

void ColumnChunkData::DropPrefix(int64_t levels, int64_t num_values) {
  if (levels == 0) return;
  if (!def_levels.empty()) def_levels.erase(def_levels.begin(), def_levels.begin() + levels);
  if (!rep_levels.empty()) rep_levels.erase(rep_levels.begin(), rep_levels.begin() + levels);
  num_levels -= levels;
  values.DropPrefix(num_values);
}

Status ColumnChunkReader::Prepare(const ColumnChunk& chunk, ColumnChunkData* out,
                                  int64_t* start_out, int64_t* len_out) {
  if (chunk.file_path.has_value()) {
    return Status::NotSupported("column chunk stored in another file ('" + *chunk.file_path + "')");
  }
  if (!chunk.meta_data.has_value()) {
    return Status::Corruption("column chunk without metadata");
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  const SchemaElement& e = *leaf_->element;
  if (meta.type != *e.type) {
    return Status::Corruption("column chunk type " + std::to_string(static_cast<int>(meta.type)) +
                              " differs from the schema's " +
                              std::to_string(static_cast<int>(*e.type)));
  }
  int64_t start = meta.data_page_offset;
  if (meta.dictionary_page_offset.has_value() && *meta.dictionary_page_offset >= 4 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  int64_t len = meta.total_compressed_size;
  if (start < 4 || len < 0 || start > metadata_offset_ || len > metadata_offset_ - start) {
    return Status::Corruption("column chunk [" + std::to_string(start) + ", +" +
                              std::to_string(len) + ") lies outside the data area of " +
                              std::to_string(metadata_offset_) + " bytes");
  }
  if (meta.num_values < 0) return Status::Corruption("column chunk: negative num_values");
  codec_ = meta.codec;
  SLUICE_RETURN_NOT_OK(CodecKind(codec_).status());
  level_budget_ = std::max(kMinLevelBudget, len * kMaxLevelsPerChunkByte);
  if (meta.num_values > level_budget_) {
    return Status::Corruption("column chunk claims " + std::to_string(meta.num_values) +
                              " values in " + std::to_string(len) + " bytes");
  }
  level_budget_ = meta.num_values;
  levels_read_ = 0;
  meta_ = &meta;
  out->def_levels.clear();
  out->rep_levels.clear();
  out->num_levels = 0;
  out->values.Reset(*e.type, e.type_length.value_or(0));
  dictionary_ = DictionaryDecoder();
  *start_out = start;
  *len_out = len;
  return Status::OK();
}

Status ColumnChunkReader::Read(const ColumnChunk& chunk, ColumnChunkData* out) {
  int64_t start, len;
  SLUICE_RETURN_NOT_OK(Prepare(chunk, out, &start, &len));
  const ColumnMetaData& meta = *chunk.meta_data;
  bool done = false;
  if (offset_index_ != nullptr && wanted_rows_ != nullptr && leaf_->rep_level == 0) {
    SLUICE_ASSIGN_OR_RETURN(done, ReadIndexedPages(meta, start, len, out));
  }
  if (!done) {
    chunk_buf_.Resize(static_cast<size_t>(len));
    SLUICE_RETURN_NOT_OK(file_->ReadAt(start, len, chunk_buf_.data()));
    SLUICE_RETURN_NOT_OK(ReadPages(meta, chunk_buf_.data(), static_cast<size_t>(len), out));
  }
  if (levels_read_ != meta.num_values) {
    return Status::Corruption("column chunk holds " + std::to_string(levels_read_) +
                              " values, its metadata says " + std::to_string(meta.num_values));
  }
  return Status::OK();
}

Status ColumnChunkReader::Open(const ColumnChunk& chunk, ColumnChunkData* out) {
  int64_t start, len;
  SLUICE_RETURN_NOT_OK(Prepare(chunk, out, &start, &len));
  stream_start_ = start;
  stream_pos_ = 0;
  stream_size_ = static_cast<size_t>(len);
  stream_page_ = 0;
  window_begin_ = 0;
  window_size_ = 0;
  return Status::OK();
}

Status ColumnChunkReader::Fill(size_t pos, size_t need) {
  if (pos >= window_begin_ && pos + need <= window_begin_ + window_size_) return Status::OK();
  size_t len = std::min(std::max(need, kReadAhead), stream_size_ - pos);
  chunk_buf_.Resize(len);
  SLUICE_RETURN_NOT_OK(file_->ReadAt(stream_start_ + static_cast<int64_t>(pos),
                                     static_cast<int64_t>(len), chunk_buf_.data()));
  window_begin_ = pos;
  window_size_ = len;
  return Status::OK();
}

Result<bool> ColumnChunkReader::DecodePage(ColumnChunkData* out) {
  while (stream_pos_ < stream_size_ && levels_read_ < meta_->num_values) {
    const size_t left = stream_size_ - stream_pos_;
    // The header first (growing the read while it is cut off), then the whole page.
    size_t need = std::min(kFirstHeaderRead, left);
    size_t page_len = left;
    while (true) {
      SLUICE_RETURN_NOT_OK(Fill(stream_pos_, need));
      const size_t avail = window_begin_ + window_size_ - stream_pos_;
      PageHeader header;
      size_t header_len = 0;
      const uint8_t* at = chunk_buf_.data() + (stream_pos_ - window_begin_);
      if (DecodePageHeader(std::string_view(reinterpret_cast<const char*>(at), avail), &header,
                           &header_len)
              .ok()) {
        if (header.compressed_page_size >= 0 &&
            static_cast<uint64_t>(header.compressed_page_size) <= left - header_len) {
          page_len = header_len + static_cast<size_t>(header.compressed_page_size);
        }
        break;
      }
      if (avail >= left) break;  // ReadPage reports the bad header.
      need = std::min(left, avail * 4);
    }
    SLUICE_RETURN_NOT_OK(Fill(stream_pos_, page_len));
    size_t pos = 0;
    bool data_page = false;
    SLUICE_RETURN_NOT_OK(ReadPage(*meta_, chunk_buf_.data() + (stream_pos_ - window_begin_),
                                  page_len, stream_pos_, &pos, stream_page_++, out, &data_page));
    stream_pos_ += pos;
    if (data_page) return true;
  }
  if (levels_read_ != meta_->num_values) {
    return Status::Corruption("column chunk holds " + std::to_string(levels_read_) +
                              " values, its metadata says " + std::to_string(meta_->num_values));
  }
  return false;
}

Status ColumnChunkReader::ReadPages(const ColumnMetaData& meta, const uint8_t* data, size_t size,
                                    ColumnChunkData* out) {
  size_t pos = 0;
  int page_index = 0;
  while (pos < size && levels_read_ < meta.num_values) {
    bool data_page = false;
    SLUICE_RETURN_NOT_OK(ReadPage(meta, data, size, 0, &pos, page_index++, out, &data_page));
  }
  return Status::OK();
}

Status ColumnChunkReader::ReadPage(const ColumnMetaData& meta, const uint8_t* data, size_t size,
                                   size_t base, size_t* pos, int page_index, ColumnChunkData* out,
                                   bool* data_page) {
  PageHeader header;
  size_t header_len = 0;
  SLUICE_RETURN_NOT_OK_CTX(
      DecodePageHeader(std::string_view(reinterpret_cast<const char*>(data + *pos), size - *pos),
                       &header, &header_len),
      "page " + std::to_string(page_index) + " header at chunk offset " +
          std::to_string(base + *pos));
  *pos += header_len;
  if (header.compressed_page_size < 0 ||
      static_cast<size_t>(header.compressed_page_size) > size - *pos) {
    return Status::Corruption("page " + std::to_string(page_index) + ": compressed size " +
                              std::to_string(header.compressed_page_size) +
                              " runs past the end of the column chunk");
  }
  if (header.uncompressed_page_size < 0 || header.uncompressed_page_size > kMaxPageSize) {
    return Status::Corruption("page " + std::to_string(page_index) +
                              ": invalid uncompressed size " +
                              std::to_string(header.uncompressed_page_size));
  }
  const uint8_t* page = data + *pos;
  size_t page_size = static_cast<size_t>(header.compressed_page_size);
  *pos += page_size;
  Status st;
  switch (header.type) {
    case PageType::kDictionaryPage: {
      if (!header.dictionary_page_header) {
        st = Status::Corruption("dictionary page without a dictionary page header");
        break;
      }
      const DictionaryPageHeader& dh = *header.dictionary_page_header;
      if (dh.encoding != Encoding::kPlain && dh.encoding != Encoding::kPlainDictionary) {
        st = UnsupportedEncoding(dh.encoding, meta.type);
        break;
      }
      if (dh.num_values < 0 || static_cast<uint64_t>(dh.num_values) >
                                   static_cast<uint64_t>(header.uncompressed_page_size) * 8) {
        st = Status::Corruption("dictionary page claims " + std::to_string(dh.num_values) +
                                " values");
        break;
      }
      const uint8_t* body;
      st = Decompress(page, page_size, static_cast<size_t>(header.uncompressed_page_size), &body);
      if (!st.ok()) break;
      const SchemaElement& e = *leaf_->element;
      st = dictionary_.SetDictionary(*e.type, e.type_length.value_or(0), body,
                                     static_cast<size_t>(header.uncompressed_page_size),
                                     dh.num_values);
      break;
    }
    case PageType::kDataPage:
    case PageType::kDataPageV2: {
      const bool v1 = header.type == PageType::kDataPage;
      if (v1 ? !header.data_page_header : !header.data_page_header_v2) {
        st = Status::Corruption(v1 ? "data page without a data page header"
                                   : "data page v2 without a data page v2 header");
        break;
      }
      int64_t n = v1 ? header.data_page_header->num_values : header.data_page_header_v2->num_values;
      // In a flat column every level is a row: a page without wanted rows is not decoded.
      if (wanted_rows_ != nullptr && leaf_->rep_level == 0 && n >= 0 &&
          n <= level_budget_ - levels_read_ && !Wanted(levels_read_, levels_read_ + n)) {
        *data_page = true;
        AppendPlaceholders(n, out);
        break;
      }
      *data_page = true;
      st = v1 ? ReadDataPageV1(header, page, page_size, out)
              : ReadDataPageV2(header, page, page_size, out);
      break;
    }
    default:
      break;  // Index pages and unknown page types carry nothing we need.
  }
  return st.WithContext("page " + std::to_string(page_index));
}

Result<bool> ColumnChunkReader::ReadIndexedPages(const ColumnMetaData& meta, int64_t start,
                                                 int64_t len, ColumnChunkData* out) {
  const std::vector<PageLocation>& pages = offset_index_->page_locations;
  if (pages.empty() || pages[0].first_row_index != 0) return false;
  for (size_t k = 0; k < pages.size(); ++k) {
    const PageLocation& p = pages[k];
    int64_t next_row = k + 1 < pages.size() ? pages[k + 1].first_row_index : row_group_rows_;
    int64_t limit = k + 1 < pages.size() ? pages[k + 1].offset : start + len;
    if (p.offset < start || p.compressed_page_size <= 0 || p.first_row_index >= next_row ||
        p.offset > limit || p.compressed_page_size > limit - p.offset) {
      return false;
    }
  }
  // The dictionary page (if any) lies before the first data page.
  size_t prefix = static_cast<size_t>(pages[0].offset - start);
  if (prefix > 0) {
    chunk_buf_.Resize(prefix);
    SLUICE_RETURN_NOT_OK(file_->ReadAt(start, static_cast<int64_t>(prefix), chunk_buf_.data()));
    SLUICE_RETURN_NOT_OK(ReadPages(meta, chunk_buf_.data(), prefix, out));
    if (levels_read_ != 0) {
      return Status::Corruption("offset index: data pages before the first indexed page");
    }
  }
  for (size_t k = 0; k < pages.size(); ++k) {
    const PageLocation& p = pages[k];
    int64_t next_row = k + 1 < pages.size() ? pages[k + 1].first_row_index : row_group_rows_;
    if (levels_read_ != p.first_row_index) {
      return Status::Corruption("offset index: page " + std::to_string(k) + " starts at row " +
                                std::to_string(p.first_row_index) + ", the pages before hold " +
                                std::to_string(levels_read_));
    }
    if (!Wanted(p.first_row_index, next_row)) {
      if (next_row - p.first_row_index > level_budget_ - levels_read_) {
        return Status::Corruption("offset index: more rows than the column chunk holds");
      }
      AppendPlaceholders(next_row - p.first_row_index, out);
      continue;
    }
    chunk_buf_.Resize(static_cast<size_t>(p.compressed_page_size));
    SLUICE_RETURN_NOT_OK(file_->ReadAt(p.offset, p.compressed_page_size, chunk_buf_.data()));
    SLUICE_RETURN_NOT_OK_CTX(
        ReadPages(meta, chunk_buf_.data(), static_cast<size_t>(p.compressed_page_size), out),
        "indexed page " + std::to_string(k));
  }
  return true;
}

bool ColumnChunkReader::Wanted(int64_t begin, int64_t end) const {
  // The first range ending after `begin`.
  auto it = std::upper_bound(
      wanted_rows_->begin(), wanted_rows_->end(), begin,
      [](int64_t row, const std::pair<int64_t, int64_t>& r) { return row < r.second; });
  return it != wanted_rows_->end() && it->first < end;
}

void ColumnChunkReader::AppendPlaceholders(int64_t n, ColumnChunkData* out) {
  if (leaf_->def_level > 0) {
    out->MaterializeDefLevels(leaf_->def_level);
    out->def_levels.resize(out->def_levels.size() + static_cast<size_t>(n), 0);
  } else if (out->values.is_byte_array()) {
    // Empty values cannot pass the 2 GiB limit that AppendBytes checks.
    for (int64_t i = 0; i < n; ++i) out->values.AppendBytes(nullptr, 0).IgnoreError();
  } else if (n > 0) {
    std::memset(out->values.AppendFixed(n), 0,
                static_cast<size_t>(n) * static_cast<size_t>(out->values.width()));
  }
  out->num_levels += n;
  levels_read_ += n;
}

Status ColumnChunkReader::Decompress(const uint8_t* in, size_t in_size, size_t out_size,
                                     const uint8_t** out) {
  SLUICE_ASSIGN_OR_RETURN(CompressionKind kind, CodecKind(codec_));
  if (kind == CompressionKind::kNone) {
    if (in_size < out_size) {
      return Status::Corruption("uncompressed page of " + std::to_string(in_size) +
                                " bytes claims " + std::to_string(out_size));
    }
    *out = in;
    return Status::OK();
  }
  page_buf_.Resize(out_size);
  SLUICE_RETURN_NOT_OK(GetCodec(kind).DecompressExact(
      std::string_view(reinterpret_cast<const char*>(in), in_size), page_buf_.data(), out_size));
  *out = page_buf_.data();
  return Status::OK();
}

Status ColumnChunkReader::DecodeLevels(Encoding encoding, int16_t max_level, const uint8_t* data,
                                       size_t size, int64_t count, bool length_prefixed,
                                       std::vector<int16_t>* levels, size_t* consumed) {
  size_t old = levels->size();
  levels->resize(old + static_cast<size_t>(count));
  int16_t* dst = levels->data() + old;
  int bit_width = BitWidthFor(static_cast<uint64_t>(max_level));
  if (encoding == Encoding::kRle) {
    size_t header, len;
    SLUICE_RETURN_NOT_OK(RleLevelStream(data, size, length_prefixed, &header, &len));
    RleBitPackedDecoder rle(data + header, len, bit_width);
    SLUICE_RETURN_NOT_OK_CTX(rle.Decode(dst, count), "levels");
    *consumed = header + len;
  } else if (encoding == Encoding::kBitPacked) {
    // Deprecated BIT_PACKED levels: packed from the most significant bit of each byte.
    uint64_t bits = static_cast<uint64_t>(count) * static_cast<uint64_t>(bit_width);
    uint64_t bytes = (bits + 7) / 8;
    if (bytes > size) return Status::Corruption("BIT_PACKED levels run past the end of the page");
    uint64_t bit = 0;
    for (int64_t i = 0; i < count; ++i) {
      int v = 0;
      for (int b = 0; b < bit_width; ++b, ++bit) {
        v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
      }
      dst[i] = static_cast<int16_t>(v);
    }
    *consumed = bytes;
  } else {
    return Status::NotSupported(std::string("level encoding ") + EncodingName(encoding));
  }
  // When the bit width cannot hold a level above the maximum, there is nothing to check.
  if (max_level == (1 << bit_width) - 1) return Status::OK();
  int16_t max_seen = 0;
  for (int64_t i = 0; i < count; ++i) max_seen = std::max(max_seen, dst[i]);
  if (max_seen > max_level) {
    return Status::Corruption("level " + std::to_string(max_seen) + " exceeds the maximum " +
                              std::to_string(max_level));
  }
  return Status::OK();
}

Status ColumnChunkReader::DecodeDefLevels(Encoding encoding, const uint8_t* data, size_t size,
                                          int64_t count, bool length_prefixed, ColumnChunkData* out,
                                          int64_t* present, size_t* consumed) {
  const int16_t max = leaf_->def_level;
  if (encoding == Encoding::kRle && out->def_levels.empty()) {
    size_t header, len;
    SLUICE_RETURN_NOT_OK(RleLevelStream(data, size, length_prefixed, &header, &len));
    RleBitPackedDecoder rle(data + header, len, BitWidthFor(static_cast<uint64_t>(max)));
    if (rle.NextAreRepeated(static_cast<uint64_t>(max), count)) {
      *present = count;
      *consumed = header + len;
      return Status::OK();
    }
  }
  out->MaterializeDefLevels(max);
  size_t from = out->def_levels.size();
  SLUICE_RETURN_NOT_OK(
      DecodeLevels(encoding, max, data, size, count, length_prefixed, &out->def_levels, consumed));
  *present = CountEqual(out->def_levels, from, max);
  return Status::OK();
}

Status ColumnChunkReader::ReadDataPageV1(const PageHeader& header, const uint8_t* page, size_t size,
                                         ColumnChunkData* out) {
  const DataPageHeader& dh = *header.data_page_header;
  if (dh.num_values < 0 || dh.num_values > level_budget_ - levels_read_) {
    return Status::Corruption("data page claims " + std::to_string(dh.num_values) +
                              " values, more than the column chunk's " +
                              std::to_string(level_budget_));
  }
  const uint8_t* body;
  SLUICE_RETURN_NOT_OK(
      Decompress(page, size, static_cast<size_t>(header.uncompressed_page_size), &body));
  size_t body_size = static_cast<size_t>(header.uncompressed_page_size);
  size_t pos = 0, used = 0;
  const int64_t n = dh.num_values;
  if (leaf_->rep_level > 0) {
    SLUICE_RETURN_NOT_OK_CTX(DecodeLevels(dh.repetition_level_encoding, leaf_->rep_level, body,
                                          body_size, n, true, &out->rep_levels, &used),
                             "repetition levels");
    pos += used;
  }
  int64_t present = n;
  if (leaf_->def_level > 0) {
    SLUICE_RETURN_NOT_OK_CTX(DecodeDefLevels(dh.definition_level_encoding, body + pos,
                                             body_size - pos, n, true, out, &present, &used),
                             "definition levels");
    pos += used;
  }
  out->num_levels += n;
  levels_read_ += n;
  return DecodeValues(dh.encoding, body + pos, body_size - pos, present, &out->values);
}

Status ColumnChunkReader::ReadDataPageV2(const PageHeader& header, const uint8_t* page, size_t size,
                                         ColumnChunkData* out) {
  const DataPageHeaderV2& dh = *header.data_page_header_v2;
  if (dh.num_values < 0 || dh.num_values > level_budget_ - levels_read_) {
    return Status::Corruption("data page v2 claims " + std::to_string(dh.num_values) +
                              " values, more than the column chunk's " +
                              std::to_string(level_budget_));
  }
  if (dh.repetition_levels_byte_length < 0 || dh.definition_levels_byte_length < 0 ||
      static_cast<uint64_t>(dh.repetition_levels_byte_length) +
              static_cast<uint64_t>(dh.definition_levels_byte_length) >
          std::min<uint64_t>(size, static_cast<uint64_t>(header.uncompressed_page_size))) {
    return Status::Corruption("data page v2 level lengths run past the end of the page");
  }
  const int64_t n = dh.num_values;
  size_t rep_len = static_cast<size_t>(dh.repetition_levels_byte_length);
  size_t def_len = static_cast<size_t>(dh.definition_levels_byte_length);
  size_t used = 0;
  if (leaf_->rep_level > 0) {
    SLUICE_RETURN_NOT_OK_CTX(DecodeLevels(Encoding::kRle, leaf_->rep_level, page, rep_len, n, false,
                                          &out->rep_levels, &used),
                             "repetition levels");
  }
  int64_t present = n;
  if (leaf_->def_level > 0) {
    SLUICE_RETURN_NOT_OK_CTX(
        DecodeDefLevels(Encoding::kRle, page + rep_len, def_len, n, false, out, &present, &used),
        "definition levels");
  }
  out->num_levels += n;
  levels_read_ += n;
  size_t levels_len = rep_len + def_len;
  size_t values_size = static_cast<size_t>(header.uncompressed_page_size) - levels_len;
  const uint8_t* values = page + levels_len;
  if (dh.is_compressed.value_or(true) && codec_ != CompressionCodec::kUncompressed) {
    if (values_size == 0 && size == levels_len) {
      // An empty compressed section (all values null) may be omitted entirely.
      return DecodeValues(dh.encoding, values, 0, present, &out->values);
    }
    SLUICE_RETURN_NOT_OK(Decompress(values, size - levels_len, values_size, &values));
  } else if (values_size > size - levels_len) {
    return Status::Corruption("data page v2 values run past the end of the page");
  }
  return DecodeValues(dh.encoding, values, values_size, present, &out->values);
}

Status ColumnChunkReader::DecodeValues(Encoding encoding, const uint8_t* data, size_t size,
                                       int64_t count, ColumnValues* out) {
  const PhysicalType type = out->type();
  size_t used = 0;
  switch (encoding) {
    case Encoding::kPlain:
      return DecodePlain(data, size, count, out, &used);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return dictionary_.Decode(data, size, count, out);
    case Encoding::kRle: {
      if (type != PhysicalType::kBoolean) return UnsupportedEncoding(encoding, type);
      if (count == 0) return Status::OK();
      if (size < 4) return Status::Corruption("RLE booleans: missing length");
      uint32_t len = DecodeFixed32LE(data);
      if (len > size - 4) return Status::Corruption("RLE booleans run past the end of the page");
      RleBitPackedDecoder rle(data + 4, len, 1);
      return rle.Decode(out->AppendFixed(count), count);
    }
    case Encoding::kDeltaBinaryPacked: {
      if (type != PhysicalType::kInt32 && type != PhysicalType::kInt64) {
        return UnsupportedEncoding(encoding, type);
      }
      if (count == 0) return Status::OK();
      DeltaBinaryPackedDecoder d;
      SLUICE_RETURN_NOT_OK(d.Init(data, size));
      if (d.total_count() < count) {
        return Status::Corruption("DELTA_BINARY_PACKED holds " + std::to_string(d.total_count()) +
                                  " values, the page needs " + std::to_string(count));
      }
      scratch64_.resize(static_cast<size_t>(count));
      SLUICE_RETURN_NOT_OK(d.Decode(scratch64_.data(), count));
      uint8_t* dst = out->AppendFixed(count);
      if (type == PhysicalType::kInt64) {
        std::memcpy(dst, scratch64_.data(), static_cast<size_t>(count) * 8);
      } else {
        int32_t* d32 = reinterpret_cast<int32_t*>(dst);
        for (int64_t i = 0; i < count; ++i) d32[i] = static_cast<int32_t>(scratch64_[i]);
      }
      return Status::OK();
    }
    case Encoding::kDeltaLengthByteArray:
      if (type != PhysicalType::kByteArray) return UnsupportedEncoding(encoding, type);
      if (count == 0) return Status::OK();
      return DecodeDeltaLengthByteArray(data, size, count, out);
    case Encoding::kDeltaByteArray:
      if (type != PhysicalType::kByteArray && type != PhysicalType::kFixedLenByteArray) {
        return UnsupportedEncoding(encoding, type);
      }
      if (count == 0) return Status::OK();
      return DecodeDeltaByteArray(data, size, count, out);
    case Encoding::kByteStreamSplit:
      return DecodeByteStreamSplit(data, size, count, out);
    default:
      return UnsupportedEncoding(encoding, type);
  }
}

}  // namespace sluice::parquet
