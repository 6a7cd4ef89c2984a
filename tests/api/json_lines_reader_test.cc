// The public JSON-lines reader (json_lines_reader.h) and text values (value_parser.h): rows
// into batches of a row type, row kinds, and errors naming the input, line, column and value.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sluice/json_lines_reader.h"
#include "sluice/temporal_text.h"
#include "sluice/value_parser.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::test {
namespace {

DataTypePtr RowType() {
  return DataType::Row({
      Field(0, "id", DataType::BigInt(false)),
      Field(1, "price", DataType::Decimal(5, 2)),
      Field(2, "day", DataType::Date()),
      Field(3, "tags", DataType::Array(DataType::String())),
      Field(4, "bin", DataType::Bytes()),
  });
}

// Every row of the reader, as Values, and the kinds of each batch.
Result<std::vector<Value>> ReadRows(JsonLinesReader* reader,
                                    std::vector<std::vector<RowKind>>* kinds = nullptr) {
  std::vector<Value> rows;
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) return rows;
    for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(batch.GetRow(i));
    if (kinds != nullptr) kinds->push_back(reader->row_kinds());
  }
}

// The error of reading `text` as JSON lines of RowType().
Status ErrorOf(const std::string& text) {
  std::istringstream in(text);
  SLUICE_ASSIGN_OR_RETURN(auto reader, JsonLinesReader::Open(&in, "rows.jsonl", RowType()));
  Result<std::vector<Value>> rows = ReadRows(reader.get());
  return rows.ok() ? Status::OK() : rows.status();
}

TEST(JsonLinesReaderTest, ReadsRowsInBatchesOfTheRowType) {
  std::istringstream in(
      "{\"id\": 1, \"price\": \"12.5\", \"day\": \"2024-02-29\", \"tags\": [\"a\", null], "
      "\"bin\": {\"base64\": \"AAE=\"}}\n"
      "\n"
      "   \n"
      "{\"bin\": null, \"id\": 2}\n"
      "{\"id\": 9223372036854775807, \"price\": -999.99}\n");
  ASSERT_OK_AND_ASSIGN(auto reader,
                       JsonLinesReader::Open(&in, "rows.jsonl", RowType(), /*batch_rows=*/2));
  EXPECT_EQ(reader->output_type()->ToString(), RowType()->ToString());
  std::vector<std::vector<RowKind>> kinds;
  ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(reader.get(), &kinds));
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_EQ(kinds.size(), 2u) << "batches of at most 2 rows";
  EXPECT_TRUE(kinds[0].empty() && kinds[1].empty()) << "no _ROW_KIND: every row +I";

  ASSERT_OK_AND_ASSIGN(int32_t day, ParseDateLiteral("2024-02-29"));
  EXPECT_EQ(rows[0],
            Value::Row({Value::Int64(1), Value::FromDecimal(Decimal{1250, 5, 2}), Value::Int32(day),
                        Value::Array({Value::String("a"), Value::Null()}),
                        Value::Binary(std::string("\0\1", 2))}))
      << rows[0].DebugString();
  EXPECT_EQ(rows[1], Value::Row({Value::Int64(2), Value::Null(), Value::Null(), Value::Null(),
                                 Value::Null()}))
      << "absent nullable columns are null: " << rows[1].DebugString();
  EXPECT_EQ(rows[2], Value::Row({Value::Int64(INT64_MAX), Value::FromDecimal(Decimal{-99999, 5, 2}),
                                 Value::Null(), Value::Null(), Value::Null()}))
      << "BIGINT and DECIMAL numbers exact (-999.99 is no double): " << rows[2].DebugString();
  const int64_t bytes = static_cast<int64_t>(in.str().size());
  EXPECT_EQ(reader->bytes_read(), bytes);
}

