// SPDX-License-Identifier: BSD-3-Clause
// The fused operators (Interpolator::apply_operator: mass and diffusion, with a coefficient) and their
// diagonals (operator_diagonal), on conforming blocks of every element shape and order 1-3, planar and
// in 3D (surfaces, curves), curved by moving interior nodes:
//   - each equals what it fuses: the forward operation, the coefficient applied at each point on the host,
//     then the weighted transpose, into the nodes and into element vectors, for C = 1 and 4 (4 is past the
//     compiled component counts on the GPU: its run-time-C kernel);
//   - the diagonal equals A applied to unit vectors (sampled nodes), and the element vectors' diagonals
//     sum to it;
//   - with an SPD tensor kappa the operator is symmetric and positive semidefinite, A 1 = 0;
//   - FP32 plans agree with FP64 to 1e-4;
//   - bad coefficients are refused by name; a tangled element is an error at every call;
//   - on the GPU, quadrilaterals and hexahedra run both with precomputed geometry and on the fly.
// Outputs poisoned with NaN; fresh random fields and coefficients (FEINTERP_TEST_SEED replays a run); on
// the CPU executable and on the GPU one.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>

namespace feinterp {
namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();

struct Case {
  ElementType type;
  bool in_3d;  // a planar block rotated into 3D space (s = 3 > d)
};

std::string case_name(const Case& c) {
  return std::string(shape_name(c.type.shape)) + "_p" + std::to_string(c.type.order) + (c.in_3d ? "_in_3d" : "");
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (Shape shape : {Shape::line, Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron})
    for (int p = 1; p <= 3; ++p) cases.push_back({{shape, p}, false});
  cases.push_back({{Shape::line, 2}, true});
  cases.push_back({{Shape::triangle, 2}, true});
  cases.push_back({{Shape::quadrilateral, 3}, true});
  return cases;
}

/// A conforming block of `c`, curved, on the host; moved rigidly into 3D for in_3d.
test::RandomBlock make_block(const Case& c, std::mt19937_64& rng) {
  const int D = dimension(c.type.shape);
  test::RandomBlock block = test::structured_block(c.type, D == 1 ? 12 : D == 2 ? 4 : 2, 0.1, rng);
  if (!c.in_3d) return block;
  const double shift[3] = {0.5, -1.0, 2.0};
  return test::rotated(block, test::random_rotation(rng), shift);
}

/// A coefficient of `shape` at every point: rho or kappa in [0.5, 2], or an SPD tensor (2 I plus a random
/// symmetric part of entries in [-0.3, 0.3]: diagonally dominant).
std::vector<double> random_coefficient(CoefficientShape shape, std::size_t points, int S, std::mt19937_64& rng) {
  const int T = coefficient_entries(shape, S);
  std::uniform_real_distribution<double> scalar(0.5, 2.0), off(-0.3, 0.3);
  std::vector<double> c(points * std::size_t(T));
  for (std::size_t i = 0; i < points; ++i)
    for (int a = 0; a < S && T > 1; ++a)
      for (int b = a; b < S; ++b) c[i * T + std::size_t(symmetric_entry(S, a, b))] = (a == b ? 2.0 : 0.0) + off(rng);
  if (T == 1)
    for (double& x : c) x = scalar(rng);
  return c;
}

/// The block and its plan (Gauss rule of degree 2p) where the test's executor computes.
struct Placed {
  Executor executor = test::test_executor();
  test::RandomBlock host;
  ExecutorArray<node_index> connectivity;
  ExecutorArray<double> coordinates;
  Interpolator<double> plan;

