// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/atomic_file.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

namespace feinterp {

namespace {

constexpr std::size_t buffer_bytes = std::size_t(1) << 20;
constexpr std::size_t random_characters = 12;  // 36^12 ~ 5e18 names: a planted file is never guessed
constexpr std::size_t max_name_stem = 200;     // keeps ".NAME.feinterp-XXXXXXXXXXXX" under NAME_MAX (255)

void split(const std::string& path, std::string& directory, std::string& name) {
  const std::size_t slash = path.find_last_of('/');
  directory = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  name = slash == std::string::npos ? path : path.substr(slash + 1);
}

const char* file_kind(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

/// Whether `name` in the directory exists (its lstat in `existing`); throws OutputError unless it is a
/// regular file with one link: renaming over a device, FIFO or socket would put a regular file in its
/// place (as root, /dev/null for the whole system), over a symbolic link would replace the link, and
/// over a file with other hard links would leave those names with the old content.
bool refuse_unless_writable(int directory_fd, const std::string& name, const std::string& path, struct stat& existing) {
  if (::fstatat(directory_fd, name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return false;
    throw OutputError("cannot write '" + path + "': cannot inspect it: " + std::strerror(errno) + " (nothing was written)");
  }
  if (!S_ISREG(existing.st_mode))
    throw OutputError("cannot write '" + path + "': it is " + file_kind(existing.st_mode) +
                      ", not a regular file (expected a regular file or a new name; nothing was written)");
  if (existing.st_nlink > 1)
    throw OutputError("cannot write '" + path + "': it has " + std::to_string(existing.st_nlink) +
                      " hard links, which replacing it would leave with the old content (expected a file with one "
                      "link; nothing was written)");
  return true;
}

std::string temporary_prefix(const std::string& name) { return "." + name.substr(0, max_name_stem) + ".feinterp-"; }

std::string random_suffix() {
  unsigned char bytes[random_characters];
  if (::getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes)) {  // no entropy source: still unique per try
    const auto t = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^ std::uint64_t(::getpid());
    for (std::size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<unsigned char>(t >> (5 * i) ^ i * 77);
  }
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (unsigned char b : bytes) s += alphabet[b % 36];
  return s;
}

}  // namespace

void AtomicFile::check_destination(const std::string& path) {
  struct stat existing {};
  refuse_unless_writable(AT_FDCWD, path, path, existing);
}

int AtomicFile::remove_stale_temporaries(const std::string& path, double older_than_seconds) {
  std::string directory, name;
  split(path, directory, name);
  const std::string prefix = temporary_prefix(name);
  DIR* dir = ::opendir(directory.c_str());
  if (!dir) return 0;
  const int dir_fd = ::dirfd(dir);
  int removed = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string entry_name = entry->d_name;
    if (entry_name.size() != prefix.size() + random_characters || entry_name.compare(0, prefix.size(), prefix) != 0)
      continue;
    const int fd = ::openat(dir_fd, entry->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat locked {}, named {};
    // A regular file of ours, old, unlocked (its writer is gone), and still the file of that name.
    if (::fstat(fd, &locked) == 0 && S_ISREG(locked.st_mode) && locked.st_uid == ::geteuid() &&
        double(std::time(nullptr) - locked.st_mtime) >= older_than_seconds && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        ::fstatat(dir_fd, entry->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0 && named.st_ino == locked.st_ino &&
        named.st_dev == locked.st_dev && ::unlinkat(dir_fd, entry->d_name, 0) == 0)
      ++removed;
    ::close(fd);
  }
  ::closedir(dir);
  return removed;
}

AtomicFile::AtomicFile(const std::string& path, Temporary temporary) : path_(path) {
  split(path, directory_, name_);
  if (name_.empty() || name_ == "." || name_ == "..")
    throw OutputError("cannot write '" + path + "': expected a file name, not a directory");
  directory_fd_ = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd_ < 0)
    throw OutputError("cannot write '" + path + "': the directory '" + directory_ + "' " +
                      (errno == ENOENT || errno == ENOTDIR ? "does not exist" : std::string("cannot be opened: ") + std::strerror(errno)) +
                      " (expected an existing directory; nothing was written)");
  struct stat existing {};
  bool replaces = false;  // a regular file is at the path
  try {
    replaces = refuse_unless_writable(directory_fd_, name_, path_, existing);
  } catch (...) {
    ::close(directory_fd_);
    throw;
  }
  remove_stale_temporaries(path);
  if (temporary == Temporary::unnamed_if_possible)
    fd_ = ::openat(directory_fd_, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd_ < 0) {  // named: a fresh random name, never an existing file or link
    int error = 0;
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
      temporary_name_ = temporary_prefix(name_) + random_suffix();
      fd_ = ::openat(directory_fd_, temporary_name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      error = errno;
      if (fd_ < 0 && error != EEXIST) break;
    }
    if (fd_ < 0) {
      ::close(directory_fd_);
      throw OutputError("cannot write '" + path + "': cannot create a file in '" + directory_ + "': " + std::strerror(error) +
                        " (expected a writable directory; nothing was written)");
    }
    named_ = true;
  }
  ::flock(fd_, LOCK_EX);  // tells remove_stale_temporaries that this writer is alive
  if (replaces) {
    // The replacement keeps the file's owner and group where this process may set them (else the
    // writer's), then its permissions: a private 0600 file stays private.
    [[maybe_unused]] const int owned = ::fchown(fd_, existing.st_uid, existing.st_gid);
    ::fchmod(fd_, existing.st_mode & 07777);
  }
  buffer_.reserve(buffer_bytes);
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
  if (directory_fd_ >= 0) ::close(directory_fd_);
}

void AtomicFile::discard() noexcept {
  if (named_) ::unlinkat(directory_fd_, temporary_name_.c_str(), 0);
  named_ = false;
  if (fd_ >= 0) ::close(fd_);  // an O_TMPFILE inode without a name vanishes here
  fd_ = -1;
}

void AtomicFile::fail(const std::string& what, int error) {
  discard();
  committed_ = true;  // nothing left to discard
  throw OutputError("cannot write '" + path_ + "': " + what + ": " + std::strerror(error) +
                    " (nothing was written; an existing file there is unchanged)");
}

void AtomicFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("writing failed after " + std::to_string(written_ + done) + " bytes", n < 0 ? errno : EIO);
    done += std::size_t(n);
  }
  written_ += buffer_.size();
  buffer_.clear();
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (fd_ < 0) throw OutputError("cannot write '" + path_ + "': the file was already committed or abandoned");
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const std::size_t n = std::min(size, buffer_bytes - buffer_.size());
    buffer_.insert(buffer_.end(), p, p + n);
    p += n;
    size -= n;
    if (buffer_.size() == buffer_bytes) flush();
  }
}

