// Every Avro file of the Java-written compatibility corpus (manifests, manifest lists, index
// manifests, Avro data files): read generically, rewritten with our writer, read back equal; and
// our schema JSON for the derived row type is byte-identical to Java's.
#include <gtest/gtest.h>

#include <cstdio>

#include "avro_test_helpers.h"
#include "sluice/format/avro/avro_file_writer.h"
#include "test_util.h"

namespace sluice::test {
namespace {

std::vector<std::string> CorpusAvroFiles() {
  return ListFilesRecursive(CompatTablesDir(), [](const std::string& p) { return IsAvroFile(p); });
}

TEST(AvroCorpusTest, ReadRewriteReadEveryFile) {
  std::vector<std::string> files = CorpusAvroFiles();
  ASSERT_GT(files.size(), 300u) << "corpus not found under " << CompatTablesDir();
  TempDir tmp;
  int checked = 0, union_wrapped = 0;
  int64_t total_rows = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    SLUICE_ASSERT_OK_AND_ASSIGN(auto raw, LocalFileIO()->OpenForRead(path));
    std::shared_ptr<RandomAccessFile> file(std::move(raw));
    SLUICE_ASSERT_OK_AND_ASSIGN(auto container, AvroContainerReader::Open(file));
    int64_t block_sum = 0;
    for (const AvroBlockInfo& b : container->blocks()) block_sum += b.count;
    SLUICE_ASSERT_OK_AND_ASSIGN(DataTypePtr type, AvroSchemaToRowType(*container->schema()));

    SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(file, type));
    ASSERT_EQ(static_cast<int64_t>(rows.size()), block_sum);
    ASSERT_EQ(container->num_rows(), block_sum);
    total_rows += block_sum;

    // Java's writer and ours produce the same schema text for the same row type (files of
    // Paimon <= 0.9 wrap records in unions, which we never write).
    SLUICE_ASSERT_OK_AND_ASSIGN(AvroSchemaPtr ours, RowTypeToAvroSchema(*type));
    if (container->schema()->type == AvroType::kUnion) {
      ++union_wrapped;
    } else {
      EXPECT_EQ(AvroSchemaToJson(*ours), container->schema_json());
    }

    WriterOptions options;
    options.options["avro.codec"] = container->codec_name();
    std::string copy = tmp.path() + "/copy-" + std::to_string(checked) + ".avro";
    SLUICE_ASSERT_OK_AND_ASSIGN(WriteResult written, WriteRows(copy, type, rows, options));
    EXPECT_EQ(written.row_count, block_sum);
    SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> again, ReadRowsFromPath(copy, type));
    ASSERT_EQ(again.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      ASSERT_EQ(again[i], rows[i])
          << "row " << i << ": " << again[i].DebugString() << " vs " << rows[i].DebugString();
    }
    ++checked;
  }
  std::printf("avro corpus: %d files checked (%d with union-wrapped records), %lld rows\n", checked,
              union_wrapped, static_cast<long long>(total_rows));
  EXPECT_EQ(checked, static_cast<int>(files.size()));
}

// The old union form: every top-level datum is prefixed by branch index 1, nested records are
// unions too, and reading by a bare-record Paimon type works.
TEST(AvroCorpusTest, UnionWrappedManifestListReadsWithBareType) {
  std::string path = CompatTablesDir() + "/avro/manifest/avro_manifest_list_09";
  std::vector<DataField> stats_fields = {
      {0, "_MIN_VALUES", DataType::Bytes(false)},
      {1, "_MAX_VALUES", DataType::Bytes(false)},
      {2, "_NULL_COUNTS", DataType::Array(DataType::BigInt())},
  };
  std::vector<DataField> fields = {
      {0, "_VERSION", DataType::Int(false)},
      {1, "_FILE_NAME", DataType::String(false)},
      {2, "_FILE_SIZE", DataType::BigInt(false)},
      {3, "_NUM_ADDED_FILES", DataType::BigInt(false)},
      {4, "_NUM_DELETED_FILES", DataType::BigInt(false)},
      {5, "_PARTITION_STATS", DataType::Row(stats_fields, false)},
      {6, "_SCHEMA_ID", DataType::BigInt(false)},
      {7, "_MIN_BUCKET", DataType::Int()},
  };
  DataTypePtr type = DataType::Row(fields, false);
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRowsFromPath(path, type));
  ASSERT_FALSE(rows.empty());
  for (const Value& row : rows) {
    EXPECT_EQ(row.list()[0], Value::Int32(2));
    EXPECT_TRUE(row.list()[7].is_null());  // a 0.9 writer has no _MIN_BUCKET
    EXPECT_EQ(row.list()[5].kind(), Value::Kind::kRow);
  }
}

}  // namespace
}  // namespace sluice::test
