// SPDX-License-Identifier: BSD-3-Clause
// Renumbering without Gmsh (fem/ordering/renumbering.hpp and its parts): permutations are checked bijections that
// move whole rows; the Hilbert index walks face-adjacent cells; reverse Cuthill–McKee numbers a path in
// order and brings a shuffled grid's bandwidth back near the lexicographic one, component by component;
// every method's connectivity lists the same points per element; the locality metric's numbers on a
// block where they are known exactly; errors and empty inputs. Shuffles are fresh each run
// (FEINTERP_TEST_SEED replays one).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <feinterp/fem/ordering/gather_locality.hpp>
#include <feinterp/fem/ordering/hilbert_curve.hpp>
#include <feinterp/fem/ordering/renumbering.hpp>
#include <feinterp/fem/ordering/reverse_cuthill_mckee.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>

namespace feinterp {
namespace {

using test::expect_invalid;

template <class Index>
std::vector<Index> random_order(std::size_t n, std::mt19937_64& rng) {
  std::vector<Index> order(n);
  std::iota(order.begin(), order.end(), Index(0));
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

// The block with its nodes renamed by a random permutation (coordinates moved with them): the same
// mesh, scattered.
test::RandomBlock shuffled(const test::RandomBlock& block, std::mt19937_64& rng) {
  const auto p = Permutation<node_index>::from_new_to_old(random_order<node_index>(std::size_t(block.node_count()), rng), "shuffle");
  test::RandomBlock s = block;
  s.coordinates = p.to_new_order(block.coordinates);
  for (node_index& v : s.connectivity) v = p.old_to_new[std::size_t(v)];
  return s;
}

// A chain of `elements` line elements of order p along x, nodes numbered in order of x.
test::RandomBlock chain(int p, int elements) {
  std::mt19937_64 unused(0);
  return test::structured_block({Shape::line, p}, elements, 0.0, unused);
}

void expect_bijection(const std::vector<node_index>& order, std::size_t n) {
  ASSERT_EQ(order.size(), n);
  std::vector<node_index> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], node_index(i));
}

TEST(Permutation, IsACheckedBijection) {
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::size_t n = 1 + rng() % 1000;
  const auto p = Permutation<offset_t>::from_new_to_old(random_order<offset_t>(n, rng), "test");
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(p.old_to_new[std::size_t(p.new_to_old[i])], offset_t(i));
  std::vector<offset_t> twice = p.new_to_old;
  if (n > 1) {
    twice[n - 1] = twice[0];
    expect_invalid([&] { Permutation<offset_t>::from_new_to_old(twice, "test"); }, "appears twice");
  }
  std::vector<offset_t> outside = p.new_to_old;
  outside[0] = offset_t(n);
  expect_invalid([&] { Permutation<offset_t>::from_new_to_old(outside, "test"); }, "expected an index in [0, ");
  outside[0] = -1;
  expect_invalid([&] { Permutation<offset_t>::from_new_to_old(outside, "test"); }, "maps to old index -1");
  EXPECT_TRUE(Permutation<int>::identity(7).is_identity());
  EXPECT_EQ(Permutation<int>::identity(0).size(), 0u);
}

TEST(Permutation, MovesWholeRowsBothWays) {
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // n >= 2: with one node every array is whole rows (of its own length), and the ragged case below has no error to give.
  const std::size_t n = 2 + rng() % 499, row = 1 + rng() % 5;
  const auto p = Permutation<node_index>::from_new_to_old(random_order<node_index>(n, rng), "test");
  const auto q = Permutation<node_index>::from_new_to_old(random_order<node_index>(n, rng), "test");
  std::vector<double> data(n * row);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (double& x : data) x = unit(rng);
  const std::vector<double> moved = p.to_new_order(data);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < row; ++k) ASSERT_EQ(moved[i * row + k], data[std::size_t(p.new_to_old[i]) * row + k]);
  EXPECT_EQ(p.to_old_order(moved), data);
  EXPECT_EQ(p.then(q).to_new_order(data), q.to_new_order(p.to_new_order(data)));
  std::vector<double> ragged(n * row + 1);
  expect_invalid([&] { p.to_new_order(ragged); }, "whole rows");
  expect_invalid([&] { p.then(Permutation<node_index>::identity(n + 1)); }, "expected equal sizes");
  expect_invalid([&] { Permutation<node_index>::identity(0).to_old_order(data); }, "expected none");
}

