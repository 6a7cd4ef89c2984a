#include "sluice/catalog/rest/rest_tokens.h"

#include <fstream>
#include <sstream>

namespace sluice::rest {
namespace {

constexpr std::string_view kBearer = "Bearer ";
constexpr std::string_view kDatabases = "databases=";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

bool Visible(std::string_view token) {
  for (unsigned char c : token) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

// Equal without an early exit on the first differing byte, so that the time of a refusal does
// not tell how much of a token was right.
bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

}  // namespace

Result<RestTokens> RestTokens::Parse(std::string_view text, std::string_view source) {
  RestTokens tokens;
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    std::string_view line = Trim(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    const std::string where = std::string(source) + ":" + std::to_string(line_number) + ": ";
    const size_t space = line.find_first_of(" \t");
    std::string_view token = line.substr(0, space);
    std::string_view rest =
        space == std::string_view::npos ? std::string_view() : Trim(line.substr(space));
    if (token.size() < kMinTokenLength || !Visible(token)) {
      return Status::InvalidArgument(where + "a token is at least " +
                                     std::to_string(kMinTokenLength) + " visible ASCII characters");
    }
    Entry entry{std::string(token), {}};
    if (!rest.empty()) {
      if (!rest.starts_with(kDatabases)) {
        return Status::InvalidArgument(where + "expected `TOKEN` or `TOKEN databases=db1,db2`");
      }
      entry.access.all_databases = false;
      std::string_view list = rest.substr(kDatabases.size());
      while (!list.empty()) {
        const size_t comma = list.find(',');
        std::string_view name = Trim(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        if (!name.empty()) entry.access.databases.emplace(name);
      }
      if (entry.access.databases.empty()) {
        return Status::InvalidArgument(where + "`databases=` lists no database");
      }
    }
    for (const Entry& other : tokens.entries_) {
      if (other.token == entry.token) {
        return Status::InvalidArgument(where + "the token is listed twice");
      }
    }
    tokens.entries_.push_back(std::move(entry));
  }
  return tokens;
}

Result<RestTokens> RestTokens::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read the tokens file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::IOError("cannot read the tokens file " + path);
  return Parse(text.str(), path);
}

std::optional<RestAccess> RestTokens::Find(std::string_view authorization) const {
  if (!authorization.starts_with(kBearer)) return std::nullopt;
  std::string_view token = Trim(authorization.substr(kBearer.size()));
  const Entry* found = nullptr;
  for (const Entry& entry : entries_) {
    if (ConstantTimeEquals(entry.token, token)) found = &entry;
  }
  if (found == nullptr) return std::nullopt;
  return found->access;
}

}  // namespace sluice::rest
