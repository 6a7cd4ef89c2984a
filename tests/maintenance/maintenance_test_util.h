// Helpers of the maintenance tests: a primary-key table (k BIGINT, v STRING, optionally
// partitioned by a dt STRING) whose every commit after the first compacts (so that commits
// delete files and expiry has something to free), tags written as Java writes them, and an
// oracle of "the files on disk are exactly the referenced ones" built from the meta readers
// alone (not from the maintenance code under test).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sluice/meta/branch_manager.h"
#include "sluice/meta/changelog_manager.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/tag.h"
#include "sluice/table/table_checker.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice::test {

inline DataTypePtr KvRowType(bool partitioned) {
  std::vector<DataField> fields;
  if (partitioned) fields.push_back({2, "dt", DataType::String(false), std::nullopt, std::nullopt});
  fields.push_back({0, "k", DataType::BigInt(false), std::nullopt, std::nullopt});
  fields.push_back({1, "v", DataType::String(), std::nullopt, std::nullopt});
  return DataType::Row(std::move(fields));
}

// Creates the table (one bucket; two sorted runs trigger a compaction).
inline std::shared_ptr<const FileStoreTable> CreateKvTable(
    const std::string& path, bool partitioned, TableOptions extra = {},
    std::shared_ptr<FileIO> io = LocalFileIO()) {
  TableOptions options{{"bucket", "1"}, {"num-sorted-run.compaction-trigger", "2"}};
  options.insert(options.end(), extra.begin(), extra.end());
  std::vector<std::string> partition_keys;
  std::vector<std::string> primary_keys{"k"};
  if (partitioned) {
    partition_keys.push_back("dt");
    primary_keys.insert(primary_keys.begin(), "dt");
  }
  return CreateTestTable(path, KvRowType(partitioned)->fields(), partition_keys, primary_keys,
                         options, std::move(io));
}

// Writes `rows` and commits them (identifier `identifier`), compacting.
inline Status WriteAndCommit(const std::shared_ptr<FileIO>& io, const std::string& path,
                             bool partitioned, const std::vector<ValueList>& rows,
                             int64_t identifier) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, FileStoreTable::Open(io, path));
  FileStoreWriteOptions options;
  SLUICE_ASSIGN_OR_RETURN(options.compact_manager_factory,
                          MakeMergeTreeCompactManagerFactory(table, /*background=*/false));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write,
                          FileStoreWrite::Open(table, options));
  SLUICE_RETURN_NOT_OK(WriteRows(write.get(), KvRowType(partitioned), rows, {}));
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                          write->PrepareCommit(identifier, /*wait_compaction=*/true));
  SLUICE_RETURN_NOT_OK(write->Close());
  SLUICE_ASSIGN_OR_RETURN(auto commit, FileStoreCommit::Make(table, "maintenance-test"));
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages);
  return commit->Commit(committable).status();
}

// Writes tag `name` of snapshot `id` as Java does (the snapshot's JSON).
inline void WriteTag(const FileStoreTable& table, const std::string& name, int64_t id) {
  auto snapshot = table.snapshot_manager().LoadSnapshot(id);
  ASSERT_OK(snapshot);
  Tag tag;
  tag.snapshot = *snapshot;
  ASSERT_OK(table.io()->MkDirs(table.tag_manager().tag_dir()));
  ASSERT_OK(table.io()->WriteFileAtomic(table.tag_manager().tag_path(name), tag.ToJson(), false));
}

