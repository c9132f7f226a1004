// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised interpolation kernel, for quadrilaterals and hexahedra at tensor-product point sets
// (fem/tensor_structure.hpp): O(d (p+1)^(d+1)) work per element and component instead of the dense
// kernel's (p+1)^(2d) (hexahedra p = 3, reference gradients at Q1 = 4: 2,048 multiply-adds per
// component instead of 12,288).
//
// The block is packed as the dense kernel's (packed_kernel.cuh): elements_per_block elements along
// threadIdx.z, a persistent grid striding over groups of consecutive elements, the connectivity copied
// one group ahead (cp.async), and the group's output stored as one contiguous, coalesced run. What
// differs is the compute, in stages separated by block-wide barriers (every thread reaches every barrier;
// only the work is guarded by z < here), with one thread per line of the largest stage and field along
// threadIdx.x (layout/tensor_launch_shape.hpp: 16 x F threads per p3 hexahedron at Q1 = 4, up to 128):
//
//   1. tables       the two permutations -> shared, once per block; B and G (Q1 x P1 each) are read
//                   from the kernel's arguments (KernelArgs::tensor_tables, __grid_constant__): every
//                   line thread reads the same entry at the same moment, a uniform operand
//   2. connectivity as the dense kernel
//   3. gather       u[dof(node, C, c)] -> the element's lattice slot node_lattice[n], rows padded to
//                   odd (the node permutation is applied here, on the way in); physical gradients also
//                   gather the S coordinates as fields C .. C + S - 1, so that the same stages contract J.
//                   Asynchronous copies (gather_async), waited for once before barrier B: with the
//                   padded stage rows they take hex p3 C = 1 reference gradients to 0.82 of the loads'
//                   time (docs/performance/nvidia-h100-80gb-hbm3/gather-async.md). Values and reference
//                   gradients issue the next group's gather right after the last stage, into the buffer
//                   that stage read (for quadrilaterals the two buffers then swap roles), so that it
//                   overlaps this group's store (gather_ahead below)
//   4. stages       tensor_contract_lines, axis 0, 1 (, 2), between the element's two buffers
//                   (layout/tensor_launch_shape.hpp); the last stage writes the output rows
//                   [q][c*R + r] (CRp reals per point, layout/tensor_launch_shape.hpp) through
//                   point_of_lattice (the point permutation, on the way out), or, for physical
//                   gradients, all F x d reference gradients on the lattice
//   5. points       physical gradients: J, det J, K and the C x S gradients at each lattice point
//                   (tensor_physical_gradients: the dense kernel's geometry.hpp calls, in double), det J
//                   to args.detj, and the orientation policy as in the dense kernel (a per-element word,
//                   then args.first_bad by atomicMin)
//   6. store        as the dense kernel: the group's E * Q * C * R reals in global order, each element's
//                   rows read in their own order, consecutive threads at consecutive words
//
// Precision: fields, coordinates, tables, stage data and outputs are Real (double or float); J, det J and
// K are computed in double from the Real reference gradients of the coordinates. In FP32 an output
// carries at most 1 + d + d P1 roundings relative to sum_n |phi_n| |u_n| (the field's, one per 1D table
// factor, P1 per stage's sum): 7 for p = 1 quadrilaterals to 16 for p = 3 hexahedra, within the
// (N + 3) eps the dense kernel's FP32 results are held to (tests/interpolator/precision_test.cpp: 7 and
// 67 eps there).
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/elements/indices.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/sum_factorisation_lines.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_block.cuh>

