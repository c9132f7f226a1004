// SPDX-License-Identifier: BSD-3-Clause
// The system calls a sandboxed reader may make (detail/sandbox.hpp), as a seccomp filter built with
// libseccomp (Debian's libseccomp-dev: it resolves syscall names per architecture and closes the x32
// and 32-bit entry points on x86-64, which a hand-written BPF program must get right by itself).
//
// An allow-list, because a reader needs few calls and a deny-list misses new ones (io_uring can open
// and write files without open or write). What a reader may do: read, seek, map and stat files, open
// them read-only, allocate memory, use threads (clone with CLONE_THREAD; clone3 answers ENOSYS so that
// glibc falls back to clone, whose flags can be checked), query time, limits and its own identity,
// write to descriptors it already has (the pipe to its parent, /dev/null), signal its own threads,
// and exit.
// Killed on sight (the parent reports it as a forbidden operation): execve, execveat, fork, vfork,
// clone without CLONE_THREAD, ptrace, process_vm_readv/writev.
// Refused with EPERM, everything else: opening for writing or creating files, renaming, deleting,
// changing permissions, sockets, kill, raising resource limits (prlimit64 with a new limit: a child of
// root could otherwise lift its own limits), mount, io_uring, ...
#pragma once

namespace feinterp::detail {

/// Installs the filter on the calling process (with PR_SET_NO_NEW_PRIVS). Returns 0, or the errno of
/// the failure. Safe to call in a forked child of a multi-threaded process (it allocates with malloc,
/// which glibc keeps usable after fork).
int install_reader_seccomp_filter();

}  // namespace feinterp::detail
