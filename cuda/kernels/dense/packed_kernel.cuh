// SPDX-License-Identifier: BSD-3-Clause
// The packed interpolation kernel: elements_per_block elements per thread block, in slots along
// threadIdx.z of K elements each (K = 2 for values and reference gradients at C = 1, else 1:
// layout/elements_per_thread.hpp), and threads_per_element threads along threadIdx.x, each computing
// whole quadrature points of its slot's K elements.
//
//   block = {threads_per_element, 1, ceil(elements_per_block / K)}
//   element = group * elements_per_block + threadIdx.z + k * blockDim.z,  k < K,
//   group = blockIdx.x, blockIdx.x + gridDim.x, ...
//
// The grid is persistent: as many blocks as fit on the device at once, each looping over groups of
// elements_per_block consecutive elements (with one group per block it would be
// element = blockIdx.x * elements_per_block + threadIdx.z at K = 1).
//
// One element per block (the baseline kernel) gives a p = 1 triangle 3-thread blocks, so 29 of a warp's
// 32 lanes idle. Here a block moves its whole working set in block-wide, coalesced passes:
//
//   1. table        shape-function table -> shared (one copy per block, read from L2 after block 1)
//   2. connectivity the group's elements are consecutive, so their connectivity is one contiguous run;
//                   it is copied asynchronously (cp.async) one group ahead, into a second buffer
//   3. gather       u[dof(node, C, c)] (and x) -> shared, one (node, c) pair per thread, or a node's
//                   C components as one 8- or 16-byte vector where they tile into it
//   4. compute      thread (q, z): K x C x W accumulators in registers over the nodes (compile-time N, C, W),
//                   the nodal values (and in float the table) read from shared memory in vectors;
//                   physical gradients map them through J (S x D, fem/geometry.hpp) to C x S
//   5. store        the block's output is one contiguous run of E * Q * C * R reals: written by
//                   consecutive threads in global order, from shared memory in the same order; or,
//                   where a point's results are few (packed_block.cuh), by each thread from its
//                   registers at the end of step 4, lane t's after lane t - 1's
//
// Precision: fields, coordinates, table and outputs are Real (double or float, the plan's); the
// accumulators are Real, the geometry (J, det J, its inverse) is computed in double from them.
//
// Physical gradients also apply fem/orientation.hpp's policy: each point's det J sign and shape
// quality is or-ed into a per-element word in shared memory; after the compute barrier one thread per
// element checks the word, and an invalid element's index goes to args.first_bad by atomicMin (sticky:
// the plan reads and clears it when asked, cuda/plan.cu). That z = 0 for S = 2 was checked
// once, when the plan was built.
//
// Nothing here depends on the element beyond N, D and the table, so one template serves all 15 types;
// what varies per element is instantiated at compile time, never branched on at run time.

#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/elements/indices.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/elements_per_thread.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>

namespace feinterp::backends::cuda {

/// S: the space dimension; only physical gradients read it (the other operations are instantiated
/// with S = the default, and their kernels never touch coordinates). AsyncGather: the gather of values
/// and reference gradients is issued as asynchronous copies, as physical gradients' always is (the
/// dense_async_gather variant, tuning/kernel_variant.hpp; step 3 says why it is a choice).
/// Cs: the component count C, or run_time_components (layout/component_kernels.hpp) for C read from
/// args.components; step 4 then computes run_time_component_chunk components per pass.
template <class Element, int Cs, Operation Op, int S, class Real, bool AsyncGather>
__device__ __forceinline__ void packed_body(const KernelArgs<Real>& args) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int W = Op == Operation::values ? 1 : D;  // table rows per (node, point)
  constexpr bool physical = Op == Operation::physical_gradients;
  constexpr int R = physical ? S : W;  // results per (point, component)
  constexpr bool run_time = Cs == run_time_components;
  const int C = run_time ? args.components : Cs;
  constexpr int Cc = run_time ? run_time_component_chunk : Cs;  // components per pass of step 4
  constexpr int K = run_time ? 1 : packed_elements_per_thread(Op, Cs);  // elements per thread (layout/elements_per_thread.hpp)
  static_assert(S >= D && S <= 3, "an element of dimension D in a space of dimension S >= D");
  static_assert(K == 1 || !physical, "one element per thread for physical gradients");

