// SPDX-License-Identifier: BSD-3-Clause
// The packed transpose kernel: point data back to the nodes, the adjoint of packed_kernel.cuh's forward
// operations, with the same packing (elements_per_block elements per block along threadIdx.z, a
// persistent grid striding over groups) and the same connectivity pipeline.
//
//   1. table        the transposed table [q][w][n] -> shared, once per block
//   2. connectivity one group ahead, cp.async (as forward); a colour's launch reads its element list
//   3. load         the group's point data, E * Q * C * R reals (one contiguous run unless the launch
//                   runs a colour's list), read in global order and transposed into [z][c*R + r][q];
//                   geometric transposes also gather the coordinates
//   4. points       (geometric) thread (q, z): J, det J and K at its points; physical gradients mapped
//                   back through K^T, then everything scaled by w_q |det J| when weighted, in place
//   5. nodes        thread (n, z): y[c] = sum_q sum_w table[q][w][n] data[z][c*W + w][q], C accumulators
//                   in registers; then stored: atomicAdd into the nodes, += (a colour: no two elements
//                   of the launch share a node), or into the element vector
//
// Threads per element: max(N, Q) up to max_threads_per_element, since step 4 runs over points and step
// 5 over nodes.
//
// Fused (the mass and diffusion operators, Interpolator::apply_operator): step 3 gathers the nodal field
// instead of point data, and step 4 computes each point's values (mass) or reference gradients (diffusion)
// from it (the forward kernel's sums); gradients go to physical ones through K, through kappa, and straight
// back through K^T; everything is scaled by w_q |det J| (and rho): the weighted transpose of the field's own
// values or gradients, with no point data in global memory. The coefficient (args.coefficient, T values per
// point, fem/coefficient.hpp) is read once per point. Degenerate elements are flagged as in the forward
// kernel (args.first_bad, the element's index in the block).
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <type_traits>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>

namespace feinterp::backends::cuda {

/// pass(std::integral_constant<int, width>{}) for a run-time width in 1..MaxWidth; nothing for 0.
template <int MaxWidth, class Pass>
__device__ __forceinline__ void exact_width_pass(int width, Pass&& pass) {
  if constexpr (MaxWidth > 0) {
    if (width == MaxWidth) pass(std::integral_constant<int, MaxWidth>{});
    else exact_width_pass<MaxWidth - 1>(width, pass);
  }
}

/// The run-time-C transposes' widest pass of step 5: its accumulators are a compiled C = 4 kernel's.
inline constexpr int nodes_pass_max_width = 4;

/// Step 5 of the run-time-C kernel over C components: ceil(C / nodes_pass_max_width) passes of balanced
/// widths, the wider first (C = 7: 4 + 3, C = 9: 3 + 3 + 3), each calling pass(width, c0). A pass is one
/// read of the transposed table and Width dependent chains of FMAs: narrow tail passes (C = 4 as 3 + 1,
/// C = 8 as 3 + 3 + 2) cost hexahedra p = 2 and 3 up to 1.4 times the compiled kernel's time.
template <class Pass>
__device__ __forceinline__ void balanced_passes(int C, Pass&& pass) {
  const int passes = (C + nodes_pass_max_width - 1) / nodes_pass_max_width;
  int c0 = 0;
  for (int left = passes; left > 0; --left) {
    const int width = (C - c0 + left - 1) / left;
    exact_width_pass<nodes_pass_max_width>(width, [&](auto w) { pass(w, c0); });
    c0 += width;
  }
}

/// Forward: the operation whose transpose this is. Geometric: J is computed (physical gradients, or
/// weighted); S matters only then. Cs: the component count C, or run_time_components for C read from
/// args.components (layout/component_kernels.hpp); step 4 (fused) then takes run_time_component_chunk
/// components per pass, and step 5 balanced_passes.
template <class Element, int Cs, Operation Forward, int S, bool Geometric, bool Fused, class Real>
__device__ __forceinline__ void transpose_body(const KernelArgs<Real>& args) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int W = Forward == Operation::values ? 1 : D;
  constexpr bool physical = Forward == Operation::physical_gradients;
  constexpr int R = physical ? S : W;
  constexpr bool run_time = Cs == run_time_components;
  const int C = run_time ? args.components : Cs;
  constexpr int Cc = run_time ? run_time_component_chunk : Cs;  // components per pass of step 4 (fused)
  const int CR = C * R;
  static_assert(!physical || Geometric, "the physical-gradient transpose needs the geometry");
  static_assert(!Fused || Geometric, "a fused operator is weighted");
  static_assert(!Fused || Forward != Operation::reference_gradients, "the fused operators: mass and diffusion");

