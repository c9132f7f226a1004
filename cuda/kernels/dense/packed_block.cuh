// SPDX-License-Identifier: BSD-3-Clause
// What the packed kernels (packed_kernel.cuh, transpose_kernel.cuh) share about a block that holds
// elements_per_block elements along threadIdx.z: its threads numbered block-wide, the walk over a group's
// contiguous run of per-element values, the copies of a group's connectivity and of its gathered values
// (asynchronous, or a vector of a node's components at a time), and the vectors in which a point's
// results are stored and shared memory is read.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

#include <feinterp/core/config.hpp>
#include <feinterp/elements/indices.hpp>

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

/// (i / C, i % C) for the i = thread, thread + threads, ... of a block-strided loop, C a compile-time
/// divisor Cs (a multiply and shift) or, for Cs = 0, one read at run time (a RunWalk's additions: a
/// division instruction per step would cost the run-time-C kernels more than their loads). Call next()
/// after each step.
template <int Cs>
class StridedDivision {
 public:
  __device__ __forceinline__ StridedDivision(int thread, int threads, int divisor)
      : walk_(thread, threads, Cs > 0 ? 1 : divisor) {}
  __device__ __forceinline__ int quotient(int i) const {
    if constexpr (Cs > 0) return i / Cs; else return walk_.element;
  }
  __device__ __forceinline__ int remainder(int i) const {
    if constexpr (Cs > 0) return i % Cs; else return walk_.r;
  }
  __device__ __forceinline__ void next() {
    if constexpr (Cs == 0) walk_.next();
  }

