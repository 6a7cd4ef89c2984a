// Java compatibility: every schema, snapshot and tag file of the corpus parses, and writing it
// back reproduces what Java 1.4 writes for it byte for byte (the file itself, except for the
// keys of older snapshot writers that Java 1.4 drops). The managers find the same latest /
// earliest snapshots as the hints of every table and branch.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/branch_manager.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/hint_file.h"
#include "sluice/meta/schema_manager.h"
#include "sluice/meta/snapshot_manager.h"
#include "sluice/meta/tag.h"
#include "sluice/meta/tag_manager.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// `<dir>/<prefix><digits>`: a versioned metadata file directly in a directory named `dir`.
bool IsVersioned(const std::string& path, std::string_view dir, std::string_view prefix) {
  fs::path p(path);
  if (p.parent_path().filename() != dir) return false;
  return ParseVersionedFileName(p.filename().string(), prefix).has_value();
}

bool IsSchemaFile(const std::string& path) { return IsVersioned(path, "schema", kSchemaPrefix); }
bool IsSnapshotFile(const std::string& path) {
  return IsVersioned(path, "snapshot", kSnapshotPrefix);
}
bool IsTagFile(const std::string& path) {
  fs::path p(path);
  return p.parent_path().filename() == "tag" && p.filename().string().rfind("tag-", 0) == 0;
}

// Directories holding schema/ : table roots and branch directories.
std::vector<std::string> MetadataRoots() {
  std::set<std::string> roots;
  for (const std::string& schema :
       test::ListFilesRecursive(test::CompatTablesDir(), IsSchemaFile)) {
    roots.insert(fs::path(schema).parent_path().parent_path().string());
  }
  return {roots.begin(), roots.end()};
}

// Java never ends a metadata file with a newline; this fixture (a paimon-cpp hand-made BLOB
// table) does. Its content otherwise round-trips exactly.
bool HasKnownTrailingNewline(const std::string& path) {
  constexpr std::string_view kSuffix = "/db_with_blob.db/table_with_blob/schema/schema-0";
  return path.size() >= kSuffix.size() &&
         std::string_view(path).substr(path.size() - kSuffix.size()) == kSuffix;
}

TEST(MetadataCorpusTest, SchemaFilesRoundTripByteExact) {
  std::vector<std::string> files = test::ListFilesRecursive(test::CompatTablesDir(), IsSchemaFile);
  ASSERT_GE(files.size(), 100u);
  int nested = 0;
  int exact = 0;
  for (const std::string& path : files) {
    std::string text = test::ReadFileOrFail(path);
    Result<TableSchema> schema = TableSchema::FromJson(text);
    ASSERT_OK(schema) << path;
    if (HasKnownTrailingNewline(path)) {
      ASSERT_EQ(text.back(), '\n');
      text.pop_back();
    } else {
      ++exact;
    }
    EXPECT_EQ(schema->ToJson(), text) << path;
    EXPECT_EQ("schema-" + std::to_string(schema->id()), fs::path(path).filename().string());
    for (const DataField& f : schema->fields()) nested += f.type->IsNested() ? 1 : 0;
  }
  EXPECT_GT(nested, 0);
  EXPECT_EQ(exact + 1, static_cast<int>(files.size()));
  std::cout << "[ INFO ] schema files parsed: " << files.size() << ", byte-exact: " << exact
            << " (+1 equal but for a trailing newline Java never writes)\n";
}

// What Java 1.4.2 writes back for a snapshot file written by Java 1.3 (the corpus' writers):
// the file without its `"key" : null` lines and its `"logOffsets" : { }` line, because every
// nullable field of Java 1.4's Snapshot is @JsonInclude(NON_NULL) and logOffsets is none of
// its fields. (Equal to Java 1.4.2's Snapshot.fromJson(text).toJson() for every corpus file.)
std::string AsJava14WritesIt(const std::string& text) {
  std::string out;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + begin, end - begin);
    if (!line.empty() && line.back() == ',') line.remove_suffix(1);
    const bool dropped = line.starts_with("  \"") && !line.starts_with("   ") &&
                         (line.ends_with("\" : null") || line == "  \"logOffsets\" : { }");
    if (!dropped) {
      out.append(text, begin, end - begin);
      if (end < text.size()) out.push_back('\n');
    }
    begin = end + 1;
  }
  // The last key kept loses the comma that separated it from a dropped one.
  const size_t close = out.rfind("\n}");
  if (close != std::string::npos && close > 0 && out[close - 1] == ',') out.erase(close - 1, 1);
  return out;
}

