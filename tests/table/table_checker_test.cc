// CheckTable against the corpus: every Java-written table passes (the exceptions are listed
// with the reason), and deliberately damaged copies fail naming the damaged file.
#include "sluice/table/table_checker.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "sluice/format/file_format_registry.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/row/binary_row.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// Every table folder of the corpus (a folder with schema/schema-0 that is not a branch).
std::vector<std::string> CorpusTables() {
  std::vector<std::string> tables;
  for (const auto& entry : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    if (!entry.is_directory() || entry.path().filename() != "schema") continue;
    const fs::path table = entry.path().parent_path();
    if (table.parent_path().filename() == "branch") continue;
    tables.push_back(table.string());
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

std::string Relative(const std::string& path) {
  return fs::relative(path, test::CompatTablesDir()).string();
}

// The corpus' external data files were recorded under /tmp/external (cases.jsonl path_remap).
CheckOptions CorpusOptions() {
  CheckOptions options;
  options.path_remap = {{"FILE:/tmp/external", "../external"},
                        {"file:/tmp/external", "../external"}};
  return options;
}

// Tables of the corpus the check rejects, with why: the corpus copy is incomplete, not the
// checker wrong.
const std::map<std::string, std::string>& KnownExceptions() {
  static const auto* exceptions = new std::map<std::string, std::string>{
      {"orc/timestamp_index.db/timestamp_index",
       "the file index bucket-0/data-...-0.orc.index is absent from the corpus (README)"},
  };
  return *exceptions;
}

TEST(TableCheckerTest, EveryCorpusTablePasses) {
  const std::vector<std::string> tables = CorpusTables();
  ASSERT_GT(tables.size(), 90u);
  int64_t snapshots = 0, files = 0, read = 0, not_read = 0, index_files = 0, passed = 0;
  for (const std::string& path : tables) {
    const std::string name = Relative(path);
    auto table = FileStoreTable::Open(LocalFileIO(), path);
    ASSERT_OK(table) << name;
    auto report = RunTableCheck(**table, CorpusOptions());
    ASSERT_OK(report) << name;
    snapshots += report->snapshots;
    files += report->data_files;
    read += report->files_read;
    not_read += report->files_not_read;
    index_files += report->index_files;
    auto known = KnownExceptions().find(name);
    if (known != KnownExceptions().end()) {
      EXPECT_FALSE(report->ok()) << name << " passes now; drop it from the exceptions";
      continue;
    }
    std::string problems;
    for (const std::string& p : report->problems) problems += "\n  " + p;
    EXPECT_TRUE(report->ok()) << name << ":" << problems;
    if (report->ok()) ++passed;
  }
  std::cout << tables.size() << " tables, " << passed << " pass, " << KnownExceptions().size()
            << " known exceptions; " << snapshots << " snapshots, " << files << " data files ("
            << read << " re-read, " << not_read << " not readable), " << index_files
            << " index files\n";
}

// A copy of a corpus table in a temporary directory, to damage.
class DamagedTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ =
        test::CompatTablesDir() + "/parquet/pk_table_with_alter_table.db/pk_table_with_alter_table";
    table_path_ = temp_.path() + "/pk_table_with_alter_table";
    fs::copy(source_, table_path_, fs::copy_options::recursive);
  }

  std::vector<std::string> Problems(CheckOptions options = {}) {
    auto table = FileStoreTable::Open(LocalFileIO(), table_path_);
    EXPECT_OK(table);
    if (!table.ok()) return {};
    auto report = RunTableCheck(**table, options);
    EXPECT_OK(report);
    if (!report.ok()) return {};
    Status st = CheckTable(**table, options);
    EXPECT_EQ(st.ok(), report->ok());
    return report->problems;
  }

  // The first file under the table whose name contains `part`.
  std::string FileWith(std::string_view part) {
    for (const std::string& f : test::ListFilesRecursive(table_path_)) {
      if (fs::path(f).filename().string().find(part) != std::string::npos) return f;
    }
    ADD_FAILURE() << "no file with " << part;
    return "";
  }

  static bool AnyMentions(const std::vector<std::string>& problems, std::string_view what,
                          std::string_view also = {}) {
    for (const std::string& p : problems) {
      if (p.find(what) != std::string::npos && p.find(also) != std::string::npos) return true;
    }
    return false;
  }

  static std::string Join(const std::vector<std::string>& problems) {
    std::string out;
    for (const std::string& p : problems) out += "\n  " + p;
    return out;
  }

  static void Rewrite(const std::string& path, const std::string& from, const std::string& to) {
    std::string text = test::ReadFileOrFail(path);
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in " << path;
    text.replace(at, from.size(), to);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  }

  test::TempDir temp_;
  std::string source_;
  std::string table_path_;
};

