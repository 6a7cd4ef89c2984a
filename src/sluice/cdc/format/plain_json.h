// PlainJson: a fast, allocation-free reading of the common case of a CDC message, for the
// formats' hot path (issue 31): the whole text is checked as JSON and laid out as a flat list
// of nodes pointing into it, without building a document.
//
// Only "plain" texts are taken: every string is printable ASCII without escapes, and nesting is
// at most kMaxCdcJsonDepth deep. Anything else (escapes, other bytes, invalid JSON) makes Scan
// return false, and the caller reads the message through ParseCdcJson as before: so a message
// read here gives exactly what the full parser gives, and every error still comes from it.
//
//   PlainJson json;
//   if (json.Scan(text)) {
//     const PlainJson::Node& root = json.node(0);
//     ...
//   }
//
// Thread safety: an object is used by one thread; Scan reuses its node storage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

class PlainJson {
 public:
  enum class Kind : uint8_t { kNull, kTrue, kFalse, kInteger, kFloat, kString, kObject, kArray };

  struct Node {
    Kind kind;
    // Scalars: the token as written, a string's characters without the quotes.
    std::string_view text;
    // The index after this node's subtree: an object's members are (key, value) node pairs from
    // its index + 1 up to `end`, each value's own `end` leading to the next key.
    uint32_t end;
  };

  // Lays `text` out; false when it is not plain JSON (see above). The nodes point into `text`,
  // so it must outlive them (no temporary). A std::string, for its terminator: the scanner reads
  // it as the end of the text.
  bool Scan(const std::string& text);
  bool Scan(std::string&& text) = delete;

  // REQUIRES: the last Scan returned true, and `index` is below the root's `end`.
  const Node& node(uint32_t index) const { return nodes_[index]; }

  // The value of member `key` of the object at `object`; -1 when there is none. A key given
  // twice answers its last value, as the full parser keeps.
  int64_t Find(uint32_t object, std::string_view key) const;

 private:
  // The nodes of the last text from the front (node(0).end of them); the rest is room for the
  // next text's.
  std::vector<Node> nodes_;
};

}  // namespace sluice
