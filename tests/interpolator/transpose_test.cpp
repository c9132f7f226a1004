// SPDX-License-Identifier: BSD-3-Clause
// The transposes (integration) through the front door, on conforming meshes (tests/support/
// structured_mesh.hpp) and fresh random data: the adjoint identity <T f, u> = <f, F u> for every type,
// transpose, target, weighting, C and precision; the assembled vector against the sum of the element
// vectors; exact integrals (the measure of the domain, the integral of a . grad(b . x)); bitwise
// reproducibility (CPU: any thread count; GPU: the deterministic summation); and the errors. Built for
// the CPU and the GPU executors (support/front_door.hpp). Every output is poisoned with NaN first.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>
#include <feinterp/tests/support/expect_invalid.hpp>

namespace feinterp {
namespace {

using test::RandomBlock;

// A plan and its arrays where the test executor computes.
template <class Real>
struct TransposePlan {
  Executor executor;
  RandomBlock mesh;
  ExecutorArray<node_index> connectivity;
  ExecutorArray<Real> coordinates;
  Interpolator<Real> plan;

  TransposePlan(const RandomBlock& m, const PointSet& points, InterpolatorOptions options = {})
      : executor(resolve_executor(test::test_executor())),
        mesh(m),
        connectivity(executor, m.connectivity),
        coordinates(executor, std::vector<Real>(m.coordinates.begin(), m.coordinates.end())),
        plan(device_view(), m.node_count(), points, coordinates.data(), with_executor(options)) {}

  BlockView device_view() const {
    BlockView view = mesh.view();
    view.connectivity = connectivity.data();
    return view;
  }
  InterpolatorOptions with_executor(InterpolatorOptions options) const {
    options.executor = executor;
    return options;
  }

  // Forward `op` of the host field u (C components); det J into *detj when asked (physical gradients).
  std::vector<Real> forward(Operation op, const std::vector<Real>& u, int C, std::vector<Real>* detj = nullptr) const {
    const ExecutorArray<Real> field(executor, u);
    ExecutorArray<Real> out(executor, std::vector<Real>(plan.output_size(op, C), std::numeric_limits<Real>::quiet_NaN()));
    ExecutorArray<Real> det(executor, std::vector<Real>(detj ? plan.detj_size() : 0, std::numeric_limits<Real>::quiet_NaN()));
    plan.apply(op, {field.data(), field.size(), C}, {out.data(), out.size()}, {det.data(), det.size()});
    plan.check();
    if (detj) *detj = det.to_vector();
    return out.to_vector();
  }

