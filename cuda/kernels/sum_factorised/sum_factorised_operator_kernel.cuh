// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised fused operators for quadrilaterals and hexahedra at tensor-product point sets, in one
// pass with no point data in global memory, and the passes that precompute their geometric factors
// (layout/tensor_operator_layout.hpp's TensorOperatorKind):
//   diffusion              r = A u, A_ij = sum_e sum_q w_q |det J| grad phi_i . kappa grad phi_j, with J
//                          from the coordinates contracted beside the field
//   diffusion_precomputed  the same from w_q |det J| K^T K read per point, times a scalar kappa
//   mass_precomputed       r = M u from w_q |det J| read per point, times rho
//   *_factors              those factors, written per point: no field, no adjoint
// The forward stages are sum_factorised_kernel.cuh's and the adjoint ones sum_factorised_transpose_kernel.cuh's
// (unit stages, fem/sum_factorisation.hpp); packed as those kernels are: elements along threadIdx.z, a
// persistent grid over groups, the connectivity one group ahead.
//
//   1. tables       B, G and the permutations -> shared, once per block
//   2. connectivity one group ahead, cp.async; a colour's launch reads its element list
//   3. gather       the group's C field components (rows 0 .. C - 1) and S coordinates (the next rows), as
//                   the kind needs them, onto each element's node lattice (buffer 0)
//   4. forward      the d stages: values or reference gradients at each lattice point
//   5. points       thread (l, z), point q = point_of_lattice[l]: the kind's pointwise work
//                   (fem/sum_factorisation.hpp); where J is computed, the orientation policy of the
//                   other geometric kernels (args.first_bad)
//   6. adjoint      the adjoint stages, axis d - 1 first, to the C x N nodal lattice
//   7. store        atomicAdd into the nodes, += for a colour's launch, or into the element vector
//
// Work per element and component: O(d (p+1)^(d+1)) multiply-adds each way, and O(d^2 S) per point
// where J is computed, against the dense fused kernel's O(N Q d) for the gradients and O(N Q d S) for J.
// Precomputed factors live at factors[(e * T + t) * Q + l]: lattice order, so that a warp's loads of
// one entry are contiguous.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/tensor_operator_layout.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_block.cuh>

