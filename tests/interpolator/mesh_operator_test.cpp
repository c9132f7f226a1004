// SPDX-License-Identifier: BSD-3-Clause
// MeshOperator (interpolator/mesh_operator.hpp) on a conforming mixed mesh of the unit square:
// quadrilaterals left of x = 1/2, triangles right of it, p = 1..3, over one node lattice, interior nodes
// moved at random (curved elements; the boundary, so the area, unchanged); and on the unit cube split into
// two blocks of hexahedra. Against its per-block plans bitwise (the same calls in the same order), and
// exact identities: 1^T M 1 = the measure, M and A symmetric and positive (semi)definite, A 1 = 0, and
// x^T A x = the measure for the coordinate field x. Outputs poisoned with NaN first; fresh random fields
// (FEINTERP_TEST_SEED replays a run); on the CPU executable and on the GPU one.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <feinterp/fem/boundary.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/structured_box.hpp>
#include <feinterp/interpolator/constrained_operator.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>

#include <feinterp/tests/support/expect_invalid.hpp>
#include <feinterp/tests/support/structured_mesh.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();

/// Blocks over one node numbering, on the host.
struct HostMesh {
  std::vector<double> coordinates;
  std::vector<ElementType> types;
  std::vector<std::vector<node_index>> connectivities;
  offset_t node_count() const { return offset_t(coordinates.size() / 3); }
};

/// Interior nodes (inside the unit square or cube) moved by up to `fraction` of the lattice spacing.
void perturb(HostMesh& mesh, int D, double spacing, double fraction, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (offset_t n = 0; n < mesh.node_count(); ++n) {
    double* x = &mesh.coordinates[std::size_t(n) * 3];
    bool interior = true;
    for (int d = 0; d < D; ++d) interior = interior && x[d] > 0.0 && x[d] < 1.0;
    if (interior)
      for (int d = 0; d < D; ++d) x[d] += fraction * spacing * unit(rng);
  }
}

/// Quadrilaterals left, triangles right: the two structured boxes number the same lattice of nodes.
HostMesh mixed_square(int p, int M, std::mt19937_64& rng, double perturbation = 0.1) {
  const StructuredBox quads = structured_box({Shape::quadrilateral, p}, M);
  const StructuredBox triangles = structured_box({Shape::triangle, p}, M);
  EXPECT_EQ(quads.coordinates, triangles.coordinates) << "the boxes must share their node lattice";
  HostMesh mesh{quads.coordinates,
                {quads.type, triangles.type},
                {test::structured_half(quads, true), test::structured_half(triangles, false)}};
  perturb(mesh, 2, 1.0 / (p * M), perturbation, rng);
  return mesh;
}

/// The unit cube's hexahedra as two blocks (two "physical volumes"). The degree-2p rules integrate det J
/// exactly on the mixed square (degree 5 in a variable for Q3, 4 for P3), so 1^T M 1 is its area to rounding.
HostMesh split_cube(int p, int M, std::mt19937_64& rng) {
  const StructuredBox box = structured_box({Shape::hexahedron, p}, M);
  HostMesh mesh{box.coordinates, {box.type, box.type},
                {test::structured_half(box, true), test::structured_half(box, false)}};
  // Curved for p <= 2 only: a Q3 map's det J has degree 8 in a variable, past the degree-6 rule's 7.
  if (p <= 2) perturb(mesh, 3, 1.0 / (p * M), 0.1, rng);
  return mesh;
}

/// A HostMesh where the test's executor computes, with its operator at Gauss rules of degree 2p.
template <class Real>
struct Placed {
  Executor executor = test::test_executor();
  std::vector<ExecutorArray<node_index>> connectivities;
  ExecutorArray<Real> coordinates;
  std::vector<OperatorBlock> blocks;
  offset_t node_count;

