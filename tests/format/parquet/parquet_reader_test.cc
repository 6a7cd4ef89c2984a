// The Parquet reader's features (projection, field ids, missing columns, row positions,
// row-group pruning, batching) and its handling of corrupt input, on small files written by
// DuckDB and then edited.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "duckdb_oracle.h"
#include "parquet_read_util.h"
#include "sluice/base/coding.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/format/parquet/thrift_compact_reader.h"
#include "sluice/format/parquet/thrift_compact_writer.h"
#include "sluice/fs/file_io.h"
#include "sluice/fs/memory_file.h"
#include "sluice/predicate/predicate.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::parquet {
namespace {

using test::Field;

using sluice::test::DuckDbOracle;
using sluice::test::TempDir;
using test::CanonicalText;
using test::ReadParquetFile;

// Counts the bytes read through it.
class CountingFile : public RandomAccessFile {
 public:
  explicit CountingFile(std::shared_ptr<RandomAccessFile> base) : base_(std::move(base)) {}
  const std::string& path() const override { return base_->path(); }
  int64_t size() const override { return base_->size(); }
  Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
    bytes_read_ += n;
    return base_->ReadAt(offset, n, out);
  }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  std::shared_ptr<RandomAccessFile> base_;
  mutable int64_t bytes_read_ = 0;
};

FileMetaData Footer(const std::string& bytes);
template <typename F>
std::string EditPageHeader(const std::string& bytes, int64_t offset, F&& edit);

class ParquetReaderTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& select,
                    const std::string& options = "") {
    std::string path = dir_.path() + "/" + name;
    auto st = duck_.Query("COPY (" + select + ") TO " + DuckDbOracle::Quote(path) +
                          " (FORMAT parquet" + (options.empty() ? "" : ", " + options) + ")");
    EXPECT_OK(st);
    return path;
  }
  static std::string Bytes(const std::string& path) { return sluice::test::ReadFileOrFail(path); }
  // Reads an in-memory file fully with its own type.
  static Status ReadBytes(const std::string& name, std::string bytes) {
    auto file = std::make_shared<MemoryRandomAccessFile>(name, std::move(bytes));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, ReadParquetFileType(*file));
    SLUICE_ASSIGN_OR_RETURN(auto reader, OpenParquetReader(file, type, ReaderOptions()));
    ColumnBatch batch(type);
    int64_t rows = 0;
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) batch.GetRow(i);
      rows += batch.num_rows();
    }
    if (rows != reader->num_rows()) return Status::Internal("row count mismatch");
    return Status::OK();
  }

  TempDir dir_;
  DuckDbOracle duck_;
};

TEST_F(ParquetReaderTest, ProjectsReordersAndFillsMissingColumnsWithNull) {
  std::string path = Write("p.parquet",
                           "SELECT i AS a, 'x' || i::VARCHAR AS b, [i] AS c "
                           "FROM range(10) t(i)");
  DataTypePtr type =
      DataType::Row({Field(0, "c", DataType::Array(DataType::BigInt())),
                     Field(1, "missing", DataType::Row({Field(5, "q", DataType::Int())})),
                     Field(2, "a", DataType::BigInt()), Field(3, "absent", DataType::String())});
  auto content = ReadParquetFile(path, type);
  ASSERT_OK(content);
  ASSERT_EQ(content->rows.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(CanonicalText(content->rows[i], *type),
              "{[" + std::to_string(i) + "], NULL, " + std::to_string(i) + ", NULL}");
  }
}

TEST_F(ParquetReaderTest, MatchesColumnsByFieldIdWhenTheFileHasIds) {
  std::string path =
      Write("ids.parquet", "SELECT i::INTEGER AS a, (i * 2)::INTEGER AS b FROM range(5) t(i)",
            "FIELD_IDS {a: 10, b: 20}");
  // Renamed columns: ids decide.
  DataTypePtr type =
      DataType::Row({Field(20, "renamed_b", DataType::Int()),
                     Field(10, "renamed_a", DataType::Int()), Field(30, "a", DataType::Int())});
  auto content = ReadParquetFile(path, type);
  ASSERT_OK(content);
  ASSERT_EQ(content->rows.size(), 5u);
  EXPECT_EQ(CanonicalText(content->rows[3], *type), "{6, 3, NULL}");
}

