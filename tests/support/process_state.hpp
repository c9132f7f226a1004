// SPDX-License-Identifier: BSD-3-Clause
// Test support: what a process holds that a leak would grow: its open descriptors and its children.
#pragma once

#include <dirent.h>
#include <sys/wait.h>

#include <cerrno>

namespace feinterp::test {

/// The entries of /proc/self/fd (the descriptor opendir uses for it included, every time alike).
inline int open_descriptors() {
  int n = 0;
  DIR* d = ::opendir("/proc/self/fd");
  while (::readdir(d)) ++n;
  ::closedir(d);
  return n;
}

/// True when this process has no child, running or waiting to be reaped.
inline bool no_child_left() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

}  // namespace feinterp::test