TEST(JsonLinesReaderTest, RowKindsPerBatch) {
  std::istringstream in(
      "{\"id\": 1}\n"
      "{\"id\": 1, \"_ROW_KIND\": \"-U\"}\n"
      "{\"_ROW_KIND\": \"+U\", \"id\": 1}\n"
      "{\"id\": 2, \"_ROW_KIND\": \"-D\"}\n"
      "{\"id\": 3}\n");
  ASSERT_OK_AND_ASSIGN(auto reader,
                       JsonLinesReader::Open(&in, "kinds.jsonl", RowType(), /*batch_rows=*/2));
  std::vector<std::vector<RowKind>> kinds;
  ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(reader.get(), &kinds));
  ASSERT_EQ(rows.size(), 5u);
  ASSERT_EQ(kinds.size(), 3u);
  EXPECT_EQ(kinds[0], (std::vector<RowKind>{RowKind::kInsert, RowKind::kUpdateBefore}));
  EXPECT_EQ(kinds[1], (std::vector<RowKind>{RowKind::kUpdateAfter, RowKind::kDelete}));
  EXPECT_TRUE(kinds[2].empty()) << "a batch without _ROW_KIND holds +I rows only";
}

TEST(JsonLinesReaderTest, ErrorsNameTheLineTheColumnAndTheValue) {
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3, \"price\": \"abc\"}\n"),
                       StatusCode::kInvalidArgument,
                       {"rows.jsonl line 3", "column 'price'", "'abc'", "DECIMAL(5, 2)"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1, \"price\": \"1.234\"}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column 'price'", "'1.234'", "fraction digits"}));
  EXPECT_TRUE(
      HasError(ErrorOf("{\"id\": 1, \"colour\": \"red\"}\n"), StatusCode::kInvalidArgument,
               {"line 1", "unknown column 'colour'", "'id', 'price', 'day', 'tags', 'bin'"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"price\": \"1.00\"}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column 'id' is NOT NULL but missing"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": null}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column 'id' is NOT NULL, got null"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1}\n{\"id\": \n"), StatusCode::kInvalidArgument,
                       {"line 2", "not JSON", "invalid JSON at byte"}));
  EXPECT_TRUE(HasError(ErrorOf("[1, 2]\n"), StatusCode::kInvalidArgument,
                       {"line 1", "expected a JSON object, got array"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": \"x1\"}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column 'id'", "'x1'", "BIGINT"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1, \"_ROW_KIND\": \"?\"}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column '_ROW_KIND'", "'?' is not a row kind"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1, \"_ROW_KIND\": 1}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column '_ROW_KIND': expected a string, got number"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1, \"bin\": \"AAE=\"}\n"), StatusCode::kInvalidArgument,
                       {"line 1", "column 'bin'", "base64"}));
}

TEST(JsonLinesReaderTest, RefusesAStringThatIsNotUtf8NamingTheLineAndColumn) {
  const DataTypePtr type =
      DataType::Row({Field(0, "id", DataType::BigInt(false)), Field(1, "s", DataType::String())});
  std::istringstream in("{\"id\": 1, \"s\": \"ok\"}\n{\"id\": 2, \"s\": \"ab\xff\"}\n");
  auto reader = JsonLinesReader::Open(&in, "rows.jsonl", type);
  ASSERT_OK(reader);
  EXPECT_TRUE(HasError(ReadRows(reader->get()), StatusCode::kInvalidArgument,
                       {"rows.jsonl line 2: column 's': not valid UTF-8 (byte 19 of the line)"}));
  // In a nested value, the top-level column is named; in a member name, none is.
  EXPECT_TRUE(HasError(
      ErrorOf("{\"id\": 1, \"tags\": [\"a\", \"\xed\xa0\x80\"]}\n"), StatusCode::kInvalidArgument,
      {"rows.jsonl line 1: column 'tags': not valid UTF-8 (byte 26 of the line)"}));
  EXPECT_TRUE(HasError(ErrorOf("{\"id\": 1, \"\xc3\": 2}\n"), StatusCode::kInvalidArgument,
                       {"rows.jsonl line 1: not valid UTF-8 (byte 12 of the line)"}));
  // The text form takes strings as they are, and refuses the same bytes.
  EXPECT_TRUE(HasError(ParseValueText("caf\xc3", *DataType::String()), StatusCode::kInvalidArgument,
                       {"'caf\xEF\xBF\xBD' is not valid UTF-8 (byte 4)"}));
  Result<Value> ok = ParseValueText("caf\xc3\xa9", *DataType::String());
  ASSERT_OK(ok);
  EXPECT_EQ(ok->bytes(), "caf\xc3\xa9");
}