TEST_F(ParquetReaderTest, ReadsChosenRowPositionsAcrossRowGroups) {
  std::string path = Write("pos.parquet",
                           "SELECT i AS a, CASE WHEN i % 3 = 0 THEN NULL ELSE [i, i + 1] END AS l, "
                           "{'s': 'v' || i::VARCHAR} AS st FROM range(10000) t(i)",
                           "ROW_GROUP_SIZE 2048");
  auto file_type = ReadParquetFile(path);
  ASSERT_OK(file_type);
  const std::vector<int64_t> positions = {0, 1, 2, 5, 2047, 2048, 2049, 4000, 9998, 9999};
  ReaderOptions options;
  options.row_positions = positions;
  options.batch_size = 3;
  auto content = ReadParquetFile(path, file_type->type, options);
  ASSERT_OK(content);
  ASSERT_EQ(content->rows.size(), positions.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    EXPECT_EQ(CanonicalText(content->rows[k], *file_type->type),
              CanonicalText(file_type->rows[static_cast<size_t>(positions[k])], *file_type->type))
        << "position " << positions[k];
  }
  options.row_positions = std::vector<int64_t>{};
  content = ReadParquetFile(path, file_type->type, options);
  ASSERT_OK(content);
  EXPECT_TRUE(content->rows.empty());
}

TEST_F(ParquetReaderTest, RowPositionsSkipPagesWithoutWantedRows) {
  // Impala's tiny pages (parquet-testing): column `id` holds 7300 rows in many small PLAIN pages.
  std::string good = Bytes(sluice::test::ExternalDir() +
                           "/parquet-testing/data/alltypes_tiny_pages_plain.parquet");
  FileMetaData meta = Footer(good);
  ASSERT_EQ(meta.row_groups.size(), 1u);
  const ColumnMetaData& cm = *meta.row_groups[0].columns[0].meta_data;
  ASSERT_EQ(cm.path_in_schema[0], "id");
  int64_t pos = cm.data_page_offset;
  if (cm.dictionary_page_offset && *cm.dictionary_page_offset >= 4) {
    pos = std::min(pos, *cm.dictionary_page_offset);
  }
  const int64_t end = pos + cm.total_compressed_size;
  std::vector<int64_t> data_pages;
  while (pos < end) {
    PageHeader h;
    size_t len = 0;
    ASSERT_OK(DecodePageHeader(std::string_view(good).substr(static_cast<size_t>(pos)), &h, &len));
    if (h.type == PageType::kDataPage || h.type == PageType::kDataPageV2) data_pages.push_back(pos);
    pos += static_cast<int64_t>(len) + h.compressed_page_size;
  }
  ASSERT_GE(data_pages.size(), 10u);
  // Break the last data page of `id`: an uncompressed page whose sizes disagree.
  std::string bad = EditPageHeader(good, data_pages.back(),
                                   [](PageHeader* h) { h->uncompressed_page_size += 1; });
  Status st = ReadBytes("broken_page.parquet", bad);
  EXPECT_NE(st.message().find("column 'id'"), std::string::npos) << st.ToString();
  // Rows of the first pages read without decoding the broken one.
  auto file = std::make_shared<CountingFile>(
      std::make_shared<MemoryRandomAccessFile>("broken_page.parquet", bad));
  auto full = ReadParquetFile(sluice::test::ExternalDir() +
                              "/parquet-testing/data/alltypes_tiny_pages_plain.parquet");
  ASSERT_OK(full);
  ReaderOptions options;
  options.row_positions = std::vector<int64_t>{0, 1, 7, 100};
  auto reader = OpenParquetReader(file, full->type, options);
  ASSERT_OK(reader);
  ColumnBatch batch(full->type);
  auto more = (*reader)->Next(&batch);
  ASSERT_OK(more);
  ASSERT_EQ(batch.num_rows(), 4);
  // With the offset index only the footer, the indexes and the wanted pages are read.
  EXPECT_LT(file->bytes_read(), file->size() / 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(
        CanonicalText(batch.GetRow(k), *full->type),
        CanonicalText(full->rows[static_cast<size_t>((*options.row_positions)[k])], *full->type));
  }
}

