#include "sluice/lsm/lookup/lookup_file.h"

namespace sluice {

LookupFile::~LookupFile() {
  reader_.reset();
  // A local cache file: a failed delete leaves garbage in the lookup directory, which the
  // cache removes with the directory.
  io_->Delete(local_path_, /*recursive=*/false).IgnoreError();
}

Result<bool> LookupFile::Get(std::string_view key, std::string_view* value) {
  ++request_count_;
  SLUICE_ASSIGN_OR_RETURN(bool found, reader_->Lookup(key, value));
  if (found) ++hit_count_;
  return found;
}

}  // namespace sluice
