// SPDX-License-Identifier: BSD-3-Clause
// How the CPU backend splits a block over threads: contiguous ranges of elements, each run in
// increasing element order, whose bounds do not depend on the thread count where that matters (the
// results are bitwise the same for any number of threads).
#pragma once

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../../core/config.hpp"

namespace feinterp::backends::cpu {

/// Below this many elements per thread, starting a thread (~20 us) costs more than it saves.
inline constexpr offset_t min_elements_per_thread = 1024;

/// Threads for `elements`: `requested` (0: the hardware's), never more than one per
/// min_elements_per_thread. Throws std::invalid_argument for a negative request.
inline int thread_count(int requested, offset_t elements) {
  if (requested < 0)
    throw std::invalid_argument("threads = " + std::to_string(requested) +
                                ", expected 0 (all hardware threads) or a positive count");
  offset_t threads = requested;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, std::max<offset_t>(1, elements / min_elements_per_thread));
  return int(threads);
}

/// Runs body(begin, end) over [0, elements) in `threads` contiguous ranges whose bounds are multiples of
/// `align`. Each range is processed in increasing element order and stops at its first exception, so
/// the smallest failing element of a range is the one reported; across ranges the smallest wins.
template <class Body>
void parallel_for(offset_t elements, int threads, offset_t align, const Body& body) {
  if (threads <= 1) {
    body(offset_t(0), elements);
    return;
  }
  const offset_t blocks = (elements + align - 1) / align;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(threads));
  auto bound = [&](int t) { return std::min(elements, blocks * t / threads * align); };
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      try {
        body(bound(t), bound(t + 1));
      } catch (...) {
        errors[std::size_t(t)] = std::current_exception();
      }
    });
  for (auto& worker : workers) worker.join();
  // Ranges are in increasing element order: the first error found is in the smallest range.
  for (auto& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace feinterp::backends::cpu
