// The Parquet file-metadata model: plain structs mirroring parquet-format's parquet.thrift
// (field ids in comments), as far as Sluice reads or writes them.
//
// SHARED between the reader (thrift_compact_reader decodes these) and the writer
// (thrift_compact_writer encodes them): a change here must keep both in step. Fields that are
// `optional` in the thrift IDL are std::optional here so that "absent" survives a round trip;
// required fields are plain members. Unknown thrift fields are skipped on read and never written.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::parquet {

// --- Enums (values are the thrift enum values) ---

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t {
  kRequired = 0,
  kOptional = 1,
  kRepeated = 2,
};

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // Hadoop-framed LZ4 (deprecated)
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

enum class BoundaryOrder : int32_t {
  kUnordered = 0,
  kAscending = 1,
  kDescending = 2,
};

enum class TimeUnit : int32_t {  // union TimeUnit: 1 MILLIS, 2 MICROS, 3 NANOS
  kMillis = 1,
  kMicros = 2,
  kNanos = 3,
};

// --- Logical types (union LogicalType) ---

struct LogicalType {
  // The id of the union member that is set (the thrift field id).
  enum class Kind : int16_t {
    kNone = 0,
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,  // DecimalType { 1: i32 scale, 2: i32 precision }
    kDate = 6,
    kTime = 7,       // TimeType { 1: bool isAdjustedToUTC, 2: TimeUnit unit }
    kTimestamp = 8,  // TimestampType { 1: bool isAdjustedToUTC, 2: TimeUnit unit }
    kInteger = 10,   // IntType { 1: i8 bitWidth, 2: bool isSigned }
    kUnknown = 11,   // NullType: always null
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
    kVariant = 16,
    kGeometry = 17,
    kGeography = 18,
  };
  Kind kind = Kind::kNone;
  // kDecimal.
  int32_t scale = 0;
  int32_t precision = 0;
  // kTime, kTimestamp.
  bool is_adjusted_to_utc = false;
  TimeUnit unit = TimeUnit::kMillis;
  // kInteger.
  int8_t bit_width = 0;
  bool is_signed = true;
};

// --- Schema ---

struct SchemaElement {
  std::optional<PhysicalType> type;             // 1; absent for groups
  std::optional<int32_t> type_length;           // 2; FIXED_LEN_BYTE_ARRAY width
  std::optional<Repetition> repetition_type;    // 3; absent only for the root
  std::string name;                             // 4
  std::optional<int32_t> num_children;          // 5; groups only
  std::optional<ConvertedType> converted_type;  // 6
  std::optional<int32_t> scale;                 // 7
  std::optional<int32_t> precision;             // 8
  std::optional<int32_t> field_id;              // 9; Paimon writes its field ids here
  std::optional<LogicalType> logical_type;      // 10
};

struct KeyValue {
  std::string key;                   // 1
  std::optional<std::string> value;  // 2
};

// --- Statistics ---

struct Statistics {
  // Deprecated min/max: signed comparison order, unreliable for some types (byte arrays,
  // decimals, unsigned ints) in files of old writers.
  std::optional<std::string> max;         // 1
  std::optional<std::string> min;         // 2
  std::optional<int64_t> null_count;      // 3
  std::optional<int64_t> distinct_count;  // 4
  // Min/max in the column's sort order (ColumnOrder): prefer these.
  std::optional<std::string> max_value;    // 5
  std::optional<std::string> min_value;    // 6
  std::optional<bool> is_max_value_exact;  // 7
  std::optional<bool> is_min_value_exact;  // 8
};

// --- Pages ---

struct DataPageHeader {
  int32_t num_values = 0;                               // 1 (includes nulls)
  Encoding encoding = Encoding::kPlain;                 // 2
  Encoding definition_level_encoding = Encoding::kRle;  // 3
  Encoding repetition_level_encoding = Encoding::kRle;  // 4
  std::optional<Statistics> statistics;                 // 5
};

struct DictionaryPageHeader {
  int32_t num_values = 0;                // 1
  Encoding encoding = Encoding::kPlain;  // 2 (PLAIN or PLAIN_DICTIONARY)
  std::optional<bool> is_sorted;         // 3
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;                     // 1
  int32_t num_nulls = 0;                      // 2
  int32_t num_rows = 0;                       // 3
  Encoding encoding = Encoding::kPlain;       // 4
  int32_t definition_levels_byte_length = 0;  // 5 (levels are never compressed in v2)
  int32_t repetition_levels_byte_length = 0;  // 6
  std::optional<bool> is_compressed;          // 7; absent means true
  std::optional<Statistics> statistics;       // 8
};

