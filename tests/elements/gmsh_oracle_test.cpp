// SPDX-License-Identifier: BSD-3-Clause
// Gmsh is the independent oracle of the element library: the reference nodes (coordinates and
// order) and the Lagrange basis values and gradients must be Gmsh's own, for all 15 types.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <vector>

#include <feinterp/tests/elements/test_support.hpp>

namespace feinterp {
namespace {

using namespace feinterp::testing;

class GmshOracle : public ::testing::TestWithParam<ElementType> {
 protected:
  static void SetUpTestSuite() {
    gmsh::initialize();
    gmsh::option::setNumber("General.Terminal", 0);
  }
  static void TearDownTestSuite() { gmsh::finalize(); }
};

std::string type_name(const ::testing::TestParamInfo<ElementType>& info) {
  return std::string(shape_name(info.param.shape)) + "_p" + std::to_string(info.param.order);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, GmshOracle, ::testing::ValuesIn(all_element_types), type_name);

TEST_P(GmshOracle, ReferenceNodesAreGmshs) {
  const ElementType type = GetParam();
  visit(type, [&](auto element) {
    using E = decltype(element);
    std::string name;
    int dim = 0, order = 0, nodes = 0, primary = 0;
    std::vector<double> coordinates;
    gmsh::model::mesh::getElementProperties(gmsh_type_code(type), name, dim, order, nodes, coordinates, primary);
    SCOPED_TRACE("gmsh element " + name);
    ASSERT_EQ(dim, E::dimension);
    ASSERT_EQ(order, E::order);
    ASSERT_EQ(nodes, E::nodes_per_element);
    ASSERT_EQ(coordinates.size(), std::size_t(nodes * dim));
    for (int n = 0; n < nodes; ++n) {
      double xi[3] = {0, 0, 0};
      E::reference_node(n, xi);
      for (int d = 0; d < dim; ++d)
        EXPECT_NEAR(xi[d], coordinates[std::size_t(n * dim + d)], 1e-14) << "node " << n << ", axis " << d;
    }
  });
}

TEST_P(GmshOracle, BasisValuesAndGradientsAreGmshs) {
  const ElementType type = GetParam();
  const unsigned seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937 random(seed);
  visit(type, [&](auto element) {
    using E = decltype(element);
    constexpr int N = E::nodes_per_element, D = E::dimension;
    constexpr int points = 20;
    std::vector<double> local;  // Gmsh wants (u, v, w) triplets, 0 beyond the element's dimension
    for (int q = 0; q < points; ++q) {
      const auto xi = random_reference_point<E>(random);
      local.insert(local.end(), xi.begin(), xi.end());
    }
    int components = 0, orientations = 0;
    std::vector<double> values, gradients;
    gmsh::model::mesh::getBasisFunctions(gmsh_type_code(type), local, "Lagrange", components, values, orientations);
    ASSERT_EQ(components, 1);
    ASSERT_EQ(values.size(), std::size_t(points * N));
    gmsh::model::mesh::getBasisFunctions(gmsh_type_code(type), local, "GradLagrange", components, gradients,
                                         orientations);
    ASSERT_EQ(components, 3);  // always 3, 0 beyond the element's dimension
    ASSERT_EQ(gradients.size(), std::size_t(points * N * 3));
    for (int q = 0; q < points; ++q) {
      double v[N], g[N * D];
      E::shape_gradients(&local[std::size_t(q) * 3], v, g);
      for (int n = 0; n < N; ++n) {
        EXPECT_NEAR(v[n], values[std::size_t(q * N + n)], 1e-12) << "point " << q << ", N_" << n;
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(d < D ? g[n * D + d] : 0.0, gradients[std::size_t((q * N + n) * 3 + d)], 1e-12)
              << "point " << q << ", dN_" << n << "/dxi_" << d;
      }
    }
  });
}

}  // namespace
}  // namespace feinterp
