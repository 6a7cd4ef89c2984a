// AWS Signature Version 4 (the "Authorization: AWS4-HMAC-SHA256 ..." header every S3 request
// carries), on OpenSSL's libcrypto: the canonical request, the string to sign, the derived key
// and the header. Only what S3 needs: header signing with a hashed (or UNSIGNED-PAYLOAD) body;
// no presigned URLs, no chunked (streaming) signatures.
//
// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html;
// aws_sigv4_test.cc checks it against AWS's published examples.
//
// Thread safety: pure functions.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice {

// The SHA-256 of the empty string, the payload hash of a request without a body.
inline constexpr std::string_view kEmptySha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct SigV4Request {
  std::string method;  // "GET", "PUT", ...
  // The path as sent, already URI-encoded once ("/bucket/a%20b"); S3 does not encode it again.
  std::string encoded_path;
  // Query parameters, neither encoded nor sorted ({"uploads", ""}, {"partNumber", "1"}).
  std::vector<std::pair<std::string, std::string>> query;
  // The headers to sign, names in any case; they must include "host" and "x-amz-date", and
  // S3 wants "x-amz-content-sha256" too. Every header sent that names x-amz-* must be here.
  std::vector<std::pair<std::string, std::string>> headers;
  // Hex SHA-256 of the body (kEmptySha256 for none), or "UNSIGNED-PAYLOAD".
  std::string payload_hash;
};

// Hex (lower case) SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);
// Base64 of the MD5 of `data`: the Content-MD5 header DeleteObjects requires.
std::string Md5Base64(std::string_view data);
// Raw HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);

// RFC 3986 encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ as %XX (upper-case
// hex), '/' kept unless `encode_slash`.
std::string UriEncode(std::string_view text, bool encode_slash);

// "20130524T000000Z": the x-amz-date of `time`.
std::string AmzDate(std::chrono::system_clock::time_point time);

std::string CanonicalQueryString(const std::vector<std::pair<std::string, std::string>>& query);
// The method, path, query, headers (lower-cased, trimmed, sorted), signed header names and
// payload hash, one a line.
std::string CanonicalRequest(const SigV4Request& request);

// The value of the Authorization header of `request`, signed at `amz_date` (which must be the
// request's x-amz-date) for `region` and `service` ("s3").
std::string SigV4Authorization(const SigV4Request& request, std::string_view access_key,
                               std::string_view secret_key, std::string_view region,
                               std::string_view service, std::string_view amz_date);

}  // namespace sluice
