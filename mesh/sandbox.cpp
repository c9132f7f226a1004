// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/sandbox.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <thread>

#include <feinterp/mesh/detail/seccomp_filter.hpp>

namespace feinterp::detail {

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string mib(double bytes) { return std::to_string((long long)std::ceil(bytes / double(1 << 20))) + " MiB"; }

std::string seconds_text(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g s", s);
  return buffer;
}

std::string signal_name(int sig) {
  const char* abbreviation = ::sigabbrev_np(sig);
  const char* description = ::strsignal(sig);
  return std::string("SIG") + (abbreviation ? abbreviation : std::to_string(sig).c_str()) + " (" +
         (description ? description : "unknown signal") + ")";
}

// ---- the child's side --------------------------------------------------------------------------------

// The address space the child starts with (a copy of the caller's): RLIMIT_AS is set above it.
std::size_t current_address_space() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buffer[128] = {};
  const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  if (n <= 0) return 0;
  return std::size_t(std::strtoull(buffer, nullptr, 10)) * std::size_t(::sysconf(_SC_PAGESIZE));
}

void close_other_descriptors(std::vector<int> keep) {
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  unsigned next = 0;  // close [next, fd) for each kept fd, then [last + 1, max]
  for (const int fd : keep) {
    if (unsigned(fd) > next && ::syscall(SYS_close_range, next, unsigned(fd) - 1, 0) != 0)
      for (unsigned k = next; k < unsigned(fd); ++k) ::close(int(k));
    next = unsigned(fd) + 1;
  }
  if (::syscall(SYS_close_range, next, ~0u, 0) != 0) {  // before Linux 5.9: one by one
    rlimit files{};
    ::getrlimit(RLIMIT_NOFILE, &files);
    const rlim_t last = std::min<rlim_t>(files.rlim_cur, 1 << 20);
    for (rlim_t k = next; k < last; ++k) ::close(int(k));
  }
}

// Lowers a limit to `soft` and `hard`, each capped by the hard limit the caller already has: an
// unprivileged process cannot raise a hard limit, and the caller's own limit is the tighter one.
bool set_limit(int resource, rlim_t soft, rlim_t hard) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0) return false;
  const rlim_t cap = limit.rlim_max;
  limit = {cap == RLIM_INFINITY ? soft : std::min(soft, cap), cap == RLIM_INFINITY ? hard : std::min(hard, cap)};
  return ::setrlimit(resource, &limit) == 0;
}

[[noreturn]] void run_child(const SandboxLimits& limits, const Sandbox::ChildMain& child_main, int output,
                            const std::vector<int>& keep_fds, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(Sandbox::exit_setup_failed);  // the parent is already gone
  // Default signal handling (the caller's handlers must not run here) and no blocked signals.
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);

  // stdin, stdout and stderr on /dev/null, unless the caller had closed one and a descriptor to keep
  // took its number (the pipe is then moved up; a kept one must keep its number).
  if (output < 3 && (output = ::fcntl(output, F_DUPFD, 3)) < 0) ::_exit(Sandbox::exit_setup_failed);
  const int null = ::open("/dev/null", O_RDWR);
  if (null < 0) ::_exit(Sandbox::exit_setup_failed);
  for (int fd = 0; fd < 3; ++fd)
    if (null != fd && std::find(keep_fds.begin(), keep_fds.end(), fd) == keep_fds.end() && ::dup2(null, fd) < 0)
      ::_exit(Sandbox::exit_setup_failed);
  std::vector<int> keep = keep_fds;
  keep.insert(keep.end(), {0, 1, 2, output});
  close_other_descriptors(keep);

  const std::size_t address_space = current_address_space();
  const auto cpu = rlim_t(std::max(1.0, std::ceil(limits.cpu_seconds)));
  const rlim_t files = rlim_t(*std::max_element(keep.begin(), keep.end()) + 16);
  // RLIMIT_CPU: SIGXCPU at the soft limit (reported as such), SIGKILL one second later at the hard one.
  const rlim_t memory = address_space + limits.memory_bytes;
  if (!address_space || !set_limit(RLIMIT_AS, memory, memory) || !set_limit(RLIMIT_CPU, cpu, cpu + 1) ||
      !set_limit(RLIMIT_FSIZE, 0, 0) || !set_limit(RLIMIT_CORE, 0, 0) || !set_limit(RLIMIT_NOFILE, files, files) ||
      install_reader_seccomp_filter() != 0)
    ::_exit(Sandbox::exit_setup_failed);
  try {
    child_main(output);
  } catch (const std::bad_alloc&) {
    ::_exit(Sandbox::exit_out_of_memory);
  } catch (...) {
    ::_exit(Sandbox::exit_uncaught);
  }
  ::_exit(0);
}

}  // namespace

pid_t fork_process(const std::function<void()>& child) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    child();
    ::_exit(Sandbox::exit_uncaught);
  }
  return pid;
}

// ---- the caller's side ----------------------------------------------------------------------------------

