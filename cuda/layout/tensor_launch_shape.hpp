// SPDX-License-Identifier: BSD-3-Clause
// The shape of a sum-factorised forward launch (kernels/sum_factorised/sum_factorised_kernel.cuh): which points per direction
// Q1 its kernels are compiled for, its threads per element, and where each array lives in dynamic shared
// memory. Computed by the same functions on the host (to size the launch and refuse what does not fit)
// and in the kernel (to place its pointers), so the two can never disagree, as layout/shared_layout.hpp
// does for the dense kernels. (The transposes' shape: tensor_transpose_launch_shape.hpp.)
//
// Per block (E = elements_per_block, reals of the plan's precision, every array 16-byte aligned; B and
// G are kernel arguments, not shared memory):
//
//   [ maps         N + Q ints               node_lattice[n], then point_of_lattice[l]                  ]
//   [ connectivity 2 * E * N ints           two groups' connectivity (cp.async, one group ahead)       ]
//   [ orientation  E unsigned ints          physical gradients only (fem/orientation.hpp)              ]
//   [ buffer 0     E * stride_0 reals       per element: the gathered lattice, then every other stage ]
//   [ buffer 1     E * stride_1 reals       per element: the stages in between                         ]
//
// The element's data moves between its two buffers stage by stage, in the line layout of
// cuda/layout/sum_factorisation_lines.hpp (L = P1^(d-1) (P1 | 1), the lattice with its rows padded to odd):
//
//   item 0       gathered fields           F * L                 F = C, + S coordinates for physical
//   item 1 + s   stage s's output, s < d-1 tensor_lines_stage_size
//   item d       the last stage's output   values, reference gradients: the output rows Q * CRp;
//                                          physical gradients: the F * d reference gradients, F * d * Q
//   item d + 1   physical gradients only   the output rows, Q * CRp
//
// item i lives in buffer i % 2, each buffer as large as its largest item. The output rows are the dense
// kernel's staging order (layout/shared_layout.hpp), [q][c*R + r], CRp reals per point
// (tensor_output_point_stride): the store reads them in global order, consecutive threads at
// consecutive words. The order [c*R + r][q] with rows of Q rounded up to odd would make the store read
// at the stride Qp: at hex p3 C = 1, reference gradients, 3 wavefronts per 16 reals instead of 1
// (docs/performance/nvidia-h100-80gb-hbm3/output-rows.md).
//
// Per-element strides. By default each is the smallest odd number of reals that holds the buffer's
// items, so that the elements of one warp (at 2 threads per element, a p = 1 quadrilateral has 16 in a
// warp) start in different banks. Where an element has fewer line threads than a wavefront has words
// (16 in FP64), several elements share one, and which banks they meet in depends on the stride modulo
// the bank count: the launch may then ask for a stride of another residue (TensorBufferResidues,
// chosen by counting the kernel's accesses: launch/tensor_bank_conflicts.hpp).
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/sum_factorisation_lines.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>
#include <feinterp/cuda/layout/tensor_buffer_residues.hpp>

