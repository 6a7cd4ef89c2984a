// Split and CommitMessage serialization: a split planned here and read after a round trip
// gives the same rows (append and deletion-vector tables of the corpus); commit messages of
// two writers committed after a round trip give the rows written; and corrupt input (every
// truncation, every single-byte change, wrong magic and version, random bytes) gives a
// Corruption or NotSupported status, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/value_json.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice {
namespace {

std::vector<std::string> Rows(BatchReader* reader) {
  std::vector<std::string> rows;
  ColumnBatch batch(reader->output_type());
  while (true) {
    auto more = reader->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      rows.push_back(ValueToJson(batch.GetRow(r), *batch.schema()));
    }
  }
  return rows;
}

std::vector<std::string> ReadSplit(const TableRead& read, const Split& split) {
  auto reader = read.CreateReader(split);
  EXPECT_OK(reader);
  return reader.ok() ? Rows(reader->get()) : std::vector<std::string>{};
}

ReadBuilder CorpusRead(const std::string& table) {
  auto opened = Table::Open(test::CompatTablesDir() + "/" + table);
  EXPECT_OK(opened);
  return opened->NewReadBuilder();
}

class SplitRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SplitRoundTripTest, DeserializedSplitsReadTheSameRows) {
  ReadBuilder builder = CorpusRead(GetParam());
  auto plan = test::PlanOf(builder);
  ASSERT_OK(plan);
  ASSERT_FALSE(plan->splits.empty());
  auto read = builder.NewRead();
  ASSERT_OK(read);
  int64_t rows = 0;
  for (const Split& split : plan->splits) {
    auto bytes = split.Serialize();
    ASSERT_OK(bytes);
    auto back = Split::Deserialize(*bytes);
    ASSERT_OK(back);
    EXPECT_TRUE(*back == split);
    EXPECT_EQ(back->bucket(), split.bucket());
    EXPECT_EQ(back->partition(), split.partition());
    EXPECT_EQ(back->row_count(), split.row_count());
    const std::vector<std::string> expected = ReadSplit(*read, split);
    EXPECT_EQ(ReadSplit(*read, *back), expected);
    rows += static_cast<int64_t>(expected.size());
  }
  EXPECT_GT(rows, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, SplitRoundTripTest,
    ::testing::Values("parquet/append_09.db/append_09",
                      "parquet/pk_table_with_dv_cardinality.db/pk_table_with_dv_cardinality"));

// A serialized split of the corpus with deletion vectors (every field in use).
std::string SampleSplitBytes() {
  auto plan = test::PlanOf(
      CorpusRead("parquet/pk_table_with_dv_cardinality.db/pk_table_with_dv_cardinality"));
  if (!plan.ok() || plan->splits.empty()) {
    ADD_FAILURE() << "no split to serialize: " << plan.status().ToString();
    return "";
  }
  auto bytes = plan->splits.front().Serialize();
  EXPECT_OK(bytes);
  return *bytes;
}

void ExpectCorrupt(const Status& st) {
  EXPECT_TRUE(st.code() == StatusCode::kCorruption || st.code() == StatusCode::kNotSupported)
      << st.ToString();
}

TEST(SplitDeserializeTest, WrongMagicAndVersionNameTheProblem) {
  std::string bytes = SampleSplitBytes();
  EXPECT_TRUE(test::HasError(Split::Deserialize(""), StatusCode::kCorruption,
                             {"not a serialized split: expected the magic", "(0 bytes given)"}));

  std::string commit_bytes = bytes;
  commit_bytes.replace(0, 4, "SLCM");
  EXPECT_TRUE(test::HasError(Split::Deserialize(commit_bytes), StatusCode::kCorruption,
                             {"not a serialized split"}));

  std::string future = bytes;
  future[4] = static_cast<char>(Split::kSerializationVersion + 1);
  EXPECT_TRUE(test::HasError(Split::Deserialize(future), StatusCode::kNotSupported,
                             {"serialized split has version 3"}));

  EXPECT_TRUE(test::HasError(Split::Deserialize(bytes + "x"), StatusCode::kCorruption,
                             {"split: 1 trailing bytes after the last field"}));
}

TEST(SplitDeserializeTest, EveryTruncationIsCorrupt) {
  const std::string bytes = SampleSplitBytes();
  for (size_t n = 0; n < bytes.size(); ++n) {
    ASSERT_TRUE(test::HasError(Split::Deserialize(std::string_view(bytes).substr(0, n)),
                               StatusCode::kCorruption, {"split"}))
        << "prefix of " << n << " bytes";
  }
}

TEST(SplitDeserializeTest, ChangedBytesAndRandomBytesNeverCrash) {
  const std::string bytes = SampleSplitBytes();
  std::mt19937_64 rng(17);
  // Every byte replaced by a few values: accepted (a different, well-formed split) or refused.
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string changed = bytes;
      changed[i] = static_cast<char>(v);
      auto split = Split::Deserialize(changed);
      if (!split.ok()) ExpectCorrupt(split.status());
    }
  }
  // Random tails after a valid header, of random lengths.
  for (int round = 0; round < 5000; ++round) {
    std::string random = bytes.substr(0, 5);
    const size_t n = rng() % 200;
    for (size_t i = 0; i < n; ++i) random.push_back(static_cast<char>(rng()));
    auto split = Split::Deserialize(random);
    if (!split.ok()) ExpectCorrupt(split.status());
  }
}

class CommitMessageSerializeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {DataField{0, "id", DataType::BigInt(false), std::nullopt, std::nullopt},
                    DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "2"}};
    ASSERT_OK(catalog.CreateTable("db.pk", spec));
    auto table = catalog.GetTable("db.pk");
    ASSERT_OK(table);
    table_ = std::make_unique<Table>(*table);
  }

  // The messages one writer hands over for `ids`, serialized.
  std::vector<std::string> WriteSerialized(const std::vector<int64_t>& ids, const char* value) {
    auto write = table_->NewWriteBuilder().NewWrite();
    EXPECT_OK(write);
    if (!write.ok()) return {};
    ColumnBatch batch((*write)->input_type());
    for (int64_t id : ids) EXPECT_OK(batch.AppendRow({Value::Int64(id), Value::String(value)}));
    EXPECT_OK((*write)->Write(batch));
    auto messages = (*write)->PrepareCommit();
    EXPECT_OK(messages);
    EXPECT_OK((*write)->Close());
    if (!messages.ok()) return {};
    std::vector<std::string> out;
    for (const CommitMessage& m : *messages) {
      auto bytes = m.Serialize();
      EXPECT_OK(bytes);
      out.push_back(*bytes);
    }
    return out;
  }

  test::TempDir dir_;
  std::unique_ptr<Table> table_;
};

TEST_F(CommitMessageSerializeTest, MessagesOfTwoWritersCommitAfterARoundTrip) {
  std::vector<std::string> serialized = WriteSerialized({1, 2, 3}, "a");
  for (std::string& bytes : WriteSerialized({4, 5}, "b")) serialized.push_back(std::move(bytes));
  std::vector<CommitMessage> messages;
  for (const std::string& bytes : serialized) {
    auto message = CommitMessage::Deserialize(bytes);
    ASSERT_OK(message);
    auto again = message->Serialize();
    ASSERT_OK(again);
    EXPECT_EQ(*again, bytes);
    messages.push_back(std::move(*message));
  }
  auto commit = table_->NewWriteBuilder().NewCommit();
  ASSERT_OK(commit);
  auto result = (*commit)->Commit(std::move(messages));
  ASSERT_OK(result);
  EXPECT_EQ(result->snapshot_ids, std::vector<int64_t>{1});
  auto reader = test::ReaderOf(table_->NewReadBuilder());
  ASSERT_OK(reader);
  std::vector<std::string> rows = Rows(reader->get());
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows,
            (std::vector<std::string>{"{\"id\": 1, \"v\": \"a\"}", "{\"id\": 2, \"v\": \"a\"}",
                                      "{\"id\": 3, \"v\": \"a\"}", "{\"id\": 4, \"v\": \"b\"}",
                                      "{\"id\": 5, \"v\": \"b\"}"}));
  auto report = table_->Check();
  ASSERT_OK(report);
  EXPECT_TRUE(report->ok()) << report->problems.front();
}

TEST_F(CommitMessageSerializeTest, CorruptInputIsAStatusNeverACrash) {
  const std::vector<std::string> written = WriteSerialized({1}, "a");
  ASSERT_FALSE(written.empty());
  const std::string& bytes = written.front();
  for (size_t n = 0; n < bytes.size(); ++n) {
    ASSERT_TRUE(test::HasError(CommitMessage::Deserialize(std::string_view(bytes).substr(0, n)),
                               StatusCode::kCorruption, {"commit message"}))
        << "prefix of " << n << " bytes";
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string changed = bytes;
      changed[i] = static_cast<char>(v);
      auto message = CommitMessage::Deserialize(changed);
      if (!message.ok()) ExpectCorrupt(message.status());
    }
  }
  std::mt19937_64 rng(23);
  for (int round = 0; round < 5000; ++round) {
    std::string random = round % 2 == 0 ? bytes.substr(0, 5) : std::string();
    const size_t n = rng() % 200;
    for (size_t i = 0; i < n; ++i) random.push_back(static_cast<char>(rng()));
    auto message = CommitMessage::Deserialize(random);
    if (!message.ok()) ExpectCorrupt(message.status());
  }
  EXPECT_TRUE(test::HasError(CommitMessage::Deserialize(SampleSplitBytes()),
                             StatusCode::kCorruption, {"not a serialized commit message"}));
}

}  // namespace
}  // namespace sluice
