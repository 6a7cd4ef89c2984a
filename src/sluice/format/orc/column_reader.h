// ColumnReader: decodes one ORC column (and its subtree) of one stripe into a ColumnVector of
// the read type. One reader per selected column, built once per file; StartStripe binds it to
// each stripe's streams. Values are decoded a batch at a time (bulk RLE, no per-value virtual
// calls, scratch buffers reused across batches).
//
// Thread safety: not thread-safe; one reader per OrcReader.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/column_vector.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_stream.h"
#include "sluice/format/orc/rle_decoder.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"

namespace sluice::orc {

// What a column reader needs from the stripe being read.
class StripeStreams {
 public:
  virtual ~StripeStreams() = default;
  // The decoded stream, or an empty stream when the stripe has none of that kind.
  virtual const DecodedStream& Stream(uint32_t column, StreamKind kind) const = 0;
  virtual bool HasStream(uint32_t column, StreamKind kind) const = 0;
  virtual const ColumnEncoding& Encoding(uint32_t column) const = 0;
  // The writer's time zone (UTC when the stripe records none).
  virtual const TimeZone& WriterTimeZone() const = 0;
  // True for files written with the ORCv2 "unstable" version (Decimal64 as RLE).
  virtual bool Decimal64AsRle() const = 0;
};

// Row-index positions of one row group, by ORC column id.
using RowGroupPositions = std::vector<const std::vector<uint64_t>*>;

class ColumnReader {
 public:
  ColumnReader(uint32_t column, std::string path) : column_(column), path_(std::move(path)) {}
  virtual ~ColumnReader() = default;

  // Binds the reader (and its children) to a new stripe's streams.
  virtual Status StartStripe(const StripeStreams& stripe);
  // Appends `n` rows to `out`. `parent_valid`, when set, holds n bytes: rows where it is 0 are
  // null and have no data in this column's streams (children of a null struct).
  virtual Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) = 0;
  // Skips `n` rows of this column's own rows (those its parent had non-null).
  virtual Status Skip(int64_t n) = 0;
  // Positions every stream at the start of a row group.
  virtual Status Seek(const RowGroupPositions& positions) = 0;

  uint32_t column() const { return column_; }
  const std::string& path() const { return path_; }

 protected:
  // "column 'a.b' (ORC column 3)": the context of this reader's errors.
  std::string Context() const;
  Status WithContext(const Status& st) const { return st.ok() ? st : st.WithContext(Context()); }
  // Fills valid_ with n bytes (1 = value present) from the PRESENT stream and `parent_valid`;
  // *non_null receives the number of present rows.
  Status ReadValidity(int64_t n, const uint8_t* parent_valid, int64_t* non_null);
  // Reads n present bits and returns the number of non-null rows among them.
  Status SkipValidity(int64_t n, int64_t* non_null);
  // Copies valid_ into the validity of out rows [base, base + n) when some are null.
  void ApplyValidity(ColumnVector* out, int64_t base, int64_t n, int64_t non_null);
  // Positions the PRESENT stream; *index walks `positions`.
  Status SeekPresent(const std::vector<uint64_t>& positions, size_t* index);
  const std::vector<uint64_t>& PositionsOf(const RowGroupPositions& positions) const;

  uint32_t column_;
  std::string path_;
  bool has_present_ = false;
  const DecodedStream* present_stream_ = nullptr;
  BooleanRleDecoder present_;
  Buffer valid_;
  Buffer skip_scratch_;
};

// Builds the reader of ORC column `column` read as `read_type`. `types` is the file's type list.
// Fails with NotSupported when the types are incompatible or the ORC type is a union.
Result<std::unique_ptr<ColumnReader>> MakeColumnReader(const std::vector<OrcType>& types,
                                                       uint32_t column,
                                                       const DataTypePtr& read_type,
                                                       const std::string& path);

// A reader for a read-type column the file lacks: every row is null.
std::unique_ptr<ColumnReader> MakeNullColumnReader(const std::string& path);

// Matches the fields of `read_row` to the children of the ORC struct `types[column]`: by
// Paimon field id (`paimon.id` attribute) where the file records ids, else by name. Entry i is
// the ORC column id for read field i, or -1.
std::vector<int64_t> MatchStructFields(const std::vector<OrcType>& types, uint32_t column,
                                       const DataType& read_row);

}  // namespace sluice::orc