// Every cell of a 2^bits grid once, and consecutive indices on face-adjacent cells: the defining
// property of the Hilbert curve, exhaustively.
TEST(HilbertIndex, WalksEveryCellThroughFaceNeighbours) {
  const int bits_for[4] = {0, 6, 4, 3};
  for (int d = 1; d <= 3; ++d) {
    const int bits = bits_for[d];
    const std::uint32_t side = 1u << bits;
    const std::size_t cells = std::size_t(1) << (d * bits);
    std::vector<std::array<std::uint32_t, 3>> by_index(cells, {side, side, side});
    for (std::size_t c = 0; c < cells; ++c) {
      std::array<std::uint32_t, 3> x{std::uint32_t(c % side), std::uint32_t(c / side % side), std::uint32_t(c / side / side)};
      const std::uint64_t h = hilbert_index(x.data(), d, bits);
      ASSERT_LT(h, cells);
      ASSERT_EQ(by_index[h][0], side) << "index " << h << " given twice in " << d << "D";
      by_index[h] = x;
    }
    for (std::size_t h = 1; h < cells; ++h) {
      int distance = 0;
      for (int k = 0; k < d; ++k) distance += std::abs(int(by_index[h][k]) - int(by_index[h - 1][k]));
      ASSERT_EQ(distance, 1) << d << "D, indices " << h - 1 << " and " << h;
    }
  }
  // The full resolution: the last cell of the 3D curve of 21 bits is the top of the index range.
  std::uint32_t corner[3] = {(1u << 21) - 1, 0, 0};
  EXPECT_EQ(hilbert_index(corner, 3, 21), (std::uint64_t(1) << 63) - 1);
}

TEST(HilbertIndex, RefusesBadArguments) {
  std::uint32_t cell[3] = {0, 0, 0};
  expect_invalid([&] { hilbert_index(cell, 4, 3); }, "expected 1, 2 or 3");
  expect_invalid([&] { hilbert_index(cell, 3, 22); }, "expected 1 to 21");
  cell[1] = 8;
  expect_invalid([&] { hilbert_index(cell, 2, 3); }, "expected below 2^3");
}

TEST(HilbertBox, DropsFlatAxesAndRefusesNonFinitePoints) {
  const std::vector<double> planar = {0, 0, 0, 1, 0.5, 0, 0.25, 1, 0};
  EXPECT_EQ(HilbertBox(planar.data(), 3).dimensions(), 2);
  const std::vector<double> segment = {0, 2, 3, 5, 2, 3};
  EXPECT_EQ(HilbertBox(segment.data(), 2).dimensions(), 1);
  const std::vector<double> point = {1, 2, 3, 1, 2, 3};
  const HilbertBox same(point.data(), 2);
  EXPECT_EQ(same.dimensions(), 0);
  EXPECT_EQ(same.key(point.data()), 0u);
  EXPECT_EQ(HilbertBox(nullptr, 0).dimensions(), 0);
  const std::vector<double> bad = {0, 0, 0, 1, std::nan(""), 0};
  expect_invalid([&] { HilbertBox(bad.data(), 2); }, "point 1 has coordinate 1");
}

TEST(ReverseCuthillMcKee, NumbersAShuffledChainInOrder) {
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // p = 1: consecutive nodes share an element, bandwidth 1; p = 2: each element's interior node sits
  // between its ends, bandwidth 2. Both optimal, both exact.
  for (int p : {1, 2}) {
    const test::RandomBlock block = shuffled(chain(p, 10 + int(rng() % 200)), rng);
    const auto rcm = Permutation<node_index>::from_new_to_old(
        reverse_cuthill_mckee({block.view()}, block.node_count()), "rcm");
    test::RandomBlock renumbered = block;
    for (node_index& v : renumbered.connectivity) v = rcm.old_to_new[std::size_t(v)];
    EXPECT_EQ(measure_gather_locality(renumbered.view(), block.node_count()).bandwidth, p) << "p = " << p;
  }
}

TEST(ReverseCuthillMcKee, KeepsComponentsContiguousAndIsolatedNodesIn) {
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // Two chains and three nodes of no element, all shuffled together.
  const test::RandomBlock a = chain(1, 20), b = chain(1, 30);
  test::RandomBlock both = a;
  both.elements = a.elements + b.elements;
  for (node_index v : b.connectivity) both.connectivity.push_back(v + node_index(a.node_count()));
  both.coordinates.insert(both.coordinates.end(), b.coordinates.begin(), b.coordinates.end());
  both.coordinates.resize(both.coordinates.size() + 9, 0.5);
  const test::RandomBlock block = shuffled(both, rng);
  const std::vector<node_index> order = reverse_cuthill_mckee({block.view()}, block.node_count());
  expect_bijection(order, std::size_t(block.node_count()));
  const auto rcm = Permutation<node_index>::from_new_to_old(order, "rcm");
  test::RandomBlock renumbered = block;
  for (node_index& v : renumbered.connectivity) v = rcm.old_to_new[std::size_t(v)];
  EXPECT_EQ(measure_gather_locality(renumbered.view(), block.node_count()).bandwidth, 1);
  // Each chain is one run of consecutive indices: the first 20 elements' nodes (chain a) span 21.
  const auto [lo, hi] = std::minmax_element(renumbered.connectivity.begin(), renumbered.connectivity.begin() + 40);
  EXPECT_EQ(*hi - *lo, 20);
  EXPECT_EQ(reverse_cuthill_mckee({block.view()}, block.node_count()), order) << "not deterministic";
}

