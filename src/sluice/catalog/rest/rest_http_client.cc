#include "sluice/catalog/rest/rest_http_client.h"

#include <curl/curl.h>

#include <mutex>
#include <utility>

namespace sluice::rest {
namespace {

// Connect and whole-request timeouts: a catalog call is small; a hung server must not hang
// the caller forever.
constexpr long kConnectTimeoutMs = 10000;
constexpr long kRequestTimeoutMs = 120000;

size_t AppendBody(char* data, size_t size, size_t count, void* sink) {
  static_cast<std::string*>(sink)->append(data, size * count);
  return size * count;
}

std::string NormalizeUri(std::string uri) {
  if (!uri.empty() && uri.back() == '/') uri.pop_back();
  if (!uri.starts_with("http://") && !uri.starts_with("https://")) uri = "http://" + uri;
  return uri;
}

}  // namespace

RestHttpClient::RestHttpClient(std::string uri, std::vector<std::string> headers)
    : uri_(NormalizeUri(std::move(uri))), headers_(std::move(headers)) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Result<RestHttpResponse> RestHttpClient::Send(std::string_view method,
                                              const std::string& path_and_query,
                                              std::string_view body) const {
  const std::string url = uri_ + path_and_query;
  CURL* handle = curl_easy_init();
  if (handle == nullptr) return Status::IOError("REST catalog: cannot start a request to " + url);
  curl_slist* header_list = nullptr;
  for (const std::string& header : headers_) {
    header_list = curl_slist_append(header_list, header.c_str());
  }
  header_list = curl_slist_append(header_list, "Content-Type: application/json");
  header_list = curl_slist_append(header_list, "Expect:");
  RestHttpResponse response;
  char error_buffer[CURL_ERROR_SIZE] = {0};
  const std::string method_text(method);
  curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, header_list);
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  // Names are path segments: "." and ".." go to the server as they are (which refuses them),
  // not resolved away by curl.
  curl_easy_setopt(handle, CURLOPT_PATH_AS_IS, 1L);
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, kConnectTimeoutMs);
  curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, kRequestTimeoutMs);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, AppendBody);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &response.body);
  if (method == "POST") {
    curl_easy_setopt(handle, CURLOPT_POST, 1L);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  } else if (method != "GET") {
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method_text.c_str());
  }
  const CURLcode code = curl_easy_perform(handle);
  if (code == CURLE_OK) curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response.status);
  curl_easy_cleanup(handle);
  curl_slist_free_all(header_list);
  if (code != CURLE_OK) {
    return Status::IOError("REST catalog: " + method_text + " " + url + ": " +
                           (error_buffer[0] != 0 ? error_buffer : curl_easy_strerror(code)));
  }
  return response;
}

}  // namespace sluice::rest
