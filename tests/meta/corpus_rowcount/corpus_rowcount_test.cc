// Every Parquet and ORC data file that a corpus table's manifests reference (every snapshot of
// every branch) reads with exactly the row count of its manifest entry (`_ROW_COUNT`). Data
// files are found by name under the table folder (partition and bucket directories) or, for
// external paths, under the database's external folders.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/format/orc/orc_reader.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/branch_manager.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/snapshot_manager.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// Tables: directories holding a `snapshot` directory (branches live below their table's).
std::vector<std::string> CorpusTables() {
  std::vector<std::string> tables;
  for (const auto& e : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    if (!e.is_directory() || e.path().filename() != "snapshot") continue;
    std::string table = e.path().parent_path().string();
    if (table.find("/branch/branch-") != std::string::npos) continue;
    tables.push_back(table);
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

// File name -> path, for every file under `dir`.
void IndexFiles(const std::string& dir, std::map<std::string, std::string>* out) {
  if (!fs::is_directory(dir)) return;
  for (const std::string& p : test::ListFilesRecursive(dir)) {
    out->emplace(fs::path(p).filename().string(), p);
  }
}

// The rows of a data file, counted through the reader of the format its magic names.
Result<int64_t> CountRows(const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> opened,
                          LocalFileIO()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> file = std::move(opened);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const FileFormat> format, DetectFileFormat(*file));
  DataTypePtr type;
  if (format->identifier() == "parquet") {
    SLUICE_ASSIGN_OR_RETURN(type, parquet::ReadParquetFileType(*file));
  } else {
    SLUICE_ASSIGN_OR_RETURN(orc::OrcFileTail tail, orc::ReadOrcTail(*file));
    SLUICE_ASSIGN_OR_RETURN(type, orc::OrcSchemaToPaimon(tail.footer.types));
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FormatReader> reader,
                          format->CreateReader(file, type, ReaderOptions()));
  ColumnBatch batch(type);
  int64_t rows = 0;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    rows += batch.num_rows();
  }
  return rows;
}

bool IsColumnarDataFile(const std::string& name) {
  auto ends = [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".parquet") || ends(".orc");
}

TEST(CorpusRowCountTest, EveryManifestDataFileReadsItsRowCount) {
  std::shared_ptr<FileIO> io = LocalFileIO();
  int64_t tables = 0, snapshots = 0, parquet_files = 0, orc_files = 0;
  std::set<std::string> checked;
  for (const std::string& table : CorpusTables()) {
    SCOPED_TRACE(table);
    ++tables;
    std::map<std::string, std::string> files;
    IndexFiles(table, &files);
    std::string db = fs::path(table).parent_path().string();
    IndexFiles(db + "/external", &files);
    IndexFiles(db + "/external-path", &files);
    std::vector<std::string> branches = {std::string(kMainBranch)};
    auto listed = BranchManager(io, table).ListBranches();
    ASSERT_OK(listed);
    for (const std::string& b : *listed) branches.push_back(b);
    for (const std::string& branch : branches) {
      SnapshotManager snapshots_of(io, table, branch);
      auto all = snapshots_of.ListSnapshots();
      ASSERT_OK(all) << branch;
      for (const Snapshot& snapshot : *all) {
        ++snapshots;
        std::vector<std::string> lists = {snapshot.base_manifest_list,
                                          snapshot.delta_manifest_list};
        if (snapshot.changelog_manifest_list) lists.push_back(*snapshot.changelog_manifest_list);
        for (const std::string& list : lists) {
          if (list.empty()) continue;
          auto metas = ReadManifestList(*io, table + "/manifest/" + list);
          ASSERT_OK(metas) << list;
          for (const ManifestFileMeta& m : *metas) {
            auto entries = ReadManifestFile(*io, table + "/manifest/" + m.file_name);
            ASSERT_OK(entries) << m.file_name;
            for (const ManifestEntry& e : *entries) {
              const DataFileMeta& f = e.file;
              if (!IsColumnarDataFile(f.file_name)) continue;
              auto it = files.find(f.file_name);
              ASSERT_NE(it, files.end()) << "data file " << f.file_name << " (external path "
                                         << f.external_path.value_or("none") << ") not found";
              if (!checked.insert(it->second).second) continue;
              auto rows = CountRows(it->second);
              ASSERT_OK(rows) << it->second;
              EXPECT_EQ(*rows, f.row_count) << it->second;
              ++(f.file_name.ends_with(".orc") ? orc_files : parquet_files);
            }
          }
        }
      }
    }
  }
  std::printf("corpus row counts: %lld tables, %lld snapshots, %lld parquet and %lld orc files\n",
              static_cast<long long>(tables), static_cast<long long>(snapshots),
              static_cast<long long>(parquet_files), static_cast<long long>(orc_files));
  EXPECT_GT(parquet_files, 100);
  EXPECT_GT(orc_files, 50);
}

}  // namespace
}  // namespace sluice