struct PageHeader {
  PageType type = PageType::kDataPage;             // 1
  int32_t uncompressed_page_size = 0;              // 2
  int32_t compressed_page_size = 0;                // 3
  std::optional<int32_t> crc;                      // 4
  std::optional<DataPageHeader> data_page_header;  // 5
  // 6: IndexPageHeader (empty struct, never used) is skipped.
  std::optional<DictionaryPageHeader> dictionary_page_header;  // 7
  std::optional<DataPageHeaderV2> data_page_header_v2;         // 8
};

// --- Column chunks and row groups ---

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;  // 1
  Encoding encoding = Encoding::kPlain;      // 2
  int32_t count = 0;                         // 3
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;                // 1
  std::vector<Encoding> encodings;                           // 2
  std::vector<std::string> path_in_schema;                   // 3
  CompressionCodec codec = CompressionCodec::kUncompressed;  // 4
  int64_t num_values = 0;                                    // 5 (includes nulls)
  int64_t total_uncompressed_size = 0;                       // 6
  int64_t total_compressed_size = 0;                         // 7
  std::vector<KeyValue> key_value_metadata;                  // 8 (optional; empty = absent)
  int64_t data_page_offset = 0;                              // 9
  std::optional<int64_t> index_page_offset;                  // 10
  std::optional<int64_t> dictionary_page_offset;             // 11
  std::optional<Statistics> statistics;                      // 12
  std::vector<PageEncodingStats> encoding_stats;             // 13 (optional; empty = absent)
  std::optional<int64_t> bloom_filter_offset;                // 14
  std::optional<int32_t> bloom_filter_length;                // 15
  // 16 SizeStatistics, 17 GeospatialStatistics: skipped.
};

struct ColumnChunk {
  std::optional<std::string> file_path;        // 1
  int64_t file_offset = 0;                     // 2 (deprecated; writers put 0 or the meta offset)
  std::optional<ColumnMetaData> meta_data;     // 3
  std::optional<int64_t> offset_index_offset;  // 4
  std::optional<int32_t> offset_index_length;  // 5
  std::optional<int64_t> column_index_offset;  // 6
  std::optional<int32_t> column_index_length;  // 7
  // 8 crypto_metadata, 9 encrypted_column_metadata: encryption is not supported.
};

struct SortingColumn {
  int32_t column_idx = 0;    // 1
  bool descending = false;   // 2
  bool nulls_first = false;  // 3
};

struct RowGroup {
  std::vector<ColumnChunk> columns;              // 1
  int64_t total_byte_size = 0;                   // 2
  int64_t num_rows = 0;                          // 3
  std::vector<SortingColumn> sorting_columns;    // 4 (optional; empty = absent)
  std::optional<int64_t> file_offset;            // 5
  std::optional<int64_t> total_compressed_size;  // 6
  std::optional<int16_t> ordinal;                // 7
};

// union ColumnOrder { 1: TypeDefinedOrder TYPE_ORDER }: true when TYPE_ORDER is set, i.e.
// min_value/max_value follow the logical type's order (unsigned for strings and binaries).
struct ColumnOrder {
  bool type_defined_order = true;
};

struct FileMetaData {
  int32_t version = 1;                       // 1
  std::vector<SchemaElement> schema;         // 2 (depth-first, schema[0] is the root)
  int64_t num_rows = 0;                      // 3
  std::vector<RowGroup> row_groups;          // 4
  std::vector<KeyValue> key_value_metadata;  // 5 (optional; empty = absent)
  std::optional<std::string> created_by;     // 6
  std::vector<ColumnOrder> column_orders;    // 7 (optional; empty = absent)
  // 8 encryption_algorithm, 9 footer_signing_key_metadata: encryption is not supported.
};

// --- Page index ---

struct PageLocation {
  int64_t offset = 0;                // 1
  int32_t compressed_page_size = 0;  // 2 (including the page header)
  int64_t first_row_index = 0;       // 3
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;              // 1
  std::vector<int64_t> unencoded_byte_array_data_bytes;  // 2 (optional; empty = absent)
};

struct ColumnIndex {
  std::vector<bool> null_pages;                              // 1
  std::vector<std::string> min_values;                       // 2
  std::vector<std::string> max_values;                       // 3
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;  // 4
  std::vector<int64_t> null_counts;                          // 5 (optional; empty = absent)
  // 6 repetition_level_histograms, 7 definition_level_histograms: skipped.
};

// "PAR1": the 4 bytes at the start and end of every (unencrypted) Parquet file.
inline constexpr char kParquetMagic[4] = {'P', 'A', 'R', '1'};
// Footer = metadata + 4-byte little-endian metadata length + magic.
inline constexpr int64_t kFooterTrailerSize = 8;

}  // namespace sluice::parquet
