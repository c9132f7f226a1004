// SPDX-License-Identifier: BSD-3-Clause
// The structured box (fem/structured_box.hpp) through the front door, for all 15 element types at fresh
// random cell counts: det J at every quadrature point is exactly the element's (h^d for simplices,
// (h / 2)^d for tensor shapes: positive everywhere); the weighted quadrature of 1 (the values transpose
// of ones, weighted by w_q |det J|, summed over the nodes) gives the box's measure, 1; a random
// polynomial of the element's degree in x is reproduced, values and physical gradients, at the
// quadrature points. Built for the CPU and the GPU executors (support/front_door.hpp); outputs poisoned
// with NaN first.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/structured_box.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/polynomial.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

class StructuredBoxInterpolation : public ::testing::TestWithParam<ElementType> {
 protected:
  const unsigned seed = test::test_seed();
  const ::testing::ScopedTrace trace{__FILE__, __LINE__, "seed " + std::to_string(seed)};
  std::mt19937_64 rng{seed};
  /// A fresh box: 2-4 cells per side in 3D, 2-8 in 2D, 2-20 for lines.
  StructuredBox box() {
    const int D = dimension(GetParam().shape);
    const int cells = std::uniform_int_distribution<int>(2, D == 3 ? 4 : D == 2 ? 8 : 20)(rng);
    return structured_box(GetParam(), cells);
  }
  PointSet rule() const { return quadrature_rule(GetParam().shape, 2 * GetParam().order); }
};

INSTANTIATE_TEST_SUITE_P(AllTypes, StructuredBoxInterpolation, ::testing::ValuesIn(all_element_types),
                         [](const auto& info) { return test::type_test_name(info.param); });

TEST_P(StructuredBoxInterpolation, DetJIsTheElementsAndTheMeasureIsOne) {
  FEINTERP_REQUIRE_EXECUTOR();
  const StructuredBox mesh = box();
  SCOPED_TRACE(std::to_string(mesh.cells) + " cells per side");
  const int D = dimension(mesh.type.shape);
  const PointSet points = rule();
  const std::vector<double> u = test::random_field(mesh.node_count(), 1, rng);
  const test::Computed<double> got = test::compute<double>(Operation::physical_gradients, mesh.view(), mesh.node_count(),
                                                           points, mesh.coordinates, u, 1);
  const double h = 1.0 / mesh.cells;
  const double expected = std::pow(is_simplex(mesh.type.shape) ? h : h / 2, D);
  ASSERT_EQ(got.detj.size(), std::size_t(mesh.element_count) * points.size());
  for (std::size_t i = 0; i < got.detj.size(); ++i)
    ASSERT_NEAR(got.detj[i], expected, 1e-13 * expected) << "element " << i / points.size() << ", point " << i % points.size();

  // The measure: sum over the nodes of the weighted values transpose of f = 1, i.e. sum_e sum_q w_q |det J|
  // sum_n phi_n(x_q), and sum_n phi_n = 1.
  const Executor executor = resolve_executor(test::test_executor());
  const ExecutorArray<node_index> connectivity(executor, mesh.connectivity);
  const ExecutorArray<double> x(executor, mesh.coordinates);
  BlockView view = mesh.view();
  view.connectivity = connectivity.data();
  InterpolatorOptions options;
  options.executor = executor;
  const Interpolator<double> plan(view, mesh.node_count(), points, x.data(), options);
  const ExecutorArray<double> ones(executor, std::vector<double>(plan.input_size(Operation::values_transpose, 1), 1.0));
  ExecutorArray<double> r(executor, std::vector<double>(std::size_t(mesh.node_count()), std::numeric_limits<double>::quiet_NaN()));
  plan.apply_transpose(Operation::values, {ones.data(), ones.size(), 1}, {r.data(), r.size()}, {TransposeTarget::nodes, true, false});
  plan.check();
  double measure = 0.0;
  for (double v : r.to_vector()) {
    ASSERT_TRUE(std::isfinite(v));
    measure += v;
  }
  EXPECT_NEAR(measure, 1.0, 1e-13);
}

// Straight-sided elements: a polynomial of the element's degree in x (total degree p on simplices, p in
// each variable on tensor shapes, whose map x(xi) is a scaling) is one of the element's space in xi, so
// its values and physical gradients are exact. The points' positions come from interpolating the
// coordinates themselves (a 3-component field in the coordinates' layout; exact, degree 1).
TEST_P(StructuredBoxInterpolation, PolynomialsOfTheElementsDegreeAreReproduced) {
  FEINTERP_REQUIRE_EXECUTOR();
  const StructuredBox mesh = box();
  SCOPED_TRACE(std::to_string(mesh.cells) + " cells per side");
  const int D = dimension(mesh.type.shape), S = mesh.view().space_dimension;
  const PointSet points = rule();
  const test::Polynomial f(D, mesh.type.order, !is_simplex(mesh.type.shape), rng);
  std::vector<double> u(std::size_t(mesh.node_count()));
  for (offset_t n = 0; n < mesh.node_count(); ++n) u[std::size_t(n)] = f(&mesh.coordinates[std::size_t(n) * 3]);
  auto run = [&](Operation op, const std::vector<double>& field, int C) {
    return test::compute<double>(op, mesh.view(), mesh.node_count(), points, mesh.coordinates, field, C).out;
  };
  const std::vector<double> x = run(Operation::values, mesh.coordinates, 3);
  const std::vector<double> values = run(Operation::values, u, 1);
  const std::vector<double> gradients = run(Operation::physical_gradients, u, 1);
  const std::size_t count = std::size_t(mesh.element_count) * points.size();
  std::vector<double> expected_values(count), expected_gradients(count * S, 0.0);
  for (std::size_t i = 0; i < count; ++i) {
    expected_values[i] = f(&x[i * 3]);
    for (int k = 0; k < D; ++k) expected_gradients[i * S + k] = f.derivative(&x[i * 3], k);
  }
  EXPECT_LE(test::relative_error(values, expected_values), 1e-12);
  EXPECT_LE(test::relative_error(gradients, expected_gradients), 1e-12);
}

}  // namespace
}  // namespace feinterp