TEST(MetadataCorpusTest, SnapshotFilesRoundTripAsJava14WritesThem) {
  std::vector<std::string> files =
      test::ListFilesRecursive(test::CompatTablesDir(), IsSnapshotFile);
  ASSERT_GE(files.size(), 200u);
  int with_index_manifest = 0;
  int with_next_row_id = 0;
  int with_sizes = 0;
  for (const std::string& path : files) {
    const std::string text = test::ReadFileOrFail(path);
    Result<Snapshot> snapshot = Snapshot::FromJson(text);
    ASSERT_OK(snapshot) << path;
    const std::string java = AsJava14WritesIt(text);
    EXPECT_EQ(snapshot->ToJson(), java) << path;
    EXPECT_EQ("snapshot-" + std::to_string(snapshot->id), fs::path(path).filename().string());
    with_index_manifest += snapshot->index_manifest.has_value();
    with_next_row_id += snapshot->next_row_id.has_value();
    with_sizes += snapshot->base_manifest_list_size.has_value();
    // A tag file is a snapshot plus tag keys: reading a snapshot file as a tag works too.
    Result<Tag> tag = Tag::FromJson(text);
    ASSERT_OK(tag) << path;
    EXPECT_FALSE(tag->create_time.has_value());
    EXPECT_EQ(tag->ToJson(), java) << path;
  }
  EXPECT_GT(with_index_manifest, 0);
  EXPECT_GT(with_next_row_id, 0);
  EXPECT_GT(with_sizes, 0);
  std::cout << "[ INFO ] snapshot files written back as Java 1.4 writes them: " << files.size()
            << "\n";
}

TEST(MetadataCorpusTest, TagFilesRoundTripByteExact) {
  // The corpus holds no tag today; any tag added later must round-trip as well.
  std::vector<std::string> files = test::ListFilesRecursive(test::CompatTablesDir(), IsTagFile);
  for (const std::string& path : files) {
    const std::string text = test::ReadFileOrFail(path);
    Result<Tag> tag = Tag::FromJson(text);
    ASSERT_OK(tag) << path;
    EXPECT_EQ(tag->ToJson(), text) << path;
  }
  std::cout << "[ INFO ] tag files round-tripped byte-exact: " << files.size() << "\n";
}

// Every table and branch: the managers agree with the hint files and the directory listing.
TEST(MetadataCorpusTest, ManagersMatchHintsAndListings) {
  std::shared_ptr<FileIO> io = LocalFileIO();
  int tables = 0;
  int branches = 0;
  for (const std::string& root : MetadataRoots()) {
    const bool is_branch = fs::path(root).parent_path().filename() == "branch";
    std::string table = root;
    std::string branch(kMainBranch);
    if (is_branch) {
      table = fs::path(root).parent_path().parent_path().string();
      branch = fs::path(root).filename().string().substr(kBranchPrefix.size());
      ++branches;
    } else {
      ++tables;
      Result<std::vector<std::string>> names = BranchManager(io, table).ListBranches();
      ASSERT_OK(names) << table;
      for (const std::string& name : *names) {
        EXPECT_TRUE(fs::exists(BranchPath(table, name) + "/schema")) << table << " " << name;
      }
    }
    SCOPED_TRACE(root);

    SchemaManager schemas(io, table, branch);
    Result<std::vector<int64_t>> schema_ids = schemas.ListSchemaIds();
    ASSERT_OK(schema_ids);
    ASSERT_FALSE(schema_ids->empty());
    Result<std::optional<TableSchema>> latest_schema = schemas.LatestSchema();
    ASSERT_OK(latest_schema);
    EXPECT_EQ((*latest_schema)->id(), schema_ids->back());

    SnapshotManager snapshots(io, table, branch);
    Result<std::vector<int64_t>> ids = snapshots.ListSnapshotIds();
    ASSERT_OK(ids);
    Result<std::optional<int64_t>> latest = snapshots.LatestSnapshotId();
    Result<std::optional<int64_t>> earliest = snapshots.EarliestSnapshotId();
    ASSERT_OK(latest);
    ASSERT_OK(earliest);
    if (ids->empty()) {
      EXPECT_FALSE(latest->has_value());
      EXPECT_FALSE(earliest->has_value());
      continue;
    }
    EXPECT_EQ(**latest, ids->back());
    EXPECT_EQ(**earliest, ids->front());
    if (std::optional<int64_t> hint = ReadHint(io.get(), snapshots.snapshot_dir(), kLatestHint)) {
      EXPECT_EQ(*hint, **latest);
    }
    Result<std::vector<Snapshot>> all = snapshots.ListSnapshots();
    ASSERT_OK(all);
    ASSERT_EQ(all->size(), ids->size());
    for (const Snapshot& s : *all) {
      Result<TableSchema> schema = schemas.LoadSchema(s.schema_id);
      EXPECT_OK(schema) << "snapshot " << s.id;
    }
    // Time travel by commit time finds each snapshot from its own timestamp (timestamps of a
    // table's history never decrease).
    for (const Snapshot& s : *all) {
      Result<std::optional<Snapshot>> at = snapshots.EarlierOrEqualTimeMillis(s.time_millis);
      ASSERT_OK(at);
      ASSERT_TRUE(at->has_value());
      EXPECT_EQ((*at)->time_millis, s.time_millis);
    }
    Result<std::optional<Snapshot>> before =
        snapshots.EarlierOrEqualTimeMillis(all->front().time_millis - 1);
    ASSERT_OK(before);
    EXPECT_FALSE(before->has_value());

    Result<std::vector<std::pair<std::string, Tag>>> tags =
        TagManager(io, table, branch).ListTags();
    ASSERT_OK(tags);
  }
  EXPECT_GE(tables, 50);
  EXPECT_GE(branches, 1);
  std::cout << "[ INFO ] tables checked: " << tables << ", branches: " << branches << "\n";
}

}  // namespace
}  // namespace sluice