  // The transpose of `op` of the host point data f; the output poisoned with NaN unless `initial` is given
  // (accumulate).
  std::vector<Real> transpose(Operation op, const std::vector<Real>& f, int C, TransposeOptions options = {},
                              const std::vector<Real>* initial = nullptr) const {
    const ExecutorArray<Real> data(executor, f);
    const std::size_t size = plan.output_size(transpose_of(op), C, options.target);
    ExecutorArray<Real> out(executor, initial ? *initial : std::vector<Real>(size, std::numeric_limits<Real>::quiet_NaN()));
    plan.apply_transpose(op, {data.data(), data.size(), C}, {out.data(), out.size()}, options);
    plan.check();
    return out.to_vector();
  }
};

template <class Real>
std::vector<Real> random_values(std::size_t size, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Real> v(size);
  for (Real& x : v) x = Real(unit(rng));
  return v;
}

// The tolerance of a sum of `terms` products against another order of the same sum, relative to the sum
// of the terms' magnitudes: a few units of the precision's epsilon times the terms per result (N*Q*R),
// with room.
template <class Real>
double tolerance() {
  return std::is_same_v<Real, double> ? 1e-12 : 2e-4;
}

// <T f, u> against <f, F u> (times w_q |det J| when weighted), for every transpose and target.
template <class Real>
void check_adjoint(const RandomBlock& mesh, int C, std::mt19937_64& rng) {
  const int p = mesh.type.order;
  const PointSet points = quadrature_rule(mesh.type.shape, 2 * p);
  const TransposePlan<Real> setup(mesh, points);
  const int N = nodes_per_element(mesh.type), Q = points.size();
  std::vector<Real> detj;
  setup.forward(Operation::physical_gradients, std::vector<Real>(mesh.coordinates.size() / 3, Real(0)), 1, &detj);
  for (Operation op : forward_operations)
    for (bool weighted : {false, true})
      for (TransposeTarget target : {TransposeTarget::nodes, TransposeTarget::element_vectors}) {
        SCOPED_TRACE(std::string(operation_name(op)) + (weighted ? ", weighted" : "") +
                     (target == TransposeTarget::nodes ? ", nodes" : ", element vectors") + ", C = " + std::to_string(C));
        const std::vector<Real> u = random_values<Real>(std::size_t(mesh.node_count()) * C, rng);
        const std::vector<Real> Fu = setup.forward(op, u, C);
        const std::vector<Real> f = random_values<Real>(Fu.size(), rng);
        const std::vector<Real> Tf = setup.transpose(op, f, C, {target, weighted, false});
        const std::size_t per_point = Fu.size() / (std::size_t(mesh.elements) * Q);
        double right = 0, magnitude = 0;
        for (std::size_t i = 0; i < Fu.size(); ++i) {
          const double w = weighted ? points.weights[(i / per_point) % Q] * std::fabs(double(detj[i / per_point])) : 1.0;
          right += double(f[i]) * double(Fu[i]) * w;
          magnitude += std::fabs(double(f[i]) * double(Fu[i]) * w);
        }
        double left = 0;
        if (target == TransposeTarget::nodes) {
          ASSERT_EQ(Tf.size(), u.size());
          for (std::size_t i = 0; i < u.size(); ++i) left += double(Tf[i]) * double(u[i]);
        } else {
          ASSERT_EQ(Tf.size(), std::size_t(mesh.elements) * N * C);
          for (offset_t e = 0; e < mesh.elements; ++e)
            for (int n = 0; n < N; ++n)
              for (int c = 0; c < C; ++c)
                left += double(Tf[std::size_t((e * N + n) * C + c)]) *
                        double(u[std::size_t(mesh.connectivity[std::size_t(e * N + n)]) * C + std::size_t(c)]);
        }
        for (Real x : Tf) ASSERT_TRUE(std::isfinite(double(x)));
        EXPECT_LE(std::fabs(left - right), tolerance<Real>() * magnitude) << "left " << left << ", right " << right;
      }
}

int cells_for(ElementType type) { return dimension(type.shape) == 3 ? 2 : dimension(type.shape) == 2 ? 3 : 5; }

// Each test draws a fresh seed (named in every failure, FEINTERP_TEST_SEED replays it) and a conforming
// mesh of the parameter's type.
class Transpose : public ::testing::TestWithParam<ElementType> {
 protected:
  const unsigned seed = test::test_seed();
  const ::testing::ScopedTrace trace{__FILE__, __LINE__, "seed " + std::to_string(seed)};
  std::mt19937_64 rng{seed};
  /// `refinement` times the default cells per axis; interior nodes moved by `perturbation` of the spacing.
  RandomBlock mesh(double perturbation = 0.05, int refinement = 1) {
    return test::structured_block(GetParam(), refinement * cells_for(GetParam()), perturbation, rng);
  }
  PointSet rule() const { return quadrature_rule(GetParam().shape, 2 * GetParam().order); }
};

std::string name_of(const ::testing::TestParamInfo<ElementType>& info) { return test::type_test_name(info.param); }

INSTANTIATE_TEST_SUITE_P(AllTypes, Transpose, ::testing::ValuesIn(all_element_types), name_of);

TEST_P(Transpose, AdjointIdentity) {
  FEINTERP_REQUIRE_EXECUTOR();
  const RandomBlock mesh = this->mesh();
  const int S = mesh.space_dimension;
  for (int C : {1, S, 9}) {
    check_adjoint<double>(mesh, C, rng);
    check_adjoint<float>(mesh, C, rng);
  }
}

class TransposeIn3D : public Transpose {};

INSTANTIATE_TEST_SUITE_P(CurvesAndSurfaces, TransposeIn3D, ::testing::ValuesIn(test::curve_and_surface_types()), name_of);

TEST_P(TransposeIn3D, AdjointIdentity) {
  FEINTERP_REQUIRE_EXECUTOR();
  const double t[3] = {0.3, -1.2, 2.0};
  const RandomBlock planar = this->mesh();
  const RandomBlock mesh = test::rotated(planar, test::random_rotation(rng), t);
  check_adjoint<double>(mesh, 3, rng);
  check_adjoint<float>(mesh, 1, rng);
}

// The assembled vector is the sum of the element vectors: same contributions, another order.
TEST_P(Transpose, NodesAreTheSumOfElementVectors) {
  FEINTERP_REQUIRE_EXECUTOR();
  const RandomBlock mesh = this->mesh();
  const PointSet points = quadrature_rule(mesh.type.shape, 2 * mesh.type.order);
  const TransposePlan<double> setup(mesh, points);
  const int N = nodes_per_element(mesh.type), C = 2;
  for (Operation op : transpose_operations) {
    SCOPED_TRACE(operation_name(op));
    const std::vector<double> f = random_values<double>(setup.plan.input_size(op, C), rng);
    const std::vector<double> r = setup.transpose(op, f, C, {TransposeTarget::nodes, true, false});
    const std::vector<double> y = setup.transpose(op, f, C, {TransposeTarget::element_vectors, true, false});
    std::vector<double> sum(r.size(), 0.0), magnitude(r.size(), 0.0);
    for (offset_t e = 0; e < mesh.elements; ++e)
      for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c) {
          const std::size_t i = std::size_t(mesh.connectivity[std::size_t(e * N + n)]) * C + std::size_t(c);
          sum[i] += y[std::size_t((e * N + n) * C + c)];
          magnitude[i] += std::fabs(y[std::size_t((e * N + n) * C + c)]);
        }
    for (std::size_t i = 0; i < r.size(); ++i) ASSERT_LE(std::fabs(r[i] - sum[i]), 1e-14 * magnitude[i] + 1e-300) << "value " << i;
  }
}

// Exact integrals on the unit interval, square and cube (affine elements, so every rule of degree 2p is
// exact on the integrands): the weighted transpose of f = 1 sums to the measure, 1; with g = a, the
// weighted physical-gradient transpose against u = b . x gives the integral of a . b, a . b.
TEST_P(Transpose, ExactIntegrals) {
  FEINTERP_REQUIRE_EXECUTOR();
  RandomBlock mesh = this->mesh(0.0);
  const int D = dimension(mesh.type.shape);
  for (bool in_3d : {false, true}) {
    if (in_3d) {
      if (D == 3) break;
      const double t[3] = {1.0, 2.0, 3.0};
      mesh = test::rotated(mesh, test::random_rotation(rng), t);
    }
    SCOPED_TRACE(in_3d ? "rotated into 3D" : "in its own space");
    const int S = mesh.space_dimension;
    const PointSet points = quadrature_rule(mesh.type.shape, 2 * mesh.type.order);
    const TransposePlan<double> setup(mesh, points);
    const std::vector<double> ones(setup.plan.input_size(Operation::values_transpose, 1), 1.0);
    const std::vector<double> r = setup.transpose(Operation::values, ones, 1, {TransposeTarget::nodes, true, false});
    double measure = 0;
    for (double x : r) measure += x;
    EXPECT_NEAR(measure, 1.0, 1e-13);
    // a in the element's tangent space (physical gradients of surfaces and curves are tangential): the
    // images of the first D axes.
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<double> g(setup.plan.input_size(Operation::physical_gradients_transpose, 1));
    double a[3] = {unit(rng), unit(rng), unit(rng)}, b[3] = {unit(rng), unit(rng), unit(rng)};
    if (S > D) {
      // Tangent directions of the rotated block: differences of node coordinates of its first element.
      const int N = nodes_per_element(mesh.type);
      double tangent[2][3];
      for (int d = 0; d < D; ++d) {
        const node_index n0 = mesh.connectivity[0], n1 = mesh.connectivity[std::size_t(d + 1 < N ? d + 1 : 1)];
        for (int k = 0; k < 3; ++k) tangent[d][k] = mesh.coordinates[std::size_t(n1) * 3 + k] - mesh.coordinates[std::size_t(n0) * 3 + k];
      }
      for (int k = 0; k < 3; ++k) a[k] = tangent[0][k] * 0.7 + (D == 2 ? tangent[1][k] * -0.4 : 0.0);
    }
    for (std::size_t i = 0; i < g.size(); ++i) g[i] = a[i % std::size_t(S)];
    const std::vector<double> rg = setup.transpose(Operation::physical_gradients, g, 1, {TransposeTarget::nodes, true, false});
    double integral = 0, expected = 0;
    for (offset_t n = 0; n < mesh.node_count(); ++n) {
      double u = 0;
      for (int k = 0; k < S; ++k) u += b[k] * mesh.coordinates[std::size_t(n) * 3 + k];
      integral += rg[std::size_t(n)] * u;
    }
    for (int k = 0; k < S; ++k) expected += a[k] * b[k];
    // For S > D, b's normal part has no tangential gradient: project b on the tangent space via a (a is
    // tangent), i.e. a . grad_t(b . x) = a . b still, since a . n = 0.
    EXPECT_NEAR(integral, expected, 1e-12);
  }
}

// accumulate adds to what the output holds; otherwise the output is overwritten.
TEST_P(Transpose, AccumulateAdds) {
  FEINTERP_REQUIRE_EXECUTOR();
  const RandomBlock mesh = this->mesh();
  const TransposePlan<double> setup(mesh, rule());
  const std::vector<double> f = random_values<double>(setup.plan.input_size(Operation::values_transpose, 3), rng);
  const std::vector<double> r = setup.transpose(Operation::values, f, 3);
  const std::vector<double> start = random_values<double>(r.size(), rng);
  const std::vector<double> added = setup.transpose(Operation::values, f, 3, {TransposeTarget::nodes, false, true}, &start);
  for (std::size_t i = 0; i < r.size(); ++i) ASSERT_NEAR(added[i], start[i] + r[i], 1e-14 * (std::fabs(start[i]) + std::fabs(r[i]) + 1.0));
}

// Bitwise reproducible: on the CPU for any thread count; on the GPU with deterministic summation, run
// after run (and for any elements_per_block, a knob of the CUDA backend: tests/cuda); atomics agree with
// it to round-off.
TEST_P(Transpose, Reproducible) {
  FEINTERP_REQUIRE_EXECUTOR();
  const RandomBlock mesh = this->mesh(0.05, 2);
  const PointSet points = quadrature_rule(mesh.type.shape, 2 * mesh.type.order);
  const int C = 3;
  const std::vector<double> g = random_values<double>(
      std::size_t(mesh.elements) * points.size() * C * mesh.space_dimension, rng);
  const TransposeOptions weighted{TransposeTarget::nodes, true, false};
  if (resolve_executor(test::test_executor()).kind() == ExecutorKind::cpu) {
    InterpolatorOptions options;
    options.threads = 1;
    const std::vector<double> one = TransposePlan<double>(mesh, points, options).transpose(Operation::physical_gradients, g, C, weighted);
    for (int threads : {2, 3, 8}) {
      options.threads = threads;
      EXPECT_EQ(TransposePlan<double>(mesh, points, options).transpose(Operation::physical_gradients, g, C, weighted), one)
          << threads << " threads";
    }
    return;
  }
  InterpolatorOptions options;
  options.summation = Summation::deterministic;
  const TransposePlan<double> deterministic(mesh, points, options);
  const std::vector<double> first = deterministic.transpose(Operation::physical_gradients, g, C, weighted);
  for (int run = 0; run < 3; ++run)
    EXPECT_EQ(deterministic.transpose(Operation::physical_gradients, g, C, weighted), first) << "run " << run;
  EXPECT_EQ(TransposePlan<double>(mesh, points, options).transpose(Operation::physical_gradients, g, C, weighted), first)
      << "another plan";
  const std::vector<double> atomic = TransposePlan<double>(mesh, points).transpose(Operation::physical_gradients, g, C, weighted);
  EXPECT_LE(test::relative_error(atomic, first), 1e-13);
}

// ---- the fused Laplacian ---------------------------------------------------------------------------

// apply_laplacian equals the forward physical gradients followed by their weighted transpose; it is
// symmetric, annihilates constants, and gives the integral of grad(a . x) . grad(b . x) = a . b on the
// unit domain (affine elements: exact).
TEST_P(Transpose, LaplacianIsTheFusedForwardAndTranspose) {
  FEINTERP_REQUIRE_EXECUTOR();
  const RandomBlock mesh = this->mesh();
  const TransposePlan<double> setup(mesh, rule());
  for (int C : {1, 3}) {
    for (TransposeTarget target : {TransposeTarget::nodes, TransposeTarget::element_vectors}) {
      SCOPED_TRACE("C = " + std::to_string(C) + (target == TransposeTarget::nodes ? ", nodes" : ", element vectors"));
      const std::vector<double> u = random_values<double>(std::size_t(mesh.node_count()) * C, rng);
      const std::vector<double> unfused =
          setup.transpose(Operation::physical_gradients, setup.forward(Operation::physical_gradients, u, C), C, {target, true});
      const ExecutorArray<double> field(setup.executor, u);
      ExecutorArray<double> r(setup.executor, std::vector<double>(unfused.size(), std::numeric_limits<double>::quiet_NaN()));
      setup.plan.apply_laplacian({field.data(), field.size(), C}, {r.data(), r.size()}, {target});
      setup.plan.check();
      const std::vector<double> fused = r.to_vector();
      double scale = 0;
      for (double x : unfused) scale = std::max(scale, std::fabs(x));
      for (std::size_t i = 0; i < fused.size(); ++i) ASSERT_NEAR(fused[i], unfused[i], 1e-12 * scale) << "value " << i;
    }
  }
  auto laplacian = [&](const std::vector<double>& u) {
    const ExecutorArray<double> field(setup.executor, u);
    ExecutorArray<double> r(setup.executor, std::vector<double>(u.size(), std::numeric_limits<double>::quiet_NaN()));
    setup.plan.apply_laplacian({field.data(), field.size(), 1}, {r.data(), r.size()});
    setup.plan.check();
    return r.to_vector();
  };
  auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
  };
  const std::vector<double> u = random_values<double>(std::size_t(mesh.node_count()), rng);
  const std::vector<double> v = random_values<double>(std::size_t(mesh.node_count()), rng);
  const double uv = dot(laplacian(u), v), vu = dot(u, laplacian(v));
  EXPECT_NEAR(uv, vu, 1e-12 * (std::fabs(uv) + 1.0)) << "not symmetric";
  double largest = 0;
  for (double x : laplacian(std::vector<double>(u.size(), 1.0))) largest = std::max(largest, std::fabs(x));
  EXPECT_LE(largest, 1e-11) << "A 1 != 0";
  // Affine mesh of the unit domain: <A (a . x), b . x> = a . b (D = S here).
  const RandomBlock affine = this->mesh(0.0);
  const TransposePlan<double> exact(affine, rule());
  const int S = affine.space_dimension, D = dimension(affine.type.shape);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
  for (int d = 0; d < D; ++d) a[d] = unit(rng), b[d] = unit(rng);  // in the domain's own directions
  std::vector<double> ua(std::size_t(affine.node_count())), ub(ua.size());
  for (offset_t n = 0; n < affine.node_count(); ++n)
    for (int k = 0; k < S; ++k) {
      ua[std::size_t(n)] += a[k] * affine.coordinates[std::size_t(n) * 3 + k];
      ub[std::size_t(n)] += b[k] * affine.coordinates[std::size_t(n) * 3 + k];
    }
  const ExecutorArray<double> field(exact.executor, ua);
  ExecutorArray<double> r(exact.executor, ua.size());
  exact.plan.apply_laplacian({field.data(), field.size(), 1}, {r.data(), r.size()});
  exact.plan.check();
  EXPECT_NEAR(dot(r.to_vector(), ub), a[0] * b[0] + a[1] * b[1] + a[2] * b[2], 1e-12);
}

