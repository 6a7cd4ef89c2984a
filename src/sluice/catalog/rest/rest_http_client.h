// RestHttpClient: the HTTP calls of a REST catalog client, on libcurl (as the S3 client): one
// request, its status and body. Java HttpClient's URI rules: "host:port" means http://, a
// trailing '/' is dropped.
//
// Thread safety: thread-safe; each call uses a curl handle of its own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice::rest {

struct RestHttpResponse {
  long status = 0;
  std::string body;
};

class RestHttpClient {
 public:
  // `headers`: "Name: value" lines sent with every request (the bearer token).
  RestHttpClient(std::string uri, std::vector<std::string> headers);

  const std::string& uri() const { return uri_; }

  // `path_and_query` is appended to the URI as given (encoded by the caller). `body` is sent as
  // JSON when not empty. IOError naming the URL when no answer came.
  Result<RestHttpResponse> Send(std::string_view method, const std::string& path_and_query,
                                std::string_view body) const;

 private:
  std::string uri_;
  std::vector<std::string> headers_;
};

}  // namespace sluice::rest
