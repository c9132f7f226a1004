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
// size in memory: the price of that guarantee. It is paid only for a file whose first bytes pass the
// caller's check (load_msh: the $MeshFormat lines) and whose size is within the caller's limit
// (LoadLimits::max_file_bytes), both read from the one open descriptor before anything is copied: a
// 2 GiB file of zeros is refused in microseconds, not after 2 GiB of copying. Those checks are early
// refusals only: the guarantee rests on the scan of the sealed copy, never on what was read before it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feinterp::detail {

class SealedFile {
 public:
  /// Opens `path` once (without following it onto a FIFO or device: regular files only) and copies
  /// it. Before copying, `check_head` (if any) is given the file's first min(head_bytes, size) bytes
  /// and whether they are the whole file, and may throw. Throws MeshError "<context>: <problem>
  /// (expected ...)" for a missing, non-regular, empty or larger-than-`max_bytes` file (`max_bytes_name`:
  /// the option that sets it), or one that changed size while it was copied.
  using HeadCheck = std::function<void(std::string_view head, bool whole)>;
  static SealedFile copy_of(const std::string& path, const std::string& context, std::size_t max_bytes,
                            const HeadCheck& check_head = {}, std::size_t head_bytes = 4096,
                            const std::string& max_bytes_name = "LoadOptions::limits.max_file_bytes");
  /// A piece of a new sealed file: `text` when not empty, else the bytes [begin, end) of the source.
  struct Piece {
    std::size_t begin = 0, end = 0;
    std::string text;
  };
  /// A new sealed file made of `pieces`, in order.
  static SealedFile from_pieces(const SealedFile& source, const std::vector<Piece>& pieces, const std::string& context);

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
