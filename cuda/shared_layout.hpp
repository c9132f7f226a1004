// SharedLayout: where each array of the packed kernel lives in dynamic shared memory. Computed by the
// same function on the host (to size the launch and refuse what does not fit) and in the kernel (to
// place its pointers), so the two can never disagree.
//
//   [ table       nodes * T * Q doubles     shape-function table, [n][t][q]: one copy per block   ]
//   [ field       E * nodes * C doubles     gathered nodal values, [z][n][c]                       ]
//   [ coordinates E * nodes * S doubles     gathered node coordinates (physical gradients only)    ]
//   [ output      E * C * R * Qp doubles    results, [z][c*R + r][q]; Qp = Q rounded up to odd     ]
//   [ connectivity 2 * E * nodes ints       two groups' connectivity: the next group's is copied in
//                                           (cp.async) while the current one is computed and stored ]
//   [ orientation E unsigned ints           per element, the or-ed orientation bits of its points
//                                           (fem/orientation.hpp; physical gradients only)          ]
//
// with E = elements_per_block, T = 1 for values and D (the reference dimension) for gradients, S the
// space dimension, and R the results per point and component: 1, D, or S for physical gradients.
//
// Why the table is [n][t][q] and the output [z][cr][q] with odd Qp: thread q of an element reads
// table[(n*T + t)*Q + q], so the 32 lanes of a warp read consecutive doubles (no bank conflict); in
// the host's [q][n][t] order the stride between lanes would be nodes*T doubles, 192 for a p = 3
// hexahedron, a 16-way conflict. The output is written by lanes q, q+1 (consecutive) and read back in
// global order, where consecutive lanes step by Qp: an odd stride of 8-byte words spreads them over
// all banks.
#pragma once

#include <cstddef>

#include "../elements/config.hpp"
#include "../fem/operation.hpp"

namespace feinterp::cuda {

struct SharedLayout {
  int table_width;           ///< T: 1 for values, D for gradients
  int result_width;          ///< R: 1 for values, D for reference gradients, S for physical gradients
  int padded_points;         ///< Qp
  std::size_t table;         ///< offsets in doubles from the start
  std::size_t field;
  std::size_t coordinates;
  std::size_t output;
  std::size_t connectivity;  ///< offset in doubles of the two int arrays (8-byte aligned)
  std::size_t connectivity_stride;  ///< ints from the first connectivity buffer to the second
  std::size_t orientation;   ///< offset in doubles of the E unsigned ints
  std::size_t bytes;         ///< total dynamic shared memory
};

FEINTERP_HD SharedLayout shared_layout(int nodes, int dimension, int space_dimension, Operation op, int points,
                                       int components, int elements_per_block) {
  SharedLayout layout{};
  const std::size_t E = std::size_t(elements_per_block);
  const bool physical = op == Operation::physical_gradients;
  layout.table_width = op == Operation::values ? 1 : dimension;
  layout.result_width = result_directions(op, dimension, space_dimension);
  layout.padded_points = points | 1;
  layout.table = 0;
  layout.field = layout.table + std::size_t(nodes) * layout.table_width * points;
  layout.coordinates = layout.field + E * nodes * components;
  const std::size_t coordinate_doubles = physical ? E * nodes * space_dimension : 0;
  layout.output = layout.coordinates + coordinate_doubles;
  layout.connectivity = layout.output + E * components * layout.result_width * layout.padded_points;
  // Each buffer rounded up to 16 bytes, so that both start aligned for the asynchronous copies.
  layout.connectivity_stride = (E * nodes + 3) / 4 * 4;
  const std::size_t connectivity_doubles = 2 * layout.connectivity_stride * sizeof(node_index) / sizeof(double);
  layout.orientation = layout.connectivity + connectivity_doubles;
  const std::size_t orientation_doubles = physical ? (E * sizeof(unsigned) + sizeof(double) - 1) / sizeof(double) : 0;
  layout.bytes = (layout.orientation + orientation_doubles) * sizeof(double);
  return layout;
}

}  // namespace feinterp::cuda
