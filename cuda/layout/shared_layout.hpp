// SPDX-License-Identifier: BSD-3-Clause
// SharedLayout: where each array of the packed kernel lives in dynamic shared memory, in bytes. Computed
// by the same function on the host (to size the launch and refuse what does not fit) and in the kernel
// (to place its pointers), so the two can never disagree.
//
//   [ table        N * W * Q reals          shape-function table, one copy per block: in double [n][w][q];
//                  (float: Q * T)           in float point-major, [q][n][w], each point's row of nodes * W
//                                           reals padded to T, an odd number of 16-byte vectors
//                                           (packed_table_row_stride), the padding zeroed             ]
//   [ field        E * nodes * C reals      gathered nodal values, [z][n][c]                          ]
//   [ coordinates  E * nodes * S reals      gathered node coordinates (physical gradients only)       ]
//   [ output       E * Q * CRp reals        results, [z][q][c*R + r]; CRp = C * R rounded up to odd;
//                                           unused when they go from registers (kernels/dense/packed_block.cuh) ]
//   [ connectivity 2 * E * nodes ints       two groups' connectivity: the next group's is copied in
//                                           (cp.async) while the current one is computed and stored    ]
//   [ orientation  E unsigned ints          per element, the or-ed orientation bits of its points
//                                           (fem/orientation.hpp; physical gradients only)             ]
//
// with E = elements_per_block, reals of the plan's precision (8 or 4 bytes), W = 1 for values and D
// (the reference dimension) for gradients, S the space dimension, and R the results per point and
// component: 1, D, or S for physical gradients. Every array starts on a 16-byte boundary.
//
// Why two table orders. Thread q of an element reads the nodes * W reals of its point, table(n, w, q).
// In [n][w][q] the lanes of a warp read consecutive words, one real per instruction, with no bank
// conflict (in [q][n][w] read a real at a time, the stride between lanes would be nodes * W words, 192
// for a p = 3 hexahedron: a 16-way conflict). The float kernels are issue-bound (Nsight Compute:
// docs/performance/nvidia-h100-80gb-hbm3/profile-fp32.md), so there a thread reads its point's row in
// 16-byte vectors, four floats per instruction; rows of an odd number of vectors put 8 consecutive
// points in 8 distinct groups of 4 banks. The same rows in double measured 1.10-1.29 times the time of
// [n][w][q] on the Q = 10 kernels (p = 3 triangles, p = 2 tetrahedra) and 0.83-0.90 on p = 3 tetrahedra
// (Q = 20): a 16-byte read is served 8 lanes at a time, and 8 lanes whose points wrap around the element's
// (Q = 10: points 8, 9, 0, ..., 5) cannot all fall in distinct groups. In float the instructions saved
// outweigh that (0.85-0.97 of the time), though Nsight Compute counts a third of the shared-load
// wavefronts of the Q = 10 kernels as conflicts (profile-fp32.md); in double they do not, and the table
// stays [n][w][q] (docs/performance/nvidia-h100-80gb-hbm3/table-rows.md).
// The output is written by lanes (q, z), that is by consecutive points z*Q + q, each at
// an odd stride of CRp words (spread over all banks), and read back in global order [e][q][cr], which
// is the shared order itself (CRp = CR) or skips one padding word every CR. The order [z][cr][q] with
// Q rounded up to odd would write with a stride of Qp words between lanes of one element and CR*Qp
// between elements: Nsight Compute counts 27-69% of the shared-store wavefronts of the p = 1 and p = 2
// kernels as bank conflicts in that order (docs/performance/nvidia-h100-80gb-hbm3/profile-low-order.md).
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>
#include <feinterp/core/operation.hpp>

