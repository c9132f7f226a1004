// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/ordering/renumbering.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include <feinterp/fem/ordering/hilbert_curve.hpp>
#include <feinterp/fem/ordering/reverse_cuthill_mckee.hpp>

namespace feinterp {

namespace {

// The indices 0..keys.size()-1 sorted by (key, index): a deterministic order whatever the ties.
template <class Index, class Key>
std::vector<Index> order_by(const std::vector<Key>& keys) {
  std::vector<std::pair<Key, Index>> pairs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], Index(i)};
  std::sort(pairs.begin(), pairs.end());
  std::vector<Index> order(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) order[i] = pairs[i].second;
  return order;
}

// rcm: each element's key is its smallest new node index.
std::vector<offset_t> elements_by_smallest_node(const BlockView& block, const Permutation<node_index>& nodes) {
  const int N = block.element_count > 0 ? nodes_per_element(block.type) : 0;
  std::vector<node_index> smallest(std::size_t(block.element_count));
  for (offset_t e = 0; e < block.element_count; ++e) {
    node_index s = nodes.old_to_new[std::size_t(block.connectivity[e * N])];
    for (int n = 1; n < N; ++n) s = std::min(s, nodes.old_to_new[std::size_t(block.connectivity[e * N + n])]);
    smallest[std::size_t(e)] = s;
  }
  return order_by<offset_t>(smallest);
}

// hilbert: each element's key is the key of the mean of its nodes.
std::vector<offset_t> elements_by_centroid(const BlockView& block, const double* coordinates, const HilbertBox& box) {
  const int N = block.element_count > 0 ? nodes_per_element(block.type) : 0;
  std::vector<std::uint64_t> keys(std::size_t(block.element_count));
  for (offset_t e = 0; e < block.element_count; ++e) {
    double centroid[3] = {0, 0, 0};
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < 3; ++k) centroid[k] += coordinates[std::size_t(block.connectivity[e * N + n]) * 3 + std::size_t(k)];
    for (double& c : centroid) c /= N;
    keys[std::size_t(e)] = box.key(centroid);
  }
  return order_by<offset_t>(keys);
}

// hilbert: the nodes in the order the elements, in their new order (block after block), first touch
// them; nodes of no element after, by their own key. Measured against sorting every node by its own
// key (docs/design/RENUMBERING.md, ~100k elements): 12% fewer gathered sectors per element for hexahedra p3
// (12.3 instead of 14.1), 6% for tetrahedra p2, 13% for triangles p1: an element's new nodes come
// out consecutive instead of interleaved along the curve with their neighbours'.
std::vector<node_index> nodes_by_first_touch(const std::vector<BlockView>& blocks,
                                             const std::vector<Permutation<offset_t>>& elements, offset_t node_count,
                                             const double* coordinates, const HilbertBox& box) {
  std::vector<node_index> order;
  order.reserve(std::size_t(node_count));
  std::vector<char> seen(std::size_t(node_count), 0);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const offset_t N = blocks[b].element_count > 0 ? nodes_per_element(blocks[b].type) : 0;
    for (const offset_t e : elements[b].new_to_old)
      for (offset_t n = 0; n < N; ++n) {
        const node_index v = blocks[b].connectivity[e * N + n];
        if (!seen[std::size_t(v)]) order.push_back(v);
        seen[std::size_t(v)] = 1;
      }
  }
  std::vector<std::uint64_t> keys;
  std::vector<node_index> untouched;
  for (offset_t v = 0; v < node_count; ++v)
    if (!seen[std::size_t(v)]) {
      keys.push_back(box.key(coordinates + 3 * v));
      untouched.push_back(node_index(v));
    }
  for (const node_index i : order_by<node_index>(keys)) order.push_back(untouched[std::size_t(i)]);
  return order;
}

}  // namespace

const char* renumber_method_name(RenumberMethod method) {
  switch (method) {
    case RenumberMethod::none: return "none";
    case RenumberMethod::rcm: return "rcm";
    case RenumberMethod::hilbert: return "hilbert";
  }
  return "unknown";
}

RenumberMethod parse_renumber_method(const std::string& name) {
  for (RenumberMethod m : all_renumber_methods)
    if (name == renumber_method_name(m)) return m;
  throw std::invalid_argument("unknown renumbering '" + name + "': expected none, rcm or hilbert");
}

Renumbering plan_renumbering(const std::vector<BlockView>& blocks, offset_t node_count, const double* coordinates,
                             RenumberMethod method) {
  if (node_count < 0) throw std::invalid_argument("renumbering: negative node count " + std::to_string(node_count));
  for (const BlockView& b : blocks) validate_connectivity(b, node_count);
  Renumbering r;
  r.method = method;
  switch (method) {
    case RenumberMethod::none:
      r.nodes = Permutation<node_index>::identity(std::size_t(node_count));
      for (const BlockView& b : blocks) r.elements.push_back(Permutation<offset_t>::identity(std::size_t(b.element_count)));
      break;
    case RenumberMethod::rcm:
      r.nodes = Permutation<node_index>::from_new_to_old(reverse_cuthill_mckee(blocks, node_count), "reverse Cuthill-McKee");
      for (const BlockView& b : blocks)
        r.elements.push_back(Permutation<offset_t>::from_new_to_old(elements_by_smallest_node(b, r.nodes),
                                                                    "element order of " + to_string(b.type)));
      break;
    case RenumberMethod::hilbert: {
      if (!coordinates && node_count > 0)
        throw std::invalid_argument("hilbert renumbering: no coordinates for " + std::to_string(node_count) +
                                    " nodes (expected x[node*3 + k])");
      const HilbertBox box(coordinates, node_count);
      for (const BlockView& b : blocks)
        r.elements.push_back(Permutation<offset_t>::from_new_to_old(elements_by_centroid(b, coordinates, box),
                                                                    "element order of " + to_string(b.type)));
      r.nodes = Permutation<node_index>::from_new_to_old(nodes_by_first_touch(blocks, r.elements, node_count, coordinates, box),
                                                         "Hilbert node order");
      break;
    }
  }
  return r;
}

std::vector<node_index> renumbered_connectivity(const BlockView& block, const Renumbering& renumbering,
                                                std::size_t block_index) {
  if (block_index >= renumbering.elements.size())
    throw std::invalid_argument("renumbered_connectivity: block " + std::to_string(block_index) + " of a renumbering of " +
                                std::to_string(renumbering.elements.size()) + " blocks");
  const Permutation<offset_t>& elements = renumbering.elements[block_index];
  if (offset_t(elements.size()) != block.element_count)
    throw std::invalid_argument("renumbered_connectivity: block " + std::to_string(block_index) + " of " +
                                to_string(block.type) + " has " + std::to_string(block.element_count) +
                                " elements, its element permutation " + std::to_string(elements.size()));
  validate_connectivity(block, offset_t(renumbering.nodes.size()));
  const offset_t N = block.element_count > 0 ? nodes_per_element(block.type) : 0;
  std::vector<node_index> connectivity(std::size_t(block.element_count * N));
  for (offset_t e = 0; e < block.element_count; ++e) {
    const node_index* old = block.connectivity + elements.new_to_old[std::size_t(e)] * N;
    for (offset_t n = 0; n < N; ++n)
      connectivity[std::size_t(e * N + n)] = renumbering.nodes.old_to_new[std::size_t(old[n])];
  }
  return connectivity;
}

}  // namespace feinterp
