// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/scratch_file.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

namespace feinterp::io {

ScratchFile::ScratchFile(const std::string& path) : path_(path) {
  const std::string directory = std::filesystem::path(path).parent_path().string();
  std::string name = (directory.empty() ? std::string(".") : directory) + "/.feinterp-scratch-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) fail(std::string("cannot create a scratch file beside it: ") + std::strerror(errno));
  unlink(name.c_str());
  file_ = fdopen(fd, "w+b");
  if (!file_) {
    close(fd);
    fail("cannot open a scratch file beside it");
  }
}

void ScratchFile::fail(const std::string& what) const { throw OutputError("cannot write '" + path_ + "': " + what); }

ScratchFile::~ScratchFile() {
  if (file_) std::fclose(file_);
}

void ScratchFile::write(const void* data, std::size_t size) {
  if (std::fwrite(data, 1, size, file_) != size)
    fail(std::string("writing a scratch file beside it failed: ") + std::strerror(errno));
  size_ += size;
}

void ScratchFile::rewind() {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0)
    fail(std::string("rewinding a scratch file beside it failed: ") + std::strerror(errno));
}

std::size_t ScratchFile::read(void* data, std::size_t size) {
  if (std::fread(data, 1, size, file_) != size) fail("reading a scratch file beside it back failed");
  return size;
}

std::FILE* ScratchFile::release() {
  rewind();
  return std::exchange(file_, nullptr);
}

void ScratchFile::copy_to(AtomicFile& out) {
  read_all(std::size_t(1) << 20, [&](const char* data, std::size_t size) { out.write(data, size); });
}

}  // namespace feinterp::io
