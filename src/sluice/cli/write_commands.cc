#include "sluice/cli/write_commands.h"

#include "sluice/cli/compact_command.h"
#include "sluice/cli/rescale_command.h"
#include "sluice/cli/snapshots_command.h"
#include "sluice/cli/write_command.h"

namespace sluice::cli {

struct WriteCommands {
  CLI::App* write = nullptr;
  std::shared_ptr<WriteFlags> write_flags;
  CLI::App* compact = nullptr;
  std::shared_ptr<CompactFlags> compact_flags;
  CLI::App* rescale = nullptr;
  std::shared_ptr<RescaleFlags> rescale_flags;
  CLI::App* snapshots = nullptr;
  std::shared_ptr<SnapshotsFlags> snapshots_flags;
};

std::shared_ptr<WriteCommands> AddWriteCommands(CLI::App* app) {
  auto commands = std::make_shared<WriteCommands>();
  commands->write_flags = AddWriteCommand(app, &commands->write);
  commands->compact_flags = AddCompactCommand(app, &commands->compact);
  commands->rescale_flags = AddRescaleCommand(app, &commands->rescale);
  commands->snapshots_flags = AddSnapshotsCommand(app, &commands->snapshots);
  return commands;
}

std::optional<int> RunWriteCommands(const WriteCommands& commands) {
  if (commands.write->parsed()) return RunWrite(*commands.write_flags);
  if (commands.compact->parsed()) return RunCompact(*commands.compact_flags);
  if (commands.rescale->parsed()) return RunRescale(*commands.rescale_flags);
  if (commands.snapshots->parsed()) return RunSnapshots(*commands.snapshots_flags);
  return std::nullopt;
}

}  // namespace sluice::cli
