#include "sluice/format/orc/orc_writer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>

#include "sluice/base/string_util.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_stream.h"
#include "sluice/format/orc/writer/column_writer.h"
#include "sluice/format/orc/writer/nested_writer.h"

namespace sluice::orc {

namespace {

constexpr int32_t kElementIdBase = 536870911;  // Paimon's ids of array elements / map entries

// Builds the ORC type list (pre-order) and the matching writers.
class SchemaBuilder {
 public:
  explicit SchemaBuilder(double threshold) : threshold_(threshold) {}
  std::vector<OrcType> types;

  Result<std::unique_ptr<ColumnWriter>> Build(const DataType& type, int32_t id, int32_t parent_id,
                                              int depth, const std::string& path) {
    auto column = static_cast<uint32_t>(types.size());
    types.emplace_back();
    types.back().attributes.emplace_back("paimon.id", std::to_string(id));
    auto set = [&](OrcTypeKind kind) { types[column].kind = kind; };
    auto self = [&]() { return &types[column]; };
    switch (type.root()) {
      case TypeRoot::kBoolean:
        set(OrcTypeKind::kBoolean);
        return NewBooleanWriter(column);
      case TypeRoot::kTinyInt:
        set(OrcTypeKind::kByte);
        return NewByteWriter(column);
      case TypeRoot::kSmallInt:
        set(OrcTypeKind::kShort);
        return NewIntegerWriter(column);
      case TypeRoot::kInt:
      case TypeRoot::kTime:
        set(OrcTypeKind::kInt);
        return NewIntegerWriter(column);
      case TypeRoot::kBigInt:
        set(OrcTypeKind::kLong);
        return NewIntegerWriter(column);
      case TypeRoot::kDate:
        set(OrcTypeKind::kDate);
        return NewIntegerWriter(column);
      case TypeRoot::kFloat:
        set(OrcTypeKind::kFloat);
        return NewFloatingWriter(column);
      case TypeRoot::kDouble:
        set(OrcTypeKind::kDouble);
        return NewFloatingWriter(column);
      case TypeRoot::kDecimal:
        set(OrcTypeKind::kDecimal);
        self()->precision = static_cast<uint32_t>(type.precision());
        self()->scale = static_cast<uint32_t>(type.scale());
        return NewDecimalWriter(column);
      case TypeRoot::kChar:
        set(OrcTypeKind::kChar);
        self()->maximum_length = static_cast<uint32_t>(type.length());
        return NewStringWriter(column, false, threshold_);
      case TypeRoot::kVarChar:
        if (type.length() == DataType::kMaxLength) {
          set(OrcTypeKind::kString);
        } else {
          set(OrcTypeKind::kVarchar);
          self()->maximum_length = static_cast<uint32_t>(type.length());
        }
        return NewStringWriter(column, false, threshold_);
      case TypeRoot::kBinary:
      case TypeRoot::kVarBinary:
      case TypeRoot::kBlob:
        set(OrcTypeKind::kBinary);
        return NewStringWriter(column, true, threshold_);
      case TypeRoot::kTimestamp:
        set(OrcTypeKind::kTimestamp);
        return NewTimestampWriter(column);
      case TypeRoot::kTimestampLtz:
        set(OrcTypeKind::kTimestampInstant);
        return NewTimestampWriter(column);
      case TypeRoot::kArray: {
        set(OrcTypeKind::kList);
        std::vector<std::unique_ptr<ColumnWriter>> children;
        types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
        SLUICE_ASSIGN_OR_RETURN(
            auto e, Build(*type.element(), kElementIdBase + parent_id * 1024 + depth, parent_id,
                          depth + 1, path + "[]"));
        children.push_back(std::move(e));
        return NewRepeatedWriter(column, std::move(children));
      }
      case TypeRoot::kMap:
      case TypeRoot::kMultiset: {
        set(OrcTypeKind::kMap);
        bool multiset = type.root() == TypeRoot::kMultiset;
        DataTypePtr key = multiset ? type.element() : type.key();
        DataTypePtr value = multiset ? DataType::Int(false) : type.value();
        std::vector<std::unique_ptr<ColumnWriter>> children;
        types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
        SLUICE_ASSIGN_OR_RETURN(auto k, Build(*key, kElementIdBase - parent_id * 1024 - depth,
                                              parent_id, depth + 1, path + ".key"));
        types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
        SLUICE_ASSIGN_OR_RETURN(auto v, Build(*value, kElementIdBase + parent_id * 1024 + depth,
                                              parent_id, depth + 1, path + ".value"));
        children.push_back(std::move(k));
        children.push_back(std::move(v));
        return NewRepeatedWriter(column, std::move(children));
      }
      case TypeRoot::kRow: {
        set(OrcTypeKind::kStruct);
        std::vector<std::unique_ptr<ColumnWriter>> children;
        for (const DataField& f : type.fields()) {
          types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
          types[column].field_names.push_back(f.name);
          SLUICE_ASSIGN_OR_RETURN(
              auto c, Build(*f.type, f.id, f.id, 1, path.empty() ? f.name : path + "." + f.name));
          children.push_back(std::move(c));
        }
        // The root struct carries no id.
        if (column == 0) types[0].attributes.clear();
        std::unique_ptr<ColumnWriter> w(new StructWriter(column, nullptr, std::move(children)));
        return w;
      }
      default:
        return Status::NotSupported("ORC cannot store column '" + path + "' of type " +
                                    type.ToString());
    }
  }

