// OrcWriter: writes ColumnBatches of a Paimon row type as an ORC file the way Java Paimon's
// `file.format = orc` does: every type nullable, `paimon.id` type attributes, integer RLE v2,
// dictionary strings with a fallback to direct, timestamps relative to the UTC writer zone,
// TIMESTAMP_LTZ as a (legacy) ORC timestamp, chunked compression (zstd by default), file and
// stripe statistics. No row index is written (rowIndexStride 0), which every reader accepts.
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>

#include "sluice/format/file_format.h"

namespace sluice::orc {

// Options (WriterOptions::options): "orc.stripe.size" (bytes of encoded data per stripe,
// default 64 MiB), "orc.compress.size" (compression chunk, default 256 KiB),
// "orc.dictionary.key.threshold" (distinct / non-null values above which strings are written
// directly, default 0.8). WriterOptions::compression "none" / "zlib" (= deflate) / "snappy" /
// "lz4" / "zstd"; an `orc.compress` option overrides it.
Result<std::unique_ptr<FormatWriter>> MakeOrcWriter(std::unique_ptr<WritableFile> file,
                                                    DataTypePtr write_type,
                                                    const WriterOptions& options);

}  // namespace sluice::orc
