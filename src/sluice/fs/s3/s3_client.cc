#include "sluice/fs/s3/s3_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

#include "sluice/base/string_util.h"
#include "sluice/fs/s3/aws_sigv4.h"
#include "sluice/fs/s3/s3_xml.h"

namespace sluice {

namespace {

// Idle connections kept per client; more handles than this are closed after their request.
constexpr size_t kMaxIdleHandles = 16;

void GlobalInitCurl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Where a response's body goes: the body, sized once from the Content-Length that the headers
// (received before it) announced, so that a large GET is not copied at every doubling.
struct BodySink {
  std::string* body;
  const std::map<std::string, std::string>* headers;
};

// A Content-Length beyond this is not trusted for a reservation.
constexpr long long kMaxBodyReserve = 1LL << 30;

size_t AppendBody(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<BodySink*>(user);
  if (sink->body->empty()) {
    auto length = sink->headers->find("content-length");
    if (length != sink->headers->end()) {
      const long long n = std::strtoll(length->second.c_str(), nullptr, 10);
      if (n > 0 && n <= kMaxBodyReserve) sink->body->reserve(static_cast<size_t>(n));
    }
  }
  sink->body->append(data, size * count);
  return size * count;
}

size_t AppendHeader(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string_view line(data, size * count);
  // A new status line (after a "100 Continue", say) starts a new set of headers.
  if (line.starts_with("HTTP/")) headers->clear();
  const size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    (*headers)[AsciiToLower(JavaTrim(line.substr(0, colon)))] =
        std::string(JavaTrim(line.substr(colon + 1)));
  }
  return size * count;
}

// Whether a failed transfer is worth another attempt: the server or the network may be back.
bool IsRetryableCurlError(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

// S3's "slow down / try again" answers.
bool IsRetryableResponse(const S3Response& response) {
  switch (response.status) {
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
      return true;
    case 400:
      return XmlText(response.body, "Code") == "RequestTimeout";
    default:
      return false;
  }
}

std::string Describe(const S3Request& request) {
  return request.method + " bucket '" + request.bucket + "' key '" + request.key + "'";
}

}  // namespace

std::string S3Response::Header(const std::string& lower_case_name) const {
  auto it = headers.find(lower_case_name);
  return it == headers.end() ? std::string() : it->second;
}

struct S3Client::HandlePool {
  std::mutex mu;
  std::vector<CURL*> idle;

  ~HandlePool() {
    for (CURL* handle : idle) curl_easy_cleanup(handle);
  }
  CURL* Take() {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!idle.empty()) {
        CURL* handle = idle.back();
        idle.pop_back();
        return handle;
      }
    }
    return curl_easy_init();
  }
  void Give(CURL* handle) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (idle.size() < kMaxIdleHandles) {
        idle.push_back(handle);
        return;
      }
    }
    curl_easy_cleanup(handle);
  }
};

Result<std::unique_ptr<S3Client>> S3Client::Make(const S3Options& options) {
  GlobalInitCurl();
  Endpoint endpoint;
  std::string_view text = options.endpoint;
  if (text.empty()) {
    endpoint.host = "s3." + options.region + ".amazonaws.com";
  } else {
    if (text.starts_with("http://")) {
      endpoint.https = false;
      text.remove_prefix(7);
    } else if (text.starts_with("https://")) {
      text.remove_prefix(8);
    }
    while (!text.empty() && text.back() == '/') text.remove_suffix(1);
    if (text.empty() || text.find_first_of("/?#@ ") != std::string_view::npos) {
      return Status::InvalidArgument("option s3.endpoint: '" + options.endpoint +
                                     "' is not [http[s]://]host[:port]");
    }
    endpoint.host = std::string(text);
  }
  return std::unique_ptr<S3Client>(new S3Client(options, std::move(endpoint)));
}

S3Client::S3Client(S3Options options, Endpoint endpoint)
    : options_(std::move(options)),
      endpoint_(std::move(endpoint)),
      pool_(std::make_unique<HandlePool>()) {}

S3Client::~S3Client() = default;