 private:
  double threshold_;
};

// ---------------------------------------------------------------- the file writer

Result<OrcCompression> ParseOrcCompression(const WriterOptions& options) {
  std::string name = options.compression;
  auto it = options.options.find("orc.compress");
  if (it != options.options.end()) name = it->second;
  const std::string lower = AsciiToLower(name);
  if (lower == "none" || lower == "uncompressed" || lower.empty()) return OrcCompression::kNone;
  if (lower == "zlib" || lower == "deflate" || lower == "gzip") return OrcCompression::kZlib;
  if (lower == "snappy") return OrcCompression::kSnappy;
  if (lower == "lz4") return OrcCompression::kLz4;
  if (lower == "zstd" || lower == "zstandard") return OrcCompression::kZstd;
  return Status::NotSupported("ORC compression '" + name + "' is not supported");
}

Result<uint64_t> OptionBytes(const WriterOptions& options, const std::string& key,
                             uint64_t fallback) {
  auto it = options.options.find(key);
  if (it == options.options.end()) return fallback;
  char* end = nullptr;
  unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v == 0) {
    return Status::InvalidArgument("option " + key + ": bad value '" + it->second + "'");
  }
  return static_cast<uint64_t>(v);
}

class OrcWriter : public FormatWriter {
 public:
  OrcWriter(std::unique_ptr<WritableFile> file, DataTypePtr write_type)
      : file_(std::move(file)), write_type_(std::move(write_type)) {}

  Status Init(const WriterOptions& options) {
    SLUICE_ASSIGN_OR_RETURN(compression_, ParseOrcCompression(options));
    level_ = options.compression_level;
    SLUICE_ASSIGN_OR_RETURN(stripe_size_, OptionBytes(options, "orc.stripe.size", 64 << 20));
    SLUICE_ASSIGN_OR_RETURN(block_size_, OptionBytes(options, "orc.compress.size", 256 << 10));
    auto stride = options.options.find("orc.row.index.stride");
    if (stride != options.options.end()) {
      row_index_stride_ = std::strtoll(stride->second.c_str(), nullptr, 10);
      if (row_index_stride_ < 0) row_index_stride_ = 0;
    }
    if (block_size_ >= (uint64_t{1} << 23)) {
      return Status::InvalidArgument("orc.compress.size must be below 8 MiB");
    }
    double threshold = 0.8;
    auto it = options.options.find("orc.dictionary.key.threshold");
    if (it != options.options.end()) threshold = std::strtod(it->second.c_str(), nullptr);
    SchemaBuilder builder(threshold);
    SLUICE_ASSIGN_OR_RETURN(root_, builder.Build(*write_type_, 0, 0, 1, ""));
    types_ = std::move(builder.types);
    root_->BindTypes(&types_);
    root_->StartGroup();
    SLUICE_RETURN_NOT_OK(Append("ORC"));
    return Status::OK();
  }

  Status Write(const ColumnBatch& batch) override {
    if (finished_) return Status::InvalidArgument(file_->path() + ": ORC writer already finished");
    int64_t n = batch.num_rows();
    if (n == 0) return Status::OK();
    if (batch.num_columns() != write_type_->num_fields()) {
      return Status::InvalidArgument(file_->path() + ": batch has " +
                                     std::to_string(batch.num_columns()) + " columns, expected " +
                                     std::to_string(write_type_->num_fields()));
    }
    // Split the batch at row-group boundaries, where every column records its positions.
    auto* root = static_cast<StructWriter*>(root_.get());
    for (int64_t pos = 0; pos < n;) {
      int64_t k = n - pos;
      if (row_index_stride_ > 0) k = std::min(k, row_index_stride_ - group_rows_);
      root->WriteBatch(batch, pos, pos + k);
      pos += k;
      group_rows_ += k;
      stripe_rows_ += k;
      rows_ += k;
      if (static_cast<uint64_t>(root_->BufferedBytes()) >= stripe_size_) {
        SLUICE_RETURN_NOT_OK(FlushStripe());
      } else if (row_index_stride_ > 0 && group_rows_ == row_index_stride_) {
        root_->FinishGroup();
        root_->StartGroup();
        group_rows_ = 0;
      }
    }
    return Status::OK();
  }

  int64_t EstimatedSize() const override { return file_->bytes_written() + root_->BufferedBytes(); }