  explicit Placed(test::RandomBlock block, OperatorGeometry geometry = OperatorGeometry::precomputed)
      : host(std::move(block)),
        connectivity(executor, host.connectivity),
        coordinates(executor, host.coordinates),
        plan(placed_view(), host.node_count(), quadrature_rule(host.type.shape, 2 * host.type.order),
             coordinates.data(), options(executor, geometry)) {}
  static InterpolatorOptions options(const Executor& executor, OperatorGeometry geometry) {
    InterpolatorOptions o{executor};
    o.operator_geometry = geometry;
    return o;
  }
  BlockView placed_view() const {
    BlockView view = host.view();
    view.connectivity = connectivity.data();
    return view;
  }
  offset_t n() const { return host.node_count(); }
  int S() const { return host.space_dimension; }
};

/// apply_operator, into a NaN-poisoned output, back on the host.
std::vector<double> fused(const Placed& b, FusedOperator op, const std::vector<double>& u, int C,
                          const std::vector<double>& coefficient, CoefficientShape shape,
                          TransposeTarget target = TransposeTarget::nodes) {
  const ExecutorArray<double> field(b.executor, u), c(b.executor, coefficient);
  ExecutorArray<double> r(b.executor, std::vector<double>(b.plan.output_size(Operation::values_transpose, C, target), nan_value));
  TransposeOptions options;
  options.target = target;
  b.plan.apply_operator(op, {field.data(), field.size(), C}, {r.data(), r.size()}, {c.data(), c.size(), shape}, options);
  b.plan.check();
  return r.to_vector();
}

/// What apply_operator fuses: the forward operation, the coefficient at each point (on the host), the
/// weighted transpose.
std::vector<double> unfused(const Placed& b, FusedOperator op, const std::vector<double>& u, int C,
                            const std::vector<double>& coefficient, CoefficientShape shape,
                            TransposeTarget target = TransposeTarget::nodes) {
  const Operation forward = forward_of(op);
  const ExecutorArray<double> field(b.executor, u);
  ExecutorArray<double> out(b.executor, std::vector<double>(b.plan.output_size(forward, C), nan_value));
  b.plan.apply(forward, {field.data(), field.size(), C}, {out.data(), out.size()});
  std::vector<double> g = out.to_vector();
  const int S = b.S(), R = forward == Operation::values ? 1 : S, T = coefficient_entries(shape, S);
  for (std::size_t point = 0; point < b.plan.detj_size() && T > 0; ++point)
    for (int c = 0; c < C; ++c) {
      double* x = &g[(point * C + std::size_t(c)) * R];
      if (R == 1) {
        x[0] *= coefficient[point];
      } else {
        std::array<double, 3> v{};
        for (int k = 0; k < S; ++k) v[k] = x[k];
        for (int i = 0; i < S; ++i) {
          double sum = 0;
          for (int j = 0; j < S; ++j)
            sum += T == 1 ? (i == j ? coefficient[point] * v[j] : 0.0)
                          : coefficient[point * T + std::size_t(i <= j ? symmetric_entry(S, i, j) : symmetric_entry(S, j, i))] * v[j];
          x[i] = sum;
        }
      }
    }
  const ExecutorArray<double> point_data(b.executor, g);
  ExecutorArray<double> r(b.executor, std::vector<double>(b.plan.output_size(Operation::values_transpose, C, target), nan_value));
  TransposeOptions options;
  options.target = target;
  options.weighted = true;
  b.plan.apply_transpose(forward, {point_data.data(), point_data.size(), C}, {r.data(), r.size()}, options);
  b.plan.check();
  return r.to_vector();
}

std::vector<double> diagonal(const Placed& b, FusedOperator op, int C, const std::vector<double>& coefficient,
                             CoefficientShape shape, TransposeTarget target = TransposeTarget::nodes) {
  const ExecutorArray<double> c(b.executor, coefficient);
  ExecutorArray<double> d(b.executor, std::vector<double>(b.plan.output_size(Operation::values_transpose, C, target), nan_value));
  TransposeOptions options;
  options.target = target;
  b.plan.operator_diagonal(op, C, {d.data(), d.size()}, {c.data(), c.size(), shape}, options);
  b.plan.check();
  return d.to_vector();
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

std::vector<CoefficientShape> shapes_of(FusedOperator op) {
  if (op == FusedOperator::mass) return {CoefficientShape::none, CoefficientShape::scalar};
  return {CoefficientShape::none, CoefficientShape::scalar, CoefficientShape::symmetric_tensor};
}

const char* shape_label(CoefficientShape s) {
  return s == CoefficientShape::none ? "no coefficient" : s == CoefficientShape::scalar ? "scalar" : "tensor";
}

class FusedOperators : public ::testing::TestWithParam<Case> {};
INSTANTIATE_TEST_SUITE_P(Blocks, FusedOperators, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) { return case_name(info.param); });

TEST_P(FusedOperators, EqualWhatTheyFuse) {
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const test::RandomBlock block = make_block(GetParam(), rng);
  // GPU plans of quadrilaterals and hexahedra read precomputed factors, or compute J at every call.
  for (OperatorGeometry geometry : {OperatorGeometry::precomputed, OperatorGeometry::on_the_fly}) {
    SCOPED_TRACE(geometry == OperatorGeometry::precomputed ? "precomputed geometry" : "geometry on the fly");
    const Placed b(block, geometry);
    for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
      for (CoefficientShape shape : shapes_of(op))
        for (int C : {1, 4})
          for (TransposeTarget target : {TransposeTarget::nodes, TransposeTarget::element_vectors}) {
            SCOPED_TRACE(std::string(fused_operator_name(op)) + ", " + shape_label(shape) + ", C = " +
                         std::to_string(C) + (target == TransposeTarget::nodes ? ", nodes" : ", element vectors"));
            const std::vector<double> u = test::random_field(b.n(), C, rng);
            const std::vector<double> k = random_coefficient(shape, b.plan.detj_size(), b.S(), rng);
            EXPECT_LE(test::relative_error(fused(b, op, u, C, k, shape, target), unfused(b, op, u, C, k, shape, target)),
                      1e-12);
          }
  }
}

// A tangled element is an error at every call, with the geometry precomputed (the factors of a block that
// holds one are never kept) as on the fly: hexahedron 5 of a 3 x 3 x 3 block, two nodes swapped.
TEST(FusedOperator, TangledElementIsAnErrorAtEveryCall) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  test::RandomBlock block = test::structured_block({Shape::hexahedron, 2}, 3, 0.0, rng);
  const int N = nodes_per_element(block.type);
  std::swap(block.connectivity[std::size_t(5 * N + 0)], block.connectivity[std::size_t(5 * N + 6)]);
  for (OperatorGeometry geometry : {OperatorGeometry::precomputed, OperatorGeometry::on_the_fly}) {
    SCOPED_TRACE(geometry == OperatorGeometry::precomputed ? "precomputed geometry" : "geometry on the fly");
    const Placed b(block, geometry);
    const ExecutorArray<double> u(b.executor, test::random_field(b.n(), 1, rng));
    ExecutorArray<double> r(b.executor, std::size_t(b.n()));
    for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
      for (int call = 0; call < 2; ++call) {
        SCOPED_TRACE(std::string(fused_operator_name(op)) + ", call " + std::to_string(call));
        try {
          b.plan.apply_operator(op, {u.data(), u.size(), 1}, {r.data(), r.size()});
          b.plan.check();
          ADD_FAILURE() << "no DegenerateElementError";
        } catch (const DegenerateElementError& error) {
          EXPECT_EQ(error.element(), 5) << error.what();
        }
      }
  }
}

