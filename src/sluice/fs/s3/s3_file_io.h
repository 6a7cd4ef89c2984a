// FileIO on S3 and the stores that speak its API, for "s3://bucket/key" paths (and s3a://,
// s3n://, as Java Paimon and Hadoop write them). Objects stand in for files and key prefixes
// ending in '/' for directories:
//   - OpenForRead is one GET of the first 1 MiB (a small file, e.g. a manifest, comes whole):
//     its Content-Range gives the size, and later ranged GETs are conditional on its ETag (a
//     replaced object fails the read instead of mixing two versions).
//     OpenForReadWithSize (a data file whose size a manifest recorded; Paimon never replaces
//     one) sends no HEAD, and its reads are not conditional.
//   - Few requests per read: a file of at most 1 MiB is fetched whole by its first partial
//     read; a small read in the last (first) 64 KiB of a larger file fetches that whole tail
//     (head), kept while the file is open, so a Parquet / ORC footer and a format's magic cost
//     one request each. Prefetch (file_io.h) coalesces the ranges a reader names (at most
//     1 MiB apart, requests up to 8 MiB; read_range.h) and runs them in parallel, at most 8 in
//     flight in the process, keeping the last two calls' data for the reads inside them.
//   - OpenForWrite buffers and creates the object at Close, in one PUT or, past
//     s3.multipart.size, a multipart upload; nothing is visible before Close, and a failed or
//     abandoned upload is aborted (s3_object_writer.h). WriteFileAtomic is one PUT; with
//     !overwrite both create conditionally (If-None-Match: *): exactly one of several
//     committers of snapshot-N wins, the others get AlreadyExists, retries included.
//   - Exists / GetStatus: a HEAD, else a listing of "key/" makes the path a directory.
//   - ListDir lists "dir/" with delimiter '/', every page; NotFound when nothing is under it.
//   - Delete removes an object, or (recursive) every key under "dir/" in DeleteObjects batches.
//   - Rename and RenameNoReplace copy and then delete: NOT atomic on S3. A failure between
//     leaves both names, and RenameNoReplace only checks that the target is absent before it
//     copies. Commits must use WriteFileAtomic(!overwrite), never a rename.
//   - MkDirs writes an empty "dir/" marker object (as Hadoop's S3A does), so that an empty
//     directory (a new database) exists and is listed; ListDir does not list a directory's own
//     marker. SyncDir does nothing: a completed PUT is durable.
//
// Thread safety: thread-safe, as FileIO requires.
#pragma once

#include <memory>

#include "sluice/fs/file_io.h"
#include "sluice/fs/s3/s3_options.h"
#include "sluice/result.h"

namespace sluice {

// An S3 FileIO with `options` (S3Options::FromOptions). InvalidArgument for a bad endpoint.
Result<std::shared_ptr<FileIO>> MakeS3FileIO(const S3Options& options);

}  // namespace sluice