  const int Q = args.points;
  const int elements_per_block = blockDim.z;
  const TransposeSharedLayout layout =
      transpose_shared_layout(N, D, S, Forward, Geometric, Fused, Q, C, elements_per_block, sizeof(Real));
  const int Qp = layout.padded_points;
  extern __shared__ __align__(16) unsigned char shared[];
  Real* s_table = reinterpret_cast<Real*>(shared + layout.table);
  Real* s_data = reinterpret_cast<Real*>(shared + layout.data);
  Real* s_coordinates = reinterpret_cast<Real*>(shared + layout.coordinates);
  Real* s_field = reinterpret_cast<Real*>(shared + layout.field);
  node_index* s_connectivity = reinterpret_cast<node_index*>(shared + layout.connectivity);
  unsigned* s_orientation = reinterpret_cast<unsigned*>(shared + layout.orientation);

  const BlockThreads b = block_threads();
  const int thread = b.thread, threads = b.threads, z = b.z;
  const offset_t groups = (args.elements + elements_per_block - 1) / elements_per_block;
  const int per_element = Q * CR;
  // The block's i-th element of this launch.
  auto element_of = [&](offset_t i) -> offset_t { return args.element_list ? __ldg(args.element_list + i) : i; };

  for (int i = thread; i < N * W * Q; i += threads) s_table[i] = __ldg(args.table + i);
  if constexpr (Geometric)
    for (int i = thread; i < elements_per_block; i += threads) s_orientation[i] = 0u;

  auto fetch_connectivity = [&](offset_t group, node_index* target) {
    copy_group_connectivity_async<N>(args.connectivity, args.element_list, args.elements, group, elements_per_block, target, b);
  };
  int buffer = 0;
  if (blockIdx.x < groups) fetch_connectivity(blockIdx.x, s_connectivity);

