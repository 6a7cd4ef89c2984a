// The settings of an S3 FileIO, read from a catalog's or table's options under Java Paimon's
// names (its S3 plugin hands "s3.<name>" to Hadoop's S3A as "fs.s3a.<name>", so the tuning
// options below are S3A's names with that prefix), with credentials and region from the
// environment and ~/.aws as the AWS command line tools read them when the options omit them.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "sluice/result.h"

namespace sluice {

struct S3Options {
  // "http://host:port" or "https://host"; a bare "host[:port]" means https (as S3A reads
  // fs.s3a.endpoint). Empty: AWS, https://s3.<region>.amazonaws.com.
  std::string endpoint;
  std::string region = "us-east-1";
  std::string access_key;
  std::string secret_key;
  std::string session_token;  // temporary credentials; empty for long-term keys
  // http://endpoint/bucket/key instead of http://bucket.endpoint/key (most S3-compatible
  // servers want path style).
  bool path_style_access = false;
  // Files larger than this are uploaded in parts of this size (S3's minimum part is 5 MiB).
  int64_t multipart_size = 8 << 20;
  // Keys per ListObjectsV2 page (S3's maximum, and default, is 1000).
  int list_page_size = 1000;
  // Attempts of a request before its error is returned (the first one included).
  int max_attempts = 8;
  // The first retry waits up to this long (full jitter), doubling per attempt up to
  // retry_max_delay_ms.
  int64_t retry_base_delay_ms = 100;
  int64_t retry_max_delay_ms = 5000;
  int64_t connect_timeout_ms = 10000;
  // The whole request, upload or download included.
  int64_t request_timeout_ms = 120000;

  // The options of a catalog or table:
  //   s3.endpoint, s3.region (or s3.endpoint.region), s3.access-key (or s3.access.key),
  //   s3.secret-key (or s3.secret.key), s3.session.token (or s3.session-token),
  //   s3.path.style.access, s3.multipart.size (bytes; k/m/g suffixes), s3.paging.maximum,
  //   s3.attempts.maximum, s3.retry.interval, s3.retry.max-interval,
  //   s3.connection.establish.timeout, s3.connection.timeout (milliseconds; "ms", "s" or "min"
  //   suffixes).
  // Credentials the options do not give come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
  // AWS_SESSION_TOKEN, else from the profile AWS_PROFILE (else "default") of
  // AWS_SHARED_CREDENTIALS_FILE (else ~/.aws/credentials); the region from AWS_REGION /
  // AWS_DEFAULT_REGION, else from that profile in AWS_CONFIG_FILE (else ~/.aws/config), else
  // us-east-1. InvalidArgument for a malformed value or when no credentials are found; the
  // message never holds a secret.
  static Result<S3Options> FromOptions(const std::map<std::string, std::string>& options);
};

}  // namespace sluice