TEST_F(DamagedTableTest, TheIntactCopyPasses) { EXPECT_EQ(Problems(), std::vector<std::string>{}); }

TEST_F(DamagedTableTest, MissingDataFileIsNamed) {
  const std::string victim = FileWith(".parquet");
  fs::remove(victim);
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, victim, "does not exist")) << Join(problems);
}

TEST_F(DamagedTableTest, DataFileOfAnotherSizeIsNamed) {
  const std::string victim = FileWith(".parquet");
  std::ofstream(victim, std::ios::binary | std::ios::app) << "trailing bytes";
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, victim, "bytes, its metadata records")) << Join(problems);
}

TEST_F(DamagedTableTest, GarbledDataFileOfTheSameSizeIsNamed) {
  const std::string victim = FileWith(".parquet");
  std::string bytes = test::ReadFileOrFail(victim);
  // Garble the middle of the file (pages and footer), keeping the size and the magic.
  for (size_t i = 4; i + 8 < bytes.size(); ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
  std::ofstream(victim, std::ios::binary | std::ios::trunc) << bytes;
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, victim)) << Join(problems);
  // Without re-reading, existence and size still hold.
  CheckOptions shallow;
  shallow.read_data_files = false;
  EXPECT_EQ(Problems(shallow), std::vector<std::string>{});
}

TEST_F(DamagedTableTest, SnapshotWithoutARequiredKeyIsNamed) {
  const std::string victim = table_path_ + "/snapshot/snapshot-2";
  Rewrite(victim, "\"commitUser\"", "\"committer\"");
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, victim, "lacks the key 'commitUser'")) << Join(problems);
}

TEST_F(DamagedTableTest, WrongRecordCountsAreNamed) {
  const std::string victim = table_path_ + "/snapshot/snapshot-1";
  Rewrite(victim, "\"totalRecordCount\" : 9", "\"totalRecordCount\" : 10");
  Rewrite(victim, "\"deltaRecordCount\" : 9", "\"deltaRecordCount\" : 8");
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, victim, "totalRecordCount is 10, its live files hold 9"))
      << Join(problems);
  EXPECT_TRUE(AnyMentions(problems, victim, "deltaRecordCount is 8")) << Join(problems);
}

TEST_F(DamagedTableTest, BaseThatIsNotThePreviousStateIsNamed) {
  // Snapshot 2 pretends its base is snapshot 1's (empty) base.
  const std::string first = test::ReadFileOrFail(table_path_ + "/snapshot/snapshot-1");
  const std::string second = table_path_ + "/snapshot/snapshot-2";
  auto base_of = [](const std::string& json) {
    size_t at = json.find("\"baseManifestList\" : \"") + 22;
    return json.substr(at, json.find('"', at) - at);
  };
  Rewrite(second, base_of(test::ReadFileOrFail(second)), base_of(first));
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, second, "does not hold the files snapshot 1 left live"))
      << Join(problems);
}

TEST_F(DamagedTableTest, MissingManifestAndManifestListAreNamed) {
  const std::string manifest = FileWith("manifest-d8522231");
  const std::string list =
      table_path_ + "/manifest/manifest-list-5f5aa36a-d599-48b6-bb99-f446ffdddda8-1";
  fs::remove(manifest);
  fs::remove(list);
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, manifest, "does not exist")) << Join(problems);
  EXPECT_TRUE(AnyMentions(problems, list, "does not exist")) << Join(problems);
}

TEST_F(DamagedTableTest, MissingSchemaIsNamed) {
  fs::remove(table_path_ + "/schema/schema-0");
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, "schema 0 does not resolve")) << Join(problems);
}

