// SPDX-License-Identifier: BSD-3-Clause
// The CPU's memory bandwidth as STREAM measures it, the yardstick of feinterp-cpu-bench's shares as copy
// bandwidth is on the GPU: the triad a[i] = b[i] + s c[i] over three arrays of doubles, split over threads
// as the CPU backend splits a block (cpu/threads.hpp: contiguous ranges on its pool, each range first
// touched by the thread that later computes it), counting 24 bytes per element (two reads and a write:
// STREAM's convention, the write's allocating read uncounted), the best of `runs` timed runs after one
// untimed run. Each array should be several times the last-level cache: default_triad_bytes.
#pragma once

#include <cstddef>

namespace feinterp::app {

struct TriadBandwidth {
  double gigabytes_per_second = 0;
  std::size_t bytes_per_array = 0;
  int threads = 0;
};

/// Four times the last-level cache the C library reports (sysconf), within 256 MiB and 1 GiB.
std::size_t default_triad_bytes();

/// Throws std::invalid_argument for an array under 1 MiB or a bad thread count (cpu/default_threads.hpp).
TriadBandwidth triad_bandwidth(int threads, std::size_t bytes_per_array, int runs = 10);

}  // namespace feinterp::app