// ---- errors --------------------------------------------------------------------------------------

using test::expect_invalid;

TEST(TransposeErrors, BadArgumentsAreRefusedWithTheReason) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  const RandomBlock mesh = test::structured_block({Shape::triangle, 2}, 3, 0.1, rng);
  const TransposePlan<double> setup(mesh, quadrature_rule(Shape::triangle, 4));
  const std::size_t in = setup.plan.input_size(Operation::values_transpose, 2);
  const ExecutorArray<double> f(setup.executor, std::vector<double>(in, 1.0));
  ExecutorArray<double> out(setup.executor, std::size_t(mesh.elements) * 6 * 2);
  expect_invalid([&] { setup.plan.apply_transpose(Operation::values, {f.data(), in - 1, 2}, {out.data(), out.size()}); },
                 "the point data has");
  expect_invalid([&] { setup.plan.apply_transpose(Operation::values, {f.data(), in, 2}, {out.data(), 3}); },
                 "node_count * components");
  expect_invalid(
      [&] {
        setup.plan.apply_transpose(Operation::values, {f.data(), in, 2}, {out.data(), 3}, {TransposeTarget::element_vectors});
      },
      "elements * nodes_per_element * components");
  expect_invalid([&] { setup.plan.apply(Operation::values_transpose, {f.data(), in, 2}, {out.data(), out.size()}); },
                 "is a transpose");
  expect_invalid([&] { setup.plan.apply_transpose(Operation::values, {f.data(), in, 10}, {out.data(), out.size()}); },
                 "components");
  // Weighted needs weights (a quadrature rule) and coordinates.
  const TransposePlan<double> nodes(mesh, element_nodes(mesh.type));
  const std::size_t at_nodes = nodes.plan.input_size(Operation::values_transpose, 1);
  const ExecutorArray<double> g(setup.executor, std::vector<double>(at_nodes, 1.0));
  expect_invalid([&] { nodes.plan.apply_transpose(Operation::values, {g.data(), at_nodes, 1}, {out.data(), out.size()}, {TransposeTarget::nodes, true}); },
                 "no weights");
  InterpolatorOptions options;
  options.executor = setup.executor;
  const Interpolator<double> bare(setup.device_view(), mesh.node_count(), quadrature_rule(Shape::triangle, 4), nullptr, options);
  expect_invalid([&] { bare.apply_transpose(Operation::values, {f.data(), in, 2}, {out.data(), out.size()}, {TransposeTarget::nodes, true}); },
                 "coordinates are null");
  const std::size_t physical = bare.input_size(Operation::physical_gradients_transpose, 1);
  const ExecutorArray<double> h(setup.executor, std::vector<double>(physical, 1.0));
  expect_invalid([&] { bare.apply_transpose(Operation::physical_gradients, {h.data(), physical, 1}, {out.data(), out.size()}); },
                 "coordinates are null");
  // The fused Laplacian: the field's size, weights, coordinates.
  const ExecutorArray<double> u(setup.executor, std::vector<double>(std::size_t(mesh.node_count()) * 2, 1.0));
  expect_invalid([&] { setup.plan.apply_laplacian({u.data(), u.size() - 1, 2}, {out.data(), out.size()}); }, "the field has");
  expect_invalid([&] { nodes.plan.apply_laplacian({u.data(), u.size(), 2}, {out.data(), out.size()}); }, "no weights");
  expect_invalid([&] { bare.apply_laplacian({u.data(), u.size(), 2}, {out.data(), out.size()}); }, "coordinates are null");
}