// Manifests whose entries lie about their files: rewritten through our manifest writer with
// one field changed each.
TEST_F(DamagedTableTest, EntriesThatDisagreeWithTheirFilesAreNamed) {
  // Find a manifest holding an ADD of a parquet file.
  std::string manifest_path;
  std::vector<ManifestEntry> entries;
  for (const std::string& f : test::ListFilesRecursive(table_path_ + "/manifest")) {
    const std::string name = fs::path(f).filename().string();
    if (!name.starts_with("manifest-") || name.starts_with("manifest-list-")) continue;
    auto read = ReadManifestFile(*LocalFileIO(), f);
    ASSERT_OK(read);
    if (!read->empty() && read->front().kind == FileKind::kAdd) {
      manifest_path = f;
      entries = *read;
      break;
    }
  }
  ASSERT_FALSE(manifest_path.empty());
  const std::string data_file = entries.front().file.file_name;
  entries.front().file.row_count += 1;
  entries.front().file.max_sequence_number += 7;
  // A min key of another file of the table (keys differ between these files).
  std::string other_key;
  for (const std::string& f : test::ListFilesRecursive(table_path_ + "/manifest")) {
    const std::string name = fs::path(f).filename().string();
    if (!name.starts_with("manifest-") || name.starts_with("manifest-list-")) continue;
    for (const ManifestEntry& e : ReadManifestFile(*LocalFileIO(), f).ValueOr({})) {
      if (e.file.min_key != entries.front().file.min_key) other_key = e.file.min_key;
    }
  }
  ASSERT_FALSE(other_key.empty());
  entries.front().file.min_key = other_key;
  entries.front().file.value_stats.null_counts->front() = 5;
  fs::remove(manifest_path);
  auto format = FileFormatByName("avro");
  ASSERT_OK(format);
  auto size = WriteManifestFile(*LocalFileIO(), manifest_path, **format, WriterOptions{}, entries);
  ASSERT_OK(size);
  auto problems = Problems();
  EXPECT_TRUE(AnyMentions(problems, data_file, "rows, its manifest entry records"))
      << Join(problems);
  EXPECT_TRUE(AnyMentions(problems, data_file, "sequence numbers run")) << Join(problems);
  EXPECT_TRUE(AnyMentions(problems, data_file, "min key is")) << Join(problems);
  EXPECT_TRUE(AnyMentions(problems, data_file, "records 5 nulls")) << Join(problems);
}

// A string max recorded without the truncate(16) rounding-up of the default stats mode is a
// statistic Java would not have written: named.
TEST_F(DamagedTableTest, UntruncatedStringStatisticIsNamed) {
  auto table = FileStoreTable::Open(LocalFileIO(), table_path_);
  ASSERT_OK(table);
  auto schema0 = (*table)->SchemaById(0);
  ASSERT_OK(schema0);
  std::vector<DataField> nullable = (*schema0)->fields();
  for (DataField& f : nullable) f.type = f.type->WithNullable(true);
  const DataTypePtr stats_type = DataType::Row(nullable);
  const int k = (*schema0)->FieldIndex("k");
  ASSERT_GE(k, 0);
  for (const std::string& f : test::ListFilesRecursive(table_path_ + "/manifest")) {
    const std::string name = fs::path(f).filename().string();
    if (!name.starts_with("manifest-") || name.starts_with("manifest-list-")) continue;
    auto entries = ReadManifestFile(*LocalFileIO(), f);
    ASSERT_OK(entries);
    bool changed = false;
    std::string data_file;
    for (ManifestEntry& e : *entries) {
      if (e.kind != FileKind::kAdd || e.file.schema_id != 0 || e.file.value_stats_cols) continue;
      auto max = DecodeSerializedBinaryRow(e.file.value_stats.max_values, *stats_type);
      ASSERT_OK(max);
      Value& v = (*max)[static_cast<size_t>(k)];
      // "Two roads diverh" is the rounded-up truncation of the long line of the README.
      if (v.is_null() || v.bytes() != "Two roads diverh") continue;
      v = Value::String(
          "Two roads diverged in a wood, and I took the one less traveled by, And "
          "that has made all the difference.");
      auto row = EncodeBinaryRow(*max, *stats_type);
      ASSERT_OK(row);
      e.file.value_stats.max_values = SerializeBinaryRow(*row, stats_type->num_fields());
      data_file = e.file.file_name;
      changed = true;
    }
    if (!changed) continue;
    fs::remove(f);
    auto format = FileFormatByName("avro");
    ASSERT_OK(format);
    ASSERT_OK(WriteManifestFile(*LocalFileIO(), f, **format, WriterOptions{}, *entries));
    auto problems = Problems();
    EXPECT_TRUE(AnyMentions(problems, data_file, "value column 'k' records min")) << Join(problems);
    return;
  }
  FAIL() << "no manifest entry with the truncated max of column k";
}

}  // namespace
}  // namespace sluice
