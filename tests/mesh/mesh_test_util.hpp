// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the mesh tests: a temporary directory, small files, hand-written MSH 2.2 text.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <algorithm>
#include <feinterp/tests/support/temp_dir.hpp>

namespace feinterp::test {

/// The CPU executor's plan for a loaded block: host arrays, errors thrown by apply itself.
inline Interpolator<double> cpu_plan(const Mesh& mesh, const ElementBlock& block, const PointSet& points) {
  InterpolatorOptions options;
  options.executor = Executor::cpu();
  return Interpolator<double>(block.view(), mesh.node_count(), points, mesh.coordinates.data(), options);
}

inline void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool exists(const std::string& path) { return std::filesystem::exists(path); }

/// MSH 2.2 ASCII with the given $Nodes and $Elements bodies (and extra sections appended).
inline std::string msh22(const std::string& nodes, const std::string& elements, const std::string& extra = "") {
  std::string s = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  if (!nodes.empty()) s += "$Nodes\n" + nodes + "$EndNodes\n";
  if (!elements.empty()) s += "$Elements\n" + elements + "$EndElements\n";
  return s + extra;
}

/// Four nodes of the unit square and two triangles (tags 1..4; elements 1, 2).
inline std::string square_nodes() { return "4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"; }
inline std::string square_triangles() { return "2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n"; }

/// The smallest det J (the measure, when the block's elements are surfaces or curves in a larger space)
/// over every node of every element of a block (where a polynomial map's Jacobian changes sign first on
/// a badly curved element).
inline double min_detj_at_nodes(const Mesh& mesh, const ElementBlock& b) {
  const int space = space_dimension(b.view());
  return visit(b.type, [&](auto element) {
    using E = decltype(element);
    constexpr int D = E::dimension, N = E::nodes_per_element;
    auto worst_in = [&](auto s) {
      constexpr int S = decltype(s)::value;
      double worst = 1e300;
      double x[N * 3], values[N], gradients[N * D], xi[3];
      for (offset_t e = 0; e < b.element_count(); ++e) {
        for (int n = 0; n < N; ++n)
          for (int k = 0; k < 3; ++k)
            x[n * 3 + k] = mesh.coordinates[std::size_t(b.connectivity[std::size_t(e * N + n)]) * 3 + std::size_t(k)];
        for (int q = 0; q < N; ++q) {
          E::reference_node(q, xi);
          E::shape_gradients(xi, values, gradients);
          double J[S][D];
          jacobian<S, D, N>(x, 3, gradients, J);
          worst = std::min(worst, jacobian_determinant(J));
        }
      }
      return worst;
    };
    if constexpr (D == 3) return worst_in(std::integral_constant<int, 3>{});
    else return space == 3 ? worst_in(std::integral_constant<int, 3>{}) : worst_in(std::integral_constant<int, 2>{});
  });
}

}  // namespace feinterp::test
