// SPDX-License-Identifier: BSD-3-Clause
// Interpolating a polynomial field on a loaded mesh is exact: for each of the 15 types, a mesh of the
// unit segment/square/cube is generated, written to binary MSH 4.1, loaded back, and a polynomial of
// total degree p (exactly representable: the element maps are affine for lines and simplices and
// multilinear for quadrilaterals/hexahedra, whose Q_p spaces contain every polynomial of total degree
// p composed with such a map) is interpolated at a quadrature rule through the CPU executor's plan; values
// and physical gradients must equal the polynomial's at the physical points x(xi_q), themselves
// obtained by interpolating the coordinates. On the segment [0, 1] x {0} the physical gradient is the
// tangential one, (du/dx, 0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tabulation.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

// u(x, y, z) of total degree p, and its gradient.
double u(int p, const double* x, double* grad) {
  const double X = x[0], Y = x[1], Z = x[2];
  double value = 1 + X + 2 * Y - Z;
  double g[3] = {1, 2, -1};
  if (p >= 2) {
    value += X * Y - 0.5 * Y * Y + X * Z;
    g[0] += Y + Z;
    g[1] += X - Y;
    g[2] += X;
  }
  if (p >= 3) {
    value += X * X * X - 2 * X * Y * Z + Y * Y * X;
    g[0] += 3 * X * X - 2 * Y * Z + Y * Y;
    g[1] += -2 * X * Z + 2 * X * Y;
    g[2] += -2 * X * Y;
  }
  if (grad)
    for (int k = 0; k < 3; ++k) grad[k] = g[k];
  return value;
}

class InterpolateOnLoadedMesh : public ::testing::TestWithParam<ElementType> {};

TEST_P(InterpolateOnLoadedMesh, PolynomialOfTheElementDegreeIsExact) {
  const ElementType type = GetParam();
  const int p = type.order, D = dimension(type.shape);
  test::TempDir dir;
  write_msh(dir / "mesh.msh", generate_mesh({type, 120, 2, true}), {}, {}, {4.1, true});
  const Mesh mesh = load_msh(dir / "mesh.msh");
  const int S = mesh.space_dimension;
  ASSERT_EQ(S, std::max(D, 2));
  ASSERT_EQ(mesh.blocks.size(), 1u);
  const ElementBlock& block = mesh.blocks[0];
  ASSERT_EQ(block.type, type);
  const std::size_t n = std::size_t(mesh.node_count()), E = std::size_t(block.element_count());

  std::vector<double> field(n);
  for (std::size_t i = 0; i < n; ++i) {
    double x[3] = {mesh.coordinates[3 * i], mesh.coordinates[3 * i + 1], D == 3 ? mesh.coordinates[3 * i + 2] : 0.0};
    field[i] = u(p, x, nullptr);
  }
  const PointSet rule = quadrature_rule(type.shape, 2 * p);
  const Interpolator<double> plan = test::cpu_plan(mesh, block, rule);
  const std::size_t Q = std::size_t(rule.size());

  std::vector<double> x_q(E * Q * 3), values(E * Q), gradients(E * Q * std::size_t(S)), detj(E * Q);
  plan.apply(Operation::values, {mesh.coordinates.data(), mesh.coordinates.size(), 3},
                     {x_q.data(), x_q.size()});
  plan.apply(Operation::values, {field.data(), field.size(), 1},
                     {values.data(), values.size()});
  plan.apply(Operation::physical_gradients, {field.data(), field.size(), 1}, {gradients.data(), gradients.size()},
                                 {detj.data(), detj.size()});
  double worst_value = 0, worst_gradient = 0;
  for (std::size_t k = 0; k < E * Q; ++k) {
    double x[3] = {x_q[3 * k], x_q[3 * k + 1], D == 3 ? x_q[3 * k + 2] : 0.0}, g[3];
    worst_value = std::max(worst_value, std::abs(values[k] - u(p, x, g)));
    if (D < S) g[1] = 0;  // the segment along x: the tangential gradient
    for (int d = 0; d < S; ++d)
      worst_gradient = std::max(worst_gradient, std::abs(gradients[k * std::size_t(S) + std::size_t(d)] - g[d]));
    ASSERT_GT(detj[k], 0.0);
  }
  EXPECT_LT(worst_value, 1e-12) << to_string(type);
  EXPECT_LT(worst_gradient, 1e-10) << to_string(type);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, InterpolateOnLoadedMesh, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) {
                           std::string s = to_string(info.param);
                           for (char& c : s)
                             if (c == ' ') c = '_';
                           return s;
                         });

}  // namespace