TEST_F(ParquetReaderTest, SkipsRowGroupsByStatistics) {
  std::string path = Write("stats.parquet",
                           "SELECT i AS a, 'k' || lpad(i::VARCHAR, 5, '0') AS s, i / 2.0 AS d "
                           "FROM range(10000) t(i)",
                           "ROW_GROUP_SIZE 2048");
  auto all = ReadParquetFile(path);
  ASSERT_OK(all);
  const DataTypePtr& type = all->type;
  auto rows_with = [&](PredicatePtr p) -> int64_t {
    ReaderOptions options;
    options.predicate = std::move(p);
    auto content = ReadParquetFile(path, type, options);
    EXPECT_OK(content);
    return content.ok() ? static_cast<int64_t>(content->rows.size()) : -1;
  };
  DataTypePtr a = type->fields()[0].type;
  // Row groups of 2048 rows: [0, 2048) ... [8192, 10000).
  EXPECT_EQ(rows_with(Predicate::Leaf(PredicateOp::kGreaterThan, 0, "a", a, {Value::Int64(9000)})),
            10000 - 8192);
  EXPECT_EQ(rows_with(Predicate::Leaf(PredicateOp::kLessThan, 0, "a", a, {Value::Int64(10)})),
            2048);
  EXPECT_EQ(rows_with(Predicate::Leaf(PredicateOp::kEqual, 0, "a", a, {Value::Int64(-1)})), 0);
  EXPECT_EQ(rows_with(Predicate::Leaf(PredicateOp::kEqual, 1, "s", type->fields()[1].type,
                                      {Value::String("k04100")})),
            2048);
  // Row positions in pruned row groups are dropped with them.
  ReaderOptions both;
  both.predicate = Predicate::Leaf(PredicateOp::kGreaterThan, 0, "a", a, {Value::Int64(9000)});
  both.row_positions = std::vector<int64_t>{5, 3000, 9001, 9999};
  auto content = ReadParquetFile(path, type, both);
  ASSERT_OK(content);
  ASSERT_EQ(content->rows.size(), 2u);
  EXPECT_EQ(content->rows[0].list()[0].int64(), 9001);
  EXPECT_EQ(content->rows[1].list()[0].int64(), 9999);
  // A predicate that cannot prune by value.
  EXPECT_EQ(rows_with(Predicate::Leaf(PredicateOp::kIsNotNull, 0, "a", a)), 10000);
}

TEST_F(ParquetReaderTest, ReadsLongValuesAcrossReadWindows) {
  // Values of 20-300 KB: pages and their headers' statistics pass the reader's 1 MiB read
  // window and its first 4 KiB header read.
  std::string path = Write("long.parquet",
                           "SELECT i AS a, repeat(chr(65 + (i % 26)::INTEGER), 20000 + 7000 * i) "
                           "AS s FROM range(40) t(i)");
  auto content = ReadParquetFile(path);
  ASSERT_OK(content);
  ASSERT_EQ(content->rows.size(), 40u);
  for (int64_t i = 0; i < 40; ++i) {
    const auto& row = content->rows[static_cast<size_t>(i)].list();
    ASSERT_EQ(row[0].AsInt64(), i);
    EXPECT_EQ(row[1].bytes(),
              std::string(static_cast<size_t>(20000 + 7000 * i), static_cast<char>('A' + i % 26)));
  }
}

TEST_F(ParquetReaderTest, HandsOutBatchesOfTheRequestedSize) {
  std::string path =
      Write("batch.parquet", "SELECT i AS a FROM range(1000) t(i)", "ROW_GROUP_SIZE 300");
  auto f = LocalFileIO()->OpenForRead(path);
  ASSERT_OK(f);
  std::shared_ptr<RandomAccessFile> file = std::move(f).value();
  auto type = ReadParquetFileType(*file);
  ASSERT_OK(type);
  ReaderOptions options;
  options.batch_size = 128;
  auto reader = OpenParquetReader(file, *type, options);
  ASSERT_OK(reader);
  ColumnBatch batch(*type);
  int64_t next = 0;
  int batches = 0;
  while (true) {
    auto more = (*reader)->Next(&batch);
    ASSERT_OK(more);
    if (!*more) break;
    ++batches;
    EXPECT_LE(batch.num_rows(), 128);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      EXPECT_EQ(batch.column(0)->data<int64_t>()[i], next++);
    }
  }
  EXPECT_EQ(next, 1000);
  EXPECT_EQ(batches, 8);
}

// --- Corrupt input ---

