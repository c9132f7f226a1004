// SPDX-License-Identifier: BSD-3-Clause
// What the packed kernels (packed_kernel.cuh, transpose_kernel.cuh) share about a block that holds
// elements_per_block elements along threadIdx.z: its threads numbered block-wide, the walk over a group's
// contiguous run of per-element values, and the asynchronous copies of a group's connectivity and of
// its gathered values.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../../../core/config.hpp"

namespace feinterp::backends::cuda {

/// The calling thread in its block: `thread` in [0, threads), x fastest; `z` its element slot.
struct BlockThreads {
  int thread, threads, z;
};

__device__ __forceinline__ BlockThreads block_threads() {
  return {int(threadIdx.x + blockDim.x * threadIdx.z), int(blockDim.x * blockDim.z), int(threadIdx.z)};
}

/// Thread `thread` visits i = thread, thread + threads, ... of a run of `per_element` values per
/// element and needs (element, r) = divmod(i, per_element) at each: the stride is the same for every
/// group, so the two divisions by the run-time per_element are done once, here, and each step is two
/// additions and a compare (next()).
struct RunWalk {
  int element, r;                          ///< where the walk is
  int step_elements, step_r, per_element;  ///< divmod(threads, per_element)
  __device__ __forceinline__ RunWalk(int thread, int threads, int per_element_)
      : element(thread / per_element_),
        r(thread - (thread / per_element_) * per_element_),
        step_elements(threads / per_element_),
        step_r(threads - (threads / per_element_) * per_element_),
        per_element(per_element_) {}
  __device__ __forceinline__ void next() {
    element += step_elements;
    r += step_r;
    if (r >= per_element) {
      r -= per_element;
      ++element;
    }
  }
};

/// The elements of group `group` (elements_per_block per group, the last one partial) of a launch of
/// `elements`.
__device__ __forceinline__ int group_size(offset_t elements, offset_t group, int elements_per_block) {
  const offset_t remaining = elements - group * elements_per_block;
  return remaining < elements_per_block ? int(remaining) : elements_per_block;
}

/// Issues the asynchronous copy (cp.async, one commit) of the connectivity of group `group` of a
/// launch of `elements` into `target`: one contiguous run, or, with an element list (a colour's
/// launch), N indices per listed element. Every packed kernel fetches the next group's this way while
/// it computes the current one.
template <int N>
__device__ __forceinline__ void copy_group_connectivity_async(const node_index* connectivity,
                                                              const offset_t* element_list, offset_t elements,
                                                              offset_t group, int elements_per_block,
                                                              node_index* target, const BlockThreads& b) {
  const offset_t first = group * elements_per_block;
  const int count = group_size(elements, group, elements_per_block);
  if (!element_list) {
    const node_index* source = connectivity + first * N;
    for (int i = b.thread; i < count * N; i += b.threads)
      __pipeline_memcpy_async(target + i, source + i, sizeof(node_index));
  } else {
    for (int i = b.thread; i < count * N; i += b.threads) {
      const int local = i / N, n = i - local * N;  // N is a constant
      __pipeline_memcpy_async(target + i, connectivity + __ldg(element_list + first + local) * N + n, sizeof(node_index));
    }
  }
  __pipeline_commit();
}

/// Starts copying one real of a gather from global to shared memory (cp.async, cached in L1 as __ldg
/// is). A gather loop of load-then-store is not unrolled (its trip count is the launch's), so a thread
/// waits out one load's latency per iteration before it issues the next: four DRAM latencies per group
/// for a p3 hexahedron's 64 nodes at 16 threads per element, Nsight Compute's top stall
/// (long_scoreboard) in the sum-factorised kernel. With copies every load of the loop is in flight at
/// once and the thread waits once, in wait_for_gather.
template <class Real>
__device__ __forceinline__ void gather_async(Real* target, const Real* source) {
  __pipeline_memcpy_async(target, source, sizeof(Real));
}

/// Waits for every copy this thread has started (gather_async, and any connectivity still in flight):
/// before the barrier after which other threads read what it gathered.
__device__ __forceinline__ void wait_for_gather() {
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

/// Where result i of a run in [q][cr] order (CR reals per point) sits in shared memory when each point's
/// CR reals are followed by CRp - CR padding words (CRp = CR or CR + 1): i, or i + i / CR (the paddings
/// of the points before it; CR a constant: a multiply, not a division).
template <int CR, int CRp>
__device__ __forceinline__ int padded_result_index(int i) {
  static_assert(CRp == CR || CRp == CR + 1, "one padding word per point at most");
  return CRp == CR ? i : i + i / CR;
}

/// Writes a group's staged results to their contiguous run `out` (count = elements * Q * CR reals, in
/// global order [e][q][cr]): shared memory holds them in that order with one padding word after every
/// CR when CR is even (launch/shared_layout.hpp: why). Consecutive threads write consecutive reals.
template <int CR, class Real>
__device__ __forceinline__ void store_group_results(Real* out, const Real* staged, int count, const BlockThreads& b) {
  for (int i = b.thread; i < count; i += b.threads) out[i] = staged[padded_result_index<CR, (CR | 1)>(i)];
}

/// A point's results go straight from registers to global memory, not through the shared staging, when
/// they are at most this many bytes (three doubles, six floats). The 32 lanes of a warp then hold 32
/// consecutive points of the group's run (thread (q, z) is point
/// z * Q + q when a thread has one point; with Q > 128, 32 consecutive points of one element), so each
/// lane writes where its neighbour's results end and a warp's stores are one contiguous run: no shared
/// store and load per result, and no barrier before the store. At 32 bytes (C = 2 reference gradients
/// of 2D elements in double) it measured mixed, 0.95-1.04 of the staged time, and stays staged
/// (backends/cuda/tuning/results/nvidia-h100-80gb-hbm3/register-stores.md). Define it as 0 to stage
/// every kernel's results, for comparison.
#ifndef FEINTERP_REGISTER_STORE_BYTES
#define FEINTERP_REGISTER_STORE_BYTES 24
#endif

/// The alignment, in bytes, of the vectors in which store_point_results writes a point's CR reals: the
/// largest power of two up to 16 that divides CR * sizeof(Real) (a point's run starts at a multiple of
/// it when the output does).
template <int CR, class Real>
__host__ __device__ constexpr int point_store_alignment() {
  constexpr int bytes = CR * int(sizeof(Real));
  return bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : int(sizeof(Real));
}

/// Whether CR reals per point are few enough to store from registers (above): what the kernel can do,
/// and what the register cap of packed_kernel.cuh follows.
template <int CR, class Real>
__host__ __device__ constexpr bool few_point_results() {
  return CR * sizeof(Real) <= FEINTERP_REGISTER_STORE_BYTES;
}

/// Whether a launch writing CR reals per point to `out` stores them from registers: few enough bytes,
/// and `out` aligned for the vectors (a pointer from cudaMalloc always is; a view into an array may not
/// be, and is then staged).
template <int CR, class Real>
__device__ __forceinline__ bool results_from_registers(const Real* out) {
  if constexpr (!few_point_results<CR, Real>())
    return false;
  else
    return reinterpret_cast<std::uintptr_t>(out) % point_store_alignment<CR, Real>() == 0;
}

/// Writes one point's CR results from registers to `out`, aligned to point_store_alignment: in CUDA's
/// vector types (double2, float2, float4: one st.global.v2/v4 each) where they fit, else a real at a time.
template <int CR, class Real>
__device__ __forceinline__ void store_point_results(Real* out, const Real (&results)[CR]) {
  constexpr int vector_bytes = point_store_alignment<CR, Real>();
  if constexpr (vector_bytes == 16 && sizeof(Real) == 8) {
#pragma unroll
    for (int i = 0; i < CR; i += 2) reinterpret_cast<double2*>(out)[i / 2] = make_double2(results[i], results[i + 1]);
  } else if constexpr (vector_bytes == 16) {
#pragma unroll
    for (int i = 0; i < CR; i += 4)
      reinterpret_cast<float4*>(out)[i / 4] = make_float4(results[i], results[i + 1], results[i + 2], results[i + 3]);
  } else if constexpr (vector_bytes == 8 && sizeof(Real) == 4) {
#pragma unroll
    for (int i = 0; i < CR; i += 2) reinterpret_cast<float2*>(out)[i / 2] = make_float2(results[i], results[i + 1]);
  } else {
#pragma unroll
    for (int i = 0; i < CR; ++i) out[i] = results[i];
  }
}

}  // namespace feinterp::backends::cuda
