#include "sluice/fs/file_io_factory.h"

#include "sluice/base/string_util.h"
#include "sluice/fs/caching_file_io.h"
#include "sluice/fs/s3/s3_file_io.h"
#include "sluice/fs/s3/s3_path.h"

namespace sluice {

namespace {

class FailingFileIOImpl final : public FileIO {
 public:
  explicit FailingFileIOImpl(Status error) : error_(std::move(error)) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string&) override {
    return error_;
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string&, bool) override {
    return error_;
  }
  Result<std::string> ReadFile(const std::string&) override { return error_; }
  Status WriteFileAtomic(const std::string&, std::string_view, bool) override { return error_; }
  Result<bool> Exists(const std::string&) override { return error_; }
  Result<FileStatus> GetStatus(const std::string&) override { return error_; }
  Result<std::vector<FileStatus>> ListDir(const std::string&) override { return error_; }
  Status MkDirs(const std::string&) override { return error_; }
  Status Delete(const std::string&, bool) override { return error_; }
  Status RenameNoReplace(const std::string&, const std::string&) override { return error_; }
  Status Rename(const std::string&, const std::string&) override { return error_; }
  Status SyncDir(const std::string&) override { return error_; }
  Result<std::unique_ptr<DirectoryWatcher>> WatchDir(const std::string&) override { return error_; }

 private:
  const Status error_;
};

}  // namespace

std::string PathScheme(std::string_view path) {
  const size_t root = UriRootLength(path);
  if (root == 0) return "";
  const std::string scheme = AsciiToLower(path.substr(0, path.find(':')));
  return scheme == "file" ? "" : scheme;
}

Result<std::shared_ptr<FileIO>> FileIOForPath(std::string_view path,
                                              const std::map<std::string, std::string>& options) {
  const std::string scheme = PathScheme(path);
  if (scheme.empty()) return LocalFileIO();
  if (IsS3Scheme(scheme)) {
    Result<S3Options> s3 = S3Options::FromOptions(options);
    if (!s3.ok()) return s3.status().WithContext(std::string(path));
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> io, MakeS3FileIO(*s3));
    // Local copies of the store's immutable files, when cache.dir is set (caching_file_io.h).
    Result<std::optional<FileCacheOptions>> cache = FileCacheOptions::FromOptions(options);
    if (!cache.ok()) return cache.status().WithContext(std::string(path));
    if (*cache) return MakeCachingFileIO(std::move(io), **cache);
    return io;
  }
  return Status::NotSupported("no file system for scheme '" + scheme + "' of '" +
                              std::string(path) +
                              "': Sluice reads and writes local paths (file:) and S3 (s3://, "
                              "s3a://, s3n://)");
}

std::shared_ptr<FileIO> FailingFileIO(Status error) {
  return std::make_shared<FailingFileIOImpl>(std::move(error));
}

std::shared_ptr<FileIO> FileIOForPathOrFailing(std::string_view path,
                                               const std::map<std::string, std::string>& options) {
  Result<std::shared_ptr<FileIO>> io = FileIOForPath(path, options);
  return io.ok() ? std::move(*io) : FailingFileIO(io.status());
}

}  // namespace sluice
