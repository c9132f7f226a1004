// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/seccomp_filter.hpp>

#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <initializer_list>

namespace feinterp::detail {

namespace {

// Calls a reader process needs: Gmsh's MSH reader through stdio, glibc's malloc and threads, the
// OpenMP and TBB runtimes Gmsh links, and the reader's own pipe. A name that does not exist on this
// architecture (open on arm64) is skipped.
constexpr const char* allowed[] = {
    // files it already has or opens read-only (open/openat are added below with their flags checked)
    "read", "readv", "pread64", "preadv", "preadv2", "write", "writev", "lseek", "close", "fstat", "newfstatat",
    "stat", "lstat", "statx", "fstatfs", "statfs", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
    "getcwd", "getdents64", "fcntl", "dup", "dup2", "dup3", "poll", "ppoll", "select", "pselect6",
    // memory
    "mmap", "munmap", "mremap", "mprotect", "brk", "madvise", "membarrier", "getrandom",
    // threads and synchronisation
    "futex", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "sched_yield", "sched_getaffinity",
    "sched_setaffinity", "sched_getparam", "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min",
    "arch_prctl",
    // identity, time, usage
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getrusage", "times", "sysinfo",
    "uname", "clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep", "clock_nanosleep", "getrlimit",
    // signals (to itself: tgkill is restricted below) and the end
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "exit", "exit_group",
};

// Killed: running programs, creating processes, and reading or writing other processes' memory.
constexpr const char* killed[] = {"execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv",
                                  "process_vm_writev"};

int add(scmp_filter_ctx ctx, uint32_t action, const char* name, unsigned count = 0,
        const scmp_arg_cmp* comparisons = nullptr) {
  const int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return 0;  // not a call of this architecture
  const int rc = seccomp_rule_add_array(ctx, action, nr, count, comparisons);
  return rc == -EDOM || rc == -EOPNOTSUPP ? 0 : rc;  // a pseudo-call libseccomp cannot filter here
}

}  // namespace

int install_reader_seccomp_filter() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
  if (!ctx) return ENOMEM;
  int rc = 0;
  for (const char* name : allowed)
    if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, name);
  for (const char* name : killed)
    if (!rc) rc = add(ctx, SCMP_ACT_KILL_PROCESS, name);

  // open/openat: read-only, without O_CREAT, O_TRUNC, O_APPEND or O_TMPFILE (whose kernel flag is
  // 020000000; glibc's __O_TMPFILE adds O_DIRECTORY, which read-only directory opens need).
  const scmp_datum_t writing = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | 020000000;
  const scmp_arg_cmp open_flags = SCMP_A1(SCMP_CMP_MASKED_EQ, writing, O_RDONLY);
  const scmp_arg_cmp openat_flags = SCMP_A2(SCMP_CMP_MASKED_EQ, writing, O_RDONLY);
  if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "open", 1, &open_flags);
  if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "openat", 1, &openat_flags);
  // Threads only: clone must carry CLONE_THREAD; clone3's flags are in memory that seccomp cannot
  // read, so it answers ENOSYS, to which glibc responds by calling clone.
  const scmp_arg_cmp thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD);
  const scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
  if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "clone", 1, &thread);
  if (!rc) rc = add(ctx, SCMP_ACT_KILL_PROCESS, "clone", 1, &not_thread);
  if (!rc) rc = add(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3");
  // Signals to its own threads only (abort() is raise() is tgkill(getpid(), gettid(), SIGABRT)).
  const scmp_arg_cmp own_process = SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(::getpid()));
  if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "tgkill", 1, &own_process);
  // Reading resource limits (pthread_create asks for RLIMIT_STACK), never setting them.
  const scmp_arg_cmp no_new_limit = SCMP_A2(SCMP_CMP_EQ, 0);
  if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "prlimit64", 1, &no_new_limit);
  // isatty() on stdio.
  const scmp_arg_cmp tcgets = SCMP_A1(SCMP_CMP_EQ, TCGETS);
  if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "ioctl", 1, &tcgets);
  // Thread names (TBB, OpenMP) and the dumpable flag (sanitizer runtimes); no other prctl.
  for (const int option : {PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE}) {
    const scmp_arg_cmp which = SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(option));
    if (!rc) rc = add(ctx, SCMP_ACT_ALLOW, "prctl", 1, &which);
  }
  if (!rc) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  return rc < 0 ? -rc : rc;
}

}  // namespace feinterp::detail