namespace feinterp::backends::cuda {

/// The points per direction the sum-factorised kernels of order p are compiled for: Q1 = 1 to p + 3.
/// That covers the node lattice (Q1 = p + 1), reduced integration, and Gauss rules up to degree 2p + 5,
/// three degrees beyond the 2p + 1 that a rule of p + 1 points already integrates (a p = 3 hexahedron's
/// curved-geometry mass matrix needs degree 9, 5 points). Each Q1 adds 27 forward and 45 transpose kernels
/// per hexahedron order and precision (C = 1..9 x the operations; 36 and 72 for quadrilaterals, whose
/// geometry exists for S = 2 and 3), at about 0.15 s of nvcc per kernel and architecture: p + 3 instead of
/// a flat 8 compiles 15 instead of 24 Q1 per shape and precision. A set with more points per direction
/// runs the dense kernel.
constexpr int min_tensor_points_per_direction = 1;
FEINTERP_HD constexpr int max_tensor_points_per_direction(int order) { return order + 3; }

/// The transposes' threads (sum_factorised_transpose_kernel.cuh, unit workers): one per lattice point of the
/// larger lattice, max(P1, Q1)^d, up to max_threads_per_element: the largest stage of one field has
/// max(P1, Q1)^d units at Q1 = P1 (stage 0 of a hexahedron: P1^2 Q1), so one field keeps every thread busy
/// in every stage and more fields (C > 1, coordinates) loop.
FEINTERP_HD constexpr int tensor_threads_per_element(int dimension, int nodes_per_direction, int points_per_direction) {
  const int n = nodes_per_direction > points_per_direction ? nodes_per_direction : points_per_direction;
  const int lattice = integer_power(n, dimension);
  return lattice < max_threads_per_element ? lattice : max_threads_per_element;
}

/// Fields the forward kernel contracts: the C components, and for physical gradients the S coordinates.
FEINTERP_HD constexpr int tensor_forward_fields(Operation op, int components, int space_dimension) {
  return op == Operation::physical_gradients ? components + space_dimension : components;
}

/// The forward kernel's threads: a thread per line of the largest stage for every field it contracts,
/// tensor_line_threads_per_element x F (16 x F for a p3 hexahedron at Q1 = 4), up to
/// max_threads_per_element (the kernel deals F x lines to any number of workers). With one field's lines
/// only (16 threads per p3 hexahedron whatever F), a block's shared memory grows with F and its threads
/// do not: hex p3 C = 3 then holds ~24 elements = 384 threads per SM and takes 1.11 times the unit
/// kernel's time (docs/performance/nvidia-h100-80gb-hbm3/sum-factorisation-lines.md).
FEINTERP_HD constexpr int tensor_forward_threads_per_element(int dimension, int nodes_per_direction,
                                                             int points_per_direction, int fields) {
  const int threads = tensor_line_threads_per_element(dimension, nodes_per_direction, points_per_direction) * fields;
  return threads < max_threads_per_element ? threads : max_threads_per_element;
}

/// Reals per point of the output rows [q][c*R + r] (CR = C * R of them). The last stage writes them
/// through point_of_lattice, one instruction per (q_(d-1), result) for the Q1^(d-1) lines of each field,
/// and the store reads them back in order, 16 consecutive reals per half warp (FP64). When an element's
/// lines fill half a half warp or more (Q1^(d-1) >= 8: hexahedra of Q1 >= 3), its permuted points need
/// an odd stride to spread over the banks, so CR is rounded up to odd; with fewer lines (quadrilaterals,
/// Q1 = 2 hexahedra) a half warp holds several elements, which their odd strides spread already, and the
/// padding would cost memory and a second wavefront on each read that crosses it. Counted with the real
/// Gmsh point maps (wavefronts per element, last-stage writes + store reads, odd / unpadded): hex p3
/// C = 2 reference gradients 102 / 114, hex p2 C = 4 88 / 100; quad p3 C = 1 9 / 6.5, quad p3 C = 2
/// 16 / 10, hex p1 C = 4 36 / 12 (docs/performance/nvidia-h100-80gb-hbm3/output-rows.md).
FEINTERP_HD constexpr int tensor_output_point_stride(int dimension, int points_per_direction, int results) {
  return integer_power(points_per_direction, dimension - 1) >= 8 ? (results | 1) : results;
}

struct TensorSharedLayout {
  int padded_results;        ///< CRp: reals per point of the output rows (tensor_output_point_stride)
  int output_buffer;         ///< the buffer that holds the output rows at the end (0 or 1)
  /// The buffers swap roles every group: where the output rows end in the gathered buffer
  /// (quadrilaterals' values and reference gradients, two stages), the kernel gathers the next group into
  /// the other one during the store, and that group starts from there (sum_factorised_kernel.cuh, gather ahead).
  /// Each buffer then holds every item, and the counts of tensor_bank_conflicts.hpp are those of the
  /// first group's roles, which the second group's repeat when both strides are equal.
  bool alternating;
  int needed[2];             ///< reals per element each buffer must hold: its largest item
  int stride[2];             ///< reals per element in each buffer (tensor_buffer_stride)
  std::size_t maps;          ///< byte offsets from the start
  std::size_t connectivity;
  std::size_t connectivity_stride;  ///< ints from the first connectivity buffer to the second
  std::size_t orientation;
  std::size_t buffer[2];
  std::size_t bytes;         ///< total dynamic shared memory
};

FEINTERP_HD TensorSharedLayout tensor_shared_layout(int dimension, int nodes_per_direction, int points_per_direction,
                                                    int space_dimension, Operation op, int components,
                                                    int elements_per_block, std::size_t real_bytes,
                                                    TensorBufferResidues residues = {}) {
  const int d = dimension, P1 = nodes_per_direction, Q1 = points_per_direction;
  const bool gradients = op != Operation::values, physical = op == Operation::physical_gradients;
  const int N = integer_power(P1, d), Q = integer_power(Q1, d);
  const int fields = tensor_forward_fields(op, components, space_dimension);
  const int R = result_directions(op, d, space_dimension);
  TensorSharedLayout layout{};
  layout.padded_results = tensor_output_point_stride(d, Q1, components * R);
  // The items in order (d + 2 at most: d <= 3), then each buffer's largest.
  int items[5] = {fields * tensor_lines_lattice_size(d, P1), 0, 0, 0, 0};
  int count = 1;
  for (int s = 0; s + 1 < d; ++s) items[count++] = tensor_lines_stage_size(d, P1, Q1, fields, gradients, s);
  if (physical) items[count++] = fields * d * Q;
  items[count++] = Q * layout.padded_results;
  layout.output_buffer = (count - 1) % 2;
  layout.alternating = !physical && layout.output_buffer == 0;
  layout.needed[0] = layout.needed[1] = 1;
  for (int i = 0; i < count; ++i) {
    const int b = layout.alternating ? 0 : i % 2;
    if (items[i] > layout.needed[b]) layout.needed[b] = items[i];
  }
  if (layout.alternating) layout.needed[1] = layout.needed[0];
  const std::size_t E = std::size_t(elements_per_block);
  for (int b = 0; b < 2; ++b)
    layout.stride[b] = tensor_buffer_stride(layout.needed[b], residues.buffer[b], shared_bank_words(real_bytes));
  layout.maps = 0;
  layout.connectivity = aligned16(layout.maps + std::size_t(N + Q) * sizeof(int));
  // Each connectivity buffer a multiple of 4 ints, so that both start 16-byte aligned (cp.async).
  layout.connectivity_stride = (E * N + 3) / 4 * 4;
  layout.orientation = layout.connectivity + 2 * layout.connectivity_stride * sizeof(node_index);
  layout.buffer[0] = aligned16(layout.orientation + (physical ? E * sizeof(unsigned) : 0));
  layout.buffer[1] = aligned16(layout.buffer[0] + E * std::size_t(layout.stride[0]) * real_bytes);
  layout.bytes = aligned16(layout.buffer[1] + E * std::size_t(layout.stride[1]) * real_bytes);
  return layout;
}

}  // namespace feinterp::backends::cuda