Sandbox::Sandbox(const SandboxLimits& limits, const ChildMain& child_main, const std::vector<int>& keep_fds,
                 ForkProcess fork)
    : limits_(limits) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw SandboxFailure(std::string("could not create a pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  deadline_ = now() + limits.wall_seconds;
  pid_ = fork([&] {
    ::close(fds[0]);
    run_child(limits, child_main, fds[1], keep_fds, parent);
  });
  const int fork_error = errno;
  ::close(fds[1]);
  if (pid_ < 0) {
    ::close(fds[0]);
    throw SandboxFailure(std::string("could not start a process: ") + std::strerror(fork_error));
  }
  output_ = fds[0];
  ::fcntl(output_, F_SETPIPE_SZ, 1 << 20);  // fewer wake-ups for large meshes; the default 64 KiB works too
}

Sandbox::~Sandbox() {
  if (pid_ > 0 && !reaped_) {
    ::kill(pid_, SIGKILL);
    int status;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (output_ >= 0) ::close(output_);
}

double Sandbox::seconds_left() const { return deadline_ - now(); }

void Sandbox::reap(double seconds) {
  if (reaped_) return;
  const double until = now() + std::max(0.0, seconds);
  rusage usage{};
  for (int wait_ms = 1;; wait_ms = std::min(wait_ms * 2, 50)) {
    if (!killed_ && now() >= until) {  // past its time: kill it, then wait (briefly) for it to go
      ::kill(pid_, SIGKILL);
      killed_ = true;
    }
    const pid_t r = ::wait4(pid_, &status_, killed_ ? 0 : WNOHANG, &usage);
    if (r == pid_) break;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {  // ECHILD: the caller set SIGCHLD to SIG_IGN, so the kernel reaped it; how it ended is lost
      status_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
  }
  reaped_ = true;
  max_rss_kib_ = usage.ru_maxrss;
  cpu_used_ = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
              double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

void Sandbox::kill_and_fail(const std::string& why) {
  reap(0);  // kills it first
  throw SandboxFailure(why);
}

void Sandbox::fail_after_exit(const std::string& context) {
  reap(seconds_left());
  const std::string memory = "after using " + mib(double(max_rss_kib_) * 1024) + " of its " +
                             mib(double(limits_.memory_bytes)) + " memory allowance";
  std::string what;
  if (killed_) {
    what = "did not finish within " + seconds_text(limits_.wall_seconds) + " (wall clock) and was stopped";
  } else if (status_ == -1) {
    what = "ended in a way that could not be observed (is SIGCHLD ignored?)";
  } else if (WIFEXITED(status_)) {
    const int code = WEXITSTATUS(status_);
    what = code == exit_out_of_memory ? "ran out of its " + mib(double(limits_.memory_bytes)) +
                                            " memory allowance (set from the file's size: see LoadLimits)"
           : code == exit_setup_failed ? "could not set up its sandbox (resource limits, seccomp)"
           : code == exit_uncaught     ? "failed with an unexpected exception"
                                       : "exited with status " + std::to_string(code) + " " + context;
  } else if (WIFSIGNALED(status_)) {
    const int sig = WTERMSIG(status_);
    if (sig == SIGSYS)
      what = "was stopped for a system call its sandbox forbids (running a program, creating a process, or "
             "tracing one)";
    else if (sig == SIGXCPU || (sig == SIGKILL && cpu_used_ >= 0.9 * std::ceil(limits_.cpu_seconds)))
      what = "used more than its " + seconds_text(std::ceil(limits_.cpu_seconds)) + " of CPU time (set from the file's size)";
    else if (sig == SIGXFSZ)
      what = "tried to write a file, which its sandbox forbids";
    else if (sig == SIGKILL)
      what = "was killed (SIGKILL) " + memory + ": the system may have run out of memory";
    else
      what = "crashed with " + signal_name(sig) + " " + memory +
             (double(max_rss_kib_) * 1024 > 0.9 * double(limits_.memory_bytes) ? " (probably out of memory)" : "");
  } else {
    what = "ended with status " + std::to_string(status_);
  }
  throw SandboxFailure(what);
}

void Sandbox::read(void* data, std::size_t size) {
  if (size > output_left())
    kill_and_fail("sent more than its " + mib(double(limits_.output_bytes)) + " output allowance (set from the file's size)");
  auto* out = static_cast<char*>(data);
  std::size_t got = 0;
  while (got < size) {
    const double left = seconds_left();
    if (left <= 0) kill_and_fail("did not finish within " + seconds_text(limits_.wall_seconds) + " (wall clock)");
    pollfd p{output_, POLLIN, 0};
    const int ready = ::poll(&p, 1, int(std::min(left * 1000 + 1, 1e9)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline check above decides
    const ssize_t n = ::read(output_, out + got, size - got);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) fail_after_exit("before sending its whole result");
    got += std::size_t(n);
  }
  output_read_ += size;
}

void Sandbox::finish() {
  reap(seconds_left());
  if (status_ != -1 && !(WIFEXITED(status_) && WEXITSTATUS(status_) == 0)) fail_after_exit("after sending its result");
}

}  // namespace feinterp::detail
