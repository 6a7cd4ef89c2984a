// ScanMode: what a scan reads (Java StartupMode / streaming scans, as one batch plan):
//   kBatch       the rows of one snapshot;
//   kStreamFull  the first plan of a streaming read (the rows of the snapshot it starts at);
//   kDelta       the changes one snapshot committed, every row with its row kind.
//
// Thread safety: constants.
#pragma once

namespace sluice {

enum class ScanMode : unsigned char { kBatch, kStreamFull, kDelta };

}  // namespace sluice
