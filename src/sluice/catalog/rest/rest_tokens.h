// RestTokens: who may call a REST catalog server, from its tokens file: one bearer token a line,
// optionally limited to databases,
//
//   3f9c...e1                          # every database
//   77ab...02 databases=sales,finance  # only these
//
// Blank lines and lines starting with '#' are skipped. A token is at least 16 visible ASCII
// characters (a guessable token is refused when the file is read, naming its line).
//
// Thread safety: immutable after Parse; Find may run concurrently.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice::rest {

// What one token may see.
struct RestAccess {
  bool all_databases = true;
  std::set<std::string> databases;

  bool Allows(std::string_view database) const {
    return all_databases || databases.count(std::string(database)) > 0;
  }
};

class RestTokens {
 public:
  static constexpr size_t kMinTokenLength = 16;

  // InvalidArgument naming `source` and the line for a malformed line, a short token or one
  // listed twice.
  static Result<RestTokens> Parse(std::string_view text, std::string_view source);
  // IOError naming `path` when it cannot be read; Parse's errors.
  static Result<RestTokens> Load(const std::string& path);

  // The access of the bearer token of an `Authorization` header value ("Bearer <token>"), or
  // nullopt when it is missing, malformed or no token of the file. Tokens are compared in
  // constant time.
  std::optional<RestAccess> Find(std::string_view authorization) const;

  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string token;
    RestAccess access;
  };
  std::vector<Entry> entries_;
};

}  // namespace sluice::rest
