// SPDX-License-Identifier: BSD-3-Clause
// What the two sum-factorised kernels (sum_factorised_kernel.cuh, sum_factorised_transpose_kernel.cuh) share about a
// block: the 1D tables and lattice permutations they load once, and the gather of a group's node
// coordinates onto each element's node lattice (for J, fem/sum_factorisation.hpp).
#pragma once

#include <cuda_runtime.h>

#include <feinterp/core/config.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>

namespace feinterp::backends::cuda {

/// Copies node_lattice (N ints) then point_of_lattice (Q ints) into s_maps: once per block, the grid
/// being persistent.
template <class Real>
__device__ __forceinline__ void load_tensor_maps(const KernelArgs<Real>& args, int* s_maps, int N, int Q,
                                                 const BlockThreads& b) {
  for (int i = b.thread; i < N + Q; i += b.threads) s_maps[i] = __ldg(args.tensor_maps + i);
}

/// The maps, and B and G (Q1 x P1 reals each, [q1][a]) into s_basis: the transpose kernel's tables (the
/// forward kernel reads B and G from its arguments, KernelArgs::tensor_tables).
template <class Real>
__device__ __forceinline__ void load_tensor_tables(const KernelArgs<Real>& args, Real* s_basis, int* s_maps, int P1,
                                                   int Q1, int N, int Q, const BlockThreads& b) {
  for (int i = b.thread; i < 2 * Q1 * P1; i += b.threads) s_basis[i] = __ldg(args.tensor_basis + i);
  load_tensor_maps(args, s_maps, N, Q, b);
}

/// Gathers the S coordinates of the nodes of the group's `here` elements onto their lattices: row
/// first_row + k (of row_length reals) of element e's buffer (buffer + e * stride) holds coordinate k
/// of node n at slot(n), its place in the lattice layout of the kernel (the unit kernels' plain lattice,
/// or the forward kernel's padded rows). i runs over (element, node, k), so consecutive threads read
/// one node's consecutive coordinates. Asynchronous (gather_async): the caller waits (wait_for_gather)
/// before its next barrier.
template <int N, int S, class Slot, class Real>
__device__ __forceinline__ void gather_lattice_coordinates(const Real* coordinates, const node_index* connectivity,
                                                           int here, Slot slot, Real* buffer, int stride,
                                                           int first_row, int row_length, const BlockThreads& b) {
  for (int i = b.thread; i < here * N * S; i += b.threads) {
    const int local_node = i / S, k = i - local_node * S;  // constants: no division instruction
    const int element = local_node / N, n = local_node - element * N;
    gather_async(buffer + element * stride + (first_row + k) * row_length + slot(n),
                 coordinates + offset_t(connectivity[local_node]) * 3 + k);
  }
}

}  // namespace feinterp::backends::cuda
