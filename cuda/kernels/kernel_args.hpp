// SPDX-License-Identifier: BSD-3-Clause
// The arguments every interpolation kernel takes, device pointers all, in the plan's precision Real
// (double or float). One struct, passed by value, so the packed, baseline and sum-factorised kernels
// and their launchers share one signature.
#pragma once

#include <feinterp/core/config.hpp>

namespace feinterp::backends::cuda {

/// The value of an element flag (KernelArgs::first_bad) that marks no element.
inline constexpr unsigned long long no_element = ~0ull;

/// Reals of KernelArgs::tensor_tables: B and G at the largest sum-factorised shape, p = 3 (P1 = 4) and
/// Q1 = p + 3 = 6 points per direction (layout/tensor_launch_shape.hpp), 2 x 6 x 4.
inline constexpr int max_tensor_table_entries = 48;

/// Where a transpose kernel puts an element's result.
enum class TransposeStore : int {
  atomic_add,       ///< atomicAdd into the nodal vector (elements may share nodes)
  add,              ///< += into the nodal vector: the launch's elements share no node (one colour)
  element_vectors,  ///< = into the element's own vector, [e][n][c]
};

template <class Real>
struct KernelArgs {
  const node_index* connectivity;   ///< [e * nodes + n]
  offset_t elements;
  const Real* field;                ///< [node * C + c]
  const Real* coordinates;          ///< [node * 3 + k], k < S; physical gradients only
  const Real* table;                ///< device tabulation, [n][w][q] (layout/shared_layout.hpp)
  int points;                       ///< Q
  int components;                   ///< C (the packed kernel also has it as a template parameter)
  Real* out;                        ///< core/layout.hpp
  Real* detj;                       ///< [e * Q + q]; physical gradients only, may be null
  unsigned long long* first_bad;    ///< physical gradients: atomicMin of the indices of the elements that
                                    ///< fem/orientation.hpp refuses (degenerate or tangled); sticky
  unsigned* point_orientation;      ///< baseline kernel: null, or (a one-element launch, to explain an
                                    ///< error) each point's orientation bit [q]
  /// The dense forward kernel's group of elements, blockDim.z slots of packed_elements_per_thread
  /// (layout/elements_per_thread.hpp); the other kernels have one element per slot and read blockDim.z.
  int elements_per_block = 0;
  // Transposes only: `field` is then the point data (the forward operation's output layout), `table`
  // the transposed table [q][w][n], `out` the nodal vector or the element vectors.
  const offset_t* element_list = nullptr;  ///< the launch's elements (one colour); null: elements 0..elements-1
  const Real* geometry_table = nullptr;    ///< reference gradients [n][d][q] (geometric transposes)
  const Real* weights = nullptr;           ///< w_q, or null: unweighted
  TransposeStore store = TransposeStore::atomic_add;
  /// The fused operators (and their diagonals): rho or kappa at the points, [(e * Q + q) * T + t] with
  /// T = coefficient_entries (fem/coefficient.hpp); null with T = 0 for none.
  const Real* coefficient = nullptr;
  int coefficient_entries = 0;
  /// The sum-factorised fused operators' geometric factors, when the plan precomputed them
  /// (layout/tensor_operator_layout.hpp): [(e * T + t) * Q + l], l the point lattice's order.
  const Real* geometry = nullptr;
  // Sum-factorised kernels only (sum_factorised_kernel.cuh, fem/tensor_structure.hpp); they read no `table`.
  const Real* tensor_basis = nullptr;  ///< the 1D tables B[q1][a] then G[q1][a], Q1 x P1 reals each
  /// The same tables by value, for the forward kernel: its line workers all read one entry at a time, so
  /// the kernel takes its arguments as __grid_constant__ and the multiply-adds read B and G straight from
  /// the constant bank as uniform operands, with no shared-memory copy (cuda/layout/sum_factorisation_lines.hpp).
  /// 384 bytes in double, within the 4 KiB of kernel parameters.
  Real tensor_tables[max_tensor_table_entries] = {};
  const int* tensor_maps = nullptr;    ///< node_lattice[n] (n < N) then point_of_lattice[l] (l < Q)
  /// The forward kernel's per-element buffer strides modulo the banks (layout/tensor_buffer_residues.hpp;
  /// -1: the smallest odd stride), as the launch sized its shared memory.
  int tensor_buffer_residues[2] = {-1, -1};
};

}  // namespace feinterp::backends::cuda