// A collapsed element met by a transpose that uses the geometry is reported, naming it: at once on the
// CPU, at check() on the GPU.
TEST(TransposeErrors, DegenerateElementIsReported) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  RandomBlock mesh = test::random_block({Shape::tetrahedron, 2}, 40, rng);
  const offset_t bad = 17;
  for (int n = 1; n < 10; ++n) {
    const node_index node = mesh.connectivity[std::size_t(bad * 10 + n)], first = mesh.connectivity[std::size_t(bad * 10)];
    for (int k = 0; k < 3; ++k) mesh.coordinates[std::size_t(node) * 3 + k] = mesh.coordinates[std::size_t(first) * 3 + k];
  }
  const TransposePlan<double> setup(mesh, quadrature_rule(Shape::tetrahedron, 4));
  for (Operation op : {Operation::physical_gradients, Operation::values}) {
    SCOPED_TRACE(operation_name(op));
    const std::size_t in = setup.plan.input_size(transpose_of(op), 1);
    const ExecutorArray<double> f(setup.executor, std::vector<double>(in, 1.0));
    ExecutorArray<double> out(setup.executor, std::size_t(mesh.node_count()));
    try {
      setup.plan.apply_transpose(op, {f.data(), in, 1}, {out.data(), out.size()}, {TransposeTarget::nodes, true});
      setup.plan.check();
      ADD_FAILURE() << "no DegenerateElementError";
    } catch (const DegenerateElementError& e) {
      EXPECT_EQ(e.element(), bad) << e.what();
    }
  }
}