  Placed(const HostMesh& mesh, const InterpolatorOptions& options = {}, int extra_degree = 0)
      : coordinates(executor, std::vector<Real>(mesh.coordinates.begin(), mesh.coordinates.end())),
        node_count(mesh.node_count()) {
    const int S = dimension(mesh.types[0].shape) == 3 ? 3 : 2;
    for (std::size_t b = 0; b < mesh.types.size(); ++b) {
      connectivities.emplace_back(executor, mesh.connectivities[b]);
      const ElementType type = mesh.types[b];
      const offset_t elements = offset_t(mesh.connectivities[b].size()) / nodes_per_element(type);
      blocks.push_back({BlockView{type, connectivities.back().data(), elements, S},
                        quadrature_rule(type.shape, 2 * type.order + extra_degree)});
    }
    this->options = options;
    this->options.executor = executor;
    this->options.summation = Summation::deterministic;  // the tests compare sums bitwise
  }
  MeshOperator<Real> make() const { return MeshOperator<Real>(blocks, node_count, coordinates.data(), options); }
  InterpolatorOptions options;
};

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

/// M u (weighted values transpose of the values) or A u (the fused Laplacian), on the host.
enum class Form { mass, stiffness };
std::vector<double> apply(const MeshOperator<double>& op, Form form, const std::vector<double>& u, int C) {
  const Executor& executor = op.executor();
  const ExecutorArray<double> field(executor, u);
  ExecutorArray<double> r(executor, std::vector<double>(u.size(), nan_value));
  if (form == Form::stiffness) {
    op.apply_operator(FusedOperator::diffusion, {field.data(), field.size(), C}, {r.data(), r.size()});
  } else {
    ExecutorArray<double> q(executor, std::vector<double>(op.output_size(Operation::values, C), nan_value));
    op.interpolate(Operation::values, {field.data(), field.size(), C}, {q.data(), q.size()});
    TransposeOptions weighted;
    weighted.weighted = true;
    op.integrate(Operation::values, {q.data(), q.size(), C}, {r.data(), r.size()}, weighted);
  }
  op.check();
  return r.to_vector();
}

class MeshOperatorOrders : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Orders, MeshOperatorOrders, ::testing::Values(1, 2, 3),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

TEST_P(MeshOperatorOrders, InterpolateAndIntegrateAreTheBlocksPlans) {
  FEINTERP_REQUIRE_EXECUTOR();
  const int p = GetParam(), C = 2;
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const HostMesh mesh = mixed_square(p, 6, rng);
  const Placed<double> placed(mesh);
  const MeshOperator<double> op = placed.make();
  ASSERT_EQ(op.block_count(), 2u);
  const Executor& executor = op.executor();
  const std::vector<double> u = test::random_field(mesh.node_count(), C, rng);
  const ExecutorArray<double> field(executor, u);
  for (Operation forward : {Operation::values, Operation::reference_gradients, Operation::physical_gradients}) {
    SCOPED_TRACE(operation_name(forward));
    const std::size_t size = op.output_size(forward, C);
    ExecutorArray<double> out(executor, std::vector<double>(size, nan_value));
    ExecutorArray<double> detj(executor, std::vector<double>(op.detj_size(), nan_value));
    const bool with_detj = forward == Operation::physical_gradients;
    op.interpolate(forward, {field.data(), field.size(), C}, {out.data(), out.size()},
                   with_detj ? BasicOutputView<double>{detj.data(), detj.size()} : BasicOutputView<double>{});
    op.check();
    const std::vector<double> all = out.to_vector(), all_detj = detj.to_vector();
    ASSERT_EQ(op.output_offset(0, forward, C), 0u);
    ASSERT_EQ(op.output_offset(2, forward, C), size);
    for (std::size_t b = 0; b < op.block_count(); ++b) {
      const Interpolator<double>& plan = op.plan(b);
      ExecutorArray<double> own(executor, std::vector<double>(plan.output_size(forward, C), nan_value));
      ExecutorArray<double> own_detj(executor, std::vector<double>(plan.detj_size(), nan_value));
      plan.apply(forward, {field.data(), field.size(), C}, {own.data(), own.size()},
                 with_detj ? BasicOutputView<double>{own_detj.data(), own_detj.size()} : BasicOutputView<double>{});
      const std::vector<double> expected = own.to_vector();
      const std::size_t at = op.output_offset(b, forward, C);
      for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(all[at + i], expected[i]) << "block " << b << " value " << i;
      if (with_detj) {
        const std::vector<double> expected_detj = own_detj.to_vector();
        for (std::size_t i = 0; i < expected_detj.size(); ++i) ASSERT_EQ(all_detj[op.detj_offset(b) + i], expected_detj[i]);
      }
    }

    // integrate: block 0's transpose, then block 1's added to it, as the plans compute them by hand.
    const std::vector<double> f = test::random_field(offset_t(size / C), C, rng);
    const ExecutorArray<double> point_data(executor, f);
    for (bool weighted : {false, true}) {
      TransposeOptions options;
      options.weighted = weighted;
      ExecutorArray<double> r(executor, std::vector<double>(u.size(), nan_value));
      op.integrate(forward, {point_data.data(), point_data.size(), C}, {r.data(), r.size()}, options);
      ExecutorArray<double> by_hand(executor, std::vector<double>(u.size(), nan_value));
      for (std::size_t b = 0; b < op.block_count(); ++b) {
        const std::size_t at = op.output_offset(b, forward, C), block_size = op.plan(b).output_size(forward, C);
        TransposeOptions block_options = options;
        block_options.accumulate = b > 0;
        op.plan(b).apply_transpose(forward, {point_data.data() + at, block_size, C}, {by_hand.data(), by_hand.size()},
                                   block_options);
      }
      op.check();
      EXPECT_EQ(r.to_vector(), by_hand.to_vector()) << (weighted ? "weighted" : "unweighted");
    }
  }
}

