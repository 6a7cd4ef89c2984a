// ScanMode: what a scan reads (Java StartupMode / streaming scans, as one batch plan):
//   kBatch       the rows of one snapshot;
//   kStreamFull  the first plan of a streaming read (the rows of the snapshot it starts at);
//   kDelta       the changes one snapshot committed, every row with its row kind: its
//                changelog files on tables with a `changelog-producer`, else the data files
//                of an APPEND snapshot.
//
// Thread safety: constants.
#pragma once

namespace sluice {

enum class ScanMode : unsigned char { kBatch, kStreamFull, kDelta };

}  // namespace sluice