// An output that shares memory with an input (or the other output) is refused before anything is
// computed, and the arrays are unchanged: apply_laplacian(u, u) returned zeros.
TEST(TransposeErrors, OutputsOverlappingInputsAreRefused) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  const RandomBlock mesh = test::structured_block({Shape::quadrilateral, 2}, 3, 0.1, rng);
  const TransposePlan<double> setup(mesh, quadrature_rule(Shape::quadrilateral, 4));
  const Interpolator<double>& plan = setup.plan;
  const std::size_t nodes = std::size_t(mesh.node_count());
  const std::size_t values = plan.output_size(Operation::values, 1), detj = plan.detj_size();
  const std::size_t gradients = plan.output_size(Operation::physical_gradients, 1);
  const std::vector<double> initial = random_values<double>(nodes + gradients + detj, rng);
  ExecutorArray<double> memory(setup.executor, initial);
  double* m = memory.data();
  expect_invalid([&] { plan.apply_laplacian({m, nodes, 1}, {m, nodes}); }, "the output r overlaps the field u");
  expect_invalid([&] { plan.apply_laplacian({m, nodes, 1}, {m + nodes - 1, nodes}); }, "overlaps");
  expect_invalid([&] { plan.apply(Operation::values, {m, nodes, 1}, {m + 1, values}); }, "the output overlaps the field u");
  expect_invalid([&] { plan.apply(Operation::physical_gradients, {m, nodes, 1}, {m + nodes, gradients}, {m + nodes + 1, detj}); },
                 "the det J output overlaps the output");
  expect_invalid([&] { plan.apply_transpose(Operation::values, {m + nodes, values, 1}, {m + 2, nodes}); },
                 "the output overlaps the point data f");
  EXPECT_EQ(memory.to_vector(), initial);
  // Adjacent arrays in one allocation are separate: the values into the next slice.
  plan.apply(Operation::values, {m, nodes, 1}, {m + nodes, values});
  plan.check();
}

