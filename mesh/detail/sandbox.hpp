// SPDX-License-Identifier: BSD-3-Clause
// Sandbox: runs a function in a child process that is forked, never exec'd (a library must not depend
// on finding a helper program at run time), with limited resources and filtered system calls, and
// reads what the function writes to a pipe. load_msh runs Gmsh's reader in one (mesh/load.cpp).
//
// In the child, before the function runs:
//   * PR_SET_PDEATHSIG = SIGKILL: it dies with the thread that forked it;
//   * stdin, stdout and stderr on /dev/null (one error line from the caller's command, not Gmsh's
//     output), every descriptor closed except the pipe and the ones the caller keeps;
//   * setrlimit, never above the caller's own hard limits, and hard limits lowered too (so that it
//     cannot raise them; seccomp refuses prlimit64 with a new limit as well, for a child of root):
//     RLIMIT_AS = the address space it inherits + memory_bytes, RLIMIT_CPU = cpu_seconds (SIGXCPU; the
//     hard limit a second later, SIGKILL), RLIMIT_FSIZE = 0 (it writes no file), RLIMIT_NOFILE = its
//     highest descriptor + 16 (fopen of the input and a few more), RLIMIT_CORE = 0;
//   * PR_SET_NO_NEW_PRIVS and the seccomp filter (detail/seccomp_filter.hpp): no programs, no
//     processes, no sockets, no file opened for writing.
// Then it runs the function and _exit(0)s (no atexit handlers, no flushing of stdio buffers copied
// from the caller). std::bad_alloc (its memory limit) ends it with exit_out_of_memory.
//
// In the caller: read() enforces output_bytes and the wall-clock limit (poll, then SIGKILL); the child
// is always reaped (waitpid, also when the caller throws: the destructor kills and reaps), and how it
// ended becomes a SandboxFailure that says so: a crash with its signal, a forbidden system call, the
// CPU, memory or wall-clock limit reached, too much output. No descriptor or child is left behind.
//
// The caller forks through `fork_process`, which may hold a lock across the fork (Gmsh's, so that the
// child never inherits it taken: detail::fork_for_gmsh in gmsh_session.hpp); it must run `child` in the
// child and never return there.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace feinterp::detail {

struct SandboxLimits {
  std::size_t memory_bytes = std::size_t(1) << 30;  ///< beyond the address space the child inherits
  double cpu_seconds = 10;
  double wall_seconds = 30;
  std::size_t output_bytes = std::size_t(1) << 30;
};

/// How a sandboxed child failed, in words: "crashed with SIGSEGV (Segmentation fault) after using
/// 12 MiB of memory".
class SandboxFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs `child` in a forked process and returns its pid (in the caller only).
using ForkProcess = pid_t (*)(const std::function<void()>& child);
/// Plain fork().
pid_t fork_process(const std::function<void()>& child);

class Sandbox {
 public:
  static constexpr int exit_out_of_memory = 71;
  static constexpr int exit_setup_failed = 72;
  static constexpr int exit_uncaught = 73;

  using ChildMain = std::function<void(int output_fd)>;
  /// Starts the child. `keep_fds` stay open in it (with their numbers).
  Sandbox(const SandboxLimits& limits, const ChildMain& child_main, const std::vector<int>& keep_fds = {},
          ForkProcess fork = fork_process);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  /// Reads exactly `size` bytes of the child's output. Throws SandboxFailure if the child ends first,
  /// sends more than output_bytes in all, or runs past wall_seconds.
  void read(void* data, std::size_t size);
  /// Output bytes still allowed.
  std::size_t output_left() const { return limits_.output_bytes - output_read_; }
  /// Waits for the child to end; throws SandboxFailure unless it exited with status 0.
  void finish();

  const SandboxLimits& limits() const { return limits_; }

 private:
  [[noreturn]] void fail_after_exit(const std::string& context);
  [[noreturn]] void kill_and_fail(const std::string& why);
  void reap(double seconds_left);
  double seconds_left() const;

  SandboxLimits limits_;
  pid_t pid_ = -1;
  int output_ = -1;  // the read end of the pipe
  std::size_t output_read_ = 0;
  double deadline_ = 0;  // steady clock, seconds
  bool reaped_ = false;
  bool killed_ = false;  // by this class, for its wall-clock limit
  int status_ = 0;
  long max_rss_kib_ = 0;
  double cpu_used_ = 0;
};

}  // namespace feinterp::detail
