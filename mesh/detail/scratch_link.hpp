// SPDX-License-Identifier: BSD-3-Clause
// ScratchLink: the name under which Gmsh reads a file that feinterp already opened: a private (0700)
// directory in $TMPDIR (else /tmp) holding one symbolic link, input.msh -> /proc/self/fd/N. Gmsh is
// given a path, not a descriptor; this path can only lead to descriptor N of the process that opens
// it (the sandboxed reader, which inherits N), the ".msh" name keeps Gmsh's extension dispatch on
// its MSH branch, and the "<file>.opt" Gmsh runs if it exists is "<dir>/input.msh.opt", which cannot.
//
// Removed with its directory when done. A process killed in between leaves the directory behind:
// while in use, its creator holds an flock on it; the first ScratchLink of each process removes
// stale ones (feinterp-load-*, owned by this user, unlocked, older than a minute), so that a later
// run cleans what a killed one left.
#pragma once

#include <string>

namespace feinterp::detail {

class ScratchLink {
 public:
  /// Throws MeshError "<context>: cannot create a private directory ..." on failure.
  ScratchLink(int fd, const std::string& context);
  ~ScratchLink();
  ScratchLink(const ScratchLink&) = delete;
  ScratchLink& operator=(const ScratchLink&) = delete;

  const std::string& path() const { return link_; }
  const std::string& directory() const { return dir_; }

  /// Removes the stale directories of killed processes in `parent` (see above); returns how many.
  static int remove_stale(const std::string& parent, double older_than_seconds = 60);
  /// The directory that holds the scratch directories: $TMPDIR when it is an absolute path, else /tmp.
  static std::string parent_directory();

 private:
  std::string dir_, link_;
  int lock_fd_ = -1;
};

}  // namespace feinterp::detail
