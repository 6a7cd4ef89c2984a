#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

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

// Unique per process and call: the pid tells apart forked children, which inherit the seed and
// the counter, so two processes never write the same temporary file.
std::string TempNameFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t seed = std::random_device{}();
  stdfs::path p(path);
  return (p.parent_path() / ("." + p.filename().string() + "." + std::to_string(seed) + "." +
                             std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp"))
      .string();
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
    SLUICE_RETURN_NOT_OK(MkDirs(stdfs::path(path).parent_path().string()));
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

  Status WriteFileAtomic(const std::string& raw, std::string_view content,
                         bool overwrite) override {
    std::string path = StripFileScheme(raw);
    std::string tmp = TempNameFor(path);
    {
      SLUICE_ASSIGN_OR_RETURN(auto file, OpenForWrite(tmp, false));
      Status st = file->Append(content);
      if (st.ok()) st = file->Close();
      if (!st.ok()) {
        ::unlink(tmp.c_str());
        return st;
      }
    }
    Status st;
    if (overwrite) {
      if (::rename(tmp.c_str(), path.c_str()) != 0) st = ErrnoStatus("rename", path, errno);
    } else {
      st = RenameNoReplace(tmp, path);
    }
    if (!st.ok()) ::unlink(tmp.c_str());
    return st;
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
      out.push_back(std::move(fs));
    }
    std::sort(out.begin(), out.end(),
              [](const FileStatus& a, const FileStatus& b) { return a.path < b.path; });
    return out;
  }

  Status MkDirs(const std::string& raw) override {
    std::string dir = StripFileScheme(raw);
    if (dir.empty()) return Status::OK();
    std::error_code ec;
    stdfs::create_directories(dir, ec);
    if (ec) return ErrnoStatus("mkdir", dir, ec.value());
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
    if (errno != EPERM) return ErrnoStatus("rename", to, errno);
    // Directories cannot be hard-linked: renameat2 refuses an existing target atomically.
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) != 0) {
      return ErrnoStatus("rename", to, errno);
    }
    return Status::OK();
  }
};

}  // namespace

std::shared_ptr<FileIO> LocalFileIO() {
  static std::shared_ptr<FileIO> instance = std::make_shared<LocalFileIOImpl>();
  return instance;
}

std::string StripFileScheme(std::string_view path) {
  if (path.size() >= 5 && (path.substr(0, 5) == "file:" || path.substr(0, 5) == "FILE:")) {
    path.remove_prefix(5);
    while (path.size() >= 2 && path[0] == '/' && path[1] == '/') path.remove_prefix(1);
  }
  return std::string(path);
}

std::string JoinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out += '/';
  while (!b.empty() && b.front() == '/') b.remove_prefix(1);
  out += b;
  return out;
}

}  // namespace sluice