TEST_F(ParquetReaderTest, RejectsBadMagicAndFooters) {
  std::string good =
      Bytes(Write("g.parquet", "SELECT i AS a, 's' || i::VARCHAR AS b FROM range(100) t(i)"));
  ASSERT_OK(ReadBytes("g", good));

  Status st = ReadBytes("short.parquet", good.substr(0, 7));
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"short.parquet"}));
  EXPECT_NE(st.message().find("short.parquet"), std::string::npos);

  std::string bad_magic = good;
  bad_magic[bad_magic.size() - 1] = 'X';
  st = ReadBytes("magic.parquet", bad_magic);
  EXPECT_NE(st.message().find("magic"), std::string::npos) << st.ToString();

  EXPECT_TRUE(test::HasError(ReadBytes("truncated.parquet", good.substr(0, good.size() - 20)),
                             StatusCode::kCorruption, {"truncated.parquet", "missing PAR1 magic"}));

  std::string lying_length = good;
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(lying_length.data()) + lying_length.size() - 8,
                  0x7fffffff);
  st = ReadBytes("length.parquet", lying_length);
  EXPECT_NE(st.message().find("footer length"), std::string::npos) << st.ToString();
}

// Re-encodes the footer of `bytes` after `edit` changes its metadata.
template <typename F>
std::string EditFooter(const std::string& bytes, F&& edit) {
  uint32_t len = DecodeFixed32LE(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  size_t meta_start = bytes.size() - 8 - len;
  FileMetaData meta;
  EXPECT_OK(DecodeFileMetaData(std::string_view(bytes).substr(meta_start, len), &meta));
  edit(&meta);
  std::string out = bytes.substr(0, meta_start);
  std::string footer;
  SerializeFileMetaData(meta, &footer);
  out += footer;
  PutFixed32LE(&out, static_cast<uint32_t>(footer.size()));
  out += "PAR1";
  return out;
}

TEST_F(ParquetReaderTest, ReportsChunksAndPagesOutsideTheFile) {
  std::string good = Bytes(Write("c.parquet", "SELECT i AS a FROM range(100) t(i)"));
  Status st = ReadBytes("offset.parquet", EditFooter(good, [](FileMetaData* m) {
                          m->row_groups[0].columns[0].meta_data->data_page_offset = 1 << 30;
                        }));
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"offset.parquet"}));
  EXPECT_NE(st.message().find("offset.parquet"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("column 'a'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("outside the data area"), std::string::npos) << st.ToString();

  st = ReadBytes("size.parquet", EditFooter(good, [](FileMetaData* m) {
                   m->row_groups[0].columns[0].meta_data->total_compressed_size = 10;
                 }));
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"size.parquet"}));
  EXPECT_NE(st.message().find("column 'a'"), std::string::npos) << st.ToString();

  st = ReadBytes("rows.parquet", EditFooter(good, [](FileMetaData* m) {
                   m->row_groups[0].num_rows = 5000;
                   m->num_rows = 5000;
                 }));
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"rows.parquet"}));
  EXPECT_NE(st.message().find("rows"), std::string::npos) << st.ToString();

  st = ReadBytes("schema.parquet",
                 EditFooter(good, [](FileMetaData* m) { m->schema[0].num_children = 7; }));
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"schema.parquet"}));
  // The root claims two children; the first (made a group) claims the second (fuzzer-found).
  std::string two = Bytes(Write("two.parquet", "SELECT i AS a, i AS b FROM range(10) t(i)"));
  st = ReadBytes("schema2.parquet", EditFooter(two, [](FileMetaData* m) {
                   m->schema[1].type.reset();
                   m->schema[1].num_children = 1;
                 }));
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"schema2.parquet"}));
  EXPECT_NE(st.message().find("children"), std::string::npos) << st.ToString();
}

// Rewrites the page header at `offset` of `bytes` (which must keep its encoded length).
template <typename F>
std::string EditPageHeader(const std::string& bytes, int64_t offset, F&& edit) {
  PageHeader header;
  size_t len = 0;
  EXPECT_OK(
      DecodePageHeader(std::string_view(bytes).substr(static_cast<size_t>(offset)), &header, &len));
  edit(&header);
  std::string encoded;
  SerializePageHeader(header, &encoded);
  EXPECT_EQ(encoded.size(), len);
  std::string out = bytes;
  out.replace(static_cast<size_t>(offset), len, encoded);
  return out;
}

FileMetaData Footer(const std::string& bytes) {
  uint32_t len = DecodeFixed32LE(reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size() - 8);
  FileMetaData meta;
  EXPECT_OK(DecodeFileMetaData(std::string_view(bytes).substr(bytes.size() - 8 - len, len), &meta));
  return meta;
}

