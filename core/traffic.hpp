// SPDX-License-Identifier: BSD-3-Clause
// The minimal memory traffic of one interpolation, the yardstick of the CPU and GPU benchmarks'
// GB/s: what any implementation must move at least once, whatever its caching.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>

namespace feinterp {

/// Bytes read and written at least once by `op` on `elements` elements of `nodes_per_element` nodes
/// over a mesh of `node_count` nodes, at `points` points, for a `components`-component field, elements
/// of reference dimension d in a space of dimension s, with reals of `precision` (B = 8 or 4 bytes):
///   connectivity read once       elements * nodes_per_element * sizeof(node_index) (4 B)
///   nodal values read once       node_count * components * B
///   output written once          elements * points * components (* d or s for gradients) * B
///   physical gradients also:     coordinates read once, node_count * 3 * B (stored as x, y, z),
///                                and det J written once, elements * points * B.
/// For a transpose the same arrays go the other way (point data read, nodal vector written once), with
/// no det J; element vectors are written instead of the nodal vector (elements * nodes_per_element *
/// components * B), and a weighted or physical-gradient transpose reads the coordinates.
inline offset_t minimal_bytes(Operation op, offset_t elements, int nodes_per_element, offset_t node_count, int points,
                              int components, int reference_dimension, int space_dimension,
                              Precision precision = Precision::fp64, const TransposeOptions& transpose = {}) {
  const offset_t real = precision == Precision::fp64 ? 8 : 4;
  const offset_t per_point = offset_t(components) * result_directions(op, reference_dimension, space_dimension);
  const bool element_vectors = is_transpose(op) && transpose.target == TransposeTarget::element_vectors;
  const offset_t nodal = element_vectors ? elements * nodes_per_element * components * real : node_count * components * real;
  offset_t bytes = elements * nodes_per_element * offset_t(sizeof(node_index)) + nodal + elements * points * per_point * real;
  const bool physical = forward_of(op) == Operation::physical_gradients;
  if (physical || (is_transpose(op) && transpose.weighted)) bytes += node_count * 3 * real;
  if (op == Operation::physical_gradients) bytes += elements * points * real;
  return bytes;
}

/// Bytes read and written at least once by a fused operator (core/operation.hpp) r = A u on a block: the
/// field read and the result written once (node_count * components * B each), the connectivity read once,
/// and the geometry read once: the coordinates (node_count * 3 * B) or, where the launch reads the plan's
/// precomputed factors instead, Q reals per element for mass and Q d(d+1)/2 for diffusion.
inline offset_t operator_minimal_bytes(FusedOperator op, offset_t elements, int nodes_per_element, offset_t node_count,
                                       int points, int components, int reference_dimension,
                                       Precision precision = Precision::fp64, bool precomputed = false) {
  const offset_t real = precision == Precision::fp64 ? 8 : 4;
  const offset_t factors = op == FusedOperator::mass ? 1 : reference_dimension * (reference_dimension + 1) / 2;
  const offset_t geometry = precomputed ? elements * points * factors * real : node_count * 3 * real;
  return elements * nodes_per_element * offset_t(sizeof(node_index)) + 2 * node_count * components * real + geometry;
}

}  // namespace feinterp
