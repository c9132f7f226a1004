// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/ordering/reverse_cuthill_mckee.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace feinterp {

namespace {

// The node -> elements incidence of all blocks (elements numbered across blocks, block after block),
// and each element's nodes.
class Incidence {
 public:
  Incidence(const std::vector<BlockView>& blocks, offset_t node_count) : offsets_(std::size_t(node_count) + 1, 0) {
    offset_t elements = 0;
    for (const BlockView& b : blocks) elements += b.element_count;
    element_nodes_.reserve(std::size_t(elements));
    for (const BlockView& b : blocks) {
      const int N = b.element_count > 0 ? nodes_per_element(b.type) : 0;
      for (offset_t e = 0; e < b.element_count; ++e) {
        const node_index* nodes = b.connectivity + e * N;
        element_nodes_.push_back({nodes, N});
        for (int n = 0; n < N; ++n) ++offsets_[std::size_t(nodes[n]) + 1];
      }
    }
    for (std::size_t v = 0; v + 1 < offsets_.size(); ++v) offsets_[v + 1] += offsets_[v];
    elements_.resize(std::size_t(offsets_.back()));
    std::vector<offset_t> next(offsets_.begin(), offsets_.end() - 1);
    degree_.assign(std::size_t(node_count), 0);
    for (std::size_t g = 0; g < element_nodes_.size(); ++g) {
      const auto [nodes, N] = element_nodes_[g];
      for (int n = 0; n < N; ++n) {
        elements_[std::size_t(next[std::size_t(nodes[n])]++)] = offset_t(g);
        degree_[std::size_t(nodes[n])] += N - 1;
      }
    }
  }

  offset_t node_count() const { return offset_t(degree_.size()); }
  offset_t element_count() const { return offset_t(element_nodes_.size()); }
  offset_t degree(node_index v) const { return degree_[std::size_t(v)]; }
  const offset_t* elements_begin(node_index v) const { return elements_.data() + offsets_[std::size_t(v)]; }
  const offset_t* elements_end(node_index v) const { return elements_.data() + offsets_[std::size_t(v) + 1]; }
  std::pair<const node_index*, int> nodes(offset_t element) const { return element_nodes_[std::size_t(element)]; }

 private:
  std::vector<offset_t> offsets_, elements_, degree_;
  std::vector<std::pair<const node_index*, int>> element_nodes_;
};

// Breadth-first searches over the incidence. Marks are stamps (the search's number), so that no search
// clears arrays of the size of the mesh: a component of one node costs O(1).
class Search {
 public:
  explicit Search(const Incidence& incidence)
      : incidence_(incidence),
        node_stamp_(std::size_t(incidence.node_count()), 0),
        element_stamp_(std::size_t(incidence.element_count()), 0) {}

  /// A search from `root`: `order` receives its component, level after level; returns the level count
  /// and leaves the last level in order[last_level_begin ..). With `by_degree`, the nodes each node
  /// discovers are appended by increasing (degree, index): the Cuthill–McKee order.
  int run(node_index root, std::vector<node_index>& order, bool by_degree) {
    if (++stamp_ == 0) {  // wrapped after 2^32 searches: clear once, and go on
      std::fill(node_stamp_.begin(), node_stamp_.end(), 0);
      std::fill(element_stamp_.begin(), element_stamp_.end(), 0);
      stamp_ = 1;
    }
    order.clear();
    order.push_back(root);
    node_stamp_[std::size_t(root)] = stamp_;
    std::size_t level_begin = 0, level_end = 1;
    int levels = 1;
    last_level_begin = 0;
    std::vector<node_index> fresh;
    for (std::size_t head = 0; head < order.size(); ++head) {
      if (head == level_end) {  // the next level starts
        level_begin = level_end;
        level_end = order.size();
        last_level_begin = level_begin;
        ++levels;
      }
      const node_index v = order[head];
      fresh.clear();
      for (const offset_t* e = incidence_.elements_begin(v); e != incidence_.elements_end(v); ++e) {
        if (element_stamp_[std::size_t(*e)] == stamp_) continue;  // expanded: all its nodes are known
        element_stamp_[std::size_t(*e)] = stamp_;
        const auto [nodes, N] = incidence_.nodes(*e);
        for (int n = 0; n < N; ++n)
          if (node_stamp_[std::size_t(nodes[n])] != stamp_) {
            node_stamp_[std::size_t(nodes[n])] = stamp_;
            fresh.push_back(nodes[n]);
          }
      }
      if (by_degree)
        std::sort(fresh.begin(), fresh.end(), [&](node_index a, node_index b) { return less_degree(a, b); });
      order.insert(order.end(), fresh.begin(), fresh.end());
    }
    return levels;
  }

  bool less_degree(node_index a, node_index b) const {
    const offset_t da = incidence_.degree(a), db = incidence_.degree(b);
    return da != db ? da < db : a < b;
  }

  std::size_t last_level_begin = 0;

 private:
  const Incidence& incidence_;
  std::vector<std::uint32_t> node_stamp_, element_stamp_;
  std::uint32_t stamp_ = 0;
};

node_index min_degree(const Search& search, const node_index* begin, const node_index* end) {
  return *std::min_element(begin, end, [&](node_index a, node_index b) { return search.less_degree(a, b); });
}

}  // namespace

std::vector<node_index> reverse_cuthill_mckee(const std::vector<BlockView>& blocks, offset_t node_count) {
  if (node_count < 0)
    throw std::invalid_argument("reverse Cuthill-McKee: negative node count " + std::to_string(node_count));
  for (const BlockView& b : blocks) validate_connectivity(b, node_count);
  const Incidence incidence(blocks, node_count);
  Search search(incidence);
  std::vector<node_index> result;
  result.reserve(std::size_t(node_count));
  std::vector<char> placed(std::size_t(node_count), 0);
  std::vector<node_index> component, level_order;
  for (node_index first = 0; first < node_count; ++first) {
    if (placed[std::size_t(first)]) continue;
    // The component of the lowest unplaced node, and its node of minimum degree...
    search.run(first, component, false);
    node_index root = min_degree(search, component.data(), component.data() + component.size());
    // ...then George and Liu's pseudo-peripheral node: 16 searches at most (each O(component)); they
    // stop much earlier on meshes (the eccentricity stops growing after 2 or 3).
    if (component.size() > 1) {
      int depth = search.run(root, level_order, false);
      for (int i = 0; i < 16; ++i) {
        const node_index candidate = min_degree(search, level_order.data() + search.last_level_begin,
                                                level_order.data() + level_order.size());
        std::vector<node_index> candidate_order;
        const int candidate_depth = search.run(candidate, candidate_order, false);
        if (candidate_depth <= depth) break;
        root = candidate;
        depth = candidate_depth;
        level_order.swap(candidate_order);
      }
    }
    if (component.size() > 1) search.run(root, component, true);
    for (node_index v : component) placed[std::size_t(v)] = 1;
    result.insert(result.end(), component.begin(), component.end());
  }
  std::reverse(result.begin(), result.end());
  return result;
}

}  // namespace feinterp
