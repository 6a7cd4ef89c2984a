#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sluice/fs/file_io.h"

namespace sluice {

namespace {

namespace stdfs = std::filesystem;

Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  std::string msg = path + ": " + what + ": " + std::strerror(err);
  if (err == ENOENT) return Status::NotFound(msg);
  if (err == EEXIST) return Status::AlreadyExists(msg);
  return Status::IOError(msg);
}

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string path, int fd, int64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }

  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }

  Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
    if (offset < 0 || n < 0 || offset > size_ || n > size_ - offset) {
      return Status::Corruption(path_ + ": read of " + std::to_string(n) + " bytes at offset " +
                                std::to_string(offset) + " is past the end of the file (size " +
                                std::to_string(size_) + ")");
    }
    while (n > 0) {
      ssize_t r = ::pread(fd_, out, static_cast<size_t>(n), offset);
      if (r < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("read", path_, errno);
      }
      if (r == 0) return Status::Corruption(path_ + ": unexpected end of file");
      out += r;
      offset += r;
      n -= r;
    }
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_;
  int64_t size_;
};

class LocalWritableFile final : public WritableFile {
 public:
  LocalWritableFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~LocalWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }
  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return written_; }

  Status Append(std::string_view data) override {
    const char* p = data.data();
    size_t n = data.size();
    while (n > 0) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("write", path_, errno);
      }
      p += w;
      n -= static_cast<size_t>(w);
      written_ += w;
    }
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    int fd = fd_;
    fd_ = -1;
    if (::fsync(fd) != 0) {
      int err = errno;
      ::close(fd);
      return ErrnoStatus("fsync", path_, err);
    }
    if (::close(fd) != 0) return ErrnoStatus("close", path_, errno);
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_;
  int64_t written_ = 0;
};

// fsync of a directory: makes the entries created, renamed or deleted in it durable.
Status FsyncDir(const std::string& dir) {
  const std::string name = dir.empty() ? "." : dir;
  int fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("open directory", name, errno);
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoStatus("fsync directory", name, err);
  }
  if (::close(fd) != 0) return ErrnoStatus("close directory", name, errno);
  return Status::OK();
}

