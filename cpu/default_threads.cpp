// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cpu/default_threads.hpp>

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace feinterp::backends::cpu {

namespace {

std::string_view trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

// The whole of `text` as a non-negative integer, or nullopt.
std::optional<long long> parse_integer(std::string_view text) {
  long long x = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || x < 0) return std::nullopt;
  return x;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

// The smallest quota along the process's cgroup and its ancestors: a limit set on a parent slice binds
// the children too, and in a container (its own cgroup namespace) the path is "/" and this is the root.
std::optional<int> cgroup_cpus() {
  const std::optional<std::string> proc = read_file("/proc/self/cgroup");
  std::optional<std::string> path = proc ? cgroup_v2_path(*proc) : std::nullopt;
  if (!path) return std::nullopt;
  std::optional<int> limit;
  for (std::string dir = *path;;) {
    if (const auto text = read_file("/sys/fs/cgroup" + (dir == "/" ? std::string() : dir) + "/cpu.max"))
      if (const auto cpus = cgroup_cpu_limit(*text)) limit = std::min(limit.value_or(*cpus), *cpus);
    if (dir == "/" || dir.empty()) break;
    const std::size_t slash = dir.find_last_of('/');
    dir = slash == 0 ? "/" : dir.substr(0, slash);
  }
  return limit;
}

// The variable's count, or nullopt when it is unset or empty.
std::optional<int> thread_variable(const char* name) {
  const char* value = std::getenv(name);
  if (!value || trim(value).empty()) return std::nullopt;
  return parse_thread_variable(name, value);
}

}  // namespace

int parse_thread_variable(std::string_view name, std::string_view value) {
  std::string_view first = value;
  if (name == "OMP_NUM_THREADS") first = first.substr(0, first.find(','));
  const std::optional<long long> count = parse_integer(trim(first));
  if (!count || *count < 1 || *count > max_threads)
    throw std::invalid_argument(std::string(name) + "=\"" + std::string(value) + "\": expected a thread count from 1 to " +
                                std::to_string(max_threads) +
                                (name == "OMP_NUM_THREADS" ? " (or a list such as \"4,2\", whose first entry counts)" : ""));
  return int(*count);
}

std::optional<int> cgroup_cpu_limit(std::string_view cpu_max) {
  const std::string_view text = trim(cpu_max);
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::optional<long long> quota = parse_integer(text.substr(0, space));  // "max": nullopt, no limit
  const std::optional<long long> period = parse_integer(trim(text.substr(space + 1)));
  if (!quota || !period || *period == 0) return std::nullopt;
  return int(std::clamp<long long>((*quota + *period - 1) / *period, 1, max_threads));
}

std::optional<std::string> cgroup_v2_path(std::string_view proc_cgroup) {
  while (!proc_cgroup.empty()) {
    const std::size_t end = proc_cgroup.find('\n');
    const std::string_view line = proc_cgroup.substr(0, end);
    if (line.substr(0, 3) == "0::" && line.size() > 3 && line[3] == '/') return std::string(trim(line.substr(3)));
    if (end == std::string_view::npos) break;
    proc_cgroup.remove_prefix(end + 1);
  }
  return std::nullopt;
}

int available_cpus() {
  static const int cpus = [] {
    const int affinity = affinity_cpus();
    const std::optional<int> quota = cgroup_cpus();
    return quota ? std::min(affinity, *quota) : affinity;
  }();
  return cpus;
}

int default_threads() {
  if (const auto count = thread_variable("FEINTERP_NUM_THREADS")) return *count;
  if (const auto count = thread_variable("OMP_NUM_THREADS")) return *count;
  return available_cpus();
}

int resolve_threads(int requested) {
  if (requested < 0 || requested > max_threads)
    throw std::invalid_argument("threads = " + std::to_string(requested) + ", expected 0 (the default: " +
                                "FEINTERP_NUM_THREADS, OMP_NUM_THREADS or the CPUs available) or a count up to " +
                                std::to_string(max_threads));
  return requested > 0 ? requested : default_threads();
}

}  // namespace feinterp::backends::cpu
