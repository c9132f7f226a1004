// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/scratch_link.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <vector>

#include <feinterp/mesh/error.hpp>

namespace feinterp::detail {

namespace {
constexpr char prefix[] = "feinterp-load-";
constexpr char link_name[] = "input.msh";
}  // namespace

std::string ScratchLink::parent_directory() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && tmp[0] == '/' ? tmp : "/tmp";
}

int ScratchLink::remove_stale(const std::string& parent, double older_than_seconds) {
  DIR* dir = ::opendir(parent.c_str());
  if (!dir) return 0;
  const int parent_fd = ::dirfd(dir);
  int removed = 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strncmp(entry->d_name, prefix, sizeof prefix - 1) != 0) continue;
    const int fd = ::openat(parent_fd, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    // Ours, old, and not locked by a running load (the lock is released when its process dies).
    if (::fstat(fd, &st) == 0 && st.st_uid == ::geteuid() && double(std::time(nullptr) - st.st_mtime) >= older_than_seconds &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      ::unlinkat(fd, link_name, 0);
      if (::unlinkat(parent_fd, entry->d_name, AT_REMOVEDIR) == 0) ++removed;
    }
    ::close(fd);
  }
  ::closedir(dir);
  return removed;
}

ScratchLink::ScratchLink(int fd, const std::string& context) {
  const std::string parent = parent_directory();
  static std::once_flag swept;
  std::call_once(swept, [&] { remove_stale(parent); });

  std::string pattern = parent + "/" + prefix + "XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!::mkdtemp(buffer.data()))  // mode 0700
    throw MeshError(context + ": cannot create a private directory in " + parent + ": " + std::strerror(errno) +
                    " (expected a writable $TMPDIR or /tmp)");
  dir_ = buffer.data();
  link_ = dir_ + "/" + link_name;
  lock_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX);
  const std::string target = "/proc/self/fd/" + std::to_string(fd);
  if (lock_fd_ < 0 || ::symlink(target.c_str(), link_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    if (lock_fd_ >= 0) ::close(lock_fd_);
    ::rmdir(dir_.c_str());
    throw MeshError(context + ": cannot create a link in the private directory " + dir_ + ": " + why);
  }
}

ScratchLink::~ScratchLink() {
  ::unlink(link_.c_str());
  ::rmdir(dir_.c_str());
  ::close(lock_fd_);
}

}  // namespace feinterp::detail