// A point set a plan cannot compute with is refused when the plan is built, naming what is wrong: fewer
// weights than points (the weighted transposes would read past them), more, a weight that is not finite,
// a point outside the reference element. A negative weight is accepted (some rules have them).
TEST(TransposeErrors, PointSetsThatCannotBeComputedWithAreRefused) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  const RandomBlock mesh = test::structured_block({Shape::triangle, 2}, 3, 0.1, rng);
  const PointSet rule = quadrature_rule(Shape::triangle, 4);
  ASSERT_GE(rule.size(), 3);
  auto refused = [&](const std::string& fragment, auto&& change) {
    PointSet bad = rule;
    change(bad);
    expect_invalid([&] { TransposePlan<double> plan(mesh, bad); }, fragment);
  };
  const std::string count = std::to_string(rule.size());
  refused(std::to_string(rule.size() - 1) + " weights for " + count + " points", [](PointSet& p) { p.weights.pop_back(); });
  refused(std::to_string(rule.size() + 1) + " weights for " + count + " points", [](PointSet& p) { p.weights.push_back(0.1); });
  refused("weight 1 is nan", [](PointSet& p) { p.weights[1] = std::numeric_limits<double>::quiet_NaN(); });
  refused("weight 2 is inf", [](PointSet& p) { p.weights[2] = std::numeric_limits<double>::infinity(); });
  refused("point 0 (-0.5, ", [](PointSet& p) { p.coordinates[0] = -0.5; });
  refused("not a multiple of the dimension", [](PointSet& p) { p.coordinates.pop_back(); });

  PointSet negative = rule;
  negative.weights[0] = -negative.weights[0];
  const TransposePlan<double> plan(mesh, negative);
  const std::vector<double> f(plan.plan.input_size(Operation::values_transpose, 1), 1.0);
  TransposeOptions weighted;
  weighted.weighted = true;
  for (double value : plan.transpose(Operation::values, f, 1, weighted)) EXPECT_TRUE(std::isfinite(value));
}