  for (offset_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const offset_t first = group * elements_per_block;
    const int here = group_size(args.elements, group, elements_per_block);  // the last group: partial
    const node_index* connectivity = s_connectivity + buffer * layout.connectivity_stride;
    __pipeline_wait_prior(0);
    __syncthreads();  // barrier A: the previous group's step 5 is done with s_data

    // 3. load: i = element * per_element + r, r = q * CR + cr, as the forward kernel's store.
    if constexpr (Fused) {
      StridedDivision<Cs> by_components(thread, threads, C);
      for (int i = thread; i < here * N * C; i += threads, by_components.next()) {
        const int local_node = by_components.quotient(i), c = by_components.remainder(i);
        s_field[i] = __ldg(args.field + offset_t(connectivity[local_node]) * C + c);
      }
    } else {
      RunWalk walk(thread, threads, per_element);  // i = walk.element * per_element + walk.r
      const Real* run = args.field + first * per_element;  // the contiguous case
      StridedDivision<Cs * R> by_points(thread, threads, CR);  // i / CR: the group's point walk.element * Q + q
      for (int i = thread; i < here * per_element; i += threads, walk.next(), by_points.next()) {
        const int q = Cs > 0 ? walk.r / (Cs * R) : by_points.quotient(i) - walk.element * Q;
        const int cr = Cs > 0 ? walk.r - q * (Cs * R) : by_points.remainder(i);
        const Real value = args.element_list ? __ldg(args.field + element_of(first + walk.element) * per_element + walk.r)
                                             : __ldg(run + i);
        s_data[(walk.element * CR + cr) * Qp + q] = value;
      }
    }
    if constexpr (Geometric) {
      for (int i = thread; i < here * N * S; i += threads) {
        const int local_node = i / S, k = i - local_node * S;
        s_coordinates[i] = __ldg(args.coordinates + offset_t(connectivity[local_node]) * 3 + k);
      }
    }
    __syncthreads();  // barrier B
    buffer ^= 1;
    if (group + gridDim.x < groups) fetch_connectivity(group + gridDim.x, s_connectivity + buffer * layout.connectivity_stride);

    // 4. points
    if constexpr (Geometric) {
      if (z < here) {
        unsigned orientation = 0u;
        for (int q = threadIdx.x; q < Q; q += blockDim.x) {
          double J[S][D];
#pragma unroll
          for (int k = 0; k < S; ++k)
#pragma unroll
            for (int d = 0; d < D; ++d) J[k][d] = 0.0;
          // Fused: the field's values or reference gradients at q, components c0 .. c0 + Cc - 1 per pass
          // (one pass when C is compiled); J is summed in the first.
          double K[S][D];
          double factor = 1.0;
          Real* data = s_data + z * CR * Qp + q;
          const Real* kappa = args.coefficient + (offset_t(element_of(first + z)) * Q + q) * args.coefficient_entries;
          for (int c0 = 0; c0 < (Fused ? C : 1); c0 += Cc) {
            Real reference[Fused ? Cc : 1][W];
            if constexpr (Fused)
#pragma unroll
              for (int c = 0; c < Cc; ++c)
#pragma unroll
                for (int w = 0; w < W; ++w) reference[c][w] = Real(0);
#pragma unroll
            for (int n = 0; n < N; ++n) {
              const Real* x = s_coordinates + (z * N + n) * S;
#pragma unroll
              for (int d = 0; d < D; ++d) {
                const Real shape_real = __ldg(args.geometry_table + (n * D + d) * Q + q);
                const double shape = double(shape_real);
                if (c0 == 0)
#pragma unroll
                  for (int k = 0; k < S; ++k) J[k][d] += double(x[k]) * shape;
                if constexpr (Fused && physical)
#pragma unroll
                  for (int c = 0; c < Cc; ++c)
                    reference[c][d] += shape_real * s_field[(z * N + n) * C + (run_time ? min(c0 + c, C - 1) : c)];
              }
              if constexpr (Fused && !physical) {  // mass: the values table, [q][n] in shared memory
                const Real t = s_table[q * N + n];
#pragma unroll
                for (int c = 0; c < Cc; ++c) reference[c][0] += t * s_field[(z * N + n) * C + (run_time ? min(c0 + c, C - 1) : c)];
              }
            }
            if (c0 == 0) {
              const double det = jacobian_determinant(J);
              orientation |= orientation_of(det, shape_quality(J, det));
              factor = args.weights ? double(__ldg(args.weights + q)) * fabs(det) : 1.0;
              if (Fused && args.coefficient_entries == 1) factor *= double(kappa[0]);  // rho, or a scalar kappa
              if constexpr (physical) inverse_transpose(J, det, K);
            }
            if constexpr (Fused && physical) {  // this pass's components: K^T kappa K times their reference gradients
#pragma unroll
              for (int c = 0; c < Cc; ++c) {
                if (c0 + c >= C) break;
                double computed[D], g[S], back[D];
#pragma unroll
                for (int d = 0; d < D; ++d) computed[d] = double(reference[c][d]);
                physical_gradient<S, D>(K, computed, g);
                if (args.coefficient_entries > 1) apply_coefficient<S>(kappa, args.coefficient_entries, g);
                physical_gradient_transpose<S, D>(K, g, back);
#pragma unroll
                for (int d = 0; d < D; ++d) data[((c0 + c) * R + d) * Qp] = Real(back[d] * factor);
              }
            } else if constexpr (Fused) {  // mass: this pass's values times w_q |det J| rho
#pragma unroll
              for (int c = 0; c < Cc; ++c) {
                if (c0 + c >= C) break;
                data[(c0 + c) * Qp] = Real(double(reference[c][0]) * factor);
              }
            } else if constexpr (physical) {  // every component's g, read back from the point data
#pragma unroll
              for (int c = 0; c < C; ++c) {
                double g[S], back[D];
#pragma unroll
                for (int k = 0; k < S; ++k) g[k] = double(data[(c * R + k) * Qp]);
                physical_gradient_transpose<S, D>(K, g, back);
#pragma unroll
                for (int d = 0; d < D; ++d) data[(c * R + d) * Qp] = Real(back[d] * factor);
              }
            } else {
#pragma unroll
              for (int cr = 0; cr < CR; ++cr) data[cr * Qp] = Real(double(data[cr * Qp]) * factor);
            }
          }
        }
        if (orientation) atomicOr(s_orientation + z, orientation);
      }
      __syncthreads();  // barrier C
      if (thread < here) {
        if (!valid_orientation(s_orientation[thread]))
          atomicMin(args.first_bad, (unsigned long long)element_of(first + thread));
        s_orientation[thread] = 0u;
      }
    }

    // 5. nodes
    if (z < here) {
      const offset_t e = element_of(first + z);
      const Real* data = s_data + z * CR * Qp;
      for (int n = threadIdx.x; n < N; n += blockDim.x) {
        // Components c0 .. c0 + Width - 1: all C in one pass when C is compiled, balanced_passes when not.
        auto nodes_pass = [&](auto width, int c0) {
          constexpr int Width = decltype(width)::value;
          Real y[Width];
#pragma unroll
          for (int c = 0; c < Width; ++c) y[c] = Real(0);
          for (int q = 0; q < Q; ++q) {
#pragma unroll
            for (int w = 0; w < W; ++w) {
              const Real t = s_table[(q * W + w) * N + n];
#pragma unroll
              for (int c = 0; c < Width; ++c) y[c] += t * data[((c0 + c) * R + w) * Qp + q];
            }
          }
          if (args.store == TransposeStore::element_vectors) {
            Real* out = args.out + ElementVectorLayout{args.elements, N, C}(e, n, c0);
#pragma unroll
            for (int c = 0; c < Width; ++c) out[c] = y[c];
          } else {
            Real* out = args.out + offset_t(connectivity[z * N + n]) * C + c0;
            if (args.store == TransposeStore::atomic_add) {
#pragma unroll
              for (int c = 0; c < Width; ++c) atomicAdd(out + c, y[c]);
            } else {
#pragma unroll
              for (int c = 0; c < Width; ++c) out[c] += y[c];
            }
          }
        };
        if constexpr (run_time) {
          balanced_passes(C, nodes_pass);
        } else {
          nodes_pass(std::integral_constant<int, Cs>{}, 0);
        }
      }
    }
  }
}