 private:
  RunWalk walk_;
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

/// Gathers the C values at each node of a group's `count` elements, field[dof(connectivity[e * N + n], C, c)],
/// into `target` in [e][n][c] order, V consecutive components per thread and step: one 8- or 16-byte load
/// (or cp.async, `async`) in place of V, where a node's C values tile into V-real vectors
/// (run_alignment<C, Real>) and `field` is aligned for them, which the caller checks. Consecutive threads
/// take a node's consecutive vectors, then the next node's. Cs: C, or run_time_components (V = 1) for
/// the `components` given.
template <int N, int Cs, int V, bool async, class Real>
__device__ __forceinline__ void gather_nodal_values(const Real* field, const node_index* connectivity, int count,
                                                    Real* target, const BlockThreads& b, int components = Cs) {
  static_assert(Cs > 0 ? Cs % V == 0 : V == 1, "a node's components tile into vectors");
  const int C = Cs > 0 ? Cs : components;
  const int parts = C / V;
  StridedDivision<Cs / V> by_parts(b.thread, b.threads, parts);
  for (int i = b.thread; i < count * N * parts; i += b.threads, by_parts.next()) {
    const int local_node = by_parts.quotient(i), part = by_parts.remainder(i);
    const Real* source = field + dof(connectivity[local_node], C, part * V);
    Real* const into = target + i * V;
    if constexpr (async) {
      __pipeline_memcpy_async(into, source, V * sizeof(Real));
    } else if constexpr (V == 1) {
      *into = __ldg(source);
    } else if constexpr (V == 2 && sizeof(Real) == 8) {
      *reinterpret_cast<double2*>(into) = __ldg(reinterpret_cast<const double2*>(source));
    } else if constexpr (V == 4) {
      *reinterpret_cast<float4*>(into) = __ldg(reinterpret_cast<const float4*>(source));
    } else {
      *reinterpret_cast<float2*>(into) = __ldg(reinterpret_cast<const float2*>(source));
    }
  }
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
/// CR when CR is even (layout/shared_layout.hpp: why). Consecutive threads write consecutive reals.
template <int CR, class Real>
__device__ __forceinline__ void store_group_results(Real* out, const Real* staged, int count, const BlockThreads& b) {
  for (int i = b.thread; i < count; i += b.threads) out[i] = staged[padded_result_index<CR, (CR | 1)>(i)];
}

/// The same for a CR known at run time (the run-time-C kernels): the padding words are skipped by a walk
/// over (point, result) instead of a division per real.
template <class Real>
__device__ __forceinline__ void store_group_results(Real* out, const Real* staged, int count, int CR, const BlockThreads& b) {
  const int padding = (CR & 1) ? 0 : 1;
  RunWalk walk(b.thread, b.threads, CR);  // walk.element: the point, walk.r: its result
  for (int i = b.thread; i < count; i += b.threads, walk.next()) out[i] = staged[i + walk.element * padding];
}

/// A point's results go straight from registers to global memory, not through the shared staging, when
/// they are at most this many bytes (three doubles, six floats). The 32 lanes of a warp then hold 32
/// consecutive points of the group's run (thread (q, z) is point z * Q + q when a thread has one point,
/// and its k-th element's (z + k * blockDim.z) * Q + q at K elements per thread; with Q > 128, 32
/// consecutive points of one element), so each
/// lane writes where its neighbour's results end and a warp's stores are one contiguous run: no shared
/// store and load per result, and no barrier before the store. At 32 bytes (C = 2 reference gradients
/// of 2D elements in double) it measured mixed, 0.95-1.04 of the staged time, and stays staged
/// (docs/performance/nvidia-h100-80gb-hbm3/register-stores.md). Define it as 0 to stage
/// every kernel's results, for comparison.
#ifndef FEINTERP_REGISTER_STORE_BYTES
#define FEINTERP_REGISTER_STORE_BYTES 24
#endif

/// The widest vector, in bytes (16, 8, 4, or one real), that tiles runs of `count` reals laid end to end
/// from a 16-byte boundary: the largest power of two up to 16 that divides count * sizeof(Real). A point's
/// CR results in the output (store_point_results) and an element's nodal values in shared memory
/// (load_shared_vector) are such runs.
template <int count, class Real>
__host__ __device__ constexpr int run_alignment() {
  constexpr int bytes = count * int(sizeof(Real));
  return bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : int(sizeof(Real));
}

/// Whether `p` starts on a boundary of the vectors that tile runs of `count` reals (run_alignment): a
/// pointer from cudaMalloc always does; a view into an array may not, and its caller then takes a real at a
/// time.
template <int count, class Real>
__device__ __forceinline__ bool aligned_for_runs(const Real* p) {
  return reinterpret_cast<std::uintptr_t>(p) % run_alignment<count, Real>() == 0;
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
    return aligned_for_runs<CR>(out);
}

/// Writes one point's CR results from registers to `out`, aligned to run_alignment<CR, Real>: in CUDA's
/// vector types (double2, float2, float4: one st.global.v2/v4 each) where they fit, else a real at a time.
template <int CR, class Real>
__device__ __forceinline__ void store_point_results(Real* out, const Real (&results)[CR]) {
  constexpr int vector_bytes = run_alignment<CR, Real>();
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

/// Reads V consecutive reals of shared memory at `source`, aligned to V reals, in one instruction
/// (ld.shared.v2.f64, .v4.f32, .v2.f32, or a scalar for V = 1) into registers.
template <int V, class Real>
__device__ __forceinline__ void load_shared_vector(const Real* source, Real (&target)[V]) {
  static_assert(V * sizeof(Real) <= 16 && (V & (V - 1)) == 0, "a vector of up to 16 bytes");
  if constexpr (V == 2 && sizeof(Real) == 8) {
    const double2 v = *reinterpret_cast<const double2*>(source);
    target[0] = v.x, target[1] = v.y;
  } else if constexpr (V == 4) {
    const float4 v = *reinterpret_cast<const float4*>(source);
    target[0] = v.x, target[1] = v.y, target[2] = v.z, target[3] = v.w;
  } else if constexpr (V == 2) {
    const float2 v = *reinterpret_cast<const float2*>(source);
    target[0] = v.x, target[1] = v.y;
  } else {
    target[0] = *source;
  }
}

}  // namespace feinterp::backends::cuda