namespace feinterp::backends::cuda {

/// Cs: the component count C, or run_time_components for C read from args.components (the factor passes
/// ignore it). S: the space dimension where the kind reads the coordinates (the precomputed kinds ignore it).
template <class Element, int Q1, int Cs, int S, class Real, TensorOperatorKind Kind>
__device__ __forceinline__ void tensor_operator_body(const KernelArgs<Real>& args) {
  constexpr int D = Element::dimension;
  constexpr int P1 = Element::order + 1;
  constexpr int N = Element::nodes_per_element;
  constexpr int Q = integer_power(Q1, D);
  constexpr bool field = gathers_field(Kind), coordinates = gathers_coordinates(Kind);
  constexpr bool gradients = contracts_gradients(Kind), adjoint = runs_adjoint(Kind);
  constexpr bool diffusion = Kind == TensorOperatorKind::diffusion || Kind == TensorOperatorKind::diffusion_precomputed ||
                             Kind == TensorOperatorKind::diffusion_factors;
  constexpr int T = operator_factor_entries(Kind, D);
  constexpr bool run_time = Cs == run_time_components;
  const int C = !field ? 0 : run_time ? args.components : Cs;
  static_assert(D >= 2 && N == integer_power(P1, D), "a quadrilateral or hexahedron: P1^d nodes");

  const int elements_per_block = blockDim.z;
  const TensorTransposeSharedLayout layout =
      tensor_operator_shared_layout(Kind, D, P1, Q1, S, C, elements_per_block, sizeof(Real));
  const int Qp = layout.padded_points;
  extern __shared__ __align__(16) unsigned char shared[];
  Real* s_basis = reinterpret_cast<Real*>(shared + layout.basis);
  int* s_maps = reinterpret_cast<int*>(shared + layout.maps);
  node_index* s_connectivity = reinterpret_cast<node_index*>(shared + layout.connectivity);
  unsigned* s_orientation = reinterpret_cast<unsigned*>(shared + layout.orientation);
  Real* s_data = reinterpret_cast<Real*>(shared + layout.data);
  Real* s_buffer[2] = {reinterpret_cast<Real*>(shared + layout.buffer[0]),
                       reinterpret_cast<Real*>(shared + layout.buffer[1])};

  const BlockThreads b = block_threads();
  const int thread = b.thread, threads = b.threads, z = b.z;
  const offset_t groups = (args.elements + elements_per_block - 1) / elements_per_block;
  auto element_of = [&](offset_t i) -> offset_t { return args.element_list ? __ldg(args.element_list + i) : i; };

  // 1. tables
  load_tensor_tables(args, s_basis, s_maps, P1, Q1, N, Q, b);
  for (int i = thread; i < elements_per_block; i += threads) s_orientation[i] = 0u;
  const Real* B = s_basis;
  const Real* G = s_basis + Q1 * P1;
  const int* node_lattice = s_maps;
  const int* point_of_lattice = s_maps + N;

  // 2. connectivity
  auto fetch_connectivity = [&](offset_t group, node_index* target) {
    copy_group_connectivity_async<N>(args.connectivity, args.element_list, args.elements, group, elements_per_block, target, b);
  };
  int connectivity_buffer = 0;
  if (blockIdx.x < groups) fetch_connectivity(blockIdx.x, s_connectivity);

  Real* data = s_data + z * layout.data_stride;
  Real* mine[2] = {s_buffer[0] + z * layout.stride[0], s_buffer[1] + z * layout.stride[1]};

  for (offset_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const offset_t first = group * elements_per_block;
    const int here = group_size(args.elements, group, elements_per_block);  // the last group: partial
    const node_index* connectivity = s_connectivity + connectivity_buffer * layout.connectivity_stride;
    __pipeline_wait_prior(0);
    __syncthreads();  // barrier A: the previous group's store is done with the buffers

    // 3. gather: the field's components, then the coordinates, onto the node lattices of buffer 0.
    if constexpr (field) {
      StridedDivision<Cs> by_components(thread, threads, C);
      for (int i = thread; i < here * N * C; i += threads, by_components.next()) {
        const int local_node = by_components.quotient(i), c = by_components.remainder(i);
        const int element = local_node / N, n = local_node - element * N;
        gather_async(s_buffer[0] + element * layout.stride[0] + c * N + node_lattice[n],
                     args.field + offset_t(connectivity[local_node]) * C + c);
      }
    }
    if constexpr (coordinates)
      gather_lattice_coordinates<N, S>(args.coordinates, connectivity, here,
                                       [node_lattice](int n) { return node_lattice[n]; }, s_buffer[0], layout.stride[0],
                                       C, N, b);
    wait_for_gather();
    __syncthreads();  // barrier B
    connectivity_buffer ^= 1;
    if (group + gridDim.x < groups)
      fetch_connectivity(group + gridDim.x, s_connectivity + connectivity_buffer * layout.connectivity_stride);

    const bool active = z < here;
    const int worker = threadIdx.x, workers = blockDim.x;
    const int F = C + (coordinates ? S : 0);

    // 4. forward: the F fields' values or reference gradients on the point lattice, rows (f * V + k) of
    // buffer d % 2, lattice order.
    constexpr int points_buffer = D % 2;
    if (active) tensor_contract<D, P1, Q1, gradients, 0>(F, worker, workers, mine[0], mine[1], B, G);
    __syncthreads();
    if constexpr (D == 3) {
      if (active) tensor_contract<D, P1, Q1, gradients, 1>(F, worker, workers, mine[1], mine[0], B, G);
      __syncthreads();
    }
    if (active) tensor_contract<D, P1, Q1, gradients, D - 1>(F, worker, workers, mine[(D - 1) % 2], mine[points_buffer], B, G, Q);
    __syncthreads();

    // 5. points
    if (active) {
      const offset_t e = element_of(first + z);
      unsigned orientation = 0u;
      for (int l = worker; l < Q; l += workers) {
        const int q = point_of_lattice[l];
        if constexpr (Kind == TensorOperatorKind::diffusion) {
          const Real* kappa = args.coefficient + (e * Q + q) * args.coefficient_entries;
          tensor_diffusion_point<D, S>(C, mine[points_buffer], Q, l, data, Qp, q, args.weights, kappa,
                                       args.coefficient_entries, orientation);
        } else if constexpr (coordinates) {  // a factor pass
          tensor_operator_factors<D, S, diffusion>(mine[points_buffer], Q, l, args.weights[q],
                                                   args.out + e * T * Q + l, Q, orientation);
        } else {
          const Real scale = args.coefficient ? __ldg(args.coefficient + e * Q + q) : Real(1);
          tensor_precomputed_operator_point<D, diffusion>(C, mine[points_buffer], Q, l, data, Qp, q,
                                                          args.geometry + e * T * Q + l, Q, scale);
        }
      }
      if (coordinates && orientation) atomicOr(s_orientation + z, orientation);
    }
    __syncthreads();
    if constexpr (coordinates) {
      if (thread < here) {
        if (!valid_orientation(s_orientation[thread])) atomicMin(args.first_bad, (unsigned long long)element_of(first + thread));
        s_orientation[thread] = 0u;
      }
    }
    if constexpr (adjoint) {
      // 6. adjoint: step j runs stage d - 1 - j into buffer j % 2 (the forward output's buffer is free
      // again: its last reader, the points, finished before the barrier above).
      if (active)
        tensor_contract_transpose<D, P1, Q1, gradients, D - 1>(C, worker, workers, data, mine[0], B, G, Qp,
                                                               gradients ? D : 1, point_of_lattice);
      __syncthreads();
      if constexpr (D == 3) {
        if (active) tensor_contract_transpose<D, P1, Q1, gradients, 1>(C, worker, workers, mine[0], mine[1], B, G);
        __syncthreads();
      }
      constexpr int lattice_buffer = (D - 1) % 2;
      if (active)
        tensor_contract_transpose<D, P1, Q1, gradients, 0>(C, worker, workers, mine[1 - lattice_buffer],
                                                           mine[lattice_buffer], B, G);
      __syncthreads();

      // 7. store
      const Real* lattice = s_buffer[lattice_buffer];
      StridedDivision<Cs> by_store(thread, threads, C);
      for (int i = thread; i < here * N * C; i += threads, by_store.next()) {
        const int local_node = by_store.quotient(i), c = by_store.remainder(i);
        const int element = local_node / N, n = local_node - element * N;
        const Real value = lattice[element * layout.stride[lattice_buffer] + c * N + node_lattice[n]];
        if (args.store == TransposeStore::element_vectors) {
          args.out[ElementVectorLayout{args.elements, N, C}(element_of(first + element), n, c)] = value;
        } else {
          Real* target = args.out + offset_t(connectivity[local_node]) * C + c;
          if (args.store == TransposeStore::atomic_add)
            atomicAdd(target, value);
          else
            *target += value;
        }
      }
    }
  }
}

template <class Element, int Q1, int C, int S, class Real, TensorOperatorKind Kind>
__global__ void __launch_bounds__(max_threads_per_block) sum_factorised_operator_kernel(const KernelArgs<Real> args) {
  tensor_operator_body<Element, Q1, C, S, Real, Kind>(args);
}

}  // namespace feinterp::backends::cuda
