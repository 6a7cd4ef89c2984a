// `sluice write`: writes the rows of a JSON lines, CSV or Parquet file into a table through the
// public write API (write_builder.h): input batches of a bounded size (input_reader.h), then one
// commit; `--overwrite` replaces the partitions of `--partition` (or, without it, the
// partitions the rows fall in). Progress on a terminal, silent when piped.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct WriteFlags;

// Registers the `write` subcommand on `app`; the returned flags are filled when it parses.
std::shared_ptr<WriteFlags> AddWriteCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `write`: 0 once the rows are committed (also when the compaction that followed
// lost a race and was dropped, which a note on stderr says), 1 after printing the error to
// stderr when nothing was committed.
int RunWrite(const WriteFlags& flags);

}  // namespace sluice::cli
