// `sluice serve --config FILE`: runs the jobs of a service config (service/service_config.h)
// until SIGTERM or SIGINT, which stop every job (each commits what it has) within the config's
// shutdown_timeout; SIGHUP reads the config again and applies it (a config that does not parse
// is logged and the running one kept). A bad config at start is an error naming the job and the
// key, and nothing starts.
//
// Thread safety: run from main only (blocks the signals it waits for).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct ServeFlags;

std::shared_ptr<ServeFlags> AddServeCommand(CLI::App* app, CLI::App** command);
int RunServe(const ServeFlags& flags);

}  // namespace sluice::cli
