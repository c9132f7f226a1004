// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised transpose kernel: point data back to the nodes for quadrilaterals and hexahedra at
// tensor-product point sets, the adjoint of sum_factorised_kernel.cuh's forward operations, with the semantics
// of transpose_kernel.cuh (TransposeStore: atomics into the nodes, += for a colour's launch, or element
// vectors; weighted: w_q |det J| folded in; an element list for a colour). Packed the same way: elements
// along threadIdx.z, a persistent grid over groups, the connectivity one group ahead.
//
//   1. tables       B, G and the permutations -> shared, once per block
//   2. connectivity one group ahead, cp.async; a colour's launch reads its element list
//   3. load         the group's point data, E * Q * C * R reals read in global order (one contiguous run
//                   unless the launch runs a colour's list) into [z][c*R + r][q]; geometric transposes
//                   also gather the coordinates into the node lattice
//   4. points       (geometric) the coordinates through the forward stages to J at each lattice point;
//                   then tensor_transpose_point: K^T for physical gradients, w_q |det J| when weighted, in
//                   place; the orientation policy as in the dense kernels (args.first_bad)
//   5. stages       the adjoint stages, axis d - 1 first, reading the data rows through point_of_lattice
//                   (the point permutation, on the way in) and ending on the C x N nodal lattice
//   6. store        thread (element, node, component) reads its lattice slot node_lattice[n] (the node
//                   permutation, on the way out) and adds it into the node (atomicAdd, or += for a
//                   colour) or writes the element vector
//
// Work per element and component: O(d (p+1)^(d+1)) multiply-adds, against the dense transpose's N x Q x W.
// The fused Laplacian stays with the dense kernel.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/tensor_transpose_launch_shape.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_block.cuh>

