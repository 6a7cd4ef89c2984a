#include "sluice/format/orc/orc_reader.h"

#include <algorithm>
#include <unordered_map>

#include "sluice/format/orc/bloom_filter.h"
#include "sluice/format/orc/orc_statistics.h"
#include "sluice/predicate/predicate.h"

namespace sluice::orc {

namespace {

constexpr uint64_t kMaxPostScriptLength = 255;
// Chunk lengths have 23 bits; a larger block size is a corrupt postscript.
constexpr uint64_t kMaxBlockSize = uint64_t{1} << 23;
constexpr int64_t kTailReadSize = 16 * 1024;

Status ValidateTypes(const std::vector<OrcType>& types) {
  if (types.empty()) return Status::Corruption("footer has no types");
  for (size_t i = 0; i < types.size(); ++i) {
    const OrcType& t = types[i];
    for (uint32_t s : t.subtypes) {
      // Pre-order numbering: children come after their parent, which also rules out cycles.
      if (s <= i || s >= types.size()) {
        return Status::Corruption("type " + std::to_string(i) + " has subtype id " +
                                  std::to_string(s) + " out of range");
      }
    }
    size_t expected = t.subtypes.size();
    switch (t.kind) {
      case OrcTypeKind::kStruct:
        if (t.field_names.size() != t.subtypes.size()) {
          return Status::Corruption("struct type " + std::to_string(i) + " has " +
                                    std::to_string(t.field_names.size()) + " names for " +
                                    std::to_string(t.subtypes.size()) + " fields");
        }
        break;
      case OrcTypeKind::kList:
        expected = 1;
        break;
      case OrcTypeKind::kMap:
        expected = 2;
        break;
      case OrcTypeKind::kUnion:
        break;
      default:
        expected = 0;
        break;
    }
    if (t.subtypes.size() != expected) {
      return Status::Corruption(std::string(OrcTypeKindName(t.kind)) + " type " +
                                std::to_string(i) + " has " + std::to_string(t.subtypes.size()) +
                                " subtypes");
    }
    if (t.kind == OrcTypeKind::kDecimal && (t.precision > 38 || t.scale > 38)) {
      return Status::Corruption("decimal type " + std::to_string(i) + " has precision " +
                                std::to_string(t.precision) + ", scale " + std::to_string(t.scale));
    }
  }
  return Status::OK();
}

Result<int32_t> FieldIdOf(const OrcType& t, int32_t fallback) {
  const std::string* id = t.FindAttribute("paimon.id");
  if (id == nullptr) return fallback;
  char* end = nullptr;
  long long v = std::strtoll(id->c_str(), &end, 10);
  if (end == id->c_str() || *end != '\0') return fallback;
  return static_cast<int32_t>(v);
}

Result<DataTypePtr> ConvertType(const std::vector<OrcType>& types, uint32_t column,
                                const std::string& path) {
  const OrcType& t = types[column];
  switch (t.kind) {
    case OrcTypeKind::kBoolean:
      return DataType::Boolean();
    case OrcTypeKind::kByte:
      return DataType::TinyInt();
    case OrcTypeKind::kShort:
      return DataType::SmallInt();
    case OrcTypeKind::kInt:
      return DataType::Int();
    case OrcTypeKind::kLong:
      return DataType::BigInt();
    case OrcTypeKind::kFloat:
      return DataType::Float();
    case OrcTypeKind::kDouble:
      return DataType::Double();
    case OrcTypeKind::kString:
      return DataType::String();
    case OrcTypeKind::kVarchar:
      return DataType::VarChar(t.maximum_length == 0 ? DataType::kMaxLength
                                                     : static_cast<int32_t>(t.maximum_length));
    case OrcTypeKind::kChar:
      return DataType::Char(t.maximum_length == 0 ? 1 : static_cast<int32_t>(t.maximum_length));
    case OrcTypeKind::kBinary:
      return DataType::Bytes();
    case OrcTypeKind::kDecimal:
      // Hive 0.11 decimals have no precision: Java ORC reads them as decimal(38, 10).
      if (t.precision == 0) return DataType::Decimal(38, 10);
      return DataType::Decimal(static_cast<int32_t>(t.precision), static_cast<int32_t>(t.scale));
    case OrcTypeKind::kDate:
      return DataType::Date();
    case OrcTypeKind::kTimestamp:
      return DataType::Timestamp(9);
    case OrcTypeKind::kTimestampInstant:
      return DataType::TimestampLtz(9);
    case OrcTypeKind::kList: {
      SLUICE_ASSIGN_OR_RETURN(auto e, ConvertType(types, t.subtypes[0], path + "[]"));
      return DataType::Array(e);
    }
    case OrcTypeKind::kMap: {
      SLUICE_ASSIGN_OR_RETURN(auto k, ConvertType(types, t.subtypes[0], path + ".key"));
      SLUICE_ASSIGN_OR_RETURN(auto v, ConvertType(types, t.subtypes[1], path + ".value"));
      return DataType::Map(k, v);
    }
    case OrcTypeKind::kStruct: {
      std::vector<DataField> fields;
      for (size_t i = 0; i < t.subtypes.size(); ++i) {
        DataField f;
        SLUICE_ASSIGN_OR_RETURN(f.id, FieldIdOf(types[t.subtypes[i]], static_cast<int32_t>(i)));
        f.name = t.field_names[i];
        SLUICE_ASSIGN_OR_RETURN(
            f.type, ConvertType(types, t.subtypes[i], path.empty() ? f.name : path + "." + f.name));
        fields.push_back(std::move(f));
      }
      return DataType::Row(std::move(fields));
    }
    case OrcTypeKind::kUnion:
      return Status::NotSupported("column '" + path + "': ORC union types are not supported");
  }
  return Status::NotSupported("column '" + path + "': unknown ORC type");
}

void CollectColumns(const std::vector<OrcType>& types, uint32_t column,
                    std::vector<uint8_t>* selected) {
  (*selected)[column] = 1;
  for (uint32_t s : types[column].subtypes) CollectColumns(types, s, selected);
}

std::string StreamKindName(uint32_t kind) {
  static constexpr const char* kNames[] = {
      "PRESENT",   "DATA",      "LENGTH",       "DICTIONARY_DATA",  "DICTIONARY_COUNT",
      "SECONDARY", "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8"};
  return kind < std::size(kNames) ? kNames[kind] : "kind " + std::to_string(kind);
}

uint64_t StreamKey(uint32_t column, StreamKind kind) {
  return (uint64_t{column} << 8) | static_cast<uint64_t>(kind);
}

}  // namespace

// ---------------------------------------------------------------- StripeData

class OrcReader::StripeData : public StripeStreams {
 public:
  StripeData() { empty_.data.Reserve(1); }
  const DecodedStream& Stream(uint32_t column, StreamKind kind) const override {
    auto it = streams_.find(StreamKey(column, kind));
    return it == streams_.end() || !present_.count(StreamKey(column, kind)) ? empty_ : it->second;
  }
  bool HasStream(uint32_t column, StreamKind kind) const override {
    return present_.count(StreamKey(column, kind)) > 0;
  }
  const ColumnEncoding& Encoding(uint32_t column) const override { return footer_.columns[column]; }
  const TimeZone& WriterTimeZone() const override { return *zone_; }
  bool Decimal64AsRle() const override { return decimal64_rle_; }

