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

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/structured_box.hpp>
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
HostMesh mixed_square(int p, int M, std::mt19937_64& rng) {
  const StructuredBox quads = structured_box({Shape::quadrilateral, p}, M);
  const StructuredBox triangles = structured_box({Shape::triangle, p}, M);
  EXPECT_EQ(quads.coordinates, triangles.coordinates) << "the boxes must share their node lattice";
  HostMesh mesh{quads.coordinates,
                {quads.type, triangles.type},
                {test::structured_half(quads, true), test::structured_half(triangles, false)}};
  perturb(mesh, 2, 1.0 / (p * M), 0.1, rng);
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

  Placed(const HostMesh& mesh, const InterpolatorOptions& options = {})
      : coordinates(executor, std::vector<Real>(mesh.coordinates.begin(), mesh.coordinates.end())),
        node_count(mesh.node_count()) {
    const int S = dimension(mesh.types[0].shape) == 3 ? 3 : 2;
    for (std::size_t b = 0; b < mesh.types.size(); ++b) {
      connectivities.emplace_back(executor, mesh.connectivities[b]);
      const ElementType type = mesh.types[b];
      const offset_t elements = offset_t(mesh.connectivities[b].size()) / nodes_per_element(type);
      blocks.push_back({BlockView{type, connectivities.back().data(), elements, S},
                        quadrature_rule(type.shape, 2 * type.order)});
    }
    this->options = options;
    this->options.executor = executor;
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
    op.apply_laplacian({field.data(), field.size(), C}, {r.data(), r.size()});
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
  const HostMesh mesh = mixed_square(p, 5, rng);
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
  test::expect_invalid([&] { op.apply_laplacian({u.data(), u.size(), 1}, {short_r.data(), short_r.size()}); },
                       "MeshOperator::apply_laplacian: block 0 (quadrilateral p1): ");
}

}  // namespace
}  // namespace feinterp
