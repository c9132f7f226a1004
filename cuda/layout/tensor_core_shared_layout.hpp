// SPDX-License-Identifier: BSD-3-Clause
// TensorCoreLayout: the shared memory of the tensor-core variant of the dense product
// (kernels/tensor_cores/tensor_core_kernel.cuh), computed by the same function on the host (to size and refuse a launch)
// and in the kernel (to place its arrays), as shared_layout.hpp does for the packed kernel.
//
// The kernel computes a group's results as one matrix product, out = A x B, in 8 x 8 x 4 tiles
// (mma.sync m8n8k4, FP64):
//
//   [ B            K x ldb doubles          the table: B[n][q*W + w] = shape function n (direction w) at
//                                           point q; rows n >= N and columns j >= Q*W are zeros       ]
//   [ A, twice     rows x lda doubles each  the gathered field: A[z*C + c][n] = u(node n of element z,
//                                           component c); rows = E*C rounded up to 8, columns K; one
//                                           for the group computed, one for the next group's gather  ]
//   [ output       E * Q * CWp doubles      results, [z][q][c*W + w], CWp = C*W rounded up to odd, as
//                                           the packed kernel stages them (shared_layout.hpp)          ]
//   [ connectivity 2 * E * nodes ints       this group's and the next one's (cp.async), as there       ]
//
// with K = N rounded up to 4 (the k of a tile), E = elements_per_block, W = 1 for values and D for
// reference gradients.
//
// The strides make each fragment load one pass of two wavefronts, the least for 32 doubles: a lane
// (g, t) = (lane / 4, lane % 4) reads A[8m + g][4k + t] and B[4k + t][8j + g]. Shared memory has 32
// banks of 4 bytes, so 16 doubles are served per wavefront, and a double's bank pair is its index mod
// 16. With lda = 4 or 12 (mod 16) the 8 rows x 4 columns of A fall on g*lda + t, every residue mod 16
// twice; with ldb = 8 (mod 16) the 4 rows x 8 columns of B on t*ldb + g, every residue twice. A stride
// that is a multiple of 16 would put all 8 rows of A (4 of B) on the same 4 (8) banks: a 4-way conflict.
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>

namespace feinterp::backends::cuda {

/// One warp per element slot: a block's warps are its elements_per_block, whole warps whatever the count
/// (mma.sync needs all 32 lanes).
inline constexpr int tensor_core_threads_per_element = 32;

/// The tiles of one m8n8k4 product.
inline constexpr int mma_rows = 8, mma_columns = 8, mma_depth = 4;

/// K: the node count rounded up to whole tiles of depth 4.
FEINTERP_HD constexpr int mma_depth_padded(int nodes) { return (nodes + mma_depth - 1) / mma_depth * mma_depth; }

/// A's row stride: K, or K + 4 where K is a multiple of 8 (then 0 or 8 mod 16, see above).
FEINTERP_HD constexpr int mma_field_stride(int nodes) {
  const int k = mma_depth_padded(nodes);
  return k % 8 == 0 ? k + 4 : k;
}

/// B's row stride: Q*W rounded up to 8, plus 8 where that is a multiple of 16.
FEINTERP_HD constexpr int mma_table_stride(int columns) {
  const int padded = (columns + mma_columns - 1) / mma_columns * mma_columns;
  return padded % 16 == 0 ? padded + 8 : padded;
}

struct TensorCoreLayout {
  int depth;          ///< K
  int field_stride;   ///< lda
  int table_stride;   ///< ldb
  int field_rows;     ///< E*C rounded up to 8
  int field_buffer;   ///< doubles from the first A to the second: field_rows * lda
  int padded_results; ///< CWp
  std::size_t table, field, output, connectivity, connectivity_stride, bytes;
};

FEINTERP_HD TensorCoreLayout tensor_core_shared_layout(int nodes, int table_width, int points, int components,
                                                   int elements_per_block) {
  TensorCoreLayout layout{};
  const std::size_t E = std::size_t(elements_per_block);
  layout.depth = mma_depth_padded(nodes);
  layout.field_stride = mma_field_stride(nodes);
  layout.table_stride = mma_table_stride(points * table_width);
  layout.field_rows = (elements_per_block * components + mma_rows - 1) / mma_rows * mma_rows;
  layout.padded_results = (components * table_width) | 1;
  layout.table = 0;
  layout.field = aligned16(std::size_t(layout.depth) * layout.table_stride * sizeof(double));
  layout.field_buffer = layout.field_rows * layout.field_stride;  // a multiple of 8: both A 16-byte aligned
  layout.output = aligned16(layout.field + 2 * std::size_t(layout.field_buffer) * sizeof(double));
  layout.connectivity = aligned16(layout.output + E * std::size_t(points) * layout.padded_results * sizeof(double));
  layout.connectivity_stride = (E * nodes + 3) / 4 * 4;  // 16-byte aligned buffers for cp.async
  layout.bytes = aligned16(layout.connectivity + 2 * layout.connectivity_stride * sizeof(node_index));
  return layout;
}

}  // namespace feinterp::backends::cuda
