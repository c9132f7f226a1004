// SPDX-License-Identifier: BSD-3-Clause
// How many threads the CPU backend uses when the caller asks for none in particular (a request of 0):
// FEINTERP_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs this process may run on. One MPI rank per
// core, each pinned or in a container with a CPU quota, then gets one thread instead of every core of
// the machine (hardware_concurrency() ignores affinity and quotas, and would oversubscribe such runs).
//
// A bad value of either variable is an error (std::invalid_argument naming the variable and the value),
// not a warning: a thread count silently ignored is the mistake this exists to prevent. An empty value
// counts as unset. OMP_NUM_THREADS may be OpenMP's list of counts per nesting level ("4,2"): feinterp
// does not nest, so it takes the first.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace feinterp::backends::cpu {

/// The most threads any source may ask for; beyond it a count is taken for a typing mistake.
inline constexpr int max_threads = 1024;

/// The count a variable asks for: value "8", or for OMP_NUM_THREADS a list whose first entry counts
/// ("8,2"); spaces around it allowed. Throws std::invalid_argument naming `name` and `value` unless it is
/// an integer in [1, max_threads].
int parse_thread_variable(std::string_view name, std::string_view value);

/// The CPUs a cgroup v2 `cpu.max` file (its text, e.g. "200000 100000\n") allows: ceil(quota/period),
/// at least 1; nullopt for "max ..." (no limit) or text that is not in that format (the kernel writes
/// this file, so an unexpected format is ignored rather than fatal).
std::optional<int> cgroup_cpu_limit(std::string_view cpu_max);

/// The cgroup v2 path of a process from the text of /proc/<pid>/cgroup (its "0::/path" line, e.g. "/"
/// in a container or "/user.slice/x.scope" on a desktop); nullopt without such a line (cgroup v1 only).
std::optional<std::string> cgroup_v2_path(std::string_view proc_cgroup);

/// The CPUs this process may use: its affinity mask (sched_getaffinity), capped by the smallest CPU
/// quota of its cgroup and the cgroup's ancestors under /sys/fs/cgroup. At least 1. Read once, at the
/// first call (the answer of a later taskset or quota change is not seen).
int available_cpus();

/// The default count: FEINTERP_NUM_THREADS, else OMP_NUM_THREADS, else available_cpus(). The variables
/// are read at every call (getenv is cheap), so a test or a program may change them between plans.
/// Throws std::invalid_argument for a bad value of a variable that is set.
int default_threads();

/// `requested` when positive, else default_threads(). Throws std::invalid_argument for a negative request
/// or one over max_threads.
int resolve_threads(int requested);

}  // namespace feinterp::backends::cpu
