// SPDX-License-Identifier: BSD-3-Clause
// How the CPU backend splits a block over threads: contiguous ranges of elements, each run in
// increasing element order, whose bounds do not depend on the thread count where that matters (the
// results are bitwise the same for any number of threads). The ranges run on the process's persistent
// pool (thread_pool.hpp): range t on the pool's task t, so which thread computes what is fixed by the
// count, not by timing. The default count comes from default_threads.hpp.
#pragma once

#include <algorithm>

#include <feinterp/core/config.hpp>
#include <feinterp/cpu/default_threads.hpp>
#include <feinterp/cpu/thread_pool.hpp>

namespace feinterp::backends::cpu {

/// Below this many elements per thread, waking a worker and splitting the work costs more than it saves.
inline constexpr offset_t min_elements_per_thread = 1024;

/// Threads for `elements`: `requested`, or for 0 the default (FEINTERP_NUM_THREADS, OMP_NUM_THREADS,
/// the CPUs available: default_threads.hpp), never more than one per min_elements_per_thread. Throws
/// std::invalid_argument for a negative request, one over max_threads, or a bad environment value.
inline int thread_count(int requested, offset_t elements) {
  const offset_t threads = resolve_threads(requested);
  return int(std::min(threads, std::max<offset_t>(1, elements / min_elements_per_thread)));
}

/// Runs body(begin, end) over [0, elements) in `threads` contiguous ranges whose bounds are multiples of
/// `align`. Each range is processed in increasing element order and stops at its first exception, so
/// the smallest failing element of a range is the one reported; across ranges the smallest wins. Called
/// from inside a range (nested), it runs its ranges inline on the calling thread, in order.
template <class Body>
void parallel_for(offset_t elements, int threads, offset_t align, const Body& body) {
  if (threads <= 1) {
    body(offset_t(0), elements);
    return;
  }
  const offset_t blocks = (elements + align - 1) / align;
  auto bound = [&](int t) { return std::min(elements, blocks * t / threads * align); };
  ThreadPool::instance().run(threads, [&](int t) { body(bound(t), bound(t + 1)); });
}

}  // namespace feinterp::backends::cpu