void AtomicFile::write_at(std::size_t offset, const void* data, std::size_t size) {
  if (fd_ < 0) throw OutputError("cannot write '" + path_ + "': the file was already committed or abandoned");
  if (offset > this->size() || size > this->size() - offset)
    throw std::invalid_argument("AtomicFile::write_at: bytes " + std::to_string(offset) + " to " +
                                std::to_string(offset + size) + " of '" + path_ + "', which has " +
                                std::to_string(this->size()) + "; expected bytes already written");
  flush();
  const char* p = static_cast<const char*>(data);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::pwrite(fd_, p + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("rewriting " + std::to_string(size) + " bytes at byte " + std::to_string(offset) + " failed", n < 0 ? errno : EIO);
    done += std::size_t(n);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw OutputError("cannot write '" + path_ + "': the file was already committed or abandoned");
  flush();
  if (::fsync(fd_) != 0) fail("flushing to disk failed", errno);
  if (!named_) {  // give the O_TMPFILE inode a random name (linkat never replaces an existing name)
    const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
    for (int attempt = 0; attempt < 100 && !named_; ++attempt) {
      temporary_name_ = temporary_prefix(name_) + random_suffix();
      // AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd works for anyone with /proc mounted.
      if (::linkat(fd_, "", directory_fd_, temporary_name_.c_str(), AT_EMPTY_PATH) == 0 ||
          ::linkat(AT_FDCWD, proc.c_str(), directory_fd_, temporary_name_.c_str(), AT_SYMLINK_FOLLOW) == 0)
        named_ = true;
      else if (errno != EEXIST)
        fail("cannot give the file a name in '" + directory_ + "'", errno);
    }
    if (!named_) fail("cannot give the file a name in '" + directory_ + "'", EEXIST);
  }
  struct stat existing {};
  try {
    refuse_unless_writable(directory_fd_, name_, path_, existing);  // what is there now, not at construction
  } catch (const OutputError&) {
    discard();
    committed_ = true;
    throw;
  }
  if (::renameat(directory_fd_, temporary_name_.c_str(), directory_fd_, name_.c_str()) != 0)
    fail("cannot rename the finished file to '" + name_ + "'", errno);
  named_ = false;
  committed_ = true;
  ::close(fd_);
  fd_ = -1;
  if (::fsync(directory_fd_) != 0 && errno != EINVAL)  // the new file is in place; only its durability is in doubt
    throw OutputError("wrote '" + path_ + "', but its directory could not be flushed to disk: " + std::strerror(errno) +
                      " (the file may not survive a crash of the system)");
}

void write_file_atomically(const std::string& path, std::string_view content) {
  AtomicFile file(path);
  file.write(content);
  file.commit();
}

}  // namespace feinterp
