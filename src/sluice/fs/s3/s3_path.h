// An object store path, "s3://bucket/key" (or s3a:// and s3n://, as Java and Hadoop write
// them), split into the bucket and the key S3 requests name.
//
// Thread safety: a value type.
#pragma once

#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// Whether a lower-cased URI scheme names S3: "s3", "s3a" or "s3n" (Java and Hadoop write all
// three).
bool IsS3Scheme(std::string_view scheme);

struct S3Path {
  std::string root;  // "s3a://bucket": the scheme as written, lower-cased, and the bucket
  std::string bucket;
  std::string key;  // no leading, trailing or repeated '/'; "" for the bucket itself

  // InvalidArgument for anything but <s3|s3a|s3n>://<bucket>[/<key>].
  static Result<S3Path> Parse(std::string_view uri);

  // root + "/" + key, or root for the bucket.
  std::string ToString() const;
  // What keys under this path as a directory start with: key + "/", or "" for the bucket.
  std::string DirPrefix() const;
};

}  // namespace sluice