TEST_P(MeshOperatorOrders, MassAndStiffnessIdentitiesOnAMixedMesh) {
  FEINTERP_REQUIRE_EXECUTOR();
  const int p = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const HostMesh mesh = mixed_square(p, 4, rng);
  const Placed<double> placed(mesh);
  const MeshOperator<double> op = placed.make();
  const offset_t n = mesh.node_count();
  const std::vector<double> ones(std::size_t(n), 1.0);

  // 1^T M 1 = the area of the unit square; A 1 = 0; x^T A x = integral of |grad x|^2 = 1.
  EXPECT_NEAR(dot(ones, apply(op, Form::mass, ones, 1)), 1.0, 1e-13);
  double largest = 0;
  for (double a : apply(op, Form::stiffness, ones, 1)) largest = std::max(largest, std::fabs(a));
  EXPECT_LE(largest, 1e-12);
  std::vector<double> x(ones.size());
  for (offset_t i = 0; i < n; ++i) x[std::size_t(i)] = mesh.coordinates[std::size_t(i) * 3];
  EXPECT_NEAR(dot(x, apply(op, Form::stiffness, x, 1)), 1.0, 1e-12);

  // Symmetric, and positive definite (M) or semidefinite (A), on random fields of 2 components.
  for (Form form : {Form::mass, Form::stiffness}) {
    SCOPED_TRACE(form == Form::mass ? "mass" : "stiffness");
    const std::vector<double> u = test::random_field(n, 2, rng), v = test::random_field(n, 2, rng);
    const std::vector<double> Au = apply(op, form, u, 2), Av = apply(op, form, v, 2);
    const double uAv = dot(u, Av), vAu = dot(v, Au);
    EXPECT_NEAR(uAv, vAu, 1e-12 * (std::fabs(uAv) + 1));
    EXPECT_GT(dot(u, Au), 0.0);
  }
}

