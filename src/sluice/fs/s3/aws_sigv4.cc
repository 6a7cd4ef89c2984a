#include "sluice/fs/s3/aws_sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <ctime>

#include "sluice/base/base64.h"
#include "sluice/base/string_util.h"

namespace sluice {

namespace {

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0xF];
  }
  return out;
}

std::string Digest(const EVP_MD* md, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), out, &n, md, nullptr);
  return std::string(reinterpret_cast<const char*>(out), n);
}

// Header values are signed trimmed, with inner runs of spaces folded to one.
std::string TrimAll(std::string_view value) {
  std::string out;
  bool space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> CanonicalHeaders(const SigV4Request& request) {
  std::vector<std::pair<std::string, std::string>> headers;
  headers.reserve(request.headers.size());
  for (const auto& [name, value] : request.headers) {
    headers.emplace_back(AsciiToLower(name), TrimAll(value));
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

std::string SignedHeaderNames(const std::vector<std::pair<std::string, std::string>>& headers) {
  std::string out;
  for (const auto& header : headers) {
    if (!out.empty()) out += ';';
    out += header.first;
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  std::string digest = Digest(EVP_sha256(), data);
  return Hex(reinterpret_cast<const unsigned char*>(digest.data()), digest.size());
}

std::string Md5Base64(std::string_view data) { return Base64Encode(Digest(EVP_md5(), data)); }

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &n);
  return std::string(reinterpret_cast<const char*>(out), n);
}

std::string UriEncode(std::string_view text, bool encode_slash) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~' || (c == '/' && !encode_slash)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kDigits[c >> 4];
      out += kDigits[c & 0xF];
    }
  }
  return out;
}

std::string AmzDate(std::chrono::system_clock::time_point time) {
  std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

std::string CanonicalQueryString(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query) {
    encoded.emplace_back(UriEncode(name, true), UriEncode(value, true));
  }
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

std::string CanonicalRequest(const SigV4Request& request) {
  const auto headers = CanonicalHeaders(request);
  std::string out = request.method + "\n" + request.encoded_path + "\n" +
                    CanonicalQueryString(request.query) + "\n";
  for (const auto& [name, value] : headers) out += name + ":" + value + "\n";
  out += "\n" + SignedHeaderNames(headers) + "\n" + request.payload_hash;
  return out;
}

std::string SigV4Authorization(const SigV4Request& request, std::string_view access_key,
                               std::string_view secret_key, std::string_view region,
                               std::string_view service, std::string_view amz_date) {
  const std::string date(amz_date.substr(0, 8));
  const std::string scope =
      date + "/" + std::string(region) + "/" + std::string(service) + "/aws4_request";
  const std::string string_to_sign = "AWS4-HMAC-SHA256\n" + std::string(amz_date) + "\n" + scope +
                                     "\n" + Sha256Hex(CanonicalRequest(request));
  std::string key = HmacSha256("AWS4" + std::string(secret_key), date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  key = HmacSha256(key, "aws4_request");
  const std::string signature = HmacSha256(key, string_to_sign);
  return "AWS4-HMAC-SHA256 Credential=" + std::string(access_key) + "/" + scope +
         ",SignedHeaders=" + SignedHeaderNames(CanonicalHeaders(request)) + ",Signature=" +
         Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

}  // namespace sluice