bool S3Client::Perform(const S3Request& request, S3Response* response, std::string* error,
                       bool* retryable) const {
  std::string host = endpoint_.host;
  std::string path;
  if (options_.path_style_access) {
    path = "/" + UriEncode(request.bucket, true);
    if (!request.key.empty()) path += "/" + UriEncode(request.key, false);
  } else {
    host = request.bucket + "." + host;
    path = "/" + UriEncode(request.key, false);
  }
  const std::string query = CanonicalQueryString(request.query);
  const std::string url =
      (endpoint_.https ? "https://" : "http://") + host + path + (query.empty() ? "" : "?" + query);

  SigV4Request signing;
  signing.method = request.method;
  signing.encoded_path = path;
  signing.query = request.query;
  signing.headers = request.headers;
  signing.payload_hash = request.body.empty() ? std::string(kEmptySha256) : Sha256Hex(request.body);
  const std::string amz_date = AmzDate(std::chrono::system_clock::now());
  signing.headers.emplace_back("host", host);
  signing.headers.emplace_back("x-amz-date", amz_date);
  signing.headers.emplace_back("x-amz-content-sha256", signing.payload_hash);
  if (!options_.session_token.empty()) {
    signing.headers.emplace_back("x-amz-security-token", options_.session_token);
  }
  const std::string authorization = SigV4Authorization(
      signing, options_.access_key, options_.secret_key, options_.region, "s3", amz_date);

  curl_slist* header_list = nullptr;
  bool has_content_type = false;
  for (const auto& [name, value] : signing.headers) {
    has_content_type |= EqualsIgnoreAsciiCase(name, "content-type");
    header_list = curl_slist_append(header_list, (name + ": " + value).c_str());
  }
  header_list = curl_slist_append(header_list, ("Authorization: " + authorization).c_str());
  // No "Expect: 100-continue" round trip before a body: S3 answers the whole request anyway.
  header_list = curl_slist_append(header_list, "Expect:");
  const bool sends_body = request.method == "PUT" || request.method == "POST";
  if (sends_body && !has_content_type) {
    header_list = curl_slist_append(header_list, "Content-Type: application/octet-stream");
  }

  CURL* handle = pool_->Take();
  curl_easy_reset(handle);
  char error_buffer[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, header_list);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout_ms));
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, AppendBody);
  BodySink sink{&response->body, &response->headers};
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, AppendHeader);
  curl_easy_setopt(handle, CURLOPT_HEADERDATA, &response->headers);
  if (request.method == "HEAD") {
    curl_easy_setopt(handle, CURLOPT_NOBODY, 1L);
  } else if (sends_body) {
    curl_easy_setopt(handle, CURLOPT_POST, 1L);
    // Never null: curl would read the body from stdin instead.
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.empty() ? "" : request.body.data());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    if (request.method == "PUT") curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, "PUT");
  } else if (request.method != "GET") {
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  const CURLcode code = curl_easy_perform(handle);
  if (code == CURLE_OK) curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response->status);
  // The handle keeps its connection for the next request; the options are reset then.
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, nullptr);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);
  pool_->Give(handle);
  curl_slist_free_all(header_list);
  if (code != CURLE_OK) {
    *error = curl_easy_strerror(code);
    if (error_buffer[0] != '\0') *error += std::string(" (") + error_buffer + ")";
    *retryable = IsRetryableCurlError(code);
    return false;
  }
  // CopyObject and CompleteMultipartUpload can fail after their 200 header went out: the body
  // is then an Error (S3's documented behaviour), a server error for all that follows.
  const auto named = [](const auto& pairs, std::string_view name) {
    return std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == name; });
  };
  const bool late_error_possible =
      (request.method == "PUT" && named(request.headers, "x-amz-copy-source")) ||
      (request.method == "POST" && named(request.query, "uploadId"));
  if (response->status == 200 && late_error_possible &&
      !XmlElements(response->body, "Error").empty()) {
    response->status = 500;
  }
  return true;
}

Result<S3Response> S3Client::Send(const S3Request& request) const {
  thread_local std::mt19937_64 random(std::random_device{}());
  bool maybe_applied = false;
  std::string error;
  for (int attempt = 1;; ++attempt) {
    S3Response response;
    bool retryable = false;
    error.clear();
    if (Perform(request, &response, &error, &retryable)) {
      if (!IsRetryableResponse(response) || attempt >= options_.max_attempts) {
        response.attempts = attempt;
        response.maybe_applied_before = maybe_applied;
        return response;
      }
      // Throttling refuses the request; other server errors may come after it was applied.
      maybe_applied |= response.status != 503 && response.status != 429;
    } else {
      if (!retryable || attempt >= options_.max_attempts) {
        return Status::IOError("s3: " + Describe(request) + ": " + error + " (after " +
                               std::to_string(attempt) + " attempt" + (attempt == 1 ? "" : "s") +
                               ")");
      }
      maybe_applied |= error.find("Couldn't connect") == std::string::npos;
    }
    const int64_t cap = std::min<int64_t>(
        options_.retry_max_delay_ms, options_.retry_base_delay_ms << std::min(attempt - 1, 20));
    std::uniform_int_distribution<int64_t> jitter(0, std::max<int64_t>(cap, 0));
    std::this_thread::sleep_for(std::chrono::milliseconds(jitter(random)));
  }
}

Status S3Client::ErrorStatus(std::string_view what, const S3Request& request,
                             const S3Response& response) {
  std::string code = XmlText(response.body, "Code");
  const std::string message = XmlText(response.body, "Message");
  if (code.empty()) {
    // A HEAD answer has no body to say it.
    code = response.status == 404   ? "NotFound"
           : response.status == 403 ? "Forbidden"
           : response.status == 412 ? "PreconditionFailed"
                                    : "";
  }
  std::string request_id = response.Header("x-amz-request-id");
  if (request_id.empty()) request_id = XmlText(response.body, "RequestId");
  std::string text = std::string(what) + ": HTTP " + std::to_string(response.status);
  if (!code.empty()) text += " " + code;
  if (!message.empty()) text += ": " + message;
  text += " (" + request.method + " bucket '" + request.bucket + "'";
  if (!request.key.empty()) text += ", key '" + request.key + "'";
  if (!request_id.empty()) text += ", request id " + request_id;
  if (response.attempts > 1) text += ", after " + std::to_string(response.attempts) + " attempts";
  text += ")";
  if (response.status == 404) return Status::NotFound(std::move(text));
  if (response.status == 412) return Status::AlreadyExists(std::move(text));
  return Status::IOError(std::move(text));
}

}  // namespace sluice