// An element that lists a node twice: the CPU sums its contributions (one thread per element); the GPU's
// deterministic summation refuses it when the plan is built (two threads would add into that node at once).
TEST(TransposeErrors, RepeatedNodesUnderDeterministicSummation) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  RandomBlock mesh = test::structured_block({Shape::quadrilateral, 1}, 3, 0.0, rng);
  mesh.connectivity[4 * 4 + 2] = mesh.connectivity[4 * 4 + 0];
  InterpolatorOptions options;
  options.summation = Summation::deterministic;
  const PointSet points = quadrature_rule(Shape::quadrilateral, 2);
  if (resolve_executor(test::test_executor()).kind() == ExecutorKind::cuda) {
    expect_invalid([&] { TransposePlan<double> plan(mesh, points, options); }, "lists node");
    return;
  }
  const TransposePlan<double> plan(mesh, points, options);
  const std::vector<double> f = random_values<double>(plan.plan.input_size(Operation::values_transpose, 1), rng);
  const std::vector<double> r = plan.transpose(Operation::values, f, 1);
  const std::vector<double> y = plan.transpose(Operation::values, f, 1, {TransposeTarget::element_vectors});
  std::vector<double> sum(r.size(), 0.0);
  for (std::size_t i = 0; i < y.size(); ++i) sum[std::size_t(mesh.connectivity[i])] += y[i];
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(r[i], sum[i], 1e-14) << "node " << i;
}

}  // namespace
}  // namespace feinterp
