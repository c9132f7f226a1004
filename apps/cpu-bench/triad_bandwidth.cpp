// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cpu-bench/triad_bandwidth.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include <feinterp/cpu/threads.hpp>

namespace feinterp::app {

std::size_t default_triad_bytes() {
  const long cache = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  return std::clamp<std::size_t>(cache > 0 ? 4 * std::size_t(cache) : 0, std::size_t(256) << 20, std::size_t(1) << 30);
}

TriadBandwidth triad_bandwidth(int threads, std::size_t bytes_per_array, int runs) {
  if (bytes_per_array < (std::size_t(1) << 20))
    throw std::invalid_argument("triad arrays of " + std::to_string(bytes_per_array) + " bytes: expected at least 1 MiB");
  namespace cpu = feinterp::backends::cpu;
  const offset_t n = offset_t(bytes_per_array / sizeof(double));
  const int count = cpu::resolve_threads(threads);
  // Uninitialised storage, first written inside the ranges: each page lands near the thread that uses it.
  const std::unique_ptr<double[]> a(new double[std::size_t(n)]), b(new double[std::size_t(n)]),
      c(new double[std::size_t(n)]);
  cpu::parallel_for(n, count, 1, [&](offset_t begin, offset_t end) {
    for (offset_t i = begin; i < end; ++i) a[i] = 0.0, b[i] = 1.0, c[i] = 2.0;
  });
  const double s = 3.0;
  double best = 0;
  for (int r = 0; r <= std::max(runs, 1); ++r) {
    const auto start = std::chrono::steady_clock::now();
    cpu::parallel_for(n, count, 1, [&](offset_t begin, offset_t end) {
      for (offset_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r > 0) best = std::max(best, 24.0 * double(n) / seconds / 1e9);
  }
  if (a[n / 2] != 7.0) throw std::logic_error("the triad computed a wrong value");
  return {best, std::size_t(n) * sizeof(double), count};
}

}  // namespace feinterp::app
