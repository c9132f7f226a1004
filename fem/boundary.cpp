// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/boundary.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <feinterp/elements/visit.hpp>

namespace feinterp {

namespace {

constexpr int max_facet_vertices = 4;  // a hexahedron's face

/// A reference element's facets: each one's local nodes, its vertices (the nodes among the element's
/// vertices, which Gmsh numbers first) leading.
struct Facets {
  std::vector<std::vector<int>> nodes;
  std::vector<int> vertex_counts;
};

/// The nodes whose reference coordinates lie on each facet: x_d = 0 and x_0 + .. + x_{d-1} = 1 for
/// simplices ([0, 1]), x_d = -1 and x_d = 1 for lines and tensor shapes ([-1, 1]); lattice coordinates
/// are multiples of 1/p, so a tolerance of 1e-9 separates on from off.
Facets facets_of(ElementType type) {
  return visit(type, [](auto element) {
    using Element = decltype(element);
    constexpr int D = Element::dimension, N = Element::nodes_per_element;
    struct Plane {
      int axis;      // x_axis = value, or the sum of the coordinates for axis = D
      double value;
    };
    std::vector<Plane> planes;
    for (int d = 0; d < D; ++d) {
      if (Element::simplex) {
        planes.push_back({d, 0.0});
      } else {
        planes.push_back({d, -1.0});
        planes.push_back({d, 1.0});
      }
    }
    if (Element::simplex) planes.push_back({D, 1.0});
    Facets facets;
    const int V = Element::simplex ? D + 1 : 1 << D;  // vertices, which Gmsh numbers first
    for (const Plane& plane : planes) {
      std::vector<int> vertices, others;
      for (int n = 0; n < N; ++n) {
        double xi[3] = {0, 0, 0};
        Element::reference_node(n, xi);
        const double x = plane.axis < D ? xi[plane.axis] : xi[0] + xi[1] + xi[2];
        if (std::fabs(x - plane.value) < 1e-9) (n < V ? vertices : others).push_back(n);
      }
      facets.vertex_counts.push_back(int(vertices.size()));
      vertices.insert(vertices.end(), others.begin(), others.end());
      facets.nodes.push_back(std::move(vertices));
    }
    return facets;
  });
}

/// One facet of one element: its vertices' global indices, sorted (the key), and where it came from.
struct FacetEntry {
  std::array<node_index, max_facet_vertices> key;
  std::size_t block;
  offset_t element;
  int facet;
};

}  // namespace

std::vector<node_index> boundary_nodes(const std::vector<BlockView>& blocks, offset_t node_count) {
  if (blocks.empty()) return {};
  const int D = dimension(blocks.front().type.shape);
  std::vector<Facets> facets;
  std::vector<FacetEntry> entries;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const BlockView& block = blocks[b];
    if (dimension(block.type.shape) != D)
      throw std::invalid_argument("boundary_nodes: block " + std::to_string(b) + " (" + to_string(block.type) +
                                  ") has dimension " + std::to_string(dimension(block.type.shape)) +
                                  "; expected the first block's, " + std::to_string(D));
    validate_connectivity(block, node_count);
    facets.push_back(facets_of(block.type));
    const Facets& f = facets.back();
    const int N = nodes_per_element(block.type);
    for (offset_t e = 0; e < block.element_count; ++e) {
      const node_index* element = block.connectivity + std::size_t(e) * std::size_t(N);
      for (int k = 0; k < int(f.nodes.size()); ++k) {
        FacetEntry entry{{}, b, e, k};
        entry.key.fill(std::numeric_limits<node_index>::max());
        for (int v = 0; v < f.vertex_counts[std::size_t(k)]; ++v)
          entry.key[std::size_t(v)] = element[f.nodes[std::size_t(k)][std::size_t(v)]];
        std::sort(entry.key.begin(), entry.key.end());
        entries.push_back(entry);
      }
    }
  }
  std::sort(entries.begin(), entries.end(), [](const FacetEntry& a, const FacetEntry& b) { return a.key < b.key; });

  std::vector<char> on_boundary(std::size_t(node_count), 0);
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i + 1;
    while (j < entries.size() && entries[j].key == entries[i].key) ++j;
    if (j - i > 2)
      throw std::invalid_argument("boundary_nodes: a facet is shared by " + std::to_string(j - i) +
                                  " elements, among them " +
                                  describe_element(blocks[entries[i].block], entries[i].element) + " and " +
                                  describe_element(blocks[entries[i + 1].block], entries[i + 1].element) +
                                  "; expected at most two (a manifold mesh)");
    if (j - i == 1) {
      const FacetEntry& entry = entries[i];
      const BlockView& block = blocks[entry.block];
      const node_index* element = block.connectivity + std::size_t(entry.element) * std::size_t(nodes_per_element(block.type));
      for (int n : facets[entry.block].nodes[std::size_t(entry.facet)]) on_boundary[std::size_t(element[n])] = 1;
    }
    i = j;
  }
  std::vector<node_index> nodes;
  for (offset_t n = 0; n < node_count; ++n)
    if (on_boundary[std::size_t(n)]) nodes.push_back(node_index(n));
  return nodes;
}

}  // namespace feinterp