// The files the snapshots, tags and long-lived changelogs of every branch refer to, read with
// the meta readers: manifest lists (those that exist, for changelogs), manifests, index
// manifests and index files, statistics, the live data files (with extra files) and the files
// the changelog manifests and deltas add.
inline std::set<std::string> ReferencedFiles(const FileStoreTable& table) {
  std::set<std::string> out;
  FileIO& io = *table.io();
  const std::string& root = table.path();
  auto dir_of = [&](const ManifestEntry& e) {
    return table.path_factory().BucketPathOfSerialized(e.partition, e.bucket).ValueOr("");
  };
  // A list's path, its manifests, and (with `added_files`) the files its entries add (with
  // `writes_only`: the files writes wrote that its entries add or delete).
  auto add_list = [&](const std::string& list, bool added_files, bool writes_only = false) {
    const std::string list_path = ManifestFilePath(root, list);
    if (!io.Exists(list_path).ValueOr(false)) return;
    out.insert(list_path);
    auto metas = ReadManifestList(io, list_path);
    EXPECT_OK(metas) << list_path;
    if (!metas.ok()) return;
    for (const ManifestFileMeta& meta : *metas) {
      out.insert(ManifestFilePath(root, meta.file_name));
      if (!added_files) continue;
      auto entries = ReadManifestFile(io, ManifestFilePath(root, meta.file_name));
      EXPECT_OK(entries);
      if (!entries.ok()) return;
      for (const ManifestEntry& e : *entries) {
        if (writes_only) {
          // Writes' files, added or deleted: a long-lived changelog's expiry deletes the latter.
          if (e.file.file_source.value_or(FileSource::kAppend) != FileSource::kAppend) continue;
        } else if (e.kind != FileKind::kAdd) {
          continue;
        }
        out.insert(JoinPath(dir_of(e), e.file.file_name));
      }
    }
  };
  // The live files of base + delta together.
  auto add_live_files = [&](const Snapshot& s) {
    FileEntryMerger merger;
    for (const std::string* list : {&s.base_manifest_list, &s.delta_manifest_list}) {
      auto metas = ReadManifestList(io, ManifestFilePath(root, *list));
      EXPECT_OK(metas);
      if (!metas.ok()) return;
      for (const auto& meta : *metas) {
        auto entries = ReadManifestFile(io, ManifestFilePath(root, meta.file_name));
        EXPECT_OK(entries);
        if (!entries.ok()) return;
        for (const auto& e : *entries) EXPECT_OK(merger.Add(e));
      }
    }
    for (const ManifestEntry& e : std::move(merger).Finish()) {
      if (e.kind != FileKind::kAdd) continue;
      out.insert(JoinPath(dir_of(e), e.file.file_name));
      for (const std::string& extra : e.file.extra_files) out.insert(JoinPath(dir_of(e), extra));
    }
  };
  auto add_snapshot = [&](const Snapshot& s, bool long_lived_changelog) {
    if (long_lived_changelog) {
      // Its changelog: the changelog list's files, or the writes' files of its delta.
      add_list(s.base_manifest_list, false);
      add_list(s.delta_manifest_list, !s.changelog_manifest_list, /*writes_only=*/true);
    } else {
      add_list(s.base_manifest_list, false);
      add_list(s.delta_manifest_list, false);
      add_live_files(s);
    }
    if (s.changelog_manifest_list) add_list(*s.changelog_manifest_list, true);
    if (s.index_manifest) {
      const std::string path = ManifestFilePath(root, *s.index_manifest);
      out.insert(path);
      auto entries = ReadIndexManifest(io, path);
      EXPECT_OK(entries);
      if (entries.ok()) {
        for (const auto& e : *entries) {
          out.insert(table.path_factory()
                         .IndexFilePathOfSerialized(e.partition, e.bucket, e.file_name)
                         .ValueOr(""));
        }
      }
    }
    if (s.statistics) out.insert(StatisticsFilePath(root, *s.statistics));
  };
  std::vector<std::string> branches{std::string(kMainBranch)};
  auto more = BranchManager(table.io(), root).ListBranches();
  EXPECT_OK(more);
  if (more.ok()) branches.insert(branches.end(), more->begin(), more->end());
  for (const std::string& branch : branches) {
    auto snapshots = SnapshotManager(table.io(), root, branch).ListSnapshots();
    EXPECT_OK(snapshots);
    if (snapshots.ok()) {
      for (const Snapshot& s : *snapshots) add_snapshot(s, false);
    }
    auto tags = TagManager(table.io(), root, branch).ListTags();
    EXPECT_OK(tags);
    if (tags.ok()) {
      for (const auto& [name, tag] : *tags) add_snapshot(tag.snapshot, false);
    }
    ChangelogManager changelogs(table.io(), root, branch);
    for (int64_t id : changelogs.ListChangelogIds().ValueOr({})) {
      auto changelog = changelogs.LoadChangelog(id);
      EXPECT_OK(changelog);
      if (changelog.ok()) add_snapshot(*changelog, true);
    }
  }
  return out;
}

// The data, manifest, index and statistics files on disk (the metadata folders left out).
inline std::set<std::string> FilesOnDisk(const std::string& table) {
  std::set<std::string> out;
  for (const std::string& path : ListFilesRecursive(table)) {
    const std::string rel = path.substr(table.size() + 1);
    const std::string top = rel.substr(0, rel.find('/'));
    if (top == "schema" || top == "snapshot" || top == "tag" || top == "consumer" ||
        top == "changelog" || top == "branch") {
      continue;
    }
    out.insert(path);
  }
  return out;
}

// Makes `path` look last modified `age_ms` ago.
inline void Age(const std::string& path, int64_t age_ms) {
  std::filesystem::last_write_time(
      path, std::filesystem::file_time_type::clock::now() - std::chrono::milliseconds(age_ms));
}

inline void ExpectCheckClean(const FileStoreTable& table) {
  auto report = RunTableCheck(table);
  ASSERT_OK(report);
  for (const std::string& problem : report->problems) ADD_FAILURE() << problem;
}

}  // namespace sluice::test