  const int Q = args.points;
  // The group: blockDim.z slots of K elements. At K = 1 that is blockDim.z itself (the plan passes the
  // same count), read from the special register, so that the one-element kernels keep the machine code
  // their tuning-table timings measured.
  const int elements_per_block = K == 1 ? int(blockDim.z) : args.elements_per_block;
  const int slots = blockDim.z;
  const SharedLayout layout = shared_layout(N, D, S, Op, Q, C, elements_per_block, sizeof(Real));
  extern __shared__ __align__(16) unsigned char shared[];
  Real* s_table = reinterpret_cast<Real*>(shared + layout.table);
  Real* s_field = reinterpret_cast<Real*>(shared + layout.field);
  Real* s_coordinates = reinterpret_cast<Real*>(shared + layout.coordinates);
  Real* s_output = reinterpret_cast<Real*>(shared + layout.output);
  node_index* s_connectivity = reinterpret_cast<node_index*>(shared + layout.connectivity);
  unsigned* s_orientation = reinterpret_cast<unsigned*>(shared + layout.orientation);

  const BlockThreads b = block_threads();
  const int thread = b.thread, threads = b.threads, z = b.z;
  const offset_t groups = (args.elements + elements_per_block - 1) / elements_per_block;
  const int CR = C * R;
  const int CRp = CR | 1;  // the shared output's stride per point (layout/shared_layout.hpp: why odd)
  constexpr int CRc = Cc * R;  // results per point of a pass (CR when C is compiled)
  const int per_element = Q * CR;
  // packed_block.cuh: when and why; the run-time-C kernel stages its passes' results.
  const bool from_registers = !run_time && results_from_registers<CRc>(args.out);
  // Reals per gathered vector: a node's C values in one load where they tile into one.
  constexpr int gather_vector = run_time ? 1 : run_alignment<Cc, Real>() / int(sizeof(Real));
  const bool field_vectors = gather_vector > 1 && aligned_for_runs<Cc>(args.field);

  // 1. table, once per block: the grid is persistent (one block per resident slot, striding over the
  // groups of elements_per_block elements), so the table crosses L2 -> shared memory once per slot,
  // not once per group: with one group per block, 50k p = 3 hexahedra re-read their 98 KB table 50k
  // times, 0.5% of copy bandwidth on an H100. In float it is transposed
  // on the way, from the device tabulation's [n][w][q] to point-major rows of T reals, the padding zeroed
  // (layout/shared_layout.hpp: why in float only).
  constexpr bool table_in_rows = packed_table_in_rows(sizeof(Real));
  constexpr int T = packed_table_row_stride(N, W, sizeof(Real));
  if constexpr (table_in_rows) {
    for (int i = thread; i < Q * T; i += threads) {
      const int q = i / T, k = i - q * T;  // T is a constant
      s_table[i] = k < N * W ? __ldg(args.table + k * Q + q) : Real(0);
    }
  } else {
    for (int i = thread; i < N * W * Q; i += threads) s_table[i] = __ldg(args.table + i);
  }
  if constexpr (physical)
    for (int i = thread; i < elements_per_block; i += threads) s_orientation[i] = 0u;  // before barrier A

  // 2. connectivity, one group ahead: group i's copy is issued before group i-1 is computed, so its
  // DRAM latency hides behind that work instead of stalling the block at the top of every iteration.
  auto fetch_connectivity = [&](offset_t group, node_index* target) {
    copy_group_connectivity_async<N>(args.connectivity, nullptr, args.elements, group, elements_per_block, target, b);
  };
  int buffer = 0;
  if (blockIdx.x < groups) fetch_connectivity(blockIdx.x, s_connectivity);