// On a shuffled structured mesh, RCM's bandwidth comes back within a small factor of the structured
// numbering's (fem/structured_box.hpp: the lattice, x fastest, the classic banded order); shuffled, it is
// about the node count. Measured over 200 shuffles: 0.90x (tetrahedra p1) to 2.5x (hexahedra p2; quadrilaterals
// p2 up to 1.97x); the mean spread 0.67x to 1.57x.
TEST(ReverseCuthillMcKee, UndoesAShuffleOnGrids) {
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const struct {
    ElementType type;
    int cells;
  } grids[] = {{{Shape::triangle, 1}, 24}, {{Shape::quadrilateral, 2}, 16}, {{Shape::tetrahedron, 1}, 8},
               {{Shape::hexahedron, 2}, 6}, {{Shape::triangle, 3}, 10}};
  for (const auto& g : grids) {
    SCOPED_TRACE(to_string(g.type));
    const test::RandomBlock natural = test::structured_block(g.type, g.cells, 0.0, rng);
    const test::RandomBlock block = shuffled(natural, rng);
    const Renumbering r = plan_renumbering({block.view()}, block.node_count(), block.coordinates.data(), RenumberMethod::rcm);
    const std::vector<node_index> connectivity = renumbered_connectivity(block.view(), r, 0);
    const BlockView view{block.type, connectivity.data(), block.elements, block.space_dimension};
    const GatherLocality before = measure_gather_locality(block.view(), block.node_count());
    const GatherLocality after = measure_gather_locality(view, block.node_count());
    const GatherLocality reference = measure_gather_locality(natural.view(), natural.node_count());
    EXPECT_LE(after.bandwidth, 3 * reference.bandwidth) << "natural " << reference.bandwidth << ", shuffled " << before.bandwidth;
    EXPECT_LE(after.mean_spread, 2 * reference.mean_spread);
    EXPECT_GT(after.sector_efficiency, before.sector_efficiency + 0.2);
  }
}

// Whatever the method, new element e lists the same points, in the same local order, as the old element
// it came from; each method's element order is sorted by its key, and hilbert's nodes are numbered in
// the order the elements first touch them.
TEST(Renumbering, KeepsEveryElementsPointsAndSortsByTheMethodsKey) {
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("FEINTERP_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::hexahedron, 1}, ElementType{Shape::line, 3}}) {
    const test::RandomBlock block = shuffled(test::structured_block(type, 5, 0.2, rng), rng);
    const int N = nodes_per_element(type);
    for (RenumberMethod method : all_renumber_methods) {
      SCOPED_TRACE(to_string(type) + ", " + renumber_method_name(method));
      const Renumbering r = plan_renumbering({block.view()}, block.node_count(), block.coordinates.data(), method);
      ASSERT_EQ(r.method, method);
      ASSERT_EQ(r.elements.size(), 1u);
      expect_bijection(r.nodes.new_to_old, std::size_t(block.node_count()));
      const std::vector<node_index> connectivity = renumbered_connectivity(block.view(), r, 0);
      const std::vector<double> coordinates = r.nodes.to_new_order(block.coordinates);
      std::vector<offset_t> smallest;
      for (offset_t e = 0; e < block.elements; ++e) {
        const offset_t old = r.elements[0].new_to_old[std::size_t(e)];
        node_index s = connectivity[std::size_t(e * N)];
        for (int n = 0; n < N; ++n) {
          const std::size_t v = std::size_t(connectivity[std::size_t(e * N + n)]);
          const std::size_t w = std::size_t(block.connectivity[std::size_t(old * N + n)]);
          ASSERT_EQ(r.nodes.new_to_old[v], node_index(w));
          for (int k = 0; k < 3; ++k) ASSERT_EQ(coordinates[3 * v + std::size_t(k)], block.coordinates[3 * w + std::size_t(k)]);
          s = std::min(s, node_index(v));
        }
        smallest.push_back(s);
      }
      if (method == RenumberMethod::none) EXPECT_TRUE(r.nodes.is_identity() && r.elements[0].is_identity());
      if (method == RenumberMethod::rcm) EXPECT_TRUE(std::is_sorted(smallest.begin(), smallest.end()));
      if (method == RenumberMethod::hilbert) {
        // Elements along the curve by centroid; nodes numbered as those elements first touch them.
        const HilbertBox box(block.coordinates.data(), block.node_count());
        std::vector<std::uint64_t> element_keys;
        for (offset_t e = 0; e < block.elements; ++e) {
          double c[3] = {0, 0, 0};
          for (int n = 0; n < N; ++n)
            for (int k = 0; k < 3; ++k) c[k] += coordinates[3 * std::size_t(connectivity[std::size_t(e * N + n)]) + std::size_t(k)];
          for (double& x : c) x /= N;
          element_keys.push_back(box.key(c));
        }
        EXPECT_TRUE(std::is_sorted(element_keys.begin(), element_keys.end()));
        node_index touched = 0;
        for (const node_index v : connectivity) {
          ASSERT_LE(v, touched) << "node " << v << " numbered before its first element";
          touched += v == touched;
        }
        EXPECT_EQ(touched, node_index(block.node_count()));
      }
      EXPECT_EQ(plan_renumbering({block.view()}, block.node_count(), block.coordinates.data(), method).nodes.new_to_old,
                r.nodes.new_to_old) << "not deterministic";
    }
  }
}

