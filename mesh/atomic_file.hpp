// SPDX-License-Identifier: BSD-3-Clause
// AtomicFile: every output feinterp writes (MSH, CSV, the sweep's tables and plots) is written whole or
// not at all, through this one class.
//
//   * The content goes to a new file in the destination's directory that no other process can reach by
//     name: O_TMPFILE (an unnamed inode), or where the filesystem lacks it, a random name
//     ".NAME.feinterp-XXXXXXXXXXXX" created with O_CREAT | O_EXCL | O_NOFOLLOW (never an existing file,
//     never through a planted symbolic link).
//   * Every write is checked (a full disk is an error, not a truncated file), then the file is
//     fsync'ed, given its temporary name (linkat, for O_TMPFILE) and renamed over the destination
//     (atomic within a directory: readers see the old file or the new one), and the directory is
//     fsync'ed.
//   * On any failure, or if commit() is never called, the temporary is removed (an O_TMPFILE inode
//     vanishes with its descriptor) and the destination is untouched.
//   * Only a new name or a regular file with one link is written: a device, FIFO, socket, symbolic link,
//     directory or hard-linked file at the path is refused (OutputError), at construction and again at
//     commit(). A replaced file keeps its permissions, and its owner where this process may set it.
//   * A process killed before commit() leaves nothing with O_TMPFILE. A named temporary it leaves is
//     removed by the next AtomicFile for the same destination: writers hold an flock on their
//     temporary, so an unlocked one older than a minute belongs to a dead writer.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace feinterp {

/// Why an output could not be written; the message names the destination and says what was expected.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class AtomicFile {
 public:
  enum class Temporary {
    unnamed_if_possible,  ///< O_TMPFILE, else a named temporary
    named,                ///< always the named temporary (the path taken where O_TMPFILE is missing)
  };

  /// Throws OutputError if the directory does not exist, no temporary can be created in it, or the path
  /// names something other than a regular file with one link.
  explicit AtomicFile(const std::string& path, Temporary temporary = Temporary::unnamed_if_possible);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  /// Overwrites `size` bytes already written, from byte `offset`: for a format whose headers are known only
  /// after what follows them (a ZIP archive's local header holds its member's CRC, written after the member).
  /// Throws std::invalid_argument past size(), OutputError if the write fails.
  void write_at(std::size_t offset, const void* data, std::size_t size);
  /// Makes the content the file at `path`. Throws OutputError; the destination is then unchanged.
  void commit();

  const std::string& path() const { return path_; }
  /// Bytes written so far.
  std::size_t size() const { return written_ + buffer_.size(); }

  /// Throws OutputError, as the constructor would, if `path` names something other than a new name or a
  /// regular file with one link: for checking outputs before any work is done.
  static void check_destination(const std::string& path);

  /// Removes named temporaries for `path` left by dead writers (see above); returns how many.
  static int remove_stale_temporaries(const std::string& path, double older_than_seconds = 60);

 private:
  void flush();
  [[noreturn]] void fail(const std::string& what, int error);
  void discard() noexcept;

  std::string path_, directory_, name_, temporary_name_;
  int directory_fd_ = -1;
  int fd_ = -1;
  bool named_ = false;  // the temporary has a name in the directory
  bool committed_ = false;
  std::size_t written_ = 0;
  std::vector<char> buffer_;
};

/// The whole content at once.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace feinterp