  for (offset_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const offset_t first = group * elements_per_block;
    const int here = group_size(args.elements, group, elements_per_block);  // the last group: partial
    const node_index* connectivity = s_connectivity + buffer * layout.connectivity_stride;
    __pipeline_wait_prior(0);
    __syncthreads();  // barrier A

    // 3. gather. Physical gradients copy asynchronously: at Q = N a thread gathers C + S values per
    // group, all in flight at once, and the quad/hex FP64 physical configurations run up to 19% faster
    // so. Values and reference gradients (C values per thread, one at C = 1) load synchronously: at one
    // element per thread copies take 0.91-1.11 times the time, and no less at C = 1
    // (docs/performance/nvidia-h100-80gb-hbm3/gather-async.md). At C = 1 two elements per thread halve
    // the table reads and the kernels wait on the gather instead: copying it is faster on some types and
    // slower on others (gather-copies-two-elements.md), so AsyncGather, timed by the sweep as a variant
    // of its own, chooses per configuration. Where a node's C values tile into 8- or 16-byte vectors
    // (C even) and the field is aligned for them, a vector at a time.
    constexpr bool gather_copies = physical || AsyncGather;
    if constexpr (gather_vector > 1) {
      if (field_vectors)
        gather_nodal_values<N, Cs, gather_vector, gather_copies>(args.field, connectivity, here, s_field, b);
      else
        gather_nodal_values<N, Cs, 1, gather_copies>(args.field, connectivity, here, s_field, b);
    } else {
      gather_nodal_values<N, Cs, 1, gather_copies>(args.field, connectivity, here, s_field, b, C);
    }
    if constexpr (physical) {
      for (int i = thread; i < here * N * S; i += threads) {
        const int local_node = i / S, k = i - local_node * S;
        gather_async(s_coordinates + i, args.coordinates + offset_t(connectivity[local_node]) * 3 + k);
      }
    }
    if constexpr (gather_copies) wait_for_gather();
    __syncthreads();  // barrier B
    // The other buffer was last read by the previous group's gather, before the barrier above.
    buffer ^= 1;
    if (group + gridDim.x < groups) fetch_connectivity(group + gridDim.x, s_connectivity + buffer * layout.connectivity_stride);

    // 4. compute. Slot z's thread computes point q of its K elements z, z + slots, ... of the group, each
    // table real it reads serving all K; an element past the group's end (the last slot of a count K
    // does not divide, or of the last, partial group) recomputes the group's last one and stores nothing.
    // The elements' nodal values are read in vectors as wide as N * C reals allow (run_alignment;
    // load_shared_vector), and so is, in float, the point's row of the table (16 bytes). Each vector is
    // loaded where the unrolled loop first needs one of its reals.
    constexpr int table_vector = 16 / int(sizeof(Real));
    constexpr int field_vector = run_time ? 1 : run_alignment<N * Cc, Real>() / int(sizeof(Real));
    if (z < here) {
      int element[K];  // in the group
      const Real* u[K];
#pragma unroll
      for (int e = 0; e < K; ++e) {
        element[e] = z + e * slots;
        u[e] = s_field + (e == 0 ? z : min(element[e], here - 1)) * N * C;  // z < here: no clamp needed
      }
      unsigned orientation = 0u;
      for (int q = threadIdx.x; q < Q; q += blockDim.x) {
        // Components c0 .. c0 + Cc - 1: all C in one pass when C is compiled; the run-time-C kernel's
        // last pass computes past C on the last component's values and stores only up to C.
        for (int c0 = 0; c0 < C; c0 += Cc) {
          Real result[K][Cc][W];
#pragma unroll
          for (int e = 0; e < K; ++e)
#pragma unroll
            for (int c = 0; c < Cc; ++c)
#pragma unroll
              for (int w = 0; w < W; ++w) result[e][c][w] = Real(0);
          double J[S][D];
          if constexpr (physical) {
#pragma unroll
            for (int k = 0; k < S; ++k)
#pragma unroll
              for (int d = 0; d < D; ++d) J[k][d] = 0.0;
          }
          const Real* row = s_table + q * T;
          Real table_chunk[table_vector], field_chunk[K][field_vector];
#pragma unroll
          for (int n = 0; n < N; ++n) {
            Real shape[W];
#pragma unroll
            for (int w = 0; w < W; ++w) {
              const int entry = n * W + w;
              if constexpr (table_in_rows) {
                if (entry % table_vector == 0) load_shared_vector(row + entry, table_chunk);
                shape[w] = table_chunk[entry % table_vector];
              } else {
                shape[w] = s_table[entry * Q + q];
              }
            }
#pragma unroll
            for (int e = 0; e < K; ++e)
#pragma unroll
              for (int c = 0; c < Cc; ++c) {
                Real value;
                if constexpr (run_time) {
                  value = u[e][n * C + min(c0 + c, C - 1)];
                } else {
                  const int i = n * Cc + c;
                  if (i % field_vector == 0) load_shared_vector(u[e] + i, field_chunk[e]);
                  value = field_chunk[e][i % field_vector];
                }
#pragma unroll
                for (int w = 0; w < W; ++w) result[e][c][w] += shape[w] * value;
              }
            if constexpr (physical) {
              const Real* x = s_coordinates + (z * N + n) * S;
#pragma unroll
              for (int k = 0; k < S; ++k)
#pragma unroll
                for (int d = 0; d < D; ++d) J[k][d] += double(x[k]) * double(shape[d]);
            }
          }
          Real point_results[K][CRc];
          double det = 0.0;
          if constexpr (physical) {
            det = jacobian_determinant(J);
            orientation |= orientation_of(det, shape_quality(J, det));
            double inverse[S][D];
            inverse_transpose(J, det, inverse);
#pragma unroll
            for (int c = 0; c < Cc; ++c) {
              double reference[D], gradient[S];
#pragma unroll
              for (int d = 0; d < D; ++d) reference[d] = double(result[0][c][d]);
              physical_gradient<S, D>(inverse, reference, gradient);
#pragma unroll
              for (int k = 0; k < S; ++k) point_results[0][c * R + k] = Real(gradient[k]);
            }
          } else {
#pragma unroll
            for (int e = 0; e < K; ++e)
#pragma unroll
              for (int c = 0; c < Cc; ++c)
#pragma unroll
                for (int w = 0; w < W; ++w) point_results[e][c * R + w] = result[e][c][w];
          }
#pragma unroll
          for (int e = 0; e < K; ++e) {
            if (e > 0 && element[e] >= here) break;
            if (from_registers) {
              store_point_results<CRc>(args.out + (offset_t(first + element[e]) * Q + q) * CR, point_results[e]);
            } else {
              const int stored = min(CRc, CR - c0 * R);  // CRc when C is compiled
              Real* staged = s_output + (element[e] * Q + q) * CRp + c0 * R;
#pragma unroll
              for (int i = 0; i < CRc; ++i)
                if (i < stored) staged[i] = point_results[e][i];
            }
          }
          if constexpr (physical)
            if (args.detj && c0 == 0) args.detj[ValuesLayout{args.elements, Q, 1}(first + z, q, 0)] = Real(det);
        }
      }
      if constexpr (physical)
        if (orientation) atomicOr(s_orientation + z, orientation);
    }
    if (from_registers && !physical) continue;  // stored; the next group's barrier A orders its gather
    __syncthreads();  // barrier C

    // Orientation: one thread per element reads its word, reports it if invalid, and clears it for the
    // next group (whose compute writes it only after the next barriers A and B).
    if constexpr (physical)
      if (thread < here) {
        if (!valid_orientation(s_orientation[thread]))
          atomicMin(args.first_bad, (unsigned long long)(first + thread));
        s_orientation[thread] = 0u;
      }

    // 5. store: the group's results are the contiguous range [first * Q*C*R, (first + here) * Q*C*R).
    // The next group's compute phase rewrites s_output only after two more barriers.
    if (!from_registers) {
      Real* out = args.out + GradientsLayout{args.elements, Q, C, R}(first, 0, 0, 0);  // R = 1: values
      if constexpr (run_time)
        store_group_results(out, s_output, here * per_element, CR, b);
      else
        store_group_results<CRc>(out, s_output, here * per_element, b);
    }
  }
}