class LocalFileIOImpl final : public FileIO {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& raw) override {
    std::string path = StripFileScheme(raw);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus("open", path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int err = errno;
      ::close(fd);
      return ErrnoStatus("stat", path, err);
    }
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      return Status::InvalidArgument(path + ": is a directory");
    }
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<LocalRandomAccessFile>(path, fd, static_cast<int64_t>(st.st_size)));
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& raw,
                                                     bool overwrite) override {
    std::string path = StripFileScheme(raw);
    SLUICE_RETURN_NOT_OK(MkDirs(ParentDir(path)));
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
    int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0) return ErrnoStatus("create", path, errno);
    return std::unique_ptr<WritableFile>(std::make_unique<LocalWritableFile>(path, fd));
  }

  Result<std::string> ReadFile(const std::string& path) override {
    SLUICE_ASSIGN_OR_RETURN(auto file, OpenForRead(path));
    std::string out(static_cast<size_t>(file->size()), '\0');
    SLUICE_RETURN_NOT_OK(file->ReadAt(0, file->size(), reinterpret_cast<uint8_t*>(out.data())));
    return out;
  }

  Result<bool> Exists(const std::string& raw) override {
    std::string path = StripFileScheme(raw);
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) return true;
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return ErrnoStatus("stat", path, errno);
  }

  Result<FileStatus> GetStatus(const std::string& raw) override {
    std::string path = StripFileScheme(raw);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return ErrnoStatus("stat", path, errno);
    return FileStatus{
        path, static_cast<int64_t>(st.st_size), S_ISDIR(st.st_mode),
        static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000};
  }

  Result<std::vector<FileStatus>> ListDir(const std::string& raw) override {
    std::string dir = StripFileScheme(raw);
    std::error_code ec;
    stdfs::directory_iterator it(dir, ec);
    if (ec) return ErrnoStatus("list", dir, ec.value());
    std::vector<FileStatus> out;
    for (const auto& entry : it) {
      FileStatus fs;
      fs.path = entry.path().string();
      fs.is_dir = entry.is_directory(ec);
      fs.size = fs.is_dir ? 0 : static_cast<int64_t>(entry.file_size(ec));
      // Orphan-file cleanup decides by age: the modification time must be real.
      struct stat st;
      if (::stat(fs.path.c_str(), &st) == 0) {
        fs.modification_time_ms =
            static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
      }
      out.push_back(std::move(fs));
    }
    std::sort(out.begin(), out.end(),
              [](const FileStatus& a, const FileStatus& b) { return a.path < b.path; });
    return out;
  }

  Status MkDirs(const std::string& raw) override {
    std::string dir = StripFileScheme(raw);
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir.empty()) return Status::OK();
    // The missing directories, innermost first.
    std::vector<std::string> missing;
    for (std::string d = dir; !d.empty() && d != "/"; d = ParentDir(d)) {
      struct stat st;
      if (::stat(d.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode)) return Status::AlreadyExists(d + ": mkdir: not a directory");
        break;
      }
      // ENOTDIR: a file is in the way further up; the loop reaches it and names it.
      if (errno != ENOENT && errno != ENOTDIR) return ErrnoStatus("stat", d, errno);
      missing.push_back(d);
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (::mkdir(it->c_str(), 0755) != 0 && errno != EEXIST) {
        return ErrnoStatus("mkdir", *it, errno);
      }
      // A new directory is an entry of its parent: durable once the parent is synced.
      SLUICE_RETURN_NOT_OK(FsyncDir(ParentDir(*it)));
    }
    return Status::OK();
  }

  Status Delete(const std::string& raw, bool recursive) override {
    std::string path = StripFileScheme(raw);
    std::error_code ec;
    if (recursive) {
      stdfs::remove_all(path, ec);
    } else {
      stdfs::remove(path, ec);
    }
    if (ec) return ErrnoStatus("delete", path, ec.value());
    return Status::OK();
  }

  Status RenameNoReplace(const std::string& raw_from, const std::string& raw_to) override {
    std::string from = StripFileScheme(raw_from);
    std::string to = StripFileScheme(raw_to);
    // link() fails with EEXIST when the target exists, which makes the claim atomic on local
    // file systems; the source name is removed afterwards.
    if (::link(from.c_str(), to.c_str()) == 0) {
      ::unlink(from.c_str());
      return Status::OK();
    }
    if (errno != EPERM) return ErrnoStatus("rename from " + from, to, errno);
    // Directories cannot be hard-linked: renameat2 refuses an existing target atomically.
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) != 0) {
      return ErrnoStatus("rename from " + from, to, errno);
    }
    return Status::OK();
  }

  Status Rename(const std::string& raw_from, const std::string& raw_to) override {
    std::string from = StripFileScheme(raw_from);
    std::string to = StripFileScheme(raw_to);
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return ErrnoStatus("rename from " + from, to, errno);
    }
    return Status::OK();
  }

  Status SyncDir(const std::string& raw) override { return FsyncDir(StripFileScheme(raw)); }

  Result<std::unique_ptr<DirectoryWatcher>> WatchDir(const std::string& dir) override {
    Result<std::unique_ptr<DirectoryWatcher>> watcher = NewInotifyDirectoryWatcher(dir);
    // Out of inotify instances (a per-user limit): polling still works.
    if (!watcher.ok()) return NewPollingDirectoryWatcher(this, dir);
    return watcher;
  }
};

}  // namespace

std::shared_ptr<FileIO> LocalFileIO() {
  static std::shared_ptr<FileIO> instance = std::make_shared<LocalFileIOImpl>();
  return instance;
}

}  // namespace sluice