TEST(JsonLinesReaderTest, FindsTheRowOfAnIllFormedStringAtAnyDepth) {
  ColumnBatch batch(DataType::Row({Field(0, "s", DataType::String()),
                                   Field(1, "tags", DataType::Array(DataType::String())),
                                   Field(2, "b", DataType::Bytes())}));
  ASSERT_OK(batch.AppendRow({Value::String("a"), Value::Array({}), Value::Binary("\xff")}));
  ASSERT_OK(
      batch.AppendRow({Value::String("b"), Value::Array({Value::String("x")}), Value::Binary("")}));
  ASSERT_OK(batch.AppendRow({Value::String("c\xff"),
                             Value::Array({Value::String("y"), Value::String("\xc3")}),
                             Value::Binary("")}));
  EXPECT_EQ(FindInvalidUtf8Row(*batch.column(0)), 2);
  EXPECT_EQ(FindInvalidUtf8Row(*batch.column(1)), 2);
  EXPECT_EQ(FindInvalidUtf8Row(*batch.column(2)), -1) << "bytes are no string";
}

TEST(JsonLinesReaderTest, AfterAnErrorTheReaderEnds) {
  std::istringstream in("{\"id\": \"bad\"}\n{\"id\": 2}\n");
  ASSERT_OK_AND_ASSIGN(auto reader, JsonLinesReader::Open(&in, "rows.jsonl", RowType()));
  ColumnBatch batch(RowType());
  EXPECT_TRUE(HasError(reader->Next(&batch), StatusCode::kInvalidArgument, {"line 1"}));
  ASSERT_OK_AND_ASSIGN(bool more, reader->Next(&batch));
  EXPECT_FALSE(more);
}

TEST(JsonLinesReaderTest, ReadsAFileAndNamesAMissingOne) {
  TempDir dir;
  const std::string path = dir.path() + "/in.jsonl";
  std::ofstream(path) << "{\"id\": 7}\n{\"id\": 8, \"price\": \"x\"}\n";
  ASSERT_OK_AND_ASSIGN(auto reader, JsonLinesReader::Open(path, RowType()));
  EXPECT_TRUE(HasError(ReadRows(reader.get()), StatusCode::kInvalidArgument,
                       {path + " line 2", "column 'price'", "'x'"}));

  EXPECT_TRUE(HasError(JsonLinesReader::Open(dir.path() + "/missing.jsonl", RowType()),
                       StatusCode::kIOError, {"missing.jsonl"}));
}

TEST(JsonLinesReaderTest, RefusesAnythingButARowTypeAndAPositiveBatchSize) {
  std::istringstream in("");
  EXPECT_TRUE(HasError(JsonLinesReader::Open(&in, "-", DataType::Int()),
                       StatusCode::kInvalidArgument, {"ROW type", "INT"}));
  EXPECT_TRUE(HasError(JsonLinesReader::Open(&in, "-", RowType(), 0), StatusCode::kInvalidArgument,
                       {"batch size must be positive, got 0"}));
}

TEST(ValueParserTest, ParsesValueText) {
  ASSERT_OK_AND_ASSIGN(Value decimal, ParseValueText("-1.5", *DataType::Decimal(5, 2)));
  EXPECT_EQ(decimal, Value::FromDecimal(Decimal{-150, 5, 2}));
  ASSERT_OK_AND_ASSIGN(Value text, ParseValueText("", *DataType::String()));
  EXPECT_EQ(text, Value::String(""));
  ASSERT_OK_AND_ASSIGN(Value flag, ParseValueText("TRUE", *DataType::Boolean()));
  EXPECT_EQ(flag, Value::Boolean(true));
  ASSERT_OK_AND_ASSIGN(Value ints, ParseValueText("[1, null]", *DataType::Array(DataType::Int())));
  EXPECT_EQ(ints, Value::Array({Value::Int32(1), Value::Null()}));
  EXPECT_TRUE(HasError(ParseValueText("300", *DataType::TinyInt()), StatusCode::kInvalidArgument,
                       {"'300'", "TINYINT", "out of range"}));
  EXPECT_TRUE(HasError(ParseValueText("2024-13-01", *DataType::Date()),
                       StatusCode::kInvalidArgument, {"'2024-13-01'", "DATE"}));
  EXPECT_TRUE(HasError(ParseValueText("[1,", *DataType::Array(DataType::Int())),
                       StatusCode::kInvalidArgument, {"'[1,'", "not JSON text"}));
}

}  // namespace
}  // namespace sluice::test
