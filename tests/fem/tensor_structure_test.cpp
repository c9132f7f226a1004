// SPDX-License-Identifier: BSD-3-Clause
// Tensor-structure detection (fem/tensor_structure.hpp): for every quadrilateral and hexahedron order,
// the node lattice and Gauss-Legendre rules of many degrees are found, in their own order and shuffled,
// and B (x) B (x) B, with G in one direction, reproduces the dense tabulation (fem/tabulation.hpp) to
// 1e-14; the node permutation derived from the coordinates is the element's lattice table; sets that
// are no tensor product are refused with a reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tabulation.hpp>
#include <feinterp/fem/tensor_structure.hpp>

#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/shuffled_points.hpp>

namespace feinterp {
namespace {

constexpr ElementType tensor_types[] = {{Shape::quadrilateral, 1}, {Shape::quadrilateral, 2},
                                        {Shape::quadrilateral, 3}, {Shape::hexahedron, 1},
                                        {Shape::hexahedron, 2},    {Shape::hexahedron, 3}};

/// The lattice coordinates of index l along each axis, axis 0 fastest.
std::vector<int> lattice_indices(int l, int n, int d) {
  std::vector<int> i(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k, l /= n) i[std::size_t(k)] = l % n;
  return i;
}

/// Checks the 1D tables against the dense tabulation at every (point, node): the value prod_k B[i_k][a_k]
/// and the gradient in direction j with G in place of B along axis j.
void expect_reproduces_dense(const TensorStructure& t, const PointSet& points) {
  const Tabulation dense = tabulate(t.type, points);
  const int d = t.dimension, P1 = t.nodes_per_direction, Q1 = t.points_per_direction, N = t.nodes();
  ASSERT_EQ(dense.points, t.points());
  ASSERT_EQ(dense.nodes, N);
  double scale_values = 0, scale_gradients = 0;
  for (double v : dense.values) scale_values = std::max(scale_values, std::abs(v));
  for (double g : dense.gradients) scale_gradients = std::max(scale_gradients, std::abs(g));
  double worst_values = 0, worst_gradients = 0;
  for (int l = 0; l < t.points(); ++l) {
    const int q = t.point_of_lattice[std::size_t(l)];
    const std::vector<int> i = lattice_indices(l, Q1, d);
    for (int n = 0; n < N; ++n) {
      const std::vector<int> a = lattice_indices(t.node_lattice[std::size_t(n)], P1, d);
      double value = 1;
      for (int k = 0; k < d; ++k) value *= t.values_1d[std::size_t(i[std::size_t(k)] * P1 + a[std::size_t(k)])];
      worst_values = std::max(worst_values, std::abs(value - dense.values[std::size_t(q) * N + n]));
      for (int j = 0; j < d; ++j) {
        double gradient = 1;
        for (int k = 0; k < d; ++k) {
          const std::size_t entry = std::size_t(i[std::size_t(k)] * P1 + a[std::size_t(k)]);
          gradient *= k == j ? t.derivatives_1d[entry] : t.values_1d[entry];
        }
        worst_gradients =
            std::max(worst_gradients, std::abs(gradient - dense.gradients[(std::size_t(q) * N + n) * d + j]));
      }
    }
  }
  EXPECT_LE(worst_values / scale_values, 1e-14) << points.name;
  EXPECT_LE(worst_gradients / scale_gradients, 1e-14) << points.name;
}

class TensorStructureTest : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(QuadrilateralsAndHexahedra, TensorStructureTest, ::testing::ValuesIn(tensor_types),
                         [](const auto& info) {
                           return std::string(shape_name(info.param.shape)) + "_p" + std::to_string(info.param.order);
                         });

TEST_P(TensorStructureTest, NodeLatticeIsFoundAndReproducesTheDenseBasis) {
  const ElementType type = GetParam();
  const PointSet nodes = element_nodes(type);
  std::string why;
  const std::optional<TensorStructure> t = tensor_structure(type, nodes, &why);
  ASSERT_TRUE(t) << why;
  EXPECT_EQ(t->dimension, dimension(type.shape));
  EXPECT_EQ(t->nodes_per_direction, type.order + 1);
  EXPECT_EQ(t->points_per_direction, type.order + 1);
  EXPECT_EQ(t->points(), nodes_per_element(type));
  for (int i = 0; i <= type.order; ++i) EXPECT_NEAR(t->points_1d[std::size_t(i)], -1.0 + 2.0 * i / type.order, 1e-15);
  // At its own nodes the basis is the identity: point_of_lattice is the inverse of node_lattice.
  for (int n = 0; n < nodes.size(); ++n) EXPECT_EQ(t->point_of_lattice[std::size_t(t->node_lattice[std::size_t(n)])], n);
  expect_reproduces_dense(*t, nodes);
}

TEST_P(TensorStructureTest, NodePermutationIsTheElementsLattice) {
  const ElementType type = GetParam();
  const std::optional<TensorStructure> t = tensor_structure(type, quadrature_rule(type.shape, 2));
  ASSERT_TRUE(t);
  visit(type, [&](auto element) {
    using Element = decltype(element);
    const int P1 = Element::order + 1;
    ASSERT_EQ(t->node_lattice.size(), std::size_t(Element::nodes_per_element));
    for (int n = 0; n < Element::nodes_per_element; ++n) {
      int a = 0;
      for (int k = Element::dimension - 1; k >= 0; --k) a = a * P1 + Element::Lattice::index(n, k);
      EXPECT_EQ(t->node_lattice[std::size_t(n)], a) << "node " << n;
    }
  });
  // A permutation: every lattice index once.
  std::vector<int> sorted = t->node_lattice;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t a = 0; a < sorted.size(); ++a) EXPECT_EQ(sorted[a], int(a));
}

TEST_P(TensorStructureTest, GaussRulesOfEveryDegreeAreFoundAndReproduceTheDenseBasis) {
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // Degrees 0..15: 1 to 8 points per direction (a hexahedron's 512-point rule at 15).
  for (int degree = 0; degree <= 15; ++degree) {
    const PointSet rule = quadrature_rule(type.shape, degree);
    for (const PointSet& points : {rule, test::shuffled(rule, rng)}) {
      SCOPED_TRACE(points.name + ", degree " + std::to_string(degree));
      std::string why;
      const std::optional<TensorStructure> t = tensor_structure(type, points, &why);
      ASSERT_TRUE(t) << why;
      EXPECT_EQ(t->points_per_direction, degree / 2 + 1);
      EXPECT_TRUE(std::is_sorted(t->points_1d.begin(), t->points_1d.end()));
      // Each lattice point's coordinates are the 1D points of its indices.
      for (int l = 0; l < t->points(); ++l) {
        const std::vector<int> i = lattice_indices(l, t->points_per_direction, t->dimension);
        const double* xi = points.point(t->point_of_lattice[std::size_t(l)]);
        for (int k = 0; k < t->dimension; ++k) EXPECT_EQ(xi[k], t->points_1d[std::size_t(i[std::size_t(k)])]);
      }
      expect_reproduces_dense(*t, points);
    }
  }
}

TEST_P(TensorStructureTest, OneDimensionalTablesArePartitionsOfUnity) {
  const ElementType type = GetParam();
  const std::optional<TensorStructure> t = tensor_structure(type, quadrature_rule(type.shape, 7));
  ASSERT_TRUE(t);
  const int P1 = t->nodes_per_direction;
  for (int i = 0; i < t->points_per_direction; ++i) {
    double sum = 0, derivative_sum = 0;
    for (int a = 0; a < P1; ++a) {
      sum += t->values_1d[std::size_t(i * P1 + a)];
      derivative_sum += t->derivatives_1d[std::size_t(i * P1 + a)];
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    EXPECT_NEAR(derivative_sum, 0.0, 1e-13);
  }
}

TEST_P(TensorStructureTest, SetsThatAreNoTensorProductAreRefused) {
  const ElementType type = GetParam();
  const int d = dimension(type.shape);
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const PointSet rule = quadrature_rule(type.shape, 4);  // 3 points per direction
  auto refused = [&](const PointSet& points, const std::string& what) {
    std::string why;
    EXPECT_FALSE(tensor_structure(type, points, &why)) << what;
    EXPECT_FALSE(why.empty()) << what;
    EXPECT_NE(why.find(to_string(type)), std::string::npos) << why;
  };
  {  // random points, as many as a lattice would have
    std::vector<double> x(rule.coordinates.size());
    for (double& v : x) v = unit(rng);
    refused(reference_points(type.shape, x), "random points");
  }
  {  // one point missing
    PointSet p = rule;
    p.coordinates.resize(p.coordinates.size() - std::size_t(d));
    refused(p, "a point missing");
  }
  {  // one point repeated in place of another: Q = Q1^d still, one lattice point twice
    PointSet p = rule;
    for (int k = 0; k < d; ++k) p.coordinates[std::size_t(k)] = p.coordinates[std::size_t(d + k)];
    refused(p, "a point repeated");
  }
  {  // one point moved by 1e-10: a fourth coordinate value along an axis
    PointSet p = rule;
    p.coordinates[0] += 1e-10;
    refused(p, "a point moved by 1e-10");
  }
  {  // anisotropic: 3 points along axis 0, 2 along the others (x: degree-4 rule, others: degree-2)
    const PointSet one_d_3 = quadrature_rule(Shape::line, 4), one_d_2 = quadrature_rule(Shape::line, 2);
    std::vector<double> x;
    const int n_other = d == 3 ? 4 : 2;
    for (int o = 0; o < n_other; ++o)
      for (int i = 0; i < 3; ++i) {
        x.push_back(one_d_3.coordinates[std::size_t(i)]);
        x.push_back(one_d_2.coordinates[std::size_t(o % 2)]);
        if (d == 3) x.push_back(one_d_2.coordinates[std::size_t(o / 2)]);
      }
    refused(reference_points(type.shape, x), "an anisotropic rule");
  }
  {  // the same number of values per axis, but other values along the last axis
    PointSet p = rule;
    for (int q = 0; q < p.size(); ++q) p.coordinates[std::size_t(q * d + d - 1)] *= 0.5;
    refused(p, "other 1D points along one axis");
  }
}

TEST_P(TensorStructureTest, RoundingBelowTheToleranceIsAccepted) {
  const ElementType type = GetParam();
  PointSet p = quadrature_rule(type.shape, 5);
  // One ulp-level move (1e-16) of one point's coordinate: still the same lattice point.
  p.coordinates[0] = std::nextafter(p.coordinates[0], 2.0);
  std::string why;
  const std::optional<TensorStructure> t = tensor_structure(type, p, &why);
  ASSERT_TRUE(t) << why;
  EXPECT_EQ(t->points_per_direction, 3);
}

TEST(TensorStructure, OtherShapesAreRefusedAndMismatchesThrow) {
  for (ElementType type : all_element_types) {
    if (type.shape == Shape::quadrilateral || type.shape == Shape::hexahedron) continue;
    std::string why;
    EXPECT_FALSE(tensor_structure(type, element_nodes(type), &why)) << to_string(type);
    EXPECT_NE(why.find("only quadrilaterals and hexahedra"), std::string::npos) << why;
  }
  EXPECT_THROW(tensor_structure({Shape::hexahedron, 2}, element_nodes({Shape::quadrilateral, 2})), std::invalid_argument);
  EXPECT_THROW(tensor_structure({Shape::hexahedron, 4}, element_nodes({Shape::hexahedron, 2})), std::invalid_argument);
  // A single point is a 1^d lattice.
  const std::optional<TensorStructure> one = tensor_structure({Shape::hexahedron, 2}, quadrature_rule(Shape::hexahedron, 1));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->points_per_direction, 1);
}

}  // namespace
}  // namespace feinterp
