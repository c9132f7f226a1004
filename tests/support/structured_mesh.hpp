// SPDX-License-Identifier: BSD-3-Clause
// Test support: conforming meshes of the unit interval, square or cube (nodes shared between elements,
// unlike random_block.hpp's independent elements), for every element type and order: the library's
// structured box (fem/structured_box.hpp: M cells per axis, 2 triangles per square or 6 tetrahedra per
// cube, every element an affine image of its reference element), as a RandomBlock, with `perturbation`
// moving interior nodes by up to that fraction of the lattice spacing 1 / (p M) (curved elements,
// boundary and measure unchanged).
#pragma once

#include <random>
#include <utility>
#include <vector>

#include <feinterp/fem/structured_box.hpp>

#include <feinterp/tests/support/random_block.hpp>

namespace feinterp::test {

inline RandomBlock structured_block(ElementType type, int M, double perturbation, std::mt19937_64& rng) {
  StructuredBox box = structured_box(type, M);
  RandomBlock block;
  block.type = type;
  block.space_dimension = box.view().space_dimension;
  block.elements = box.element_count;
  block.connectivity = std::move(box.connectivity);
  block.coordinates = std::move(box.coordinates);
  const int D = dimension(type.shape);
  const double spacing = 1.0 / (type.order * M);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (offset_t n = 0; n < block.node_count(); ++n) {
    double* x = &block.coordinates[std::size_t(n) * 3];
    bool interior = true;  // the box's faces are exactly 0 and 1
    for (int d = 0; d < D; ++d) interior = interior && x[d] > 0.0 && x[d] < 1.0;
    if (interior && perturbation != 0.0)
      for (int d = 0; d < D; ++d) x[d] += perturbation * spacing * unit(rng);
  }
  return block;
}

/// The connectivity of the elements of `box` whose centroid lies left of x = 1/2 (`left`), or right of it:
/// two blocks of one mesh over the box's nodes, for operators and boundaries over several blocks. With an even
/// number of cells per axis the halves meet on cell edges (an odd one leaves a gap of the middle column).
inline std::vector<node_index> structured_half(const StructuredBox& box, bool left) {
  const int N = nodes_per_element(box.type);
  std::vector<node_index> kept;
  for (offset_t e = 0; e < box.element_count; ++e) {
    double x = 0;
    for (int n = 0; n < N; ++n) x += box.coordinates[std::size_t(box.connectivity[std::size_t(e) * N + n]) * 3];
    if ((x / N < 0.5) == left)
      kept.insert(kept.end(), box.connectivity.begin() + std::ptrdiff_t(e) * N,
                  box.connectivity.begin() + std::ptrdiff_t(e + 1) * N);
  }
  return kept;
}

}  // namespace feinterp::test
