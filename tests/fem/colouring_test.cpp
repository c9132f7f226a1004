// SPDX-License-Identifier: BSD-3-Clause
// Element colouring (fem/ordering/colouring.hpp): every element in exactly one colour, increasing inside a colour,
// and no node shared by two elements of one colour; on random connectivity (fresh each run) and on
// connectivity whose nodes are shared by more than 64 elements (several rounds of 64 colours).
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <feinterp/fem/ordering/colouring.hpp>

namespace feinterp {
namespace {

void check_colouring(const BlockView& block, offset_t node_count, const ElementColouring& colouring) {
  const int N = nodes_per_element(block.type);
  ASSERT_EQ(colouring.elements.size(), std::size_t(block.element_count));
  ASSERT_EQ(colouring.colour_offsets.front(), 0);
  ASSERT_EQ(colouring.colour_offsets.back(), block.element_count);
  std::vector<int> seen(std::size_t(block.element_count), 0);
  std::vector<int> owner(std::size_t(node_count), -1);  // the last colour that touched the node
  for (int colour = 0; colour < colouring.colours(); ++colour) {
    const offset_t begin = colouring.colour_offsets[std::size_t(colour)], end = colouring.colour_offsets[std::size_t(colour) + 1];
    ASSERT_LT(begin, end) << "colour " << colour << " is empty";
    for (offset_t i = begin; i < end; ++i) {
      const offset_t e = colouring.elements[std::size_t(i)];
      ASSERT_GE(e, 0);
      ASSERT_LT(e, block.element_count);
      ++seen[std::size_t(e)];
      if (i > begin) ASSERT_LT(colouring.elements[std::size_t(i) - 1], e) << "colour " << colour << " not increasing";
      for (int n = 0; n < N; ++n) {
        const node_index node = block.connectivity[std::size_t(e * N + n)];
        bool repeated_in_element = false;
        for (int m = 0; m < n; ++m) repeated_in_element |= block.connectivity[std::size_t(e * N + m)] == node;
        if (!repeated_in_element) ASSERT_NE(owner[std::size_t(node)], colour) << "node " << node << " twice in colour " << colour;
        owner[std::size_t(node)] = colour;
      }
    }
  }
  for (offset_t e = 0; e < block.element_count; ++e) ASSERT_EQ(seen[std::size_t(e)], 1) << "element " << e;
}

TEST(Colouring, RandomConnectivity) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : {ElementType{Shape::triangle, 1}, ElementType{Shape::tetrahedron, 2}, ElementType{Shape::hexahedron, 1}}) {
    const int N = nodes_per_element(type);
    const offset_t elements = 3000, nodes = 2000;
    std::uniform_int_distribution<node_index> pick(0, node_index(nodes - 1));
    std::vector<node_index> connectivity(std::size_t(elements * N));
    for (node_index& node : connectivity) node = pick(rng);
    const BlockView block{type, connectivity.data(), elements, 0};
    check_colouring(block, nodes, colour_elements(block, nodes));
  }
}

TEST(Colouring, MoreThan64ElementsAtANode) {
  // 200 triangles around node 0 (a fan): they all share it, so 200 colours, in four rounds.
  const offset_t elements = 200;
  std::vector<node_index> connectivity;
  for (offset_t e = 0; e < elements; ++e) {
    connectivity.push_back(0);
    connectivity.push_back(node_index(1 + e));
    connectivity.push_back(node_index(1 + (e + 1) % elements));
  }
  const BlockView block{{Shape::triangle, 1}, connectivity.data(), elements, 0};
  const ElementColouring colouring = colour_elements(block, elements + 1);
  EXPECT_EQ(colouring.colours(), 200);
  check_colouring(block, elements + 1, colouring);
}

TEST(Colouring, RepeatedNodeIsNamed) {
  std::vector<node_index> connectivity{0, 1, 2, 3, 4, 3};
  const BlockView block{{Shape::triangle, 1}, connectivity.data(), 2, 0};
  try {
    check_distinct_nodes(block);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("element 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("node 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace feinterp