namespace feinterp::backends::cuda {

/// Forward: the operation whose transpose this is. Geometric: J is computed (physical gradients, or
/// weighted); S matters only then. Cs: the component count C, or run_time_components for C read from
/// args.components (layout/component_kernels.hpp).
template <class Element, int Q1, int Cs, Operation Forward, int S, bool Geometric, class Real>
__device__ __forceinline__ void tensor_transpose_body(const KernelArgs<Real>& args) {
  constexpr int D = Element::dimension;
  constexpr int P1 = Element::order + 1;
  constexpr int N = Element::nodes_per_element;
  constexpr int Q = integer_power(Q1, D);
  constexpr bool gradients = Forward != Operation::values;
  constexpr bool physical = Forward == Operation::physical_gradients;
  constexpr int R = physical ? S : gradients ? D : 1;
  constexpr bool run_time = Cs == run_time_components;
  const int C = run_time ? args.components : Cs;
  const int CR = C * R;
  static_assert(!physical || Geometric, "the physical-gradient transpose needs the geometry");
  static_assert(D >= 2 && N == integer_power(P1, D), "a quadrilateral or hexahedron: P1^d nodes");

  const int elements_per_block = blockDim.z;
  const TensorTransposeSharedLayout layout =
      tensor_transpose_shared_layout(D, P1, Q1, S, Forward, Geometric, C, elements_per_block, sizeof(Real));
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
  const int per_element = Q * CR;
  auto element_of = [&](offset_t i) -> offset_t { return args.element_list ? __ldg(args.element_list + i) : i; };

  // 1. tables
  load_tensor_tables(args, s_basis, s_maps, P1, Q1, N, Q, b);
  if constexpr (Geometric)
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

    // 3. load: i = element * per_element + r, r = q * CR + cr, as the forward kernels store it.
    {
      RunWalk walk(thread, threads, per_element);
      const Real* run = args.field + first * per_element;  // the contiguous case
      StridedDivision<Cs * R> by_points(thread, threads, CR);  // i / CR: the group's point walk.element * Q + q
      for (int i = thread; i < here * per_element; i += threads, walk.next(), by_points.next()) {
        const int q = Cs > 0 ? walk.r / (Cs * R) : by_points.quotient(i) - walk.element * Q;
        const int cr = Cs > 0 ? walk.r - q * (Cs * R) : by_points.remainder(i);
        const Real value = args.element_list
                               ? __ldg(args.field + element_of(first + walk.element) * per_element + walk.r)
                               : __ldg(run + i);
        s_data[walk.element * layout.data_stride + cr * Qp + q] = value;
      }
    }
    if constexpr (Geometric) {
      gather_lattice_coordinates<N, S>(args.coordinates, connectivity, here,
                                       [node_lattice](int n) { return node_lattice[n]; }, s_buffer[0],
                                       layout.stride[0], 0, N, b);
      wait_for_gather();
    }
    __syncthreads();  // barrier B
    connectivity_buffer ^= 1;
    if (group + gridDim.x < groups)
      fetch_connectivity(group + gridDim.x, s_connectivity + connectivity_buffer * layout.connectivity_stride);

    const bool active = z < here;
    const int worker = threadIdx.x, workers = blockDim.x;

    // 4. points
    if constexpr (Geometric) {
      constexpr int J_buffer = D % 2;
      if (active) tensor_contract<D, P1, Q1, true, 0>(S, worker, workers, mine[0], mine[1], B, G);
      __syncthreads();
      if constexpr (D == 3) {
        if (active) tensor_contract<D, P1, Q1, true, 1>(S, worker, workers, mine[1], mine[0], B, G);
        __syncthreads();
      }
      if (active) tensor_contract<D, P1, Q1, true, D - 1>(S, worker, workers, mine[(D - 1) % 2], mine[J_buffer], B, G, Q);
      __syncthreads();
      if (active) {
        unsigned orientation = 0u;
        for (int l = worker; l < Q; l += workers)
          tensor_transpose_point<D, S, R, physical>(C, mine[J_buffer], Q, l, data, Qp, point_of_lattice[l],
                                                       args.weights, orientation);
        if (orientation) atomicOr(s_orientation + z, orientation);
      }
      __syncthreads();
      if (thread < here) {
        if (!valid_orientation(s_orientation[thread]))
          atomicMin(args.first_bad, (unsigned long long)element_of(first + thread));
        s_orientation[thread] = 0u;
      }
    }

    // 5. the adjoint stages: step j runs stage d - 1 - j into buffer j % 2 (J's buffer is free again: its
    // last reader, the points, finished before the barrier above).
    if (active)
      tensor_contract_transpose<D, P1, Q1, gradients, D - 1>(C, worker, workers, data, mine[0], B, G, Qp, R,
                                                                point_of_lattice);
    __syncthreads();
    if constexpr (D == 3) {
      if (active) tensor_contract_transpose<D, P1, Q1, gradients, 1>(C, worker, workers, mine[0], mine[1], B, G);
      __syncthreads();
    }
    constexpr int lattice_buffer = (D - 1) % 2;  // layout.lattice_buffer, as a constant
    if (active) tensor_contract_transpose<D, P1, Q1, gradients, 0>(C, worker, workers, mine[1 - lattice_buffer],
                                                                      mine[lattice_buffer], B, G);
    __syncthreads();

    // 6. store: i = (element, node, component), consecutive threads a node's consecutive components.
    const Real* lattice = s_buffer[lattice_buffer];
    StridedDivision<Cs> by_components(thread, threads, C);
    for (int i = thread; i < here * N * C; i += threads, by_components.next()) {
      const int local_node = by_components.quotient(i), c = by_components.remainder(i);
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

template <class Element, int Q1, int C, Operation Forward, int S, bool Geometric, class Real>
__global__ void __launch_bounds__(max_threads_per_block) sum_factorised_transpose_kernel(const KernelArgs<Real> args) {
  tensor_transpose_body<Element, Q1, C, Forward, S, Geometric, Real>(args);
}

}  // namespace feinterp::backends::cuda
