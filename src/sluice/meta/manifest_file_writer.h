// ManifestFileWriter: writes the manifest files of one table (Java ManifestFile.write with its
// rolling writer and ManifestEntryWriter): entries go into new files under manifest/, a new file
// is begun once the current one reaches the target size (checked every 1000 entries, as Java's
// RollingFileWriter does), and each file is described by the ManifestFileMeta a manifest list
// records: entry counts by kind, partition statistics over the entries, the largest schema id,
// and the bucket and level ranges.
//
// Thread safety: Write() is not thread-safe (it draws file names from one counter).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/format/file_format.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/manifest_file_meta.h"
#include "sluice/meta/simple_stats.h"
#include "sluice/result.h"

namespace sluice {

// Names new files `<prefix><uuid>-<n>` with one uuid and one counter per prefix, as Java's
// FileStorePathFactory does for one writer.
class MetaFileNamer {
 public:
  MetaFileNamer();
  std::string NewManifestFileName() { return ManifestName(0); }
  std::string NewManifestListName() { return ManifestName(1); }
  std::string NewIndexManifestName() { return ManifestName(2); }
  const std::string& uuid() const { return uuid_; }

 private:
  std::string ManifestName(int kind);

  std::string uuid_;
  int64_t counters_[3] = {0, 0, 0};
};

// Statistics of the partition columns over the partitions of many entries (Java
// SimpleStatsCollector + SimpleStatsConverter.toBinaryAllMode over the partition type).
// Partitions are serialized BinaryRows as manifests store them.
class PartitionStatsCollector {
 public:
  explicit PartitionStatsCollector(DataTypePtr partition_type);
  // Counts one entry of `partition` (cheap for partitions seen before).
  void Collect(const std::string& partition);
  Result<SimpleStats> Finish() const;

 private:
  DataTypePtr partition_type_;
  std::vector<std::pair<std::string, int64_t>> partitions_;  // distinct, with entry counts
  std::string last_;
};

struct ManifestFileWriterOptions {
  std::shared_ptr<const FileFormat> format;  // `manifest.format`
  WriterOptions writer_options;              // `manifest.compression`
  int64_t target_file_size = 8 << 20;        // `manifest.target-file-size`
  DataTypePtr partition_type;
  // The schema id recorded for a manifest without entries (Java: the latest schema).
  int64_t latest_schema_id = 0;
};

class ManifestFileWriter {
 public:
  ManifestFileWriter(std::shared_ptr<FileIO> io, std::string table_path,
                     ManifestFileWriterOptions options, MetaFileNamer* namer);

  // Writes `entries` into new manifest files (none for no entries). On error, the files this
  // call created are deleted.
  Result<std::vector<ManifestFileMeta>> Write(const std::vector<ManifestEntry>& entries);

  const ManifestFileWriterOptions& options() const { return options_; }
  const std::string& table_path() const { return table_path_; }
  FileIO& io() const { return *io_; }

 private:
  Result<ManifestFileMeta> WriteOne(const ManifestEntry* begin, const ManifestEntry* end,
                                    const ManifestEntry** stopped_at);

  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  ManifestFileWriterOptions options_;
  MetaFileNamer* namer_;
};

}  // namespace sluice
