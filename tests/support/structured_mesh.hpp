// SPDX-License-Identifier: BSD-3-Clause
// Test support: conforming meshes of the unit interval, square or cube (nodes shared between elements,
// unlike random_block.hpp's independent elements), for every element type and order: M cells per axis,
// split into 2 triangles per square or 6 tetrahedra per cube (Kuhn's subdivision, conforming), every
// element an affine image of its reference element. An element's nodes are its reference nodes mapped
// into the lattice of spacing 1 / (p M); equal lattice points are one node, so the numbering is
// Gmsh-like (node order from the element's own reference_node) and shared nodes are shared.
// `perturbation` moves interior nodes by up to that fraction of the lattice spacing (curved elements,
// boundary and measure unchanged).
#pragma once

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/elements/visit.hpp>

#include "random_block.hpp"

namespace feinterp::test {

inline RandomBlock structured_block(ElementType type, int M, double perturbation, std::mt19937_64& rng) {
  RandomBlock block;
  block.type = type;
  const int D = dimension(type.shape), N = nodes_per_element(type), p = type.order;
  block.space_dimension = default_space_dimension(type);
  const int L = p * M;  // lattice points per axis: L + 1
  std::map<std::array<int, 3>, node_index> index;
  std::vector<std::array<int, 3>> lattice;
  // Each cell (i, j, k) gives its elements as vertex lists (vertex = lattice corner, in cell units).
  std::vector<std::array<std::array<int, 3>, 4>> simplices;  // simplices: D + 1 vertices
  std::vector<std::array<int, 3>> cells;                      // tensor elements: the cell's corner
  const int cj = D >= 2 ? M : 1, ck = D == 3 ? M : 1;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < cj; ++j)
      for (int k = 0; k < ck; ++k) {
        const std::array<int, 3> c{i, j, k};
        if (type.shape == Shape::line || type.shape == Shape::quadrilateral || type.shape == Shape::hexahedron) {
          cells.push_back(c);
        } else if (type.shape == Shape::triangle) {
          simplices.push_back({c, std::array<int, 3>{i + 1, j, 0}, std::array<int, 3>{i + 1, j + 1, 0}, c});
          simplices.push_back({c, std::array<int, 3>{i + 1, j + 1, 0}, std::array<int, 3>{i, j + 1, 0}, c});
        } else {  // tetrahedra: one per permutation of the axes, along the cube's diagonal
          const int permutations[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (const auto& axes : permutations) {
            std::array<std::array<int, 3>, 4> v;
            v[0] = c;
            for (int s = 0; s < 3; ++s) {
              v[s + 1] = v[s];
              ++v[s + 1][axes[s]];
            }
            // Odd permutations are mirrored: swap two vertices so that every det J is positive.
            const bool odd = (axes[0] == 0 && axes[1] == 2) || (axes[0] == 1 && axes[1] == 0) || (axes[0] == 2 && axes[1] == 1);
            if (odd) std::swap(v[2], v[3]);
            simplices.push_back(v);
          }
        }
      }
  visit(type, [&](auto element) {
    using E = decltype(element);
    const std::size_t elements = E::simplex ? simplices.size() : cells.size();
    block.elements = offset_t(elements);
    for (std::size_t e = 0; e < elements; ++e)
      for (int n = 0; n < N; ++n) {
        double xi[3] = {0, 0, 0};
        E::reference_node(n, xi);
        double x[3] = {0, 0, 0};  // in cell units
        if constexpr (E::simplex) {
          const auto& v = simplices[e];
          for (int a = 0; a < 3; ++a) {
            x[a] = v[0][a];
            for (int d = 0; d < D; ++d) x[a] += xi[d] * (v[d + 1][a] - v[0][a]);
          }
        } else {
          for (int d = 0; d < D; ++d) x[d] = cells[e][d] + (xi[d] + 1.0) / 2.0;
        }
        const std::array<int, 3> key{int(std::lround(x[0] * p)), int(std::lround(x[1] * p)), int(std::lround(x[2] * p))};
        auto [it, added] = index.emplace(key, node_index(lattice.size()));
        if (added) lattice.push_back(key);
        block.connectivity.push_back(it->second);
      }
  });
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  block.coordinates.assign(lattice.size() * 3, 0.0);
  for (std::size_t n = 0; n < lattice.size(); ++n) {
    bool interior = true;
    for (int d = 0; d < D; ++d) interior = interior && lattice[n][d] > 0 && lattice[n][d] < L;
    for (int d = 0; d < D; ++d)
      block.coordinates[n * 3 + d] = (lattice[n][d] + (interior ? perturbation * unit(rng) : 0.0)) / L;
  }
  return block;
}

}  // namespace feinterp::test
