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

}  // namespace feinterp::test
