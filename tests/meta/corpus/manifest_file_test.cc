#include "sluice/meta/manifest_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "manifest_corpus_util.h"
#include "sluice/format/file_format_registry.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CorpusManifest;
using test::ListCorpusManifests;
using test::ManifestKind;

// Reads `path` as a manifest of `kind`, writes it back with `options` to `out_path`, and reads
// that again; the two reads must be equal.
void RoundTrip(const CorpusManifest& m, const std::string& out_path, const WriterOptions& options) {
  FileIO& io = *LocalFileIO();
  auto avro = FileFormatByName("avro");
  ASSERT_OK(avro);
  switch (m.kind) {
    case ManifestKind::kManifest: {
      auto entries = ReadManifestFile(io, m.path);
      ASSERT_OK(entries);
      auto size = WriteManifestFile(io, out_path, **avro, options, *entries);
      ASSERT_OK(size);
      EXPECT_EQ(*size, static_cast<int64_t>(std::filesystem::file_size(out_path)));
      auto again = ReadManifestFile(io, out_path);
      ASSERT_OK(again);
      EXPECT_EQ(*entries, *again) << m.path;
      break;
    }
    case ManifestKind::kManifestList: {
      auto metas = ReadManifestList(io, m.path);
      ASSERT_OK(metas);
      ASSERT_OK(WriteManifestList(io, out_path, **avro, options, *metas));
      auto again = ReadManifestList(io, out_path);
      ASSERT_OK(again);
      EXPECT_EQ(*metas, *again) << m.path;
      break;
    }
    case ManifestKind::kIndexManifest: {
      auto entries = ReadIndexManifest(io, m.path);
      ASSERT_OK(entries);
      ASSERT_OK(WriteIndexManifest(io, out_path, **avro, options, *entries));
      auto again = ReadIndexManifest(io, out_path);
      ASSERT_OK(again);
      EXPECT_EQ(*entries, *again) << m.path;
      break;
    }
  }
}

TEST(ManifestFileTest, EveryAvroManifestOfTheCorpusRoundTrips) {
  test::TempDir tmp;
  int files = 0;
  for (const CorpusManifest& m : ListCorpusManifests()) {
    if (!m.is_avro) continue;
    SCOPED_TRACE(m.path);
    RoundTrip(m, tmp.path() + "/rt-" + std::to_string(files), WriterOptions{});
    ++files;
  }
  std::printf("round-tripped %d Avro manifest files\n", files);
  EXPECT_GT(files, 300);
}

// True if every field of `expected` (recursively, for objects) is in `actual` with the same
// value. Our writer writes the newest field set, so it may hold more (null) fields than an
// older Java file.
bool ContainsAll(const nlohmann::json& expected, const nlohmann::json& actual, std::string* where) {
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      if (!actual.contains(it.key())) {
        *where = it.key() + " missing";
        return false;
      }
      if (!ContainsAll(it.value(), actual[it.key()], where)) {
        *where = it.key() + "." + *where;
        return false;
      }
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) return false;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (!ContainsAll(expected[i], actual[i], where)) {
        *where = "[" + std::to_string(i) + "]" + *where;
        return false;
      }
    }
    return true;
  }
  if (expected != actual) {
    *where = ": " + expected.dump() + " != " + actual.dump();
    return false;
  }
  return true;
}

std::string RunCommand(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  if (rc != 0) ADD_FAILURE() << "command failed (" << rc << "): " << cmd;
  return out;
}

// avsc, an Avro implementation independent of ours, decodes both Java's manifests and the
// copies our writer made of them (with the deflate codec, and with zstandard through the zstd
// tool), and must see the same records.
TEST(ManifestFileTest, AvscDecodesOurManifestsToJavasRecords) {
  test::TempDir tmp;
  std::vector<std::pair<std::string, std::string>> pairs;  // original, ours
  int n = 0;
  for (const CorpusManifest& m : ListCorpusManifests()) {
    if (!m.is_avro) continue;
    WriterOptions options;
    options.compression = (n % 2 == 0) ? "deflate" : "zstd";
    std::string out = tmp.path() + "/ours-" + std::to_string(n++);
    RoundTrip(m, out, options);
    pairs.emplace_back(m.path, out);
  }
  ASSERT_GT(pairs.size(), 300u);
  std::string list = tmp.path() + "/files.txt";
  std::string script = test::SourceDir() + "/tests/meta/corpus/avsc_dump.js";
  std::string args;
  for (const auto& [orig, ours] : pairs) args += " '" + orig + "' '" + ours + "'";
  nlohmann::json decoded = nlohmann::json::parse(RunCommand("node '" + script + "'" + args));
  int compared = 0;
  for (const auto& [orig, ours] : pairs) {
    const nlohmann::json& want = decoded[orig];
    const nlohmann::json& got = decoded[ours];
    ASSERT_EQ(want.size(), got.size()) << orig;
    for (size_t i = 0; i < want.size(); ++i) {
      std::string where;
      EXPECT_TRUE(ContainsAll(want[i], got[i], &where)) << orig << " record " << i << ": " << where;
    }
    ++compared;
  }
  std::printf("avsc compared %d manifest files\n", compared);
}

TEST(ManifestFileTest, TruncatedManifestIsAnErrorNamingTheFile) {
  std::string source;
  for (const CorpusManifest& m : ListCorpusManifests()) {
    if (m.is_avro && m.kind == ManifestKind::kManifest) {
      source = m.path;
      break;
    }
  }
  ASSERT_FALSE(source.empty());
  std::string bytes = test::ReadFileOrFail(source);
  test::TempDir tmp;
  for (size_t cut : {size_t{0}, size_t{3}, size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
    std::string path = tmp.path() + "/cut-" + std::to_string(cut);
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(cut));
    EXPECT_TRUE(
        test::HasError(ReadManifestFile(*LocalFileIO(), path), StatusCode::kCorruption, {path}))
        << "cut at " << cut;
  }
}

TEST(ManifestFileTest, MissingManifestIsNotFound) {
  EXPECT_TRUE(test::HasError(ReadManifestFile(*LocalFileIO(), "/nonexistent/manifest-x"),
                             StatusCode::kNotFound, {"/nonexistent/manifest-x"}));
}

}  // namespace
}  // namespace sluice