namespace feinterp::backends::cuda {

/// Q1: points per direction (args.points == Q1^d). S: the space dimension; only physical gradients read it.
/// Cs: the component count C, or run_time_components for C read from args.components
/// (layout/component_kernels.hpp): the stages already loop over fields, so only their trip counts and the
/// store's index arithmetic become run-time values.
template <class Element, int Q1, int Cs, Operation Op, int S, class Real>
__device__ __forceinline__ void tensor_body(const KernelArgs<Real>& args) {
  constexpr int D = Element::dimension;
  constexpr int P1 = Element::order + 1;
  constexpr int N = Element::nodes_per_element;
  constexpr int Q = integer_power(Q1, D);
  constexpr bool gradients = Op != Operation::values;
  constexpr bool physical = Op == Operation::physical_gradients;
  constexpr bool run_time = Cs == run_time_components;
  const int C = run_time ? args.components : Cs;
  const int F = tensor_forward_fields(Op, C, S);  // fields contracted: the components, then the coordinates
  constexpr int R = physical ? S : gradients ? D : 1;  // results per (point, component)
  const int CR = C * R;
  static_assert(D >= 2 && N == integer_power(P1, D), "a quadrilateral or hexahedron: P1^d nodes");
  static_assert(S >= D && S <= 3, "an element of dimension D in a space of dimension S >= D");
  static_assert(2 * Q1 * P1 <= max_tensor_table_entries, "B and G fit in KernelArgs::tensor_tables");
  constexpr int L = tensor_lines_lattice_size(D, P1);  // reals per field of the gathered lattice

  const int elements_per_block = blockDim.z;
  const TensorBufferResidues residues{{args.tensor_buffer_residues[0], args.tensor_buffer_residues[1]}};
  const TensorSharedLayout layout = tensor_shared_layout(D, P1, Q1, S, Op, C, elements_per_block, sizeof(Real), residues);
  const int CRp = tensor_output_point_stride(D, Q1, CR);  // layout.padded_results, a constant for a compiled C
  extern __shared__ __align__(16) unsigned char shared[];
  int* s_maps = reinterpret_cast<int*>(shared + layout.maps);      // node_lattice, then point_of_lattice
  node_index* s_connectivity = reinterpret_cast<node_index*>(shared + layout.connectivity);
  unsigned* s_orientation = reinterpret_cast<unsigned*>(shared + layout.orientation);
  Real* s_buffer[2] = {reinterpret_cast<Real*>(shared + layout.buffer[0]),
                       reinterpret_cast<Real*>(shared + layout.buffer[1])};

  const BlockThreads b = block_threads();
  const int thread = b.thread, threads = b.threads, z = b.z;
  const offset_t groups = (args.elements + elements_per_block - 1) / elements_per_block;
  const int per_element = Q * CR;

  // 1. maps, once per block (the grid is persistent: once per resident block, as the dense table).
  load_tensor_maps(args, s_maps, N, Q, b);
  if constexpr (physical)
    for (int i = thread; i < elements_per_block; i += threads) s_orientation[i] = 0u;  // before barrier A
  const Real* B = args.tensor_tables;  // in the parameter space: uniform operands
  const Real* G = args.tensor_tables + Q1 * P1;
  const int* node_lattice = s_maps;
  const int* point_of_lattice = s_maps + N;

  // 2. connectivity, one group ahead.
  auto fetch_connectivity = [&](offset_t group, node_index* target) {
    copy_group_connectivity_async<N>(args.connectivity, nullptr, args.elements, group, elements_per_block, target, b);
  };
  int connectivity_buffer = 0;
  if (blockIdx.x < groups) fetch_connectivity(blockIdx.x, s_connectivity);

  // The two buffers by role: `gathered` receives a group's gather and feeds its first stage; stage s
  // reads one and writes the other (item i of layout/tensor_launch_shape.hpp in the buffer i % 2 away
  // from `gathered`).
  struct Buffer {
    Real* block;
    int stride;  // reals per element
    __device__ __forceinline__ Real* of(int element) const { return block + element * stride; }
  };
  Buffer gathered{s_buffer[0], layout.stride[0]}, other{s_buffer[1], layout.stride[1]};

  // Where each thread's walks over a group's gather and store start: the same in every group, so built
  // once. For a run-time C each start is two integer divisions (some 20 instructions each), which, done
  // per group, made the run-time kernel execute 1.6 times the compiled one's instructions at p = 1
  // (hexahedra, values, C = 4; docs/performance/nvidia-h100-80gb-hbm3/run-time-divisions.md).
  const StridedDivision<Cs> gather_start(thread, threads, C);  // i = (element, node) * C + c
  const RunWalk point_start(thread, threads, run_time ? CR : 1);  // run-time C: i = point * CR + cr

  // 3. gather of group `group` into `target`, i = (element, node, component): consecutive threads read a
  // node's consecutive components. Asynchronous: waited for (wait_for_gather) before barrier B.
  auto gather_group = [&](offset_t group, const node_index* connectivity, const Buffer& target) {
    const int count = group_size(args.elements, group, elements_per_block);
    StridedDivision<Cs> by_components_walk = gather_start;
    for (int i = thread; i < count * N * C; i += threads, by_components_walk.next()) {
      const int local_node = by_components_walk.quotient(i), c = by_components_walk.remainder(i);
      const int element = local_node / N, n = local_node - element * N;
      gather_async(target.of(element) + c * L + tensor_lines_lattice_slot(node_lattice[n], P1),
                   args.field + dof(connectivity[local_node], C, c));
    }
    if constexpr (physical)
      gather_lattice_coordinates<N, S>(
          args.coordinates, connectivity, count,
          [node_lattice](int n) { return tensor_lines_lattice_slot(node_lattice[n], P1); }, target.block,
          target.stride, C, L, b);
  };
  // Values and reference gradients gather ahead: once the last stage is done, the buffer it read is free
  // (hexahedra: `gathered`, three stages; quadrilaterals: `other`, two stages, and the buffers then swap
  // roles, layout.alternating), and the next group's gather is issued there before this group's store,
  // so that the two overlap instead of the gather's DRAM latency being waited out between barriers A and
  // B. Physical gradients use both buffers in the points step and keep barrier A.
  constexpr bool gather_ahead = !physical;
  auto connectivity_of = [&](int buffer) { return s_connectivity + buffer * layout.connectivity_stride; };
  if constexpr (gather_ahead) {
    if (blockIdx.x < groups) {
      __pipeline_wait_prior(0);
      __syncthreads();  // the first group's connectivity, visible to every thread
      gather_group(blockIdx.x, connectivity_of(0), gathered);
    }
  }

  for (offset_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const offset_t first = group * elements_per_block;
    const int here = group_size(args.elements, group, elements_per_block);  // the last group: partial
    if constexpr (!gather_ahead) {
      __pipeline_wait_prior(0);
      __syncthreads();  // barrier A: the previous group's store is done with the buffers
      gather_group(group, connectivity_of(connectivity_buffer), gathered);
    }
    wait_for_gather();
    __syncthreads();  // barrier B
    // The other connectivity buffer was last read by the previous group's gather, before the barrier above.
    connectivity_buffer ^= 1;
    if (group + gridDim.x < groups) fetch_connectivity(group + gridDim.x, connectivity_of(connectivity_buffer));

    // 4. stages, between this thread's element's two buffers.
    const bool active = z < here;
    const int worker = threadIdx.x, workers = blockDim.x;
    Real* const mine_gathered = gathered.of(z);
    Real* const mine_other = other.of(z);
    if (active) tensor_contract_lines<D, P1, Q1, gradients, 0>(F, worker, workers, mine_gathered, mine_other, B, G);
    __syncthreads();
    if constexpr (D == 3) {
      if (active) tensor_contract_lines<D, P1, Q1, gradients, 1>(F, worker, workers, mine_other, mine_gathered, B, G);
      __syncthreads();
    }
    constexpr bool last_reads_gathered = (D - 1) % 2 == 0;
    Real* const last_in = last_reads_gathered ? mine_gathered : mine_other;
    Real* const last_out = last_reads_gathered ? mine_other : mine_gathered;
    if (active) {
      if constexpr (physical)  // every field's reference gradients, [(f * D + d) * Q + l]
        tensor_contract_lines<D, P1, Q1, gradients, D - 1>(F, worker, workers, last_in, last_out, B, G, Q);
      else  // the output rows [q * CRp + c * R + r]
        tensor_contract_lines<D, P1, Q1, gradients, D - 1>(F, worker, workers, last_in, last_out, B, G, 1,
                                                              point_of_lattice, CRp);
    }
    if constexpr (gather_ahead) __pipeline_wait_prior(0);  // the next group's connectivity, before the barrier
    __syncthreads();
    // The rows: the last stage's output, or, for physical gradients, the points step's (the buffer the last
    // stage read).
    const Buffer rows = physical == last_reads_gathered ? gathered : other;
    // The buffer the last stage read was last read before the barrier above; the store reads the other,
    // which the next group's first stage writes only after that group's barrier B.
    if constexpr (gather_ahead) {
      const Buffer next_gathered = last_reads_gathered ? gathered : other;
      if (group + gridDim.x < groups)
        gather_group(group + gridDim.x, connectivity_of(connectivity_buffer), next_gathered);
      if (!last_reads_gathered) {  // the next group starts from `other`: the buffers swap roles
        other = gathered;
        gathered = next_gathered;
      }
    }

    // 5. points (physical gradients): from the reference gradients (last_out) to the output rows (last_in,
    // whose last reader was the last stage, before the barrier above).
    if constexpr (physical) {
      if (active) {
        unsigned orientation = 0u;
        for (int l = worker; l < Q; l += workers) {
          const int q = point_of_lattice[l];
          const double det = tensor_physical_gradients<D, S>(C, last_out, Q, l, last_in + q * CRp, 1, 0, orientation);
          if (args.detj) args.detj[ValuesLayout{args.elements, Q, 1}(first + z, q, 0)] = Real(det);
        }
        if (orientation) atomicOr(s_orientation + z, orientation);
      }
      __syncthreads();
      // One thread per element reads its word, reports it if invalid and clears it for the next group
      // (whose points write it only after the next barriers A and B).
      if (thread < here) {
        if (!valid_orientation(s_orientation[thread])) atomicMin(args.first_bad, (unsigned long long)(first + thread));
        s_orientation[thread] = 0u;
      }
    }

    // 6. store: the group's results are the contiguous range [first * Q*C*R, (first + here) * Q*C*R). The
    // next group's gather rewrites the buffers only after barrier A (or, gathered ahead, writes the other).
    Real* out = args.out + GradientsLayout{args.elements, Q, C, R}(first, 0, 0, 0);  // R = 1: values
    if constexpr (run_time) {  // point = element * Q + q (Q a constant), CRp - CR padding words per point
      RunWalk point = point_start;
      for (int i = thread; i < here * per_element; i += threads, point.next()) {
        const int element = point.element / Q, q = point.element - element * Q;
        out[i] = rows.of(element)[q * CRp + point.r];
      }
    } else {
      RunWalk walk(thread, threads, per_element);  // i = walk.element * per_element + walk.r, r = q * CR + cr
      for (int i = thread; i < here * per_element; i += threads, walk.next())
        out[i] = rows.of(walk.element)[padded_result_index<Cs * R, tensor_output_point_stride(D, Q1, Cs * R)>(walk.r)];
    }
  }
}

template <class Element, int Q1, int C, Operation Op, int S, class Real>
__global__ void __launch_bounds__(max_threads_per_block) sum_factorised_kernel(const __grid_constant__ KernelArgs<Real> args) {
  tensor_body<Element, Q1, C, Op, S, Real>(args);
}

}  // namespace feinterp::backends::cuda
