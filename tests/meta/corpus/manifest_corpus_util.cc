#include "manifest_corpus_util.h"

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace sluice::test {

namespace {

bool IsManifestPath(const std::string& p) { return p.find("/manifest/") != std::string::npos; }

}  // namespace

std::vector<CorpusManifest> ListCorpusManifests() {
  std::vector<CorpusManifest> out;
  for (const std::string& path : ListFilesRecursive(CompatTablesDir(), IsManifestPath)) {
    std::string name = std::filesystem::path(path).filename().string();
    CorpusManifest m;
    m.path = path;
    if (name.rfind("index-manifest", 0) == 0) {
      m.kind = ManifestKind::kIndexManifest;
    } else if (name.rfind("manifest-list", 0) == 0 || name.rfind("avro_manifest_list", 0) == 0) {
      m.kind = ManifestKind::kManifestList;
    } else if (name.rfind("manifest", 0) == 0 || name.rfind("avro_manifest", 0) == 0) {
      m.kind = ManifestKind::kManifest;
    } else {
      continue;
    }
    char head[4] = {0, 0, 0, 0};
    std::ifstream in(path, std::ios::binary);
    in.read(head, 4);
    m.is_avro = in.gcount() == 4 && std::string(head, 4) == std::string("Obj\x01", 4);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace sluice::test
