// SPDX-License-Identifier: BSD-3-Clause
// ScratchFile: an unnamed file beside an output, where a writer keeps what the file needs in another
// order than it comes in (each VTU array, each .msh view must be contiguous across every chunk of
// results; a compressed array's sizes precede its bytes) without holding it in memory: the quadrature
// points of 873k p2 tetrahedra are 0.9 GB compressed. It is created then unlinked at once, so that
// nothing is left behind whatever happens; its space is freed when it is closed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::io {

class ScratchFile {
 public:
  /// Beside the output `path` (in its directory), for which errors are reported ("cannot write 'PATH':
  /// ..."). Throws OutputError if it cannot be created there.
  explicit ScratchFile(const std::string& path);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  /// Throws OutputError (a full disk).
  void write(const void* data, std::size_t size);
  /// Bytes written.
  std::uint64_t size() const { return size_; }
  /// Reads everything back from the start, `chunk` bytes at a time, through `consume(data, bytes)`.
  template <class Consume>
  void read_all(std::size_t chunk, Consume&& consume);
  /// Appends everything written to `out`.
  void copy_to(AtomicFile& out);
  /// Hands the file over, flushed and rewound, to a reader that closes it (libzip's zip_source_filep, which
  /// copies it into an archive): its space is freed when that reader closes it. Nothing may be done with
  /// this ScratchFile afterwards but destroy it.
  std::FILE* release();

 private:
  void rewind();
  std::size_t read(void* data, std::size_t size);
  [[noreturn]] void fail(const std::string& what) const;
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t size_ = 0;
};

template <class Consume>
void ScratchFile::read_all(std::size_t chunk, Consume&& consume) {
  rewind();
  std::string buffer(chunk, '\0');
  for (std::uint64_t left = size_; left > 0;) {
    const std::size_t take = std::size_t(std::min<std::uint64_t>(left, chunk));
    read(buffer.data(), take);
    consume(buffer.data(), take);
    left -= take;
  }
}

}  // namespace feinterp::io