  Result<WriteResult> Finish() override {
    if (finished_) return Status::InvalidArgument(file_->path() + ": ORC writer already finished");
    finished_ = true;
    if (stripe_rows_ > 0) SLUICE_RETURN_NOT_OK(FlushStripe());
    uint64_t content_end = static_cast<uint64_t>(file_->bytes_written());

    std::vector<StripeStatistics> stripe_stats(stripes_.size());
    for (size_t s = 0; s < stripes_.size(); ++s) {
      root_->CollectStripeStats(s, &stripe_stats[s].column_stats);
    }
    std::string metadata;
    SLUICE_RETURN_NOT_OK(EncodeStream(SerializeMetadata(stripe_stats), compression_, block_size_,
                                      level_, &metadata));
    Footer footer;
    footer.header_length = 3;
    footer.content_length = content_end - 3;
    footer.stripes = stripes_;
    footer.types = types_;
    footer.number_of_rows = static_cast<uint64_t>(rows_);
    root_->CollectFileStats(&footer.statistics);
    footer.row_index_stride = static_cast<uint32_t>(row_index_stride_);
    footer.software_version = "sluice";
    std::string footer_bytes;
    SLUICE_RETURN_NOT_OK(
        EncodeStream(SerializeFooter(footer), compression_, block_size_, level_, &footer_bytes));
    PostScript ps;
    ps.footer_length = footer_bytes.size();
    ps.compression = compression_;
    ps.compression_block_size = block_size_;
    ps.version = {0, 12};
    ps.metadata_length = metadata.size();
    ps.writer_version = 6;  // ORC-135: timestamp statistics in UTC
    std::string ps_bytes = SerializePostScript(ps);
    SLUICE_RETURN_NOT_OK(Append(metadata));
    SLUICE_RETURN_NOT_OK(Append(footer_bytes));
    SLUICE_RETURN_NOT_OK(Append(ps_bytes));
    char len = static_cast<char>(ps_bytes.size());
    SLUICE_RETURN_NOT_OK(Append(std::string_view(&len, 1)));
    SLUICE_RETURN_NOT_OK(file_->Close());

    WriteResult result;
    result.row_count = rows_;
    result.file_size = file_->bytes_written();
    const auto* root = static_cast<const StructWriter*>(root_.get());
    for (int f = 0; f < write_type_->num_fields(); ++f) {
      result.stats.push_back(ToPaimonStats(root->child(static_cast<size_t>(f)).file_stats(),
                                           *write_type_->fields()[static_cast<size_t>(f)].type,
                                           rows_));
    }
    return result;
  }

 private:
  Status Append(std::string_view bytes) {
    Status st = file_->Append(bytes);
    return st.ok() ? st : st.WithContext("ORC file '" + file_->path() + "'");
  }

  Status FlushStripe() {
    StripeSink sink{compression_, block_size_, level_, row_index_stride_ > 0, {}, {}, {}, {}, {}};
    sink.encodings.assign(types_.size(), ColumnEncoding{});
    if (group_rows_ > 0) root_->FinishGroup();
    SLUICE_RETURN_NOT_OK(root_->FlushStripe(&sink));
    root_->StartGroup();
    group_rows_ = 0;
    StripeFooter sf;
    sf.streams = std::move(sink.index_streams);
    sf.streams.insert(sf.streams.end(), sink.streams.begin(), sink.streams.end());
    sf.columns = std::move(sink.encodings);
    sf.writer_timezone = "UTC";
    std::string footer;
    SLUICE_RETURN_NOT_OK(
        EncodeStream(SerializeStripeFooter(sf), compression_, block_size_, level_, &footer));
    StripeInformation info;
    info.offset = static_cast<uint64_t>(file_->bytes_written());
    info.index_length = sink.index.size();
    info.data_length = sink.data.size();
    info.footer_length = footer.size();
    info.number_of_rows = static_cast<uint64_t>(stripe_rows_);
    SLUICE_RETURN_NOT_OK(Append(sink.index));
    SLUICE_RETURN_NOT_OK(Append(sink.data));
    SLUICE_RETURN_NOT_OK(Append(footer));
    stripes_.push_back(info);
    stripe_rows_ = 0;
    return Status::OK();
  }

  std::unique_ptr<WritableFile> file_;
  DataTypePtr write_type_;
  OrcCompression compression_ = OrcCompression::kZstd;
  int level_ = 1;
  uint64_t stripe_size_ = 0;
  uint64_t block_size_ = 0;
  std::vector<OrcType> types_;
  std::unique_ptr<ColumnWriter> root_;
  std::vector<StripeInformation> stripes_;
  int64_t row_index_stride_ = 10000;
  int64_t group_rows_ = 0;
  int64_t stripe_rows_ = 0;
  int64_t rows_ = 0;
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<FormatWriter>> MakeOrcWriter(std::unique_ptr<WritableFile> file,
                                                    DataTypePtr write_type,
                                                    const WriterOptions& options) {
  if (write_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("ORC write type must be a ROW, got " + write_type->ToString());
  }
  auto writer = std::make_unique<OrcWriter>(std::move(file), std::move(write_type));
  SLUICE_RETURN_NOT_OK(writer->Init(options));
  return std::unique_ptr<FormatWriter>(std::move(writer));
}

}  // namespace sluice::orc