TEST_P(FusedOperators, DiagonalIsTheOperatorOnUnitVectors) {
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const Placed b(make_block(GetParam(), rng));
  const int C = 2, N = nodes_per_element(b.host.type);
  for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
    for (CoefficientShape shape : shapes_of(op)) {
      SCOPED_TRACE(std::string(fused_operator_name(op)) + ", " + shape_label(shape));
      const std::vector<double> k = random_coefficient(shape, b.plan.detj_size(), b.S(), rng);
      const std::vector<double> d = diagonal(b, op, C, k, shape);
      std::uniform_int_distribution<offset_t> any_node(0, b.n() - 1);
      for (int sample = 0; sample < 6; ++sample) {
        const offset_t i = any_node(rng);
        const int c = sample % C;
        std::vector<double> e(std::size_t(b.n()) * C, 0.0);
        e[std::size_t(i) * C + c] = 1.0;
        const double expected = fused(b, op, e, C, k, shape)[std::size_t(i) * C + c];
        EXPECT_NEAR(d[std::size_t(i) * C + c], expected, 1e-12 * std::fabs(expected)) << "node " << i << ", component " << c;
        EXPECT_GT(expected, 0.0);
      }
      // The element vectors' diagonals, summed into the nodes on the host, are the nodal diagonal.
      const std::vector<double> local = diagonal(b, op, C, k, shape, TransposeTarget::element_vectors);
      std::vector<double> assembled(d.size(), 0.0);
      for (offset_t el = 0; el < b.host.elements; ++el)
        for (int n = 0; n < N; ++n)
          for (int c = 0; c < C; ++c)
            assembled[std::size_t(b.host.connectivity[std::size_t(el * N + n)]) * C + c] += local[std::size_t((el * N + n) * C + c)];
      EXPECT_LE(test::relative_error(assembled, d), 1e-12);
    }
}

TEST_P(FusedOperators, DiffusionWithATensorIsSymmetricAndKillsConstants) {
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const Placed b(make_block(GetParam(), rng));
  const CoefficientShape shape = CoefficientShape::symmetric_tensor;
  const std::vector<double> k = random_coefficient(shape, b.plan.detj_size(), b.S(), rng);
  const std::vector<double> u = test::random_field(b.n(), 3, rng), v = test::random_field(b.n(), 3, rng);
  const std::vector<double> Au = fused(b, FusedOperator::diffusion, u, 3, k, shape);
  const std::vector<double> Av = fused(b, FusedOperator::diffusion, v, 3, k, shape);
  EXPECT_NEAR(dot(u, Av), dot(v, Au), 1e-12 * (std::fabs(dot(u, Av)) + 1));
  EXPECT_GT(dot(u, Au), 0.0);
  double largest = 0, scale = 0;
  for (double a : fused(b, FusedOperator::diffusion, std::vector<double>(std::size_t(b.n()), 1.0), 1, k, shape))
    largest = std::max(largest, std::fabs(a));
  for (double a : Au) scale = std::max(scale, std::fabs(a));
  EXPECT_LE(largest, 1e-12 * scale);
}

