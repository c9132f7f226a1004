// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/refine.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>

#include <feinterp/elements/visit.hpp>
#include <feinterp/mesh/error.hpp>

namespace feinterp::detail {

namespace {

struct KeyHash {
  std::size_t operator()(const std::array<node_index, 4>& k) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (node_index v : k) h = (h ^ std::uint64_t(std::uint32_t(v))) * 0xBF58476D1CE4E5B9ull;
    return std::size_t(h ^ (h >> 31));
  }
};

// The node at the mean of a set of 2 or 4 vertices, created once per set.
class NewNodes {
 public:
  explicit NewNodes(Mesh& mesh) : mesh_(mesh) { map_.reserve(mesh.node_tags.size() * 8); }

  node_index at(std::array<node_index, 4> key, int count) {
    std::sort(key.begin(), key.begin() + count);
    for (int i = count; i < 4; ++i) key[std::size_t(i)] = -1;
    auto [it, inserted] = map_.try_emplace(key, node_index(0));
    if (inserted) it->second = add(key.data(), count);
    return it->second;
  }
  /// A node not shared with any other element (a hexahedron's centre).
  node_index add(const node_index* vertices, int count) {
    double x[3] = {0, 0, 0};
    for (int i = 0; i < count; ++i)
      for (int k = 0; k < 3; ++k) x[k] += mesh_.coordinates[std::size_t(vertices[i]) * 3 + std::size_t(k)] / count;
    mesh_.coordinates.insert(mesh_.coordinates.end(), x, x + 3);
    return node_index(mesh_.coordinates.size() / 3 - 1);
  }