/// At two elements per thread (layout/elements_per_thread.hpp), the reference gradients of 3D elements in
/// double are held to 40 registers (3 blocks of 512 threads), where none spills: 2 x 3 accumulators (12
/// registers) and two elements' nodal-value vectors, which at 32 registers ptxas spills (12-20 bytes:
/// p = 1-3 tetrahedra, p = 1 and 3 hexahedra), and the p = 1 tetrahedra and hexahedra then take up to
/// 1.30 times their one-element time (docs/performance/nvidia-h100-80gb-hbm3/elements-per-thread.md).
template <class Element, int C, Operation Op, int S, class Real>
constexpr bool capped_at_40_registers() {
  return packed_elements_per_thread(Op, C) > 1 && Op == Operation::reference_gradients && Element::dimension == 3 &&
         sizeof(Real) == 8;
}

/// The values and reference-gradient kernels that store from registers (packed_block.cuh), and in float
/// all of them, are held to 32 registers (4 blocks of 512 threads per multiprocessor: all 2048 threads
/// resident).
/// - Without the staged store, ptxas left free gives some of them 39-40 (p = 3 triangles', p = 2
///   quadrilaterals' and p = 2 tetrahedra's values with C = 3 in double, against 30-32 staged), and at 40
///   registers kernels take up to 1.04 times the staged time (p = 1 triangles and quadrilaterals, C = 2
///   reference gradients in double; register-stores.md).
/// - In float, reading the table's rows in 16-byte vectors gives p = 3 tetrahedra's and p = 1
///   hexahedra's C = 3 reference gradients 39-40 registers left free, and the tetrahedra's then take
///   0.602 ms against 0.548 at 32 registers without the vectors (table-rows.md).
/// Capped, none spills but two two-element kernels that are not their table's variant (sum-factorised
/// is): p = 2 quadrilaterals' reference gradients in double (24 bytes) and p = 3 quadrilaterals' in float
/// (16 bytes), still 0.96 and 0.89 of their one-element time (ptxas -v, sm_90, every element, C <= 3,
/// both precisions: scripts/kernel_registers.py). Physical gradients keep their 40-80 registers (the
/// Jacobian and its inverse): held to 64 in float, ptxas would give the small ones 47-64 instead of
/// 32-57; in double, the 64-register cap is a variant of its own (packed_kernel_64_registers below).
/// docs/performance/nvidia-h100-80gb-hbm3/ has the counts and times.
/// The kernels capped at 40 above are the exception.
/// The run-time-C kernel stages its results, so in double it is left free, as the staged compiled ones are.
template <class Element, int C, Operation Op, int S, class Real>
constexpr bool capped_at_32_registers() {
  constexpr int R = Op == Operation::values ? 1 : Element::dimension;
  constexpr bool stores_from_registers = C != run_time_components && few_point_results<C * R, Real>();
  return Op != Operation::physical_gradients && (stores_from_registers || sizeof(Real) == 4) &&
         !capped_at_40_registers<Element, C, Op, S, Real>();
}