TEST(FusedOperator, SinglePrecisionAgreesWithDouble) {
  // FP32 plans (their own kernels on the GPU) against FP64 on the same block, field and coefficient:
  // mass and diffusion with a tensor, nodes, C = 1 and 4, and the diagonal.
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const Case& c : {Case{{Shape::tetrahedron, 2}, false}, Case{{Shape::hexahedron, 2}, false},
                        Case{{Shape::quadrilateral, 3}, true}}) {
    SCOPED_TRACE(case_name(c));
    const Placed b(make_block(c, rng));
    auto to_float = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    const ExecutorArray<float> x(b.executor, to_float(b.host.coordinates));
    const Interpolator<float> plan(b.placed_view(), b.n(), quadrature_rule(c.type.shape, 2 * c.type.order), x.data(),
                                   InterpolatorOptions{b.executor});
    for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
      for (int C : {1, 4}) {
        SCOPED_TRACE(std::string(fused_operator_name(op)) + ", C = " + std::to_string(C));
        const CoefficientShape shape = op == FusedOperator::mass ? CoefficientShape::scalar : CoefficientShape::symmetric_tensor;
        const std::vector<double> u = test::random_field(b.n(), C, rng);
        const std::vector<double> k = random_coefficient(shape, b.plan.detj_size(), b.S(), rng);
        const std::vector<double> expected = fused(b, op, u, C, k, shape);
        const ExecutorArray<float> field(b.executor, to_float(u)), kappa(b.executor, to_float(k));
        ExecutorArray<float> r(b.executor, std::vector<float>(u.size(), std::numeric_limits<float>::quiet_NaN()));
        plan.apply_operator(op, {field.data(), field.size(), C}, {r.data(), r.size()}, {kappa.data(), kappa.size(), shape});
        plan.check();
        const std::vector<float> got = r.to_vector();
        EXPECT_LE(test::relative_error(std::vector<double>(got.begin(), got.end()), expected), 1e-4);
        ExecutorArray<float> d(b.executor, std::vector<float>(u.size(), std::numeric_limits<float>::quiet_NaN()));
        plan.operator_diagonal(op, C, {d.data(), d.size()}, {kappa.data(), kappa.size(), shape});
        plan.check();
        const std::vector<float> got_diagonal = d.to_vector();
        EXPECT_LE(test::relative_error(std::vector<double>(got_diagonal.begin(), got_diagonal.end()),
                                       diagonal(b, op, C, k, shape)),
                  1e-4);
      }
  }
}

TEST(FusedOperator, RefusesBadCoefficients) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  const Placed b(make_block({{Shape::triangle, 2}, false}, rng));
  const Executor& executor = b.executor;
  const ExecutorArray<double> u(executor, std::vector<double>(std::size_t(b.n()), 1.0));
  ExecutorArray<double> r(executor, std::size_t(b.n()));
  const std::size_t points = b.plan.detj_size();
  const ExecutorArray<double> k(executor, std::vector<double>(points * 3, 1.0));
  auto apply = [&](FusedOperator op, BasicCoefficientView<double> c) {
    b.plan.apply_operator(op, {u.data(), u.size(), 1}, {r.data(), r.size()}, c);
  };
  test::expect_invalid([&] { apply(FusedOperator::mass, {k.data(), points * 3, CoefficientShape::symmetric_tensor}); },
                       "a symmetric tensor coefficient for the mass operator");
  test::expect_invalid([&] { apply(FusedOperator::diffusion, {k.data(), points - 1, CoefficientShape::scalar}); },
                       "the coefficient has " + std::to_string(points - 1) + " values, expected " + std::to_string(points));
  test::expect_invalid([&] { apply(FusedOperator::diffusion, {k.data(), points, CoefficientShape::symmetric_tensor}); },
                       "* 3 tensor entries");
  test::expect_invalid([&] { apply(FusedOperator::mass, {nullptr, points, CoefficientShape::scalar}); },
                       "the coefficient data is null");
  test::expect_invalid([&] { b.plan.operator_diagonal(FusedOperator::mass, 2, {r.data(), r.size()}); },
                       "the output holds");
}

}  // namespace
}  // namespace feinterp
