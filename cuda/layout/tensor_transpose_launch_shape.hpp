// SPDX-License-Identifier: BSD-3-Clause
// The shared memory of a sum-factorised transpose launch (kernels/sum_factorised/sum_factorised_transpose_kernel.cuh), computed
// by the same function on the host and in the kernel. Threads per element and the compiled points per
// direction are the forward launch's (tensor_launch_shape.hpp).
//
// Per block (E = elements_per_block, reals of the plan's precision, every array 16-byte aligned):
//
//   [ basis        2 * Q1 * P1 reals        B then G, [q1][a]                                          ]
//   [ maps         N + Q ints               node_lattice[n], then point_of_lattice[l]                  ]
//   [ connectivity 2 * E * N ints           two groups' connectivity (cp.async, one group ahead)       ]
//   [ orientation  E unsigned ints          geometric transposes only (physical gradients, weighted)   ]
//   [ data         E * data_stride reals    the group's point data, [z][c*R + r][q], Qp = Q | 1        ]
//   [ buffer 0     E * stride_0 reals       per element, as below                                      ]
//   [ buffer 1     E * stride_1 reals                                                                  ]
//
// In the element's two buffers, in turn (fem/sum_factorisation.hpp):
//   geometric     the S coordinates gathered on the node lattice (buffer 0), through the forward stages
//                 (the coordinates' stage s output in buffer (1 + s) % 2) to J's S x d rows on the point
//                 lattice, S * d * Q (buffer d % 2); each point then maps its data rows in place
//   adjoint       stage d - 1 reads the data rows and writes buffer 0, stage d - 2 buffer 1, ...; stage 0
//                 writes the C x N nodal lattice (buffer (d - 1) % 2), which the store scatters
// Each buffer is as large as the largest array put in it; per-element strides are odd.
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>

namespace feinterp::backends::cuda {

struct TensorTransposeSharedLayout {
  int padded_points;         ///< Qp
  int data_stride;           ///< reals per element of the point data (odd)
  int stride[2];             ///< reals per element in each buffer (odd)
  int lattice_buffer;        ///< the buffer that holds the nodal lattice at the end
  std::size_t basis, maps, connectivity, connectivity_stride, orientation, data;
  std::size_t buffer[2];
  std::size_t bytes;
};

/// Grows the two buffers' sizes (reals per element) for the adjoint stages of C fields: step j runs stage
/// d - 1 - j and writes its forward input into buffer j % 2, down to the C x N nodal lattice.
FEINTERP_HD void grow_for_adjoint_stages(int (&largest)[2], int d, int P1, int Q1, int C, bool gradients) {
  for (int j = 0; j < d; ++j) {
    const int s = d - 1 - j;
    const int size = s >= 1 ? tensor_stage_size(d, P1, Q1, C, gradients, s - 1) : C * integer_power(P1, d);
    if (size > largest[j % 2]) largest[j % 2] = size;
  }
}

/// Places the arrays once the buffers' sizes and layout.data_stride are known: the odd strides, then
/// basis, maps, two groups' connectivity, the orientation bits (E of them where `orientation`), the point
/// data and the two buffers, every one 16-byte aligned.
FEINTERP_HD void place_tensor_transpose_arrays(TensorTransposeSharedLayout& layout, const int (&largest)[2], int d,
                                               int P1, int Q1, int elements_per_block, bool orientation,
                                               std::size_t real_bytes) {
  const int N = integer_power(P1, d), Q = integer_power(Q1, d);
  layout.lattice_buffer = (d - 1) % 2;
  layout.stride[0] = largest[0] | 1;
  layout.stride[1] = largest[1] | 1;
  const std::size_t E = std::size_t(elements_per_block);
  layout.basis = 0;
  layout.maps = aligned16(layout.basis + std::size_t(2 * Q1 * P1) * real_bytes);
  layout.connectivity = aligned16(layout.maps + std::size_t(N + Q) * sizeof(int));
  layout.connectivity_stride = (E * N + 3) / 4 * 4;
  layout.orientation = layout.connectivity + 2 * layout.connectivity_stride * sizeof(node_index);
  layout.data = aligned16(layout.orientation + (orientation ? E * sizeof(unsigned) : 0));
  layout.buffer[0] = aligned16(layout.data + E * std::size_t(layout.data_stride) * real_bytes);
  layout.buffer[1] = aligned16(layout.buffer[0] + E * std::size_t(layout.stride[0]) * real_bytes);
  layout.bytes = aligned16(layout.buffer[1] + E * std::size_t(layout.stride[1]) * real_bytes);
}

/// `op` the transpose or its forward operation; `geometric`: J is computed (physical gradients, weighted).
FEINTERP_HD TensorTransposeSharedLayout tensor_transpose_shared_layout(int dimension, int nodes_per_direction,
                                                                      int points_per_direction, int space_dimension,
                                                                      Operation op, bool geometric, int components,
                                                                      int elements_per_block, std::size_t real_bytes) {
  const int d = dimension, P1 = nodes_per_direction, Q1 = points_per_direction, S = space_dimension, C = components;
  const Operation forward = forward_of(op);
  const bool gradients = forward != Operation::values;
  const int N = integer_power(P1, d), Q = integer_power(Q1, d);
  const int R = result_directions(forward, d, S);
  TensorTransposeSharedLayout layout{};
  layout.padded_points = Q | 1;
  layout.data_stride = (C * R * layout.padded_points) | 1;
  int largest[2] = {1, 1};
  if (geometric) {
    if (S * N > largest[0]) largest[0] = S * N;
    for (int s = 0; s + 1 < d; ++s) {
      const int size = tensor_stage_size(d, P1, Q1, S, true, s);
      if (size > largest[(1 + s) % 2]) largest[(1 + s) % 2] = size;
    }
    if (S * d * Q > largest[d % 2]) largest[d % 2] = S * d * Q;
  }
  grow_for_adjoint_stages(largest, d, P1, Q1, C, gradients);
  place_tensor_transpose_arrays(layout, largest, d, P1, Q1, elements_per_block, geometric, real_bytes);
  return layout;
}

}  // namespace feinterp::backends::cuda