template <class Element, int C, Operation Op, int S, class Real, bool AsyncGather>
__global__ void __launch_bounds__(max_threads_per_block) packed_kernel(const KernelArgs<Real> args) {
  packed_body<Element, C, Op, S, Real, AsyncGather>(args);
}

/// The dense_64_registers variant (tuning/kernel_variant.hpp): two blocks of 512 threads per multiprocessor.
/// Physical gradients only, where ptxas left free gives the 3D kernels in double with C = 3 76 to 85
/// registers (sm_90) and one block per multiprocessor; capped they spill 12-32 bytes, and the sweep times
/// them against the free ones (docs/performance/nvidia-h200/register-caps.md: 0.955 to 1.11 of the time).
template <class Element, int C, Operation Op, int S, class Real, bool AsyncGather>
__global__ void __launch_bounds__(max_threads_per_block, 2) packed_kernel_64_registers(const KernelArgs<Real> args) {
  packed_body<Element, C, Op, S, Real, AsyncGather>(args);
}

template <class Element, int C, Operation Op, int S, class Real, bool AsyncGather>
__global__ void __launch_bounds__(max_threads_per_block, 3) packed_kernel_40_registers(const KernelArgs<Real> args) {
  packed_body<Element, C, Op, S, Real, AsyncGather>(args);
}

template <class Element, int C, Operation Op, int S, class Real, bool AsyncGather>
__global__ void __launch_bounds__(max_threads_per_block, 4) packed_kernel_32_registers(const KernelArgs<Real> args) {
  packed_body<Element, C, Op, S, Real, AsyncGather>(args);
}

}  // namespace feinterp::backends::cuda
