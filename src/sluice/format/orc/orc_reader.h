// OrcReader: reads an ORC file into ColumnBatches of a Paimon read type.
//
// The tail (postscript, footer, stripe statistics) is read once at Open; stripes are then read
// one at a time, each selected column's streams fetched and decompressed whole. Columns are
// matched by Paimon field id (`paimon.id` type attribute) where the file records ids, else by
// name; a read column the file lacks reads as null. With a predicate, stripes and row groups
// whose statistics (or UTF-8 bloom filters, for equality) exclude it are skipped; with row
// positions, only those rows are returned and the row index is used to seek past unselected row
// groups.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/format/file_format.h"
#include "sluice/format/orc/column_reader.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_stream.h"

namespace sluice::orc {

struct OrcFileTail {
  PostScript postscript;
  Footer footer;
  uint64_t postscript_length = 0;
  // Stripe statistics (the Metadata section); empty when the file has none.
  std::vector<StripeStatistics> stripe_statistics;
};

// Reads and validates the tail of `file`. Errors name the file.
Result<OrcFileTail> ReadOrcTail(const RandomAccessFile& file);

// The name of the single column of a file whose root type is not a struct.
inline constexpr const char* kRootColumnName = "_col0";

// The file schema as a Paimon ROW type: ids from `paimon.id` attributes where present, else the
// field position. Union types are NotSupported.
Result<DataTypePtr> OrcSchemaToPaimon(const std::vector<OrcType>& types);

class OrcReader : public FormatReader {
 public:
  // `read_type` null means the file's own schema (OrcSchemaToPaimon).
  static Result<std::unique_ptr<OrcReader>> Open(std::shared_ptr<RandomAccessFile> file,
                                                 DataTypePtr read_type,
                                                 const ReaderOptions& options);
  ~OrcReader() override;

  Result<bool> Next(ColumnBatch* batch) override;
  int64_t num_rows() const override { return static_cast<int64_t>(tail_.footer.number_of_rows); }

  const DataTypePtr& read_type() const { return read_type_; }
  const OrcFileTail& tail() const { return tail_; }
  // Stripes and row groups skipped so far by statistics (for tests and metrics).
  int64_t stripes_skipped() const { return stripes_skipped_; }
  int64_t row_groups_skipped() const { return row_groups_skipped_; }

 private:
  class StripeData;
  struct RowRange {
    int64_t begin;
    int64_t end;
  };

  OrcReader(std::shared_ptr<RandomAccessFile> file, DataTypePtr read_type,
            const ReaderOptions& options, OrcFileTail tail);
  Status Init();
  std::string Context() const;
  // Opens the next stripe with rows to read; false when there is none left.
  Result<bool> OpenNextStripe();
  Status LoadStripe(size_t stripe);
  // Row ranges of the current stripe after row-group pruning and row positions.
  Status PlanRanges(size_t stripe);
  Status SeekTo(int64_t row);
  bool StripeMightMatch(size_t stripe) const;
  // True when the stripe's bloom filters prove that row group `group` has no row where an
  // equality leaf (alone or under AND) holds.
  bool BloomExcludes(const Predicate& p, size_t group) const;

  std::shared_ptr<RandomAccessFile> file_;
  DataTypePtr read_type_;
  ReaderOptions options_;
  OrcFileTail tail_;
  std::vector<std::unique_ptr<ColumnReader>> readers_;  // per read field
  std::vector<int64_t> field_columns_;                  // ORC column per read field, or -1
  std::vector<uint8_t> column_selected_;                // per ORC column
  std::vector<int64_t> stripe_first_row_;
  std::unique_ptr<StripeData> stripe_;
  bool use_row_index_ = false;

  size_t next_stripe_ = 0;
  int64_t current_stripe_ = -1;
  std::vector<RowRange> ranges_;
  size_t range_index_ = 0;
  int64_t cursor_ = 0;         // next row of the current stripe the column readers will decode
  size_t position_index_ = 0;  // into options_.row_positions
  int64_t stripes_skipped_ = 0;
  int64_t row_groups_skipped_ = 0;
};

}  // namespace sluice::orc
