#include "sluice/table/source/sorted_run_file_reader.h"

namespace sluice {

Result<bool> SortedRunFileReader::Next(ColumnBatch* batch) {
  while (true) {
    if (reader_ == nullptr) {
      if (next_file_ >= files_.size()) {
        batch->Clear();
        return false;
      }
      const size_t file = files_[next_file_++];
      KeyValueFileReader::Options options = options_;
      if (deleted_ != nullptr && file < deleted_->size() && (*deleted_)[file]) {
        options.deleted = &*(*deleted_)[file];
      }
      SLUICE_ASSIGN_OR_RETURN(reader_, KeyValueFileReader::Open(table_, read_schema_, value_type_,
                                                                split_, file, std::move(options)));
      level_ = reader_->level();
    }
    SLUICE_ASSIGN_OR_RETURN(bool more, reader_->Next(batch));
    if (more) return true;
    reader_.reset();
  }
}

}  // namespace sluice