TEST_F(ParquetReaderTest, ReportsDictionaryIndexOutOfRange) {
  std::string good = Bytes(Write("d.parquet", "SELECT (i % 5)::INTEGER AS a FROM range(100) t(i)",
                                 "COMPRESSION uncompressed"));
  FileMetaData meta = Footer(good);
  const ColumnMetaData& cm = *meta.row_groups[0].columns[0].meta_data;
  int64_t dict_offset = cm.dictionary_page_offset.value_or(cm.data_page_offset);
  std::string bad = EditPageHeader(good, dict_offset, [](PageHeader* h) {
    ASSERT_TRUE(h->dictionary_page_header.has_value());
    h->dictionary_page_header->num_values = 2;
  });
  Status st = ReadBytes("dict.parquet", bad);
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"dict.parquet"}));
  EXPECT_NE(st.message().find("dictionary index"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("column 'a'"), std::string::npos) << st.ToString();
}

TEST_F(ParquetReaderTest, ReportsLevelStreamsThatRunShort) {
  std::string good = Bytes(Write(
      "l.parquet", "SELECT CASE WHEN i % 2 = 0 THEN NULL ELSE i END AS a FROM range(100) t(i)",
      "COMPRESSION uncompressed"));
  FileMetaData meta = Footer(good);
  const ColumnMetaData& cm = *meta.row_groups[0].columns[0].meta_data;
  // The data page header follows the dictionary page, if any.
  int64_t offset = cm.data_page_offset;
  std::string bad = EditPageHeader(good, offset, [](PageHeader* h) {
    ASSERT_TRUE(h->data_page_header.has_value());
    h->data_page_header->num_values = 1000;
  });
  bad = EditFooter(
      bad, [](FileMetaData* m) { m->row_groups[0].columns[0].meta_data->num_values = 1000; });
  Status st = ReadBytes("levels.parquet", bad);
  EXPECT_TRUE(test::HasError(st, StatusCode::kCorruption, {"levels.parquet"}));
  EXPECT_NE(st.message().find("runs short"), std::string::npos) << st.ToString();
}

TEST_F(ParquetReaderTest, SurvivesGarbageFootersAndFlippedBytes) {
  std::string good =
      Bytes(Write("f.parquet",
                  "SELECT i AS a, CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL] END AS l, "
                  "MAP {'k' || i::VARCHAR: {'x': i}} AS m, md5(i::VARCHAR) AS s "
                  "FROM range(300) t(i)",
                  "COMPRESSION snappy"));
  uint32_t len = DecodeFixed32LE(reinterpret_cast<const uint8_t*>(good.data()) + good.size() - 8);
  std::mt19937 rng(42);
  int errors = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::string bad = good;
    // Half the runs garble the footer, half anywhere in the file.
    size_t lo = iter % 2 == 0 ? good.size() - 8 - len : 0;
    int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; ++k) {
      size_t pos = lo + rng() % (good.size() - lo);
      bad[pos] = static_cast<char>(rng());
    }
    Status st = ReadBytes("flipped.parquet", bad);
    if (!st.ok()) {
      ++errors;
      EXPECT_NE(st.code(), StatusCode::kInternal) << st.ToString();
    }
  }
  EXPECT_GT(errors, 50);
}

TEST(ThriftCompactReaderTest, RejectsLyingLengthsAndDeepNesting) {
  // Field 2 (schema, a list of structs) with a list header claiming 2^31 - 1 elements.
  std::string lying_list = std::string("\x29\xfc", 2) + std::string("\xff\xff\xff\xff\x07", 5);
  FileMetaData meta;
  EXPECT_TRUE(test::HasError(DecodeFileMetaData(lying_list, &meta), StatusCode::kCorruption,
                             {"thrift: list size 2147483647 runs past the end"}));
  // Structs nested 1000 deep (field 1 of type struct, repeatedly) in a skipped field.
  std::string deep(1000, '\x1c');
  EXPECT_TRUE(test::HasError(DecodeFileMetaData(std::string("\xfc", 1) + deep, &meta),
                             StatusCode::kCorruption, {"nested too deeply"}));
  // A binary longer than the input.
  EXPECT_TRUE(test::HasError(DecodeFileMetaData(std::string("\x68\x7f", 2), &meta),
                             StatusCode::kCorruption, {"thrift: binary length"}));
  EXPECT_TRUE(test::HasError(DecodeFileMetaData("", &meta), StatusCode::kCorruption, {"thrift: "}));
}

}  // namespace
}  // namespace sluice::parquet