namespace feinterp::backends::cuda {

struct SharedLayout {
  int table_width;           ///< W: 1 for values, D for gradients
  int table_row_stride;      ///< T: reals per point's row of the table (packed_table_row_stride); 0: [n][w][q]
  int result_width;          ///< R: 1 for values, D for reference gradients, S for physical gradients
  int padded_results;        ///< CRp: C * R rounded up to odd
  std::size_t table;         ///< byte offsets from the start
  std::size_t field;
  std::size_t coordinates;
  std::size_t output;
  std::size_t connectivity;  ///< the two int arrays
  std::size_t connectivity_stride;  ///< ints from the first connectivity buffer to the second
  std::size_t orientation;   ///< the E unsigned ints
  std::size_t bytes;         ///< total dynamic shared memory
};

FEINTERP_HD std::size_t aligned16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

/// Whether the packed kernel's table is point-major, in rows read 16 bytes at a time: in float, not in
/// double (above: why).
FEINTERP_HD constexpr bool packed_table_in_rows(std::size_t real_bytes) { return real_bytes == 4; }

/// T: the reals from one point's row of the packed kernel's table to the next, nodes * table_width
/// rounded up to an odd number of 16-byte vectors (above: why odd).
FEINTERP_HD constexpr int packed_table_row_stride(int nodes, int table_width, std::size_t real_bytes) {
  const int per_vector = int(16 / real_bytes);
  const int vectors = (nodes * table_width + per_vector - 1) / per_vector;
  return (vectors | 1) * per_vector;
}

FEINTERP_HD SharedLayout shared_layout(int nodes, int dimension, int space_dimension, Operation op, int points,
                                       int components, int elements_per_block, std::size_t real_bytes) {
  SharedLayout layout{};
  const std::size_t E = std::size_t(elements_per_block);
  const bool physical = op == Operation::physical_gradients;
  layout.table_width = op == Operation::values ? 1 : dimension;
  layout.table_row_stride = packed_table_in_rows(real_bytes) ? packed_table_row_stride(nodes, layout.table_width, real_bytes)
                                                             : 0;
  layout.result_width = result_directions(op, dimension, space_dimension);
  layout.padded_results = (components * layout.result_width) | 1;
  layout.table = 0;
  const std::size_t table_reals = layout.table_row_stride ? std::size_t(points) * layout.table_row_stride
                                                          : std::size_t(nodes) * layout.table_width * points;
  layout.field = aligned16(layout.table + table_reals * real_bytes);
  layout.coordinates = aligned16(layout.field + E * nodes * components * real_bytes);
  layout.output = aligned16(layout.coordinates + (physical ? E * nodes * space_dimension * real_bytes : 0));
  layout.connectivity =
      aligned16(layout.output + E * std::size_t(points) * layout.padded_results * real_bytes);
  // Each buffer a multiple of 4 ints, so that both start 16-byte aligned for the asynchronous copies.
  layout.connectivity_stride = (E * nodes + 3) / 4 * 4;
  layout.orientation = layout.connectivity + 2 * layout.connectivity_stride * sizeof(node_index);
  layout.bytes = aligned16(layout.orientation + (physical ? E * sizeof(unsigned) : 0));
  return layout;
}

// The transpose kernel's shared memory (kernels/transpose/transpose_kernel.cuh):
//
//   [ table        Q * W * nodes reals      the shape-function table transposed, [q][w][n]: thread n of an
//                                           element reads table[(q*W + w)*nodes + n], consecutive lanes
//                                           consecutive words                                          ]
//   [ data         E * C * R * Qp reals     the group's point data, [z][c*R + r][q] (Qp odd, as above);
//                                           for physical gradients mapped in place to [c*R + d], d < D  ]
//   [ coordinates  E * nodes * S reals      geometric transposes only (physical gradients, weighted)    ]
//   [ field        E * nodes * C reals      the fused operators only: the gathered nodal field, [z][n][c]  ]
//   [ connectivity 2 * E * nodes ints       as above                                                    ]
//   [ orientation  E unsigned ints          geometric transposes only                                   ]
struct TransposeSharedLayout {
  int table_width;   ///< W
  int data_width;    ///< R
  int padded_points; ///< Qp
  std::size_t table, data, coordinates, field, connectivity, connectivity_stride, orientation, bytes;
};

FEINTERP_HD TransposeSharedLayout transpose_shared_layout(int nodes, int dimension, int space_dimension, Operation op,
                                                          bool geometric, bool fused, int points, int components,
                                                          int elements_per_block, std::size_t real_bytes) {
  TransposeSharedLayout layout{};
  const std::size_t E = std::size_t(elements_per_block);
  layout.table_width = forward_of(op) == Operation::values ? 1 : dimension;
  layout.data_width = result_directions(op, dimension, space_dimension);
  layout.padded_points = points | 1;
  layout.table = 0;
  layout.data = aligned16(std::size_t(nodes) * layout.table_width * points * real_bytes);
  layout.coordinates =
      aligned16(layout.data + E * components * layout.data_width * layout.padded_points * real_bytes);
  layout.field = aligned16(layout.coordinates + (geometric ? E * nodes * space_dimension * real_bytes : 0));
  layout.connectivity = aligned16(layout.field + (fused ? E * nodes * components * real_bytes : 0));
  layout.connectivity_stride = (E * nodes + 3) / 4 * 4;
  layout.orientation = layout.connectivity + 2 * layout.connectivity_stride * sizeof(node_index);
  layout.bytes = aligned16(layout.orientation + (geometric ? E * sizeof(unsigned) : 0));
  return layout;
}

}  // namespace feinterp::backends::cuda