TEST(Renumbering, EmptyInputsAndErrors) {
  for (RenumberMethod method : all_renumber_methods) {
    const Renumbering none = plan_renumbering({}, 0, nullptr, method);
    EXPECT_EQ(none.nodes.size(), 0u);
    EXPECT_TRUE(none.elements.empty());
    const std::vector<double> x = {0, 0, 0, 1, 0, 0};
    const BlockView empty{{Shape::triangle, 1}, nullptr, 0};
    const Renumbering unused = plan_renumbering({empty}, 2, x.data(), method);  // nodes of no element
    EXPECT_EQ(unused.nodes.size(), 2u);
    ASSERT_EQ(unused.elements.size(), 1u);
    EXPECT_EQ(unused.elements[0].size(), 0u);
  }
  EXPECT_EQ(parse_renumber_method("hilbert"), RenumberMethod::hilbert);
  expect_invalid([] { parse_renumber_method("morton"); }, "unknown renumbering 'morton': expected none, rcm or hilbert");
  const std::vector<node_index> connectivity = {0, 1, 5};
  const BlockView bad{{Shape::triangle, 1}, connectivity.data(), 1};
  expect_invalid([&] { plan_renumbering({bad}, 3, nullptr, RenumberMethod::rcm); }, "local node 2 has node index 5");
  const BlockView good{{Shape::triangle, 1}, connectivity.data(), 1};
  expect_invalid([&] { plan_renumbering({good}, 6, nullptr, RenumberMethod::hilbert); }, "no coordinates for 6 nodes");
  expect_invalid([&] { plan_renumbering({}, -1, nullptr, RenumberMethod::rcm); }, "negative node count");
  const Renumbering r = plan_renumbering({good}, 6, nullptr, RenumberMethod::rcm);
  expect_invalid([&] { renumbered_connectivity(good, r, 1); }, "block 1 of a renumbering of 1 blocks");
  expect_invalid([&] { measure_gather_locality(good, 6, {0, 32, 8}); }, "expected a window >= 1");
}

// A chain of 64 p = 1 lines numbered in order: each window of 32 elements touches 33 nodes in 9 sectors
// of 4 values: efficiency 66 / 72, 18 sectors for 64 elements, spread 1.
TEST(GatherLocality, ExactOnAnOrderedChain) {
  const test::RandomBlock block = chain(1, 64);
  const GatherLocality g = measure_gather_locality(block.view(), block.node_count());
  EXPECT_EQ(g.bandwidth, 1);
  EXPECT_EQ(g.mean_spread, 1.0);
  EXPECT_DOUBLE_EQ(g.sector_efficiency, 66.0 / 72.0);
  EXPECT_DOUBLE_EQ(g.sectors_per_element, 18.0 / 64.0);
  const GatherLocality none = measure_gather_locality({{Shape::line, 1}, nullptr, 0}, 0);
  EXPECT_EQ(none.bandwidth, 0);
  EXPECT_EQ(none.sector_efficiency, 1.0);
}

}  // namespace
}  // namespace feinterp