 private:
  Mesh& mesh_;
  std::unordered_map<std::array<node_index, 4>, node_index, KeyHash> map_;
};

// Six times the signed volume of the tetrahedron v[0..3].
double signed_volume(const Mesh& mesh, const node_index* v) {
  auto x = [&](int i, int k) { return mesh.coordinates[std::size_t(v[i]) * 3 + std::size_t(k)]; };
  double a[3], b[3], c[3];
  for (int k = 0; k < 3; ++k) {
    a[k] = x(1, k) - x(0, k);
    b[k] = x(2, k) - x(0, k);
    c[k] = x(3, k) - x(0, k);
  }
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
}

void refine_block(Mesh& mesh, ElementBlock& block, NewNodes& nodes) {
  const ElementType type = block.type;
  const int n = nodes_per_element(type);
  const offset_t E = block.element_count();
  const int dim = dimension(type.shape);
  const int children = 1 << dim;
  std::vector<node_index> out;
  out.reserve(std::size_t(E) * std::size_t(children) * std::size_t(n));
  std::vector<int> physical;
  physical.reserve(std::size_t(E) * std::size_t(children));
  for (offset_t e = 0; e < E; ++e) {
    const node_index* v = &block.connectivity[std::size_t(e) * std::size_t(n)];
    const int tag = block.physical_tags.empty() ? 0 : block.physical_tags[std::size_t(e)];
    auto edge = [&](int a, int b) { return nodes.at({v[a], v[b], 0, 0}, 2); };
    // Lines and triangles: the children below keep the parent's orientation by construction (each is the
    // parent scaled by 1/2, the middle triangle also rotated by 180 degrees), in the plane or on a
    // surface in 3D. Tetrahedra: the octahedron's four are checked by their volume.
    const bool check = type.shape == Shape::tetrahedron;
    const bool parent_negative = check && signed_volume(mesh, v) < 0;
    auto emit = [&](std::initializer_list<node_index> child) {
      const std::size_t start = out.size();
      out.insert(out.end(), child.begin(), child.end());
      if (check && (signed_volume(mesh, &out[start]) < 0) != parent_negative) std::swap(out[start], out[start + 1]);
      physical.push_back(tag);
    };
    switch (type.shape) {
      case Shape::line: {
        const node_index m01 = edge(0, 1);
        emit({v[0], m01});
        emit({m01, v[1]});
        break;
      }
      case Shape::triangle: {
        const node_index m01 = edge(0, 1), m12 = edge(1, 2), m02 = edge(0, 2);
        emit({v[0], m01, m02});
        emit({m01, v[1], m12});
        emit({m02, m12, v[2]});
        emit({m01, m12, m02});
        break;
      }
      case Shape::tetrahedron: {
        const node_index m01 = edge(0, 1), m02 = edge(0, 2), m03 = edge(0, 3), m12 = edge(1, 2), m13 = edge(1, 3),
                         m23 = edge(2, 3);
        emit({v[0], m01, m02, m03});
        emit({m01, v[1], m12, m13});
        emit({m02, m12, v[2], m23});
        emit({m03, m13, m23, v[3]});
        emit({m01, m02, m03, m13});  // the octahedron, cut along m02 - m13
        emit({m01, m02, m12, m13});
        emit({m02, m03, m13, m23});
        emit({m02, m12, m13, m23});
        break;
      }
      case Shape::quadrilateral:
      case Shape::hexahedron: {
        // Lattice of 3 points per axis over the parent: point (a, b, c), a, b, c in {0, 1, 2}, is the
        // mean of the parent vertices whose corner coordinate matches on every axis where it is 0 or 2.
        visit(type, [&](auto element) {
          using El = decltype(element);
          // Only order 1 is refined (refine_uniformly checks it); visit instantiates the other orders
          // too, and they must not compile this body, whose vertex set holds at most 8 nodes.
          if constexpr (El::order != 1) {
            throw MeshError("cannot refine " + to_string(type) + " elements: expected order 1");
          } else {
            constexpr int D = El::dimension, V = El::nodes_per_element;
            int corner[V][3] = {};
            for (int i = 0; i < V; ++i) {
              double xi[3];
              El::reference_node(i, xi);
              for (int d = 0; d < D; ++d) corner[i][d] = xi[d] > 0 ? 1 : 0;
            }
            node_index lattice[27];
            const int size = D == 2 ? 9 : 27;
            for (int p = 0; p < size; ++p) {
              const int c[3] = {p % 3, (p / 3) % 3, p / 9};
              node_index set[8];
              int count = 0;
              for (int i = 0; i < V; ++i) {
                bool match = true;
                for (int d = 0; d < D; ++d) match &= c[d] == 1 || c[d] == 2 * corner[i][d];
                if (match) set[count++] = v[i];
              }
              // A hexahedron's centre is its own; a quadrilateral's is shared, since it may be the face of a
              // hexahedron (a 3D mesh's boundary block), whose refinement creates that node too.
              lattice[p] = count == 1 ? set[0]
                           : count == 8 ? nodes.add(set, count)
                                        : nodes.at({set[0], set[1], count > 2 ? set[2] : 0, count > 3 ? set[3] : 0}, count);
            }
            for (int child = 0; child < (D == 2 ? 4 : 8); ++child) {
              const int o[3] = {child & 1, (child >> 1) & 1, (child >> 2) & 1};
              for (int i = 0; i < V; ++i) {
                const int a = o[0] + corner[i][0], b = o[1] + corner[i][1], c = D == 3 ? o[2] + corner[i][2] : 0;
                out.push_back(lattice[a + 3 * b + 9 * c]);
              }
              physical.push_back(tag);
            }
          }
        });
        break;
      }
    }
  }
  block.connectivity.swap(out);
  block.physical_tags.swap(physical);
  block.element_tags.resize(block.physical_tags.size());
}

}  // namespace

void refine_uniformly(Mesh& mesh) {
  for (const ElementBlock& b : mesh.blocks)
    if (b.type.order != 1)
      throw MeshError("cannot refine a mesh of " + to_string(b.type) + " uniformly: expected order 1");
  NewNodes nodes(mesh);
  for (ElementBlock& b : mesh.blocks) refine_block(mesh, b, nodes);
  const std::size_t n = mesh.coordinates.size() / 3;
  mesh.node_tags.resize(n);
  for (std::size_t i = 0; i < n; ++i) mesh.node_tags[i] = i + 1;
  std::size_t next = 1;
  for (ElementBlock& b : mesh.blocks)
    for (std::size_t& t : b.element_tags) t = next++;
  mesh.fields.clear();
}

}  // namespace feinterp::detail
