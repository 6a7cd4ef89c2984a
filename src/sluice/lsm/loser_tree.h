// LoserTree: a tournament over K sorted inputs that yields their records in merge order (Java
// LoserTree / SortMergeReader): each internal node keeps the loser of its match, so replacing
// the winner's record costs one comparison per level (log2 K) instead of a heap's two.
//
// The tree knows inputs only by index: `compare(a, b)` orders input a's current record against
// input b's (both live) as negative, zero or positive, `live(i)` says whether input i still has
// a record. Ties go to the lower index, so the merge is deterministic; one three-way call per
// match decides them.
//
// Usage: position every input on its first record, Build(); then repeatedly read winner(),
// consume and advance that input (or exhaust it), Replay().
//
// Thread safety: not thread-safe.
#pragma once

#include <utility>
#include <vector>

namespace sluice {

template <typename Compare, typename Live>
class LoserTree {
 public:
  LoserTree(int num_inputs, Compare compare, Live live)
      : num_inputs_(num_inputs), compare_(std::move(compare)), live_(std::move(live)) {
    width_ = 1;
    while (width_ < num_inputs_) width_ *= 2;
    losers_.assign(static_cast<size_t>(width_), -1);
  }

  // Plays every match from the inputs' current records.
  void Build() { winner_ = BuildNode(1); }

  // The input whose record comes next, or -1 when every input is exhausted.
  int winner() const { return winner_ >= 0 && live_(winner_) ? winner_ : -1; }

  // Replays the matches of winner() after its input advanced (or was exhausted).
  void Replay() {
    int candidate = winner_;
    for (int node = (width_ + candidate) / 2; node >= 1; node /= 2) {
      int& loser = losers_[static_cast<size_t>(node)];
      if (Beats(loser, candidate)) std::swap(loser, candidate);
    }
    winner_ = candidate;
  }

 private:
  // Input a (or -1, a padding input) beats input b.
  bool Beats(int a, int b) const {
    if (a < 0 || !live_(a)) return false;
    if (b < 0 || !live_(b)) return true;
    const int c = compare_(a, b);
    return c < 0 || (c == 0 && a < b);
  }

  // Returns the winner of the subtree at `node`, recording losers on the way.
  int BuildNode(int node) {
    if (node >= width_) {
      const int input = node - width_;
      return input < num_inputs_ ? input : -1;
    }
    const int left = BuildNode(2 * node);
    const int right = BuildNode(2 * node + 1);
    if (Beats(right, left)) {
      losers_[static_cast<size_t>(node)] = left;
      return right;
    }
    losers_[static_cast<size_t>(node)] = right;
    return left;
  }

  int num_inputs_;
  int width_ = 1;  // leaves: num_inputs_ rounded up to a power of two
  Compare compare_;
  Live live_;
  std::vector<int> losers_;  // by internal node 1..width_-1
  int winner_ = -1;
};

}  // namespace sluice