/// __launch_bounds__'s blocks of max_threads_per_block per SM for the run-time-C kernel, which sets its
/// registers: 2 (at most 64) or 1 (at most 128); 0 leaves ptxas its own choice, as for the compiled and the
/// fused kernels. Unbounded, ptxas gave p = 1 quadrilaterals' physical-gradient transpose 102 registers
/// (its compiled C = 4 kernel: 58), and its blocks of 8 elements x 4 threads a third fewer places per SM:
/// 1.4 times the compiled kernel's time. Where one element's table at its node points takes 32 KB or more
/// (p = 3 hexahedra: 32 KB of values, 96 KB of gradients in FP64), shared memory leaves room for a few blocks
/// of N threads per SM whatever their registers, and 128 of them keep more of the table's loads in flight:
/// 0.66-1.06 of the compiled kernels' time at C = 4..8 (docs/performance/nvidia-h200/run-time-components.md).
template <class Element, int C, Operation Forward, bool Fused, class Real>
constexpr int transpose_min_blocks() {
  if (C != run_time_components || Fused) return 0;
  constexpr int N = Element::nodes_per_element;
  constexpr int W = Forward == Operation::values ? 1 : Element::dimension;
  return N * N * W * int(sizeof(Real)) >= 32 * 1024 ? 1 : 2;
}

template <class Element, int C, Operation Forward, int S, bool Geometric, bool Fused, class Real>
__global__ void __launch_bounds__(max_threads_per_block, (transpose_min_blocks<Element, C, Forward, Fused, Real>()))
    transpose_kernel(const KernelArgs<Real> args) {
  transpose_body<Element, C, Forward, S, Geometric, Fused, Real>(args);
}

}  // namespace feinterp::backends::cuda
