// The ORC file-tail messages (orc_proto.proto) as plain structs, with their parsers and
// serializers. Only the fields Sluice uses are kept; unknown fields are skipped when parsing.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/result.h"

namespace sluice::orc {

// Seconds from 1970-01-01 to 2015-01-01: ORC timestamps count seconds from there.
inline constexpr int64_t kOrcEpochSeconds = 1420070400;

enum class OrcCompression : uint8_t {
  kNone = 0,
  kZlib = 1,
  kSnappy = 2,
  kLzo = 3,
  kLz4 = 4,
  kZstd = 5
};

enum class OrcTypeKind : uint8_t {
  kBoolean = 0,
  kByte = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kFloat = 5,
  kDouble = 6,
  kString = 7,
  kBinary = 8,
  kTimestamp = 9,
  kList = 10,
  kMap = 11,
  kStruct = 12,
  kUnion = 13,
  kDecimal = 14,
  kDate = 15,
  kVarchar = 16,
  kChar = 17,
  kTimestampInstant = 18,
};
std::string_view OrcTypeKindName(OrcTypeKind kind);

enum class StreamKind : uint8_t {
  kPresent = 0,
  kData = 1,
  kLength = 2,
  kDictionaryData = 3,
  kDictionaryCount = 4,
  kSecondary = 5,
  kRowIndex = 6,
  kBloomFilter = 7,
  kBloomFilterUtf8 = 8,
};

enum class EncodingKind : uint8_t {
  kDirect = 0,
  kDictionary = 1,
  kDirectV2 = 2,
  kDictionaryV2 = 3,
  kDecimal64 = 4,
};

struct PostScript {
  uint64_t footer_length = 0;
  OrcCompression compression = OrcCompression::kNone;
  uint64_t compression_block_size = 256 * 1024;
  std::vector<uint64_t> version;
  uint64_t metadata_length = 0;
  uint32_t writer_version = 0;
  std::string magic;
};

struct OrcType {
  OrcTypeKind kind = OrcTypeKind::kStruct;
  std::vector<uint32_t> subtypes;
  std::vector<std::string> field_names;
  uint32_t maximum_length = 0;
  uint32_t precision = 0;
  uint32_t scale = 0;
  std::vector<std::pair<std::string, std::string>> attributes;

  // The value of attribute `key`, if present.
  const std::string* FindAttribute(std::string_view key) const;
};

struct StripeInformation {
  uint64_t offset = 0;
  uint64_t index_length = 0;
  uint64_t data_length = 0;
  uint64_t footer_length = 0;
  uint64_t number_of_rows = 0;
};

struct OrcColumnStatistics {
  std::optional<uint64_t> number_of_values;
  bool has_null = true;  // absent in files before Hive 1.1: assume nulls may exist
  std::optional<int64_t> int_min, int_max, int_sum;
  std::optional<double> double_min, double_max, double_sum;
  std::optional<std::string> string_min, string_max;
  std::optional<int64_t> string_sum;
  std::vector<uint64_t> bucket_counts;  // boolean: [true count]
  std::optional<std::string> decimal_min, decimal_max, decimal_sum;
  std::optional<int32_t> date_min, date_max;
  std::optional<int64_t> binary_sum;
  std::optional<int64_t> timestamp_min, timestamp_max;              // local millis (pre ORC-135)
  std::optional<int64_t> timestamp_min_utc, timestamp_max_utc;      // millis
  std::optional<int32_t> timestamp_min_nanos, timestamp_max_nanos;  // nanos of milli + 1
};

struct UserMetadataItem {
  std::string name;
  std::string value;
};

struct Footer {
  uint64_t header_length = 0;
  uint64_t content_length = 0;
  std::vector<StripeInformation> stripes;
  std::vector<OrcType> types;
  std::vector<UserMetadataItem> metadata;
  uint64_t number_of_rows = 0;
  std::vector<OrcColumnStatistics> statistics;
  uint32_t row_index_stride = 0;
  std::optional<uint32_t> writer;
  std::string software_version;
};

struct StripeStatistics {
  std::vector<OrcColumnStatistics> column_stats;
};

struct StreamInfo {
  StreamKind kind = StreamKind::kData;
  uint32_t column = 0;
  uint64_t length = 0;
  uint32_t raw_kind = 0;  // the kind number as written (kinds we do not know are kept here)
};

struct ColumnEncoding {
  EncodingKind kind = EncodingKind::kDirect;
  uint32_t dictionary_size = 0;
};

struct StripeFooter {
  std::vector<StreamInfo> streams;
  std::vector<ColumnEncoding> columns;
  std::optional<std::string> writer_timezone;
};

struct RowIndexEntry {
  std::vector<uint64_t> positions;
  std::optional<OrcColumnStatistics> statistics;
};

struct BloomFilter {
  uint32_t num_hash_functions = 0;
  std::vector<uint64_t> bitset;  // from either `bitset` or `utf8bitset`
};

Result<PostScript> ParsePostScript(std::string_view bytes);
Result<Footer> ParseFooter(std::string_view bytes);
Result<std::vector<StripeStatistics>> ParseMetadata(std::string_view bytes);
Result<StripeFooter> ParseStripeFooter(std::string_view bytes);
Result<std::vector<RowIndexEntry>> ParseRowIndex(std::string_view bytes);
Result<std::vector<BloomFilter>> ParseBloomFilterIndex(std::string_view bytes);

std::string SerializePostScript(const PostScript& ps);
std::string SerializeFooter(const Footer& footer);
std::string SerializeMetadata(const std::vector<StripeStatistics>& stripes);
std::string SerializeStripeFooter(const StripeFooter& footer);
std::string SerializeRowIndex(const std::vector<RowIndexEntry>& entries);

}  // namespace sluice::orc