TEST(MeshOperator, SumsOverBlocksAreTheSameForAnyThreadCount) {
  FEINTERP_REQUIRE_EXECUTOR();
  if (test::test_executor().kind() != ExecutorKind::cpu) GTEST_SKIP() << "the CPU's thread counts";
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const HostMesh mesh = mixed_square(2, 64, rng);  // 2048 quadrilaterals, 4096 triangles: 3 threads each
  const std::vector<double> u = test::random_field(mesh.node_count(), 3, rng);
  std::vector<std::vector<double>> results;
  for (int threads : {1, 2, 3}) {
    InterpolatorOptions options;
    options.threads = threads;
    const Placed<double> placed(mesh, options);
    results.push_back(apply(placed.make(), Form::mass, u, 3));
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST(MeshOperator, TwoBlocksOfHexahedraAreOneCube) {
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int p = 1; p <= 3; ++p) {
    SCOPED_TRACE("p = " + std::to_string(p));
    const HostMesh mesh = split_cube(p, 2, rng);
    const Placed<double> placed(mesh);
    const MeshOperator<double> op = placed.make();
    const std::vector<double> ones(std::size_t(mesh.node_count()), 1.0);
    EXPECT_NEAR(dot(ones, apply(op, Form::mass, ones, 1)), 1.0, 1e-13);
    std::vector<double> z(ones.size());
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = mesh.coordinates[i * 3 + 2];
    EXPECT_NEAR(dot(z, apply(op, Form::stiffness, z, 1)), 1.0, 1e-12);
  }
}

/// The blocks of a HostMesh as host views (for boundary_nodes).
std::vector<BlockView> host_views(const HostMesh& mesh) {
  std::vector<BlockView> views;
  for (std::size_t b = 0; b < mesh.types.size(); ++b)
    views.push_back({mesh.types[b], mesh.connectivities[b].data(),
                     offset_t(mesh.connectivities[b].size()) / nodes_per_element(mesh.types[b]),
                     dimension(mesh.types[b].shape) == 3 ? 3 : 2});
  return views;
}

TEST_P(MeshOperatorOrders, FusedOperatorsAndDiagonalsAreTheBlocksPlans) {
  FEINTERP_REQUIRE_EXECUTOR();
  const int p = GetParam(), C = 2;
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const HostMesh mesh = mixed_square(p, 4, rng);
  const Placed<double> placed(mesh);
  const MeshOperator<double> op = placed.make();
  const Executor& executor = op.executor();
  const std::vector<double> u = test::random_field(mesh.node_count(), C, rng);
  const ExecutorArray<double> field(executor, u);
  const CoefficientShape shape = CoefficientShape::symmetric_tensor;
  ASSERT_EQ(op.coefficient_size(shape), op.detj_size() * 3);
  // A tensor 2 I + noise at every point of every block.
  std::vector<double> k = test::random_field(offset_t(op.detj_size()), 3, rng);
  for (std::size_t i = 0; i < k.size(); i += 3) k[i] += 2.0, k[i + 1] *= 0.3, k[i + 2] += 2.0;
  const ExecutorArray<double> kappa(executor, k);
  for (FusedOperator form : {FusedOperator::mass, FusedOperator::diffusion}) {
    SCOPED_TRACE(fused_operator_name(form));
    const CoefficientShape s = form == FusedOperator::mass ? CoefficientShape::scalar : shape;
    ExecutorArray<double> r(executor, std::vector<double>(u.size(), nan_value)), d(executor, r.size());
    op.apply_operator(form, {field.data(), field.size(), C}, {r.data(), r.size()}, {kappa.data(), op.coefficient_size(s), s});
    op.operator_diagonal(form, C, {d.data(), d.size()}, {kappa.data(), op.coefficient_size(s), s});
    ExecutorArray<double> r_hand(executor, std::vector<double>(u.size(), nan_value)), d_hand(executor, r.size());
    for (std::size_t b = 0; b < op.block_count(); ++b) {
      TransposeOptions options;
      options.accumulate = b > 0;
      const BasicCoefficientView<double> part{kappa.data() + op.coefficient_offset(b, s),
                                              op.plan(b).detj_size() * std::size_t(coefficient_entries(s, 2)), s};
      op.plan(b).apply_operator(form, {field.data(), field.size(), C}, {r_hand.data(), r_hand.size()}, part, options);
      op.plan(b).operator_diagonal(form, C, {d_hand.data(), d_hand.size()}, part, options);
    }
    op.check();
    EXPECT_EQ(r.to_vector(), r_hand.to_vector());
    EXPECT_EQ(d.to_vector(), d_hand.to_vector());
  }
}

TEST_P(MeshOperatorOrders, MassWithTheCoordinateAsCoefficientIsTheMassOfTheCoordinate) {
  // 1^T M_rho 1 with rho = x at the points (point_coordinates) is sum_q w |J| x_h(xi_q) = 1^T M x, whatever
  // the rule's exactness: the points' coordinates and their offsets per block are right.
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const HostMesh mesh = mixed_square(GetParam(), 4, rng);
  const Placed<double> placed(mesh);
  const MeshOperator<double> op = placed.make();
  const Executor& executor = op.executor();
  ExecutorArray<double> points(executor, std::vector<double>(op.output_size(Operation::values, 3), nan_value));
  op.point_coordinates({points.data(), points.size()});
  const std::vector<double> xyz = points.to_vector();
  std::vector<double> rho(op.coefficient_size(CoefficientShape::scalar));
  for (std::size_t q = 0; q < rho.size(); ++q) rho[q] = xyz[q * 3];
  const ExecutorArray<double> coefficient(executor, rho);
  const std::vector<double> ones(std::size_t(mesh.node_count()), 1.0);
  std::vector<double> x(ones.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = mesh.coordinates[i * 3];
  const ExecutorArray<double> one_field(executor, ones);
  ExecutorArray<double> r(executor, std::vector<double>(ones.size(), nan_value));
  op.apply_operator(FusedOperator::mass, {one_field.data(), one_field.size(), 1}, {r.data(), r.size()},
                    {coefficient.data(), coefficient.size(), CoefficientShape::scalar});
  EXPECT_NEAR(dot(ones, r.to_vector()), dot(ones, apply(op, Form::mass, x, 1)), 1e-13);
}

/// Solves A_c x = b on the host with CG to a relative residual of 1e-13, A_c applied where `a` computes.
std::vector<double> conjugate_gradients(const ConstrainedOperator<double>& a, const std::vector<double>& b,
                                        BasicCoefficientView<double> kappa) {
  const Executor& executor = a.mesh_operator().executor();
  auto apply = [&](const std::vector<double>& v) {
    const ExecutorArray<double> in(executor, v);
    ExecutorArray<double> out(executor, std::vector<double>(v.size(), nan_value));
    a.apply(FusedOperator::diffusion, {in.data(), in.size(), 1}, {out.data(), out.size()}, kappa);
    return out.to_vector();
  };
  std::vector<double> x(b.size(), 0.0), r = b, p = b;
  double rr = dot(r, r);
  const double stop = 1e-26 * rr;
  for (std::size_t it = 0; it < 4 * b.size() && rr > stop; ++it) {
    const std::vector<double> Ap = apply(p);
    const double alpha = rr / dot(p, Ap);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += alpha * p[i], r[i] -= alpha * Ap[i];
    const double next = dot(r, r);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = r[i] + next / rr * p[i];
    rr = next;
  }
  return x;
}

TEST_P(MeshOperatorOrders, ConstrainedDiffusionReproducesLinearSolutions) {
  // -div(kappa grad u) = 0 with a constant SPD kappa has the linear solutions, which every order
  // reproduces exactly: with u = g on the boundary (boundary_nodes), CG on A_c x = eliminate(g, 0) gives
  // x = u at every node. Also: A_c is symmetric, (A_c v)_D = v_D, and its diagonal is A's with 1 on D.
  FEINTERP_REQUIRE_EXECUTOR();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const HostMesh mesh = mixed_square(GetParam(), 4, rng);  // an even M: the halves meet on cell edges
  const Placed<double> placed(mesh);
  const MeshOperator<double> op = placed.make();
  const Executor& executor = op.executor();
  const offset_t n = mesh.node_count();
  std::vector<double> k(op.coefficient_size(CoefficientShape::symmetric_tensor));
  for (std::size_t i = 0; i < k.size(); i += 3) k[i] = 2.0, k[i + 1] = 0.5, k[i + 2] = 1.0;
  const ExecutorArray<double> kappa_array(executor, k);
  const BasicCoefficientView<double> kappa{kappa_array.data(), kappa_array.size(), CoefficientShape::symmetric_tensor};
  const ConstrainedOperator<double> a(op, boundary_nodes(host_views(mesh), n));
  ASSERT_FALSE(a.nodes().empty());

  std::vector<double> exact(std::size_t(n), 0.0);
  for (offset_t i = 0; i < n; ++i)
    exact[std::size_t(i)] = 0.3 + 1.5 * mesh.coordinates[std::size_t(i) * 3] - 0.7 * mesh.coordinates[std::size_t(i) * 3 + 1];
  const ExecutorArray<double> g(executor, exact);
  ExecutorArray<double> b(executor, std::vector<double>(std::size_t(n), 0.0));
  a.eliminate(FusedOperator::diffusion, {g.data(), g.size(), 1}, {b.data(), b.size()}, kappa);
  const std::vector<double> x = conjugate_gradients(a, b.to_vector(), kappa);
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::fabs(x[i] - exact[i]));
  EXPECT_LE(worst, 1e-10);

  const std::vector<double> u = test::random_field(n, 1, rng), v = test::random_field(n, 1, rng);
  auto apply_c = [&](const std::vector<double>& w) {
    const ExecutorArray<double> in(executor, w);
    ExecutorArray<double> out(executor, std::vector<double>(w.size(), nan_value));
    a.apply(FusedOperator::diffusion, {in.data(), in.size(), 1}, {out.data(), out.size()}, kappa);
    return out.to_vector();
  };
  const std::vector<double> Au = apply_c(u), Av = apply_c(v);
  EXPECT_NEAR(dot(u, Av), dot(v, Au), 1e-12 * (std::fabs(dot(u, Av)) + 1));
  for (node_index i : a.nodes()) ASSERT_EQ(Au[std::size_t(i)], u[std::size_t(i)]) << "node " << i;
  ExecutorArray<double> d(executor, std::vector<double>(std::size_t(n), nan_value)), d_free(executor, std::size_t(n));
  a.diagonal(FusedOperator::diffusion, {d.data(), d.size()}, kappa);
  op.operator_diagonal(FusedOperator::diffusion, 1, {d_free.data(), d_free.size()}, kappa);
  const std::vector<double> dc = d.to_vector(), da = d_free.to_vector();
  std::vector<bool> constrained(std::size_t(n), false);
  for (node_index i : a.nodes()) constrained[std::size_t(i)] = true;
  for (std::size_t i = 0; i < dc.size(); ++i) ASSERT_EQ(dc[i], constrained[i] ? 1.0 : da[i]) << "node " << i;

  test::expect_invalid([&] { ConstrainedOperator<double>(op, {node_index(n)}); }, "outside the operator's numbering");
  ExecutorArray<double> same(executor, std::size_t(n));
  test::expect_invalid(
      [&] { a.apply(FusedOperator::diffusion, {same.data(), same.size(), 1}, {same.data(), same.size()}, kappa); },
      "overlaps");
}

TEST_P(MeshOperatorOrders, VariableCoefficientPoissonConvergesOnAMixedMesh) {
  // -div(kappa grad u) = f on the unit square of quadrilaterals and triangles, kappa = 1 + x^2,
  // u = sin(2x) e^y (f = 3 kappa u - 4x cos(2x) e^y), u on the boundary: the L2 error falls at rate p + 1
  // from 4 to 8 cells per side (CG on the constrained operator; the error at a rule of degree 2p + 2).
  FEINTERP_REQUIRE_EXECUTOR();
  const int p = GetParam();
  std::mt19937_64 rng(test::test_seed());
  auto exact = [](const double* x) { return std::sin(2 * x[0]) * std::exp(x[1]); };
  auto kappa = [](const double* x) { return 1 + x[0] * x[0]; };
  auto source = [&](const double* x) { return 3 * kappa(x) * exact(x) - 4 * x[0] * std::cos(2 * x[0]) * std::exp(x[1]); };
  std::vector<double> errors;
  for (int M : {4, 8}) {
    const HostMesh mesh = mixed_square(p, M, rng, 0.0);
    const Placed<double> placed(mesh), fine(mesh, {}, 2);
    const MeshOperator<double> op = placed.make(), error_op = fine.make();
    const Executor& executor = op.executor();
    const offset_t n = mesh.node_count();
    auto at_points = [&](const MeshOperator<double>& on, auto&& g) {
      ExecutorArray<double> x(executor, on.output_size(Operation::values, 3));
      on.point_coordinates({x.data(), x.size()});
      const std::vector<double> xyz = x.to_vector();
      std::vector<double> values(xyz.size() / 3);
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = g(&xyz[3 * i]);
      return values;
    };
    const ExecutorArray<double> k(executor, at_points(op, kappa)), f(executor, at_points(op, source));
    const BasicCoefficientView<double> kappa_view{k.data(), k.size(), CoefficientShape::scalar};
    ExecutorArray<double> b(executor, std::size_t(n));
    op.integrate(Operation::values, {f.data(), f.size(), 1}, {b.data(), b.size()}, {TransposeTarget::nodes, true});
    std::vector<double> g_host(std::size_t(n), 0.0);
    for (offset_t i = 0; i < n; ++i) g_host[std::size_t(i)] = exact(&mesh.coordinates[std::size_t(i) * 3]);
    const ExecutorArray<double> g(executor, g_host);
    const ConstrainedOperator<double> a(op, boundary_nodes(host_views(mesh), n));
    a.eliminate(FusedOperator::diffusion, {g.data(), g.size(), 1}, {b.data(), b.size()}, kappa_view);
    const ExecutorArray<double> u(executor, conjugate_gradients(a, b.to_vector(), kappa_view));
    ExecutorArray<double> uh(executor, error_op.output_size(Operation::values, 1));
    ExecutorArray<double> gradients(executor, error_op.output_size(Operation::physical_gradients, 1));
    ExecutorArray<double> detj(executor, error_op.detj_size());
    error_op.interpolate(Operation::values, {u.data(), u.size(), 1}, {uh.data(), uh.size()});
    error_op.interpolate(Operation::physical_gradients, {u.data(), u.size(), 1}, {gradients.data(), gradients.size()},
                         {detj.data(), detj.size()});
    const std::vector<double> values = uh.to_vector(), dets = detj.to_vector(), truth = at_points(error_op, exact);
    double l2 = 0;
    std::size_t at = 0;
    for (std::size_t block = 0; block < error_op.block_count(); ++block) {
      const std::vector<double>& w = fine.blocks[block].points.weights;
      for (std::size_t i = 0; i < error_op.plan(block).detj_size(); ++i, ++at)
        l2 += w[i % w.size()] * std::fabs(dets[at]) * (values[at] - truth[at]) * (values[at] - truth[at]);
    }
    errors.push_back(std::sqrt(l2));
  }
  const double rate = std::log2(errors[0] / errors[1]);
  EXPECT_GE(rate, p + 1 - 0.3) << "L2 errors " << errors[0] << ", " << errors[1];
}

TEST(MeshOperator, AdjacentBlocksOfOneTypeComputeAsOne) {
  // A cube of p = 2 tetrahedra as one block and as 7 blocks of consecutive elements: the 7 are one run, and
  // every result equals the single block's bitwise (the same connectivity, end to end); a triangle block
  // between two tetrahedron blocks would break the run (the mixed square has two runs).
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  const StructuredBox box = structured_box({Shape::tetrahedron, 2}, 3);
  HostMesh one{box.coordinates, {box.type}, {box.connectivity}};
  perturb(one, 3, 1.0 / 6, 0.1, rng);
  HostMesh split{one.coordinates, {}, {}};
  const std::size_t N = std::size_t(nodes_per_element(box.type)), E = std::size_t(box.element_count);
  for (std::size_t b = 0; b < 7; ++b) {
    split.types.push_back(box.type);
    split.connectivities.emplace_back(box.connectivity.begin() + std::ptrdiff_t(E * b / 7 * N),
                                      box.connectivity.begin() + std::ptrdiff_t(E * (b + 1) / 7 * N));
  }
  const Placed<double> placed_one(one), placed_split(split);
  const MeshOperator<double> a = placed_one.make(), b = placed_split.make();
  EXPECT_EQ(b.block_count(), 7u);
  EXPECT_EQ(b.run_count(), 1u);
  EXPECT_EQ(placed_one.make().run_count(), 1u);
  const std::vector<double> u = test::random_field(one.node_count(), 2, rng);
  for (Form form : {Form::mass, Form::stiffness}) EXPECT_EQ(apply(a, form, u, 2), apply(b, form, u, 2));
  const Executor& executor = a.executor();
  const ExecutorArray<double> field(executor, u);
  ExecutorArray<double> ga(executor, a.output_size(Operation::physical_gradients, 2)), gb(executor, ga.size());
  a.interpolate(Operation::physical_gradients, {field.data(), field.size(), 2}, {ga.data(), ga.size()});
  b.interpolate(Operation::physical_gradients, {field.data(), field.size(), 2}, {gb.data(), gb.size()});
  EXPECT_EQ(ga.to_vector(), gb.to_vector());
  ExecutorArray<double> da(executor, u.size()), db(executor, u.size());
  a.operator_diagonal(FusedOperator::diffusion, 2, {da.data(), da.size()});
  b.operator_diagonal(FusedOperator::diffusion, 2, {db.data(), db.size()});
  EXPECT_EQ(da.to_vector(), db.to_vector());
  EXPECT_EQ(Placed<double>(mixed_square(1, 2, rng)).make().run_count(), 2u);
  ExecutorArray<double> short_r(executor, u.size() - 1);
  test::expect_invalid(
      [&] { b.apply_operator(FusedOperator::mass, {field.data(), field.size(), 2}, {short_r.data(), short_r.size()}); },
      "MeshOperator::apply_operator: blocks 0 to 6 (tetrahedron p2): ");
}

TEST(MeshOperator, RefusesWhatItCannotDo) {
  FEINTERP_REQUIRE_EXECUTOR();
  std::mt19937_64 rng(test::test_seed());
  const HostMesh mesh = mixed_square(1, 2, rng);
  const Placed<double> placed(mesh);
  test::expect_invalid([&] { MeshOperator<double>({}, placed.node_count, placed.coordinates.data(), placed.options); },
                       "no blocks");
  std::vector<OperatorBlock> short_of_nodes = placed.blocks;
  test::expect_invalid(
      [&] { MeshOperator<double>(short_of_nodes, 3, placed.coordinates.data(), placed.options); },
      "block 0 (quadrilateral p1)");
  const MeshOperator<double> op = placed.make();
  const Executor& executor = op.executor();
  const ExecutorArray<double> u(executor, std::vector<double>(std::size_t(mesh.node_count()), 1.0));
  ExecutorArray<double> out(executor, op.output_size(Operation::values, 1) - 1);
  test::expect_invalid([&] { op.interpolate(Operation::values, {u.data(), u.size(), 1}, {out.data(), out.size()}); },
                       "expected " + std::to_string(op.output_size(Operation::values, 1)));
  test::expect_invalid(
      [&] { op.interpolate(Operation::values_transpose, {u.data(), u.size(), 1}, {out.data(), out.size()}); },
      "expected a forward operation");
  TransposeOptions element_vectors;
  element_vectors.target = TransposeTarget::element_vectors;
  ExecutorArray<double> r(executor, std::size_t(mesh.node_count()));
  test::expect_invalid(
      [&] { op.integrate(Operation::values, {out.data(), out.size(), 1}, {r.data(), r.size()}, element_vectors); },
      "element vectors are a block's own");
  test::expect_invalid([&] { op.integrate(Operation::values, {out.data(), out.size(), 1}, {r.data(), r.size()}); },
                       "the point data f has");
  ExecutorArray<double> short_r(executor, std::size_t(mesh.node_count()) - 1);
  test::expect_invalid(
      [&] { op.apply_operator(FusedOperator::diffusion, {u.data(), u.size(), 1}, {short_r.data(), short_r.size()}); },
      "MeshOperator::apply_operator: block 0 (quadrilateral p1): ");
}

}  // namespace
}  // namespace feinterp
