// LikePattern: a compiled SQL LIKE pattern. '%' matches any run of characters, '_' exactly one
// UTF-8 character, and '\' makes the next character literal (so `\%` is a percent sign).
// Matching is over bytes, case-sensitive, with no allocation per value.
//
// Thread safety: immutable after Compile; share freely.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

class LikePattern {
 public:
  static LikePattern Compile(std::string_view pattern);

  bool Matches(std::string_view value) const;

  // The literal text every match starts with (escapes resolved): "ab" for 'ab%c_'.
  const std::string& fixed_prefix() const { return fixed_prefix_; }
  // No wildcard at all: the pattern matches exactly fixed_prefix().
  bool is_exact() const { return wildcard_count_ == 0; }
  // Only '%' wildcards, all at the end: a prefix test on fixed_prefix().
  bool is_prefix() const { return wildcard_count_ > 0 && only_trailing_percent_; }

  // A pattern that matches exactly `text` (wildcards and '\' escaped).
  static std::string Escape(std::string_view text);

 private:
  static constexpr int16_t kAnySequence = -1;   // '%'
  static constexpr int16_t kAnyCharacter = -2;  // '_'

  // One element per pattern position: a byte 0..255 or one of the wildcards above.
  std::vector<int16_t> elements_;
  std::string fixed_prefix_;
  int wildcard_count_ = 0;
  bool only_trailing_percent_ = true;
};

}  // namespace sluice
