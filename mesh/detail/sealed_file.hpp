// SPDX-License-Identifier: BSD-3-Clause
// SealedFile: a mesh file opened once and copied into a sealed memory file (memfd), so that the bytes
// the pre-scan checks are exactly the bytes Gmsh later reads. Giving Gmsh the path again would let a
// file swapped in between be read as a .geo script (`System "cmd";` runs in 56 of 150 tries); even an open
// descriptor of the user's file would let its owner rewrite it in place between the two reads. The
// memfd is sealed (no write, no resize, no further seals: F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW
// | F_SEAL_SEAL), so neither the caller, nor the child process that reads it, nor anyone else can
// change it, and mapping it cannot fault on truncation.
//
// Cost: one copy of the file, made in the kernel (sendfile: 0.10 s for a 240 MB mesh), and the file's
// size in memory: the price of that guarantee.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feinterp::detail {

class SealedFile {
 public:
  /// Opens `path` once (without following it onto a FIFO or device: regular files only) and copies
  /// it. Throws MeshError "<context>: <problem> (expected ...)" for a missing, non-regular, empty or
  /// larger-than-`max_bytes` file, or one that changed size while it was copied.
  static SealedFile copy_of(const std::string& path, const std::string& context, std::size_t max_bytes);
  /// A new sealed file made of the byte ranges [begin, end) of `source`, in order.
  static SealedFile from_ranges(const SealedFile& source, const std::vector<std::pair<std::size_t, std::size_t>>& ranges,
                                const std::string& context);

  SealedFile(SealedFile&& other) noexcept;
  SealedFile& operator=(SealedFile&& other) noexcept;
  SealedFile(const SealedFile&) = delete;
  SealedFile& operator=(const SealedFile&) = delete;
  ~SealedFile();

  std::string_view bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  /// The memfd (close-on-exec), for a child process to read through /proc/self/fd/N.
  int fd() const { return fd_; }
  /// Unmaps and closes the copy now (its memory goes once no other process holds the memfd).
  void release();

 private:
  SealedFile() = default;
  /// Seals `fd`, filled with `size` bytes, and maps it read-only.
  static SealedFile seal(int fd, std::size_t size, const std::string& context);
  int fd_ = -1;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace feinterp::detail
