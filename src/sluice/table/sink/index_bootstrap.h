// IndexBootstrap: the keys of a cross-partition upsert table as its writer's key index starts
// from them (Java crosspartition.IndexBootstrap): every live primary key of the latest
// snapshot with the partition and bucket it lives in. Each bucket is read merged over all of
// its levels (level 0 too, where batch reads of first-row and deletion-vector tables skip it:
// Java's level filter `level -> true`), projected to the primary key, so a deleted key is not
// there and each live key comes once per bucket that holds it.
//
// With a TTL (the writer's `cross-partition-upsert.index-ttl`), a bucket none of whose files was
// created within the TTL is skipped (Java filterSplit).
// `cross-partition-upsert.bootstrap-parallelism` buckets are read at once; their keys reach `sink`
// on the calling thread, one bucket after another, in plan order (partition, then bucket).
//
// Thread safety: reentrant; the table is only read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct IndexBootstrapOptions {
  // The snapshot read; the latest when unset.
  std::optional<int64_t> snapshot_id;
  // Buckets b with Math.abs(b % num_assigners) == assign_id only (Java's bucket filter).
  int32_t num_assigners = 1;
  int32_t assign_id = 0;
  // `cross-partition-upsert.index-ttl` (unset: every bucket) and the time it is measured
  // from, in milliseconds since the epoch.
  std::optional<int64_t> ttl_millis;
  int64_t now_millis = 0;
};

// `partition`: serialized BinaryRow as manifests hold it; `key`: the BinaryRow bytes of the
// primary key (every primary-key column, in primary-key order).
using BootstrapKeySink =
    std::function<Status(const std::string& partition, int32_t bucket, std::string_view key)>;

Status BootstrapKeys(const FileStoreTable& table, const IndexBootstrapOptions& options,
                     const BootstrapKeySink& sink);

}  // namespace sluice
