#include "sluice/fs/read_range.h"

#include <algorithm>

namespace sluice {

std::vector<ReadRange> CoalesceReadRanges(std::vector<ReadRange> ranges,
                                          const CoalesceOptions& options) {
  std::erase_if(ranges, [](const ReadRange& r) { return r.length <= 0; });
  std::sort(ranges.begin(), ranges.end(), [](const ReadRange& a, const ReadRange& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length > b.length;
  });
  std::vector<ReadRange> out;
  for (const ReadRange& r : ranges) {
    if (!out.empty()) {
      ReadRange& last = out.back();
      // Inside the last request already (an overlap or a duplicate).
      if (r.end() <= last.end()) continue;
      const int64_t merged = r.end() - last.offset;
      if (r.offset <= last.end() + options.max_gap && merged <= options.max_size) {
        last.length = merged;
        continue;
      }
      // Overlapping but too large to merge: the rest of it only.
      if (r.offset < last.end()) {
        out.push_back(ReadRange{last.end(), r.end() - last.end()});
        continue;
      }
    }
    out.push_back(r);
  }
  // A range larger than the maximum is cut into requests that can run in parallel.
  std::vector<ReadRange> cut;
  for (const ReadRange& r : out) {
    for (int64_t at = r.offset; at < r.end(); at += options.max_size) {
      cut.push_back(ReadRange{at, std::min(options.max_size, r.end() - at)});
    }
  }
  return cut;
}

}  // namespace sluice
