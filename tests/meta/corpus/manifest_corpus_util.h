// Finds the manifest files of the compatibility corpus and tells their kind.
#pragma once

#include <string>
#include <vector>

namespace sluice::test {

enum class ManifestKind { kManifest, kManifestList, kIndexManifest };

struct CorpusManifest {
  std::string path;
  ManifestKind kind;
  bool is_avro;
};

// Every manifest, manifest list and index manifest under the corpus tables (including the
// loose files of tables/avro/manifest), with its kind from its name and its format from its
// magic bytes.
std::vector<CorpusManifest> ListCorpusManifests();

}  // namespace sluice::test
