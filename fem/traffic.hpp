// The minimal memory traffic of one interpolation, the yardstick of the CPU and GPU benchmarks'
// GB/s: what any implementation must move at least once, whatever its caching.
#pragma once

#include "../elements/config.hpp"
#include "operation.hpp"

namespace feinterp {

/// Bytes read and written at least once by `op` on `elements` elements of `nodes_per_element` nodes
/// over a mesh of `node_count` nodes, at `points` points, for a `components`-component field, elements
/// of reference dimension d in a space of dimension s:
///   connectivity read once       elements * nodes_per_element * sizeof(node_index) (4 B)
///   nodal values read once       node_count * components * 8 B
///   output written once          elements * points * components (* d or s for gradients) * 8 B
///   physical gradients also:     coordinates read once, node_count * 3 * 8 B (stored as x, y, z),
///                                and det J written once, elements * points * 8 B.
inline offset_t minimal_bytes(Operation op, offset_t elements, int nodes_per_element, offset_t node_count, int points,
                              int components, int reference_dimension, int space_dimension) {
  const offset_t per_point = offset_t(components) * result_directions(op, reference_dimension, space_dimension);
  offset_t bytes = elements * nodes_per_element * offset_t(sizeof(node_index)) +
                   node_count * components * offset_t(sizeof(double)) +
                   elements * points * per_point * offset_t(sizeof(double));
  if (op == Operation::physical_gradients)
    bytes += node_count * 3 * offset_t(sizeof(double)) + elements * points * offset_t(sizeof(double));
  return bytes;
}

}  // namespace feinterp
