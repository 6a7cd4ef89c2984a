// S3's REST API over HTTP(S) on libcurl, signed with AWS Signature V4 (aws_sigv4.h): one request
// in, one response out, with the retries every caller wants.
//
// Retries: a request is sent again, after an exponentially growing delay with full jitter
// (S3Options::retry_*), when no response came (connection refused or reset, a timeout) or the
// response says "try again" (HTTP 500, 502, 503 incl. SlowDown, 504, 429, a 400
// RequestTimeout, or a 200 CopyObject whose body is an Error), up to max_attempts. A request
// retried after a failure that may have been applied on the server (everything but a refused
// connection) is marked `maybe_applied_before`, so that a conditional write can tell its own
// earlier success from someone else's (s3_file_io.cc).
//
// Secrets: the secret key and the signature never leave this class; errors name the method,
// bucket, key, HTTP status and S3's error code and message only.
//
// Thread safety: thread-safe; connections are kept in a pool of curl handles.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/fs/s3/s3_options.h"
#include "sluice/result.h"

namespace sluice {

struct S3Request {
  std::string method;  // GET, HEAD, PUT, POST, DELETE
  std::string bucket;
  std::string key;  // "" for a request on the bucket
  std::vector<std::pair<std::string, std::string>> query;
  // More headers, all signed ("range", "if-none-match", "x-amz-copy-source", ...).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;  // not owned; must outlive Send
};

struct S3Response {
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  int attempts = 0;
  // An earlier attempt of this request failed in a way that may have applied it.
  bool maybe_applied_before = false;

  // The header's value, or "".
  std::string Header(const std::string& lower_case_name) const;
  bool ok() const { return status >= 200 && status < 300; }
};

class S3Client {
 public:
  // InvalidArgument for an endpoint that is not [http[s]://]host[:port][/].
  static Result<std::unique_ptr<S3Client>> Make(const S3Options& options);
  ~S3Client();
  S3Client(const S3Client&) = delete;
  S3Client& operator=(const S3Client&) = delete;

  // Sends `request`, retrying as the header says. Any HTTP response comes back as a value
  // (a 404 is not an error here); an IOError naming the request when none came.
  Result<S3Response> Send(const S3Request& request) const;

  // The Status of a failed `response` to `request`, `what` naming the operation: NotFound for
  // 404, AlreadyExists for 412, else IOError; the text is "<what>: HTTP <status> <S3 code>:
  // <S3 message> (bucket '<b>', key '<k>', request id <id>)".
  static Status ErrorStatus(std::string_view what, const S3Request& request,
                            const S3Response& response);

  const S3Options& options() const { return options_; }

 private:
  struct Endpoint {
    bool https = true;
    std::string host;  // host[:port]
  };
  struct HandlePool;

  S3Client(S3Options options, Endpoint endpoint);
  // One attempt; false (with `error` set) when no HTTP response came.
  bool Perform(const S3Request& request, S3Response* response, std::string* error,
               bool* retryable) const;

  S3Options options_;
  Endpoint endpoint_;
  std::unique_ptr<HandlePool> pool_;
};

}  // namespace sluice