  StripeFooter footer_;
  // Decoded streams are kept across stripes so their buffers are reused.
  std::unordered_map<uint64_t, DecodedStream> streams_;
  std::unordered_map<uint64_t, bool> present_;
  DecodedStream empty_;
  std::shared_ptr<const TimeZone> zone_;
  bool decimal64_rle_ = false;
  // Row index and UTF-8 bloom filters per ORC column (empty when not loaded).
  std::vector<std::vector<RowIndexEntry>> row_index_;
  std::vector<std::vector<BloomFilter>> bloom_;
  // Whether bloom_[c] came from a BLOOM_FILTER_UTF8 stream: the older BLOOM_FILTER hashed
  // strings in the writer's platform charset, so only its integer filters are trusted.
  std::vector<uint8_t> bloom_utf8_;
  int64_t rows_ = 0;
};

// ---------------------------------------------------------------- tail

Result<OrcFileTail> ReadOrcTail(const RandomAccessFile& file) {
  auto ctx = [&]() { return "ORC file '" + file.path() + "'"; };
  int64_t size = file.size();
  if (size < 4) {
    return Status::Corruption(ctx() + ": " + std::to_string(size) +
                              " bytes is too small for an ORC file");
  }
  int64_t tail_size = std::min<int64_t>(size, kTailReadSize);
  std::string tail(static_cast<size_t>(tail_size), '\0');
  SLUICE_RETURN_NOT_OK_CTX(
      file.ReadAt(size - tail_size, tail_size, reinterpret_cast<uint8_t*>(tail.data())), ctx());
  OrcFileTail out;
  auto ps_len = static_cast<uint8_t>(tail.back());
  if (ps_len == 0 || ps_len > kMaxPostScriptLength || ps_len + 1 > tail_size) {
    return Status::Corruption(ctx() + ": postscript length " + std::to_string(ps_len) +
                              " does not fit the " + std::to_string(size) + "-byte file");
  }
  out.postscript_length = ps_len;
  std::string_view ps_bytes(tail.data() + tail_size - 1 - ps_len, ps_len);
  auto ps = ParsePostScript(ps_bytes);
  if (!ps.ok()) return ps.status().WithContext(ctx() + ": postscript");
  out.postscript = std::move(*ps);
  const PostScript& p = out.postscript;
  if (p.magic != "ORC") {
    // Files before Hive 0.12 have no magic in the postscript, but start with "ORC".
    char head[3];
    SLUICE_RETURN_NOT_OK_CTX(file.ReadAt(0, 3, reinterpret_cast<uint8_t*>(head)), ctx());
    if (std::string_view(head, 3) != "ORC") {
      return Status::Corruption(ctx() + ": not an ORC file (no 'ORC' magic)");
    }
  }
  if (p.compression == OrcCompression::kLzo) {
    return Status::NotSupported(ctx() + ": LZO compression is not supported");
  }
  if (p.compression != OrcCompression::kNone &&
      (p.compression_block_size == 0 || p.compression_block_size > kMaxBlockSize)) {
    return Status::Corruption(ctx() + ": compression block size " +
                              std::to_string(p.compression_block_size) + " out of range");
  }
  uint64_t tail_len = ps_len + 1;
  if (p.footer_length > static_cast<uint64_t>(size) - tail_len ||
      p.metadata_length > static_cast<uint64_t>(size) - tail_len - p.footer_length) {
    return Status::Corruption(ctx() + ": footer (" + std::to_string(p.footer_length) +
                              " bytes) and metadata (" + std::to_string(p.metadata_length) +
                              " bytes) do not fit the " + std::to_string(size) + "-byte file");
  }
  uint64_t footer_start = static_cast<uint64_t>(size) - tail_len - p.footer_length;
  uint64_t metadata_start = footer_start - p.metadata_length;
  // Fetch footer + metadata (reusing the tail buffer when it covers them).
  uint64_t need = p.footer_length + p.metadata_length + tail_len;
  if (need > static_cast<uint64_t>(tail_size)) {
    tail.resize(need);
    SLUICE_RETURN_NOT_OK_CTX(
        file.ReadAt(static_cast<int64_t>(metadata_start), static_cast<int64_t>(need),
                    reinterpret_cast<uint8_t*>(tail.data())),
        ctx());
    tail_size = static_cast<int64_t>(need);
  }
  size_t base = static_cast<size_t>(tail_size) - need;
  std::string_view metadata_raw(tail.data() + base, p.metadata_length);
  std::string_view footer_raw(tail.data() + base + p.metadata_length, p.footer_length);

  DecodedStream decoded;
  SLUICE_RETURN_NOT_OK_CTX(
      DecodeStream(footer_raw, p.compression, p.compression_block_size, &decoded),
      ctx() + ": footer");
  auto footer = ParseFooter(decoded.data.view());
  if (!footer.ok()) return footer.status().WithContext(ctx() + ": footer");
  out.footer = std::move(*footer);
  SLUICE_RETURN_NOT_OK_CTX(ValidateTypes(out.footer.types), ctx() + ": footer");
  if (out.footer.number_of_rows == 0) {
    // Some old writers leave the file's row count out; the stripes still have theirs.
    for (const StripeInformation& s : out.footer.stripes)
      out.footer.number_of_rows += s.number_of_rows;
  }
  for (size_t i = 0; i < out.footer.stripes.size(); ++i) {
    const StripeInformation& s = out.footer.stripes[i];
    uint64_t limit = metadata_start;
    if (s.number_of_rows > (uint64_t{1} << 62)) {
      return Status::Corruption(ctx() + ": stripe " + std::to_string(i) + " claims " +
                                std::to_string(s.number_of_rows) + " rows");
    }
    if (s.offset > limit || s.index_length > limit || s.data_length > limit ||
        s.footer_length > limit ||
        s.offset + s.index_length + s.data_length + s.footer_length > limit) {
      return Status::Corruption(ctx() + ": stripe " + std::to_string(i) +
                                " extends past the data region (" + std::to_string(limit) +
                                " bytes)");
    }
  }
  if (p.metadata_length > 0) {
    // Stripe statistics only serve pruning, and ORC readers parse them lazily: a metadata
    // section that does not decode disables pruning instead of failing the read.
    Status st = DecodeStream(metadata_raw, p.compression, p.compression_block_size, &decoded);
    auto meta =
        st.ok() ? ParseMetadata(decoded.data.view()) : Result<std::vector<StripeStatistics>>(st);
    if (meta.ok() && meta->size() == out.footer.stripes.size()) {
      out.stripe_statistics = std::move(*meta);
    }
  }
  return out;
}

Result<DataTypePtr> OrcSchemaToPaimon(const std::vector<OrcType>& types) {
  SLUICE_RETURN_NOT_OK(ValidateTypes(types));
  if (types[0].kind != OrcTypeKind::kStruct) {
    // A file whose root is not a struct holds one unnamed column.
    DataField f;
    f.name = kRootColumnName;
    SLUICE_ASSIGN_OR_RETURN(f.type, ConvertType(types, 0, f.name));
    return DataType::Row({std::move(f)});
  }
  return ConvertType(types, 0, "");
}

// ---------------------------------------------------------------- OrcReader

OrcReader::OrcReader(std::shared_ptr<RandomAccessFile> file, DataTypePtr read_type,
                     const ReaderOptions& options, OrcFileTail tail)
    : file_(std::move(file)),
      read_type_(std::move(read_type)),
      options_(options),
      tail_(std::move(tail)),
      stripe_(std::make_unique<StripeData>()) {}

OrcReader::~OrcReader() = default;

std::string OrcReader::Context() const {
  std::string s = "ORC file '" + file_->path() + "'";
  if (current_stripe_ >= 0) s += ": stripe " + std::to_string(current_stripe_);
  return s;
}

Result<std::unique_ptr<OrcReader>> OrcReader::Open(std::shared_ptr<RandomAccessFile> file,
                                                   DataTypePtr read_type,
                                                   const ReaderOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(OrcFileTail tail, ReadOrcTail(*file));
  if (read_type == nullptr) {
    auto schema = OrcSchemaToPaimon(tail.footer.types);
    if (!schema.ok()) return schema.status().WithContext("ORC file '" + file->path() + "'");
    read_type = *schema;
  }
  if (read_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("ORC read type must be a ROW, got " + read_type->ToString());
  }
  std::unique_ptr<OrcReader> reader(
      new OrcReader(std::move(file), std::move(read_type), options, std::move(tail)));
  SLUICE_RETURN_NOT_OK(reader->Init());
  return reader;
}

Status OrcReader::Init() {
  const auto& types = tail_.footer.types;
  if (options_.batch_size <= 0) options_.batch_size = 4096;
  if (types[0].kind == OrcTypeKind::kStruct) {
    field_columns_ = MatchStructFields(types, 0, *read_type_);
  } else {
    field_columns_.assign(static_cast<size_t>(read_type_->num_fields()), -1);
    int f = read_type_->FieldIndex(kRootColumnName);
    if (f >= 0) field_columns_[static_cast<size_t>(f)] = 0;
  }
  column_selected_.assign(types.size(), 0);
  column_selected_[0] = 1;
  for (int f = 0; f < read_type_->num_fields(); ++f) {
    const DataField& field = read_type_->fields()[static_cast<size_t>(f)];
    int64_t col = field_columns_[static_cast<size_t>(f)];
    if (col < 0) {
      readers_.push_back(MakeNullColumnReader(field.name));
      continue;
    }
    auto reader = MakeColumnReader(types, static_cast<uint32_t>(col), field.type, field.name);
    if (!reader.ok()) return reader.status().WithContext(Context());
    readers_.push_back(std::move(*reader));
    CollectColumns(types, static_cast<uint32_t>(col), &column_selected_);
  }
  int64_t first = 0;
  for (const StripeInformation& s : tail_.footer.stripes) {
    stripe_first_row_.push_back(first);
    first += static_cast<int64_t>(s.number_of_rows);
  }
  use_row_index_ = tail_.footer.row_index_stride > 0 &&
                   (options_.predicate != nullptr || options_.row_positions.has_value());
  const auto& v = tail_.postscript.version;
  stripe_->decimal64_rle_ = v.size() >= 2 && v[0] == 1 && v[1] == 9999;
  return Status::OK();
}

bool OrcReader::StripeMightMatch(size_t stripe) const {
  if (options_.predicate == nullptr || tail_.stripe_statistics.empty()) return true;
  const auto& stats = tail_.stripe_statistics[stripe].column_stats;
  auto rows = static_cast<int64_t>(tail_.footer.stripes[stripe].number_of_rows);
  std::vector<ColumnStats> cs(static_cast<size_t>(read_type_->num_fields()));
  for (int f = 0; f < read_type_->num_fields(); ++f) {
    int64_t col = field_columns_[static_cast<size_t>(f)];
    if (col < 0) {
      cs[static_cast<size_t>(f)].null_count = rows;
    } else if (static_cast<size_t>(col) < stats.size()) {
      cs[static_cast<size_t>(f)] = ToColumnStats(stats[static_cast<size_t>(col)],
                                                 tail_.footer.types[static_cast<size_t>(col)],
                                                 *read_type_->fields()[static_cast<size_t>(f)].type,
                                                 rows, tail_.postscript.writer_version);
    }
  }
  return options_.predicate->MightMatch(rows, cs);
}

Status OrcReader::LoadStripe(size_t index) {
  current_stripe_ = static_cast<int64_t>(index);
  const StripeInformation& info = tail_.footer.stripes[index];
  const PostScript& ps = tail_.postscript;
  const auto& types = tail_.footer.types;
  StripeData& sd = *stripe_;
  sd.rows_ = static_cast<int64_t>(info.number_of_rows);

  uint64_t footer_offset = info.offset + info.index_length + info.data_length;
  std::string raw(info.footer_length, '\0');
  SLUICE_RETURN_NOT_OK_CTX(
      file_->ReadAt(static_cast<int64_t>(footer_offset), static_cast<int64_t>(info.footer_length),
                    reinterpret_cast<uint8_t*>(raw.data())),
      Context());
  DecodedStream decoded;
  SLUICE_RETURN_NOT_OK_CTX(DecodeStream(raw, ps.compression, ps.compression_block_size, &decoded),
                           Context() + ": stripe footer");
  auto footer = ParseStripeFooter(decoded.data.view());
  if (!footer.ok()) return footer.status().WithContext(Context() + ": stripe footer");
  sd.footer_ = std::move(*footer);
  if (sd.footer_.columns.size() < types.size()) {
    return Status::Corruption(Context() + ": stripe footer has " +
                              std::to_string(sd.footer_.columns.size()) + " column encodings for " +
                              std::to_string(types.size()) + " columns");
  }
  auto zone = TimeZone::Load(sd.footer_.writer_timezone.value_or("UTC"));
  if (!zone.ok()) return zone.status().WithContext(Context() + ": writer time zone");
  sd.zone_ = *zone;

  sd.present_.clear();
  if (use_row_index_) sd.row_index_.assign(types.size(), {});
  bool use_bloom = use_row_index_ && options_.predicate != nullptr;
  sd.bloom_.assign(use_bloom ? types.size() : 0, {});
  sd.bloom_utf8_.assign(use_bloom ? types.size() : 0, 0);
  uint64_t offset = info.offset;
  uint64_t stripe_end = info.offset + info.index_length + info.data_length;
  // The streams read below and the next stripe's footer, named to a store of round trips at
  // once (RandomAccessFile::Prefetch; local files ignore it).
  auto wanted = [&](const StreamInfo& s) {
    if (s.raw_kind > static_cast<uint32_t>(StreamKind::kBloomFilterUtf8)) return false;
    if (s.column >= types.size() || !column_selected_[s.column]) return false;
    bool index_stream = s.kind == StreamKind::kRowIndex;
    bool bloom_stream =
        s.kind == StreamKind::kBloomFilterUtf8 || s.kind == StreamKind::kBloomFilter;
    return !(s.kind == StreamKind::kDictionaryCount || (index_stream && !use_row_index_) ||
             (bloom_stream && !use_bloom));
  };
  {
    std::vector<ReadRange> ranges;
    uint64_t at = info.offset;
    for (const StreamInfo& s : sd.footer_.streams) {
      if (at > stripe_end || s.length > stripe_end - at) break;  // reported below
      if (wanted(s) && s.length > 0) {
        ranges.push_back(ReadRange{static_cast<int64_t>(at), static_cast<int64_t>(s.length)});
      }
      at += s.length;
    }
    if (index + 1 < tail_.footer.stripes.size()) {
      const StripeInformation& next = tail_.footer.stripes[index + 1];
      ranges.push_back(
          ReadRange{static_cast<int64_t>(next.offset + next.index_length + next.data_length),
                    static_cast<int64_t>(next.footer_length)});
    }
    file_->Prefetch(ranges);
  }
  std::string buffer;
  for (const StreamInfo& s : sd.footer_.streams) {
    uint64_t start = offset;
    if (s.length > stripe_end - std::min(start, stripe_end)) {
      return Status::Corruption(
          Context() + ": " + StreamKindName(s.raw_kind) + " stream of column " +
          std::to_string(s.column) + " (" + std::to_string(s.length) + " bytes at offset " +
          std::to_string(start) + ") extends past the stripe end " + std::to_string(stripe_end));
    }
    offset += s.length;
    if (!wanted(s)) continue;
    bool index_stream = s.kind == StreamKind::kRowIndex;
    bool bloom_stream =
        s.kind == StreamKind::kBloomFilterUtf8 || s.kind == StreamKind::kBloomFilter;
    buffer.resize(s.length);
    SLUICE_RETURN_NOT_OK_CTX(
        file_->ReadAt(static_cast<int64_t>(start), static_cast<int64_t>(s.length),
                      reinterpret_cast<uint8_t*>(buffer.data())),
        Context());
    std::string stream_ctx = Context() + ": column " + std::to_string(s.column) + " " +
                             StreamKindName(s.raw_kind) + " stream";
    if (index_stream) {
      SLUICE_RETURN_NOT_OK_CTX(
          DecodeStream(buffer, ps.compression, ps.compression_block_size, &decoded), stream_ctx);
      auto entries = ParseRowIndex(decoded.data.view());
      if (!entries.ok()) return entries.status().WithContext(stream_ctx + ": row index");
      sd.row_index_[s.column] = std::move(*entries);
      continue;
    }
    if (bloom_stream) {
      SLUICE_RETURN_NOT_OK_CTX(
          DecodeStream(buffer, ps.compression, ps.compression_block_size, &decoded), stream_ctx);
      auto filters = ParseBloomFilterIndex(decoded.data.view());
      if (!filters.ok()) return filters.status().WithContext(stream_ctx + ": bloom filters");
      // A UTF-8 filter wins over an old one for the same column.
      bool utf8 = s.kind == StreamKind::kBloomFilterUtf8;
      if (utf8 || !sd.bloom_utf8_[s.column]) {
        sd.bloom_[s.column] = std::move(*filters);
        sd.bloom_utf8_[s.column] = utf8;
      }
      continue;
    }
    uint64_t key = StreamKey(s.column, s.kind);
    SLUICE_RETURN_NOT_OK_CTX(
        DecodeStream(buffer, ps.compression, ps.compression_block_size, &sd.streams_[key]),
        stream_ctx);
    sd.present_[key] = true;
  }
  for (auto& r : readers_) SLUICE_RETURN_NOT_OK_CTX(r->StartStripe(sd), Context());
  cursor_ = 0;
  return Status::OK();
}

Status OrcReader::PlanRanges(size_t stripe) {
  ranges_.clear();
  range_index_ = 0;
  int64_t rows = static_cast<int64_t>(tail_.footer.stripes[stripe].number_of_rows);
  std::vector<RowRange> groups;
  int64_t stride = tail_.footer.row_index_stride;
  const StripeData& sd = *stripe_;
  if (options_.predicate != nullptr && use_row_index_) {
    // Row groups whose index statistics exclude the predicate are dropped.
    // Groups beyond the index entries have no statistics: they form one kept range (a lying
    // row count cannot drive an endless loop).
    size_t indexed = 0;
    for (const auto& index : sd.row_index_) indexed = std::max(indexed, index.size());
    int64_t num_groups =
        std::min<int64_t>((rows + stride - 1) / stride, static_cast<int64_t>(indexed));
    for (int64_t g = 0; g < num_groups; ++g) {
      int64_t begin = g * stride;
      int64_t end = std::min(rows, begin + stride);
      std::vector<ColumnStats> cs(static_cast<size_t>(read_type_->num_fields()));
      for (int f = 0; f < read_type_->num_fields(); ++f) {
        int64_t col = field_columns_[static_cast<size_t>(f)];
        if (col < 0) {
          cs[static_cast<size_t>(f)].null_count = end - begin;
          continue;
        }
        const auto& index = sd.row_index_[static_cast<size_t>(col)];
        if (static_cast<size_t>(g) < index.size() && index[static_cast<size_t>(g)].statistics) {
          cs[static_cast<size_t>(f)] =
              ToColumnStats(*index[static_cast<size_t>(g)].statistics,
                            tail_.footer.types[static_cast<size_t>(col)],
                            *read_type_->fields()[static_cast<size_t>(f)].type, end - begin,
                            tail_.postscript.writer_version);
        }
      }
      if (options_.predicate->MightMatch(end - begin, cs) &&
          !BloomExcludes(*options_.predicate, static_cast<size_t>(g))) {
        if (!groups.empty() && groups.back().end == begin) {
          groups.back().end = end;
        } else {
          groups.push_back({begin, end});
        }
      } else {
        ++row_groups_skipped_;
      }
    }
    if (num_groups * stride < rows) {
      int64_t begin = num_groups * stride;
      if (!groups.empty() && groups.back().end == begin) {
        groups.back().end = rows;
      } else {
        groups.push_back({begin, rows});
      }
    }
  } else {
    groups.push_back({0, rows});
  }
  if (!options_.row_positions) {
    ranges_ = std::move(groups);
    return Status::OK();
  }
  // Intersect with the requested positions (ascending, file-global).
  const auto& positions = *options_.row_positions;
  int64_t first = stripe_first_row_[stripe];
  size_t g = 0;
  while (position_index_ < positions.size() && positions[position_index_] < first + rows) {
    int64_t p = positions[position_index_++] - first;
    if (p < 0) continue;
    while (g < groups.size() && groups[g].end <= p) ++g;
    if (g == groups.size() || p < groups[g].begin) continue;
    if (!ranges_.empty() && ranges_.back().end == p) {
      ++ranges_.back().end;
    } else if (ranges_.empty() || ranges_.back().end < p) {
      ranges_.push_back({p, p + 1});
    }
  }
  return Status::OK();
}

bool OrcReader::BloomExcludes(const Predicate& p, size_t group) const {
  if (p.op() == PredicateOp::kAnd) {
    for (const auto& c : p.children()) {
      if (BloomExcludes(*c, group)) return true;
    }
    return false;
  }
  if (p.op() != PredicateOp::kEqual || p.literals().size() != 1 || p.literals()[0].is_null()) {
    return false;
  }
  if (p.field_index() < 0 || static_cast<size_t>(p.field_index()) >= field_columns_.size()) {
    return false;
  }
  int64_t col = field_columns_[static_cast<size_t>(p.field_index())];
  if (col < 0 || static_cast<size_t>(col) >= stripe_->bloom_.size()) return false;
  const auto& filters = stripe_->bloom_[static_cast<size_t>(col)];
  if (group >= filters.size()) return false;
  const Value& literal = p.literals()[0];
  uint64_t hash;
  switch (tail_.footer.types[static_cast<size_t>(col)].kind) {
    case OrcTypeKind::kByte:
    case OrcTypeKind::kShort:
    case OrcTypeKind::kInt:
    case OrcTypeKind::kLong:
    case OrcTypeKind::kDate:
      if (literal.kind() < Value::Kind::kInt8 || literal.kind() > Value::Kind::kInt64) return false;
      hash = BloomHashInt(literal.AsInt64());
      break;
    case OrcTypeKind::kString:
    case OrcTypeKind::kVarchar:
      if (literal.kind() != Value::Kind::kString ||
          !stripe_->bloom_utf8_[static_cast<size_t>(col)]) {
        return false;
      }
      hash = BloomHashBytes(literal.bytes());
      break;
    default:
      return false;
  }
  return !BloomMightContain(filters[group], hash);
}

Status OrcReader::SeekTo(int64_t row) {
  if (row == cursor_) return Status::OK();
  int64_t stride = tail_.footer.row_index_stride;
  if (use_row_index_ && stride > 0) {
    int64_t group = row / stride;
    if (group * stride > cursor_) {
      // Seek every column to the row group's start; fall back to skipping if an index is
      // missing for a selected column.
      bool have_all = true;
      RowGroupPositions positions(tail_.footer.types.size(), nullptr);
      for (size_t c = 0; c < column_selected_.size(); ++c) {
        if (!column_selected_[c] || c == 0) continue;
        const auto& index = stripe_->row_index_[c];
        if (static_cast<size_t>(group) >= index.size()) {
          have_all = false;
          break;
        }
        positions[c] = &index[static_cast<size_t>(group)].positions;
      }
      if (have_all) {
        for (auto& r : readers_) SLUICE_RETURN_NOT_OK_CTX(r->Seek(positions), Context());
        cursor_ = group * stride;
      }
    }
  }
  if (row > cursor_) {
    for (auto& r : readers_) SLUICE_RETURN_NOT_OK_CTX(r->Skip(row - cursor_), Context());
    cursor_ = row;
  }
  return Status::OK();
}

Result<bool> OrcReader::OpenNextStripe() {
  const auto& stripes = tail_.footer.stripes;
  while (next_stripe_ < stripes.size()) {
    size_t s = next_stripe_++;
    if (stripes[s].number_of_rows == 0) continue;
    if (options_.row_positions) {
      const auto& positions = *options_.row_positions;
      int64_t end = stripe_first_row_[s] + static_cast<int64_t>(stripes[s].number_of_rows);
      if (position_index_ >= positions.size() || positions[position_index_] >= end) continue;
    }
    if (!StripeMightMatch(s)) {
      ++stripes_skipped_;
      if (options_.row_positions) {
        const auto& positions = *options_.row_positions;
        int64_t end = stripe_first_row_[s] + static_cast<int64_t>(stripes[s].number_of_rows);
        while (position_index_ < positions.size() && positions[position_index_] < end) {
          ++position_index_;
        }
      }
      continue;
    }
    SLUICE_RETURN_NOT_OK(LoadStripe(s));
    SLUICE_RETURN_NOT_OK(PlanRanges(s));
    if (!ranges_.empty()) return true;
  }
  current_stripe_ = -1;
  return false;
}

Result<bool> OrcReader::Next(ColumnBatch* batch) {
  batch->Clear();
  int64_t filled = 0;
  while (filled < options_.batch_size) {
    if (current_stripe_ < 0 || range_index_ >= ranges_.size()) {
      SLUICE_ASSIGN_OR_RETURN(bool more, OpenNextStripe());
      if (!more) break;
    }
    RowRange& range = ranges_[range_index_];
    SLUICE_RETURN_NOT_OK(SeekTo(range.begin));
    int64_t n = std::min(range.end - range.begin, options_.batch_size - filled);
    for (size_t f = 0; f < readers_.size(); ++f) {
      SLUICE_RETURN_NOT_OK_CTX(readers_[f]->Read(n, nullptr, batch->column(static_cast<int>(f))),
                               Context());
    }
    cursor_ += n;
    range.begin += n;
    filled += n;
    if (range.begin == range.end) ++range_index_;
  }
  batch->set_num_rows(filled);
  return filled > 0;
}

}  // namespace sluice::orc
