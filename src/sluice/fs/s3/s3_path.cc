#include "sluice/fs/s3/s3_path.h"

#include "sluice/base/string_util.h"

namespace sluice {

bool IsS3Scheme(std::string_view scheme) {
  return scheme == "s3" || scheme == "s3a" || scheme == "s3n";
}

Result<S3Path> S3Path::Parse(std::string_view uri) {
  const size_t sep = uri.find("://");
  const std::string scheme = sep == std::string_view::npos ? "" : AsciiToLower(uri.substr(0, sep));
  if (!IsS3Scheme(scheme)) {
    return Status::InvalidArgument(std::string(uri) + ": not an s3://bucket/key path");
  }
  std::string_view rest = uri.substr(sep + 3);
  const size_t slash = rest.find('/');
  S3Path path;
  path.bucket = std::string(rest.substr(0, slash));
  if (path.bucket.empty()) {
    return Status::InvalidArgument(std::string(uri) + ": no bucket in the s3:// path");
  }
  path.root = scheme + "://" + path.bucket;
  if (slash != std::string_view::npos) {
    for (char c : rest.substr(slash)) {
      if (c == '/' && (path.key.empty() || path.key.back() == '/')) continue;
      path.key += c;
    }
    if (!path.key.empty() && path.key.back() == '/') path.key.pop_back();
  }
  return path;
}

std::string S3Path::ToString() const { return key.empty() ? root : root + "/" + key; }

std::string S3Path::DirPrefix() const { return key.empty() ? std::string() : key + "/"; }

}  // namespace sluice
