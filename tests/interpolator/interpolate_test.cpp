// SPDX-License-Identifier: BSD-3-Clause
// Interpolation through the front door against exact answers: polynomial fields the elements
// reproduce, on meshes of randomly perturbed (curved) elements, affine elements and a quadratic-curved
// p = 2 mesh; every output poisoned with NaN first and every entry checked. Plus threads, the
// orientation policy, and the validation of arguments. Built twice: on the CPU executor, and on the
// GPU's (label gpu; skipped without a GPU), from the same source (support/front_door.hpp).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/polynomial.hpp>
#include <feinterp/tests/support/random_block.hpp>
#include <feinterp/tests/support/element_lists.hpp>
#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/expect_invalid.hpp>

namespace feinterp {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string name_of(const ::testing::TestParamInfo<ElementType>& info) {
  return std::string(shape_name(info.param.shape)) + "_p" + std::to_string(info.param.order);
}

// ---- helpers ------------------------------------------------------------------------------------

template <class E>
std::array<double, 3> random_reference_point(std::mt19937& random) {
  std::array<double, 3> xi{0, 0, 0};
  if constexpr (E::simplex) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (;;) {
      double sum = 0;
      for (int d = 0; d < E::dimension; ++d) sum += xi[d] = u(random);
      if (sum <= 1.0) return xi;
    }
  } else {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int d = 0; d < E::dimension; ++d) xi[d] = u(random);
    return xi;
  }
}

/// Q random reference points, as a PointSet built directly (no dependency on quadrature).
PointSet random_points(ElementType type, int Q, std::mt19937& random) {
  return visit(type, [&](auto element) {
    using E = decltype(element);
    PointSet points;
    points.shape = type.shape;
    points.name = "random points";
    for (int q = 0; q < Q; ++q) {
      const auto xi = random_reference_point<E>(random);
      points.coordinates.insert(points.coordinates.end(), xi.begin(), xi.begin() + E::dimension);
    }
    return points;
  });
}

using test::Polynomial;

/// A block whose elements each own their N nodes, numbered in a random order (so the gather really
/// goes through the connectivity), with node positions given by place(e, xi, x[3]).
struct TestMesh {
  ElementType type;
  int space_dimension = 0;  // 0: the default for the type
  offset_t elements = 0, node_count = 0;
  std::vector<node_index> connectivity;
  std::vector<double> coordinates;
  std::vector<double> reference;  // reference position of each global node in its element, 3 per node
  std::vector<offset_t> owner;    // element of each global node
  BlockView block() const { return {type, connectivity.data(), elements, space_dimension}; }
};

TestMesh make_mesh(ElementType type, offset_t elements, std::mt19937& random,
                   const std::function<void(offset_t, const double*, double*)>& place) {
  TestMesh mesh;
  mesh.type = type;
  mesh.elements = elements;
  const int N = nodes_per_element(type);
  mesh.node_count = elements * N;
  std::vector<node_index> numbering(std::size_t(mesh.node_count));
  std::iota(numbering.begin(), numbering.end(), 0);
  std::shuffle(numbering.begin(), numbering.end(), random);
  mesh.connectivity = numbering;
  mesh.coordinates.assign(std::size_t(mesh.node_count) * 3, nan);
  mesh.reference.assign(std::size_t(mesh.node_count) * 3, 0.0);
  mesh.owner.assign(std::size_t(mesh.node_count), -1);
  visit(type, [&](auto element) {
    using E = decltype(element);
    for (offset_t e = 0; e < elements; ++e)
      for (int n = 0; n < N; ++n) {
        const node_index g = mesh.connectivity[std::size_t(e * N + n)];
        double xi[3] = {0, 0, 0};
        E::reference_node(n, xi);
        place(e, xi, &mesh.coordinates[std::size_t(g) * 3]);
        std::copy(xi, xi + 3, &mesh.reference[std::size_t(g) * 3]);
        mesh.owner[std::size_t(g)] = e;
      }
  });
  return mesh;
}

/// A random affine map x = A xi + b from the D-dimensional reference element into S-dimensional space
/// (S = the default space dimension unless given: 2 for lines and 2D elements, 3 for 3D ones; z = 0
/// when S = 2), A near 2 I, with det A > 0 when D = S.
struct Affine {
  Eigen::Matrix3d A;
  Eigen::Vector3d b;
  int D, S;
  Affine(int D_, std::mt19937& random, int S_ = 0) : D(D_), S(S_ ? S_ : (D_ == 3 ? 3 : 2)) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    A = 2.0 * Eigen::Matrix3d::Identity();
    for (int k = 0; k < 3; ++k) {
      b[k] = u(random);
      for (int d = 0; d < 3; ++d) A(k, d) += 0.5 * u(random);
    }
    if (D == S && A.topLeftCorner(D, D).determinant() < 0) A.col(0) *= -1;
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d)
        if (k >= S || d >= D) A(k, d) = 0.0;
    for (int k = S; k < 3; ++k) b[k] = 0.0;
  }
  Eigen::MatrixXd jacobian() const { return A.topLeftCorner(S, D); }
  void operator()(const double* xi, double* x) const {
    for (int k = 0; k < 3; ++k) {
      x[k] = b[k];
      for (int d = 0; d < D; ++d) x[k] += A(k, d) * xi[d];
    }
  }
};

/// What fem/geometry.hpp must give for a Jacobian J (S x D): det J when S = D, sqrt(det(J^T J)) else;
/// and the matrix that maps a gradient in space to the physical (tangential) gradient: the identity
/// when S = D, the orthogonal projection J (J^T J)^-1 J^T onto the tangent space else. Computed with
/// Eigen, independently of geometry.hpp.
double expected_detj(const Eigen::MatrixXd& J) {
  return J.rows() == J.cols() ? J.determinant() : std::sqrt((J.transpose() * J).determinant());
}
Eigen::MatrixXd tangent_projection(const Eigen::MatrixXd& J) {
  return J * (J.transpose() * J).inverse() * J.transpose();
}

void expect_close(const std::vector<double>& got, const std::vector<double>& expected, double tolerance,
                  const std::string& what) {
  ASSERT_EQ(got.size(), expected.size());
  std::size_t failures = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = std::abs(got[i] - expected[i]);
    // !(error <= ...) also catches a NaN left by the poisoning: every entry must have been written.
    if (!(error <= tolerance * std::max(1.0, std::abs(expected[i]))) && ++failures <= 5)
      ADD_FAILURE() << what << "[" << i << "] = " << got[i] << ", expected " << expected[i];
  }
  EXPECT_EQ(failures, 0u) << what;
}

// ---- exactness ----------------------------------------------------------------------------------

class InterpolateAllTypes : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(AllTypes, InterpolateAllTypes, ::testing::ValuesIn(all_element_types), name_of);

// Values and reference gradients depend on the nodal values only: nodal values of a polynomial of the
// element's space in its reference coordinates give that polynomial back, on any geometry. Relative
// tolerance 1e-12: sums of <= 64 products of magnitude <= ~10 in double.
TEST_P(InterpolateAllTypes, ValuesAndReferenceGradientsOfPolynomialsAreExact) {
  const ElementType type = GetParam();
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 random(seed);
  const int D = dimension(type.shape), Q = 7;
  const offset_t E = 37;
  std::vector<Affine> maps;
  for (offset_t e = 0; e < E; ++e) maps.emplace_back(D, random);
  std::uniform_real_distribution<double> perturbation(-0.05, 0.05);
  const TestMesh mesh = make_mesh(type, E, random, [&](offset_t e, const double* xi, double* x) {
    maps[std::size_t(e)](xi, x);
    for (int k = 0; k < D; ++k) x[k] += perturbation(random);  // curved, randomly perturbed elements
  });
  FEINTERP_REQUIRE_EXECUTOR();
  const PointSet points = random_points(type, Q, random);
  for (int C : {1, 2, 3, 5, 9}) {
    SCOPED_TRACE("components " + std::to_string(C));
    // A different polynomial per (element, component).
    std::vector<Polynomial> f;
    for (offset_t i = 0; i < E * C; ++i) f.emplace_back(D, type.order, !is_simplex(type.shape), random);
    std::vector<double> u(std::size_t(mesh.node_count) * C);
    for (offset_t g = 0; g < mesh.node_count; ++g)
      for (int c = 0; c < C; ++c)
        u[std::size_t(g * C + c)] = f[std::size_t(mesh.owner[g] * C + c)](&mesh.reference[std::size_t(g) * 3]);
    std::vector<double> expected_values, expected_gradients;
    for (offset_t e = 0; e < E; ++e)
      for (int q = 0; q < Q; ++q)
        for (int c = 0; c < C; ++c) {
          const Polynomial& p = f[std::size_t(e * C + c)];
          expected_values.push_back(p(points.point(q)));
          for (int d = 0; d < D; ++d) expected_gradients.push_back(p.derivative(points.point(q), d));
        }
    const std::vector<double> values = test::compute(Operation::values, mesh.block(), mesh.node_count, points, {}, u, C).out;
    expect_close(values, expected_values, 1e-12, "values");
    const std::vector<double> gradients =
        test::compute(Operation::reference_gradients, mesh.block(), mesh.node_count, points, {}, u, C).out;
    expect_close(gradients, expected_gradients, 1e-12, "reference gradients");
  }
}

// On affine elements x = A xi + b, a polynomial f of total degree <= p in the S space coordinates is,
// restricted to the element, a polynomial of the element's space in xi, so its physical gradient is
// exact: grad f when D = S, and its tangential part P grad f (P the projection onto the element's
// tangent space) when D < S, the surface or curve gradient; det J = det A, or sqrt(det(A^T A)).
// Every 1D and 2D type is checked both in its plane (S = 2) and in 3D (S = 3). Tolerance 1e-11
// relative: |A| ~ 2.5, cond(A) <= ~10, values up to ~3^p.
TEST_P(InterpolateAllTypes, PhysicalGradientsOfPolynomialsAreExactOnAffineMeshes) {
  FEINTERP_REQUIRE_EXECUTOR();
  const ElementType type = GetParam();
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 random(seed);
  const int D = dimension(type.shape), Q = 6, C = 3;
  const offset_t E = 29;
  for (int S : D == 3 ? std::vector<int>{3} : std::vector<int>{2, 3}) {
    SCOPED_TRACE("space dimension " + std::to_string(S));
    std::vector<Affine> maps;
    for (offset_t e = 0; e < E; ++e) maps.emplace_back(D, random, S);
    TestMesh mesh = make_mesh(type, E, random, [&](offset_t e, const double* xi, double* x) {
      maps[std::size_t(e)](xi, x);
    });
    mesh.space_dimension = S;
    const PointSet points = random_points(type, Q, random);
    std::vector<Polynomial> f;
    for (int c = 0; c < C; ++c) f.emplace_back(S, type.order, false, random);  // total degree <= p in x
    std::vector<double> u(std::size_t(mesh.node_count) * C);
    for (offset_t g = 0; g < mesh.node_count; ++g)
      for (int c = 0; c < C; ++c) u[std::size_t(g * C + c)] = f[c](&mesh.coordinates[std::size_t(g) * 3]);
    std::vector<double> expected_gradients, expected_detjs;
    for (offset_t e = 0; e < E; ++e) {
      const Eigen::MatrixXd J = maps[std::size_t(e)].jacobian();
      const Eigen::MatrixXd P = tangent_projection(J);
      for (int q = 0; q < Q; ++q) {
        double x[3];
        maps[std::size_t(e)](points.point(q), x);
        expected_detjs.push_back(expected_detj(J));
        for (int c = 0; c < C; ++c) {
          Eigen::VectorXd gradient(S);
          for (int k = 0; k < S; ++k) gradient[k] = f[c].derivative(x, k);
          const Eigen::VectorXd tangential = P * gradient;
          for (int k = 0; k < S; ++k) expected_gradients.push_back(tangential[k]);
        }
      }
    }
    ASSERT_EQ(expected_gradients.size(), output_size(Operation::physical_gradients, mesh.block(), Q, C));
    const test::Computed<double> got = test::compute(Operation::physical_gradients, mesh.block(), mesh.node_count,
                                                     points, mesh.coordinates, u, C);
    expect_close(got.out, expected_gradients, 1e-11, "physical gradients");
    expect_close(got.detj, expected_detjs, 1e-12, "det J");
    // Without a det J output, the same gradients.
    const std::vector<double> again = test::compute(Operation::physical_gradients, mesh.block(), mesh.node_count,
                                                    points, mesh.coordinates, u, C, {}, false).out;
    EXPECT_EQ(0, std::memcmp(again.data(), got.out.data(), again.size() * sizeof(double)));
  }
}

// A curved p = 2 mesh: each element is the image of the reference element by a quadratic map
// Phi(xi) = A xi + b + 0.1 B(xi, xi), which the p = 2 geometry reproduces exactly; the field is
// u(x) = g(Phi^-1(x)) with g quadratic, so u_h = u and du/dx = DPhi^-T grad g exactly, with DPhi
// computed analytically here (independently of geometry.hpp). All that separates the two is
// rounding: cond(DPhi) <= ~10 times ~1e-15 per operation over ~100 operations: tolerance 1e-11.
class InterpolateCurved : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(QuadraticTypes, InterpolateCurved,
                         ::testing::Values(ElementType{Shape::triangle, 2}, ElementType{Shape::quadrilateral, 2},
                                           ElementType{Shape::tetrahedron, 2}, ElementType{Shape::hexahedron, 2}),
                         name_of);

TEST_P(InterpolateCurved, PhysicalGradientsOnQuadraticallyCurvedElements) {
  FEINTERP_REQUIRE_EXECUTOR();
  const ElementType type = GetParam();
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const int D = dimension(type.shape), Q = 8, C = 2;
  const offset_t E = 23;
  struct Quadratic {
    Affine affine;
    double B[3][3][3];  // x_k += 0.1 * B[k][i][j] xi_i xi_j
  };
  std::vector<Quadratic> maps;
  for (offset_t e = 0; e < E; ++e) {
    Quadratic m{Affine(D, random), {}};
    for (int k = 0; k < D; ++k)
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) m.B[k][i][j] = 0.1 * uniform(random);
    maps.push_back(m);
  }
  auto phi = [&](offset_t e, const double* xi, double* x) {
    const Quadratic& m = maps[std::size_t(e)];
    for (int k = 0; k < 3; ++k) {
      x[k] = m.affine.b[k];
      for (int d = 0; d < D; ++d) x[k] += m.affine.A(k, d) * xi[d];
      if (k < D)
        for (int i = 0; i < D; ++i)
          for (int j = 0; j < D; ++j) x[k] += m.B[k][i][j] * xi[i] * xi[j];
    }
  };
  auto dphi = [&](offset_t e, const double* xi) {  // J(k, d) = dPhi_k/dxi_d
    const Quadratic& m = maps[std::size_t(e)];
    Eigen::MatrixXd J = m.affine.A.topLeftCorner(D, D);
    for (int k = 0; k < D; ++k)
      for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) {
          J(k, i) += m.B[k][i][j] * xi[j];
          J(k, j) += m.B[k][i][j] * xi[i];
        }
    return J;
  };
  const TestMesh mesh = make_mesh(type, E, random, phi);
  const PointSet points = random_points(type, Q, random);
  std::vector<Polynomial> g;
  for (int c = 0; c < C; ++c) g.emplace_back(D, 2, false, random);  // total degree 2 in xi
  std::vector<double> u(std::size_t(mesh.node_count) * C);
  for (offset_t n = 0; n < mesh.node_count; ++n)
    for (int c = 0; c < C; ++c) u[std::size_t(n * C + c)] = g[c](&mesh.reference[std::size_t(n) * 3]);
  std::vector<double> expected_gradients, expected_detj;
  for (offset_t e = 0; e < E; ++e)
    for (int q = 0; q < Q; ++q) {
      const Eigen::MatrixXd J = dphi(e, points.point(q));
      ASSERT_GT(J.determinant(), 0.1) << "the random map must not fold the element";
      expected_detj.push_back(J.determinant());
      const Eigen::MatrixXd JinvT = J.inverse().transpose();
      for (int c = 0; c < C; ++c) {
        Eigen::VectorXd reference(D);
        for (int d = 0; d < D; ++d) reference[d] = g[c].derivative(points.point(q), d);
        const Eigen::VectorXd physical = JinvT * reference;
        for (int d = 0; d < D; ++d) expected_gradients.push_back(physical[d]);
      }
    }
  const test::Computed<double> got =
      test::compute(Operation::physical_gradients, mesh.block(), mesh.node_count, points, mesh.coordinates, u, C);
  expect_close(got.out, expected_gradients, 1e-11, "physical gradients");
  expect_close(got.detj, expected_detj, 1e-12, "det J");
}

// ---- threads and errors -------------------------------------------------------------------------

TestMesh perturbed_mesh(ElementType type, offset_t E, std::mt19937& random) {
  const int D = dimension(type.shape);
  std::vector<Affine> maps;
  for (offset_t e = 0; e < E; ++e) maps.emplace_back(D, random);
  std::uniform_real_distribution<double> perturbation(-0.05, 0.05);
  return make_mesh(type, E, random, [&](offset_t e, const double* xi, double* x) {
    maps[std::size_t(e)](xi, x);
    for (int k = 0; k < D; ++k) x[k] += perturbation(random);
  });
}

class InterpolateThreads : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(SomeTypes, InterpolateThreads,
                         ::testing::Values(ElementType{Shape::triangle, 3}, ElementType{Shape::tetrahedron, 1},
                                           ElementType{Shape::hexahedron, 2}),
                         name_of);

// 8200 elements over 2, 3 and 8 threads (at least 1024 per thread, so 8 threads really run, on the
// pool's workers): bitwise the results of one thread, for every operation. (The GPU's counterpart: every elements_per_block gives
// the same bits, tests/cuda.)
TEST_P(InterpolateThreads, ResultsAreIdenticalToOneThread) {
  if (test::test_executor().kind() != ExecutorKind::cpu) GTEST_SKIP() << "CPU threads only";
  const ElementType type = GetParam();
  std::mt19937 random(std::random_device{}());
  const offset_t E = 8200;
  const TestMesh mesh = perturbed_mesh(type, E, random);
  const int Q = 5;
  const PointSet points = random_points(type, Q, random);
  for (int C : {1, 3, 4}) {
    SCOPED_TRACE("components " + std::to_string(C));
    std::vector<double> u(std::size_t(mesh.node_count) * C);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (double& v : u) v = uniform(random);
    for (Operation op : forward_operations) {
      SCOPED_TRACE(operation_name(op));
      const int counts[] = {1, 2, 3, 8};
      std::vector<double> results[4], detj[4];
      for (int run = 0; run < 4; ++run) {
        InterpolatorOptions options;
        options.threads = counts[run];
        const test::Computed<double> got =
            test::compute(Operation(op), mesh.block(), mesh.node_count, points, mesh.coordinates, u, C, options);
        results[run] = got.out;
        detj[run] = got.detj;
      }
      for (int run = 1; run < 4; ++run) {
        SCOPED_TRACE(std::to_string(counts[run]) + " threads");
        for (double v : results[run]) ASSERT_FALSE(std::isnan(v)) << "an output was not written";
        ASSERT_EQ(results[0].size(), results[run].size());
        EXPECT_EQ(0, std::memcmp(results[0].data(), results[run].data(), results[0].size() * sizeof(double)));
        if (op == Operation::physical_gradients)
          EXPECT_EQ(0, std::memcmp(detj[0].data(), detj[run].data(), detj[0].size() * sizeof(double)));
      }
    }
  }
}

using test::expect_invalid;

void expect_invalid_message(const std::function<void()>& call, const std::vector<std::string>& fragments) {
  for (const std::string& fragment : fragments) expect_invalid(call, fragment);
}

// ---- the orientation policy (fem/orientation.hpp) ------------------------------------------------

// Mirroring an element's nodes through the plane x = 0 reverses its orientation: det J < 0 at every
// point. Such an element is valid: det J keeps its sign in the output, and physical gradients are
// those of the field, exactly (a polynomial of degree <= p in x on affine elements, mirrored or not).
TEST(Orientation, MirroredElementsAreComputedWithNegativeDetJ) {
  FEINTERP_REQUIRE_EXECUTOR();
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::quadrilateral, 1},
                           ElementType{Shape::tetrahedron, 3}, ElementType{Shape::hexahedron, 2}}) {
    SCOPED_TRACE(to_string(type));
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("random seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const int D = dimension(type.shape), N = nodes_per_element(type), Q = 5;
    const offset_t E = 3000;
    std::vector<Affine> maps;
    for (offset_t e = 0; e < E; ++e) maps.emplace_back(D, random);
    TestMesh mesh = make_mesh(type, E, random, [&](offset_t e, const double* xi, double* x) {
      maps[std::size_t(e)](xi, x);
    });
    std::vector<bool> mirrored(static_cast<std::size_t>(E));
    for (offset_t e = 0; e < E; ++e) {
      mirrored[std::size_t(e)] = random() % 3 == 0;
      if (mirrored[std::size_t(e)])
        for (int n = 0; n < N; ++n) mesh.coordinates[std::size_t(mesh.connectivity[std::size_t(e * N + n)]) * 3] *= -1.0;
    }
    const PointSet points = random_points(type, Q, random);
    const Polynomial f(D, type.order, false, random);
    std::vector<double> u(std::size_t(mesh.node_count));
    for (offset_t g = 0; g < mesh.node_count; ++g) u[std::size_t(g)] = f(&mesh.coordinates[std::size_t(g) * 3]);
    for (int threads : {1, 3}) {
      InterpolatorOptions options;
      options.threads = threads;
      const test::Computed<double> got = test::compute(Operation::physical_gradients, mesh.block(), mesh.node_count,
                                                       points, mesh.coordinates, u, 1, options);
      std::vector<double> expected_gradients, expected_detjs;
      for (offset_t e = 0; e < E; ++e) {
        Eigen::MatrixXd J = maps[std::size_t(e)].jacobian();
        if (mirrored[std::size_t(e)]) J.row(0) *= -1.0;
        for (int q = 0; q < Q; ++q) {
          double x[3];
          maps[std::size_t(e)](points.point(q), x);
          if (mirrored[std::size_t(e)]) x[0] = -x[0];
          expected_detjs.push_back(J.determinant());
          for (int k = 0; k < D; ++k) expected_gradients.push_back(f.derivative(x, k));
        }
      }
      expect_close(got.out, expected_gradients, 1e-11, "physical gradients");
      expect_close(got.detj, expected_detjs, 1e-12, "det J");
    }
  }
}

// A p = 2 element whose mid-edge node is pulled across the opposite side folds: det J changes sign
// between its points. That is an error naming the element (by the file's tag when the block has
// tags), the point and det J: the smallest such element, whatever the number of threads.
TEST(Orientation, TangledElementIsAnErrorNamingItsTag) {
  FEINTERP_REQUIRE_EXECUTOR();
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::quadrilateral, 2},
                           ElementType{Shape::tetrahedron, 2}}) {
    SCOPED_TRACE(to_string(type));
    std::mt19937 random(std::random_device{}());
    const offset_t E = 5000;
    TestMesh mesh = perturbed_mesh(type, E, random);
    const int N = nodes_per_element(type);
    // The midpoint of edge 0-1 (node 3 of a triangle, 4 of a quadrilateral or tetrahedron) moved by 0.6
    // times the edge from vertex 0 to the vertex across (2; 3 for the quadrilateral). On the reference
    // triangle that makes det J = 1 - 2.4 xi, positive near vertex 0 and negative near vertex 1; likewise
    // 1 - 2.4 xi on the tetrahedron and 1 + 0.6 (1 - xi^2)(2 eta - 1) on the quadrilateral.
    const int mid = type.shape == Shape::triangle ? 3 : 4, across = type.shape == Shape::quadrilateral ? 3 : 2;
    for (offset_t bad : {offset_t(3100), offset_t(4900)}) {
      auto node = [&](int n) { return &mesh.coordinates[std::size_t(mesh.connectivity[std::size_t(bad * N + n)]) * 3]; };
      for (int k = 0; k < 3; ++k) node(mid)[k] += 0.6 * (node(across)[k] - node(0)[k]);
    }
    std::vector<std::size_t> tags(static_cast<std::size_t>(E));
    for (offset_t e = 0; e < E; ++e) tags[std::size_t(e)] = std::size_t(1000 + 7 * e);
    BlockView block = mesh.block();
    block.element_tags = tags.data();
    const PointSet points = quadrature_rule(type.shape, 4);
    const std::vector<double> u(std::size_t(mesh.node_count), 1.0);
    for (int threads : {1, 2, 4}) {
      InterpolatorOptions options;
      options.threads = threads;
      try {
        test::compute(Operation::physical_gradients, block, mesh.node_count, points, mesh.coordinates, u, 1, options,
                      false);
        ADD_FAILURE() << "no DegenerateElementError with " << threads << " threads";
      } catch (const DegenerateElementError& error) {
        EXPECT_EQ(error.element(), 3100) << threads << " threads";
        ASSERT_TRUE(error.tag().has_value());
        EXPECT_EQ(*error.tag(), 1000u + 7u * 3100u);
        EXPECT_EQ(error.kind(), DegenerateElementError::Kind::tangled) << error.what();
        EXPECT_LT(error.detj(), 0.0);
        const std::string message = error.what();
        for (const std::string& word : {std::string("tangled"), std::string("element tag 22700"), to_string(type),
                                        "point " + std::to_string(error.point())})
          EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
      }
    }
  }
}

// det J = 0 at a point (a triangle with its three vertices on a line; a surface triangle in 3D with
// the same collapse) is degenerate: an error, in the plane and in space.
TEST(Orientation, DegenerateElementIsAnError) {
  FEINTERP_REQUIRE_EXECUTOR();
  const ElementType type{Shape::triangle, 1};
  for (int S : {2, 3}) {
    SCOPED_TRACE("space dimension " + std::to_string(S));
    std::mt19937 random(std::random_device{}());
    TestMesh mesh = make_mesh(type, 10, random, [&](offset_t e, const double* xi, double* x) {
      x[0] = double(e) + xi[0];
      x[1] = 0.5 * xi[1];
      x[2] = S == 3 ? 0.25 * xi[0] + 0.5 * xi[1] : 0.0;
    });
    mesh.space_dimension = S;
    for (int n = 0; n < 3; ++n) {  // element 6: (x, y) = (6 + xi, xi), z = 0.75 xi: on a line
      double* x = &mesh.coordinates[std::size_t(mesh.connectivity[std::size_t(6 * 3 + n)]) * 3];
      x[1] = x[0] - 6.0;
      if (S == 3) x[2] = 0.75 * (x[0] - 6.0);
    }
    const std::vector<double> u(std::size_t(mesh.node_count), 1.0);
    try {
      test::compute(Operation::physical_gradients, mesh.block(), mesh.node_count, quadrature_rule(type.shape, 2),
                    mesh.coordinates, u, 1, {}, false);
      ADD_FAILURE() << "no DegenerateElementError";
    } catch (const DegenerateElementError& error) {
      EXPECT_EQ(error.element(), 6);
      EXPECT_FALSE(error.tag().has_value());
      EXPECT_EQ(error.kind(), DegenerateElementError::Kind::singular);
      EXPECT_NE(std::string(error.what()).find("element 6 of the block"), std::string::npos) << error.what();
    }
  }
}

// Physical gradients of u on one p1 triangle with nodes x (three points in 3D), at its one-point rule.
test::Computed<double> one_triangle_gradients(const std::vector<double>& x, const std::vector<double>& u) {
  const std::vector<node_index> connectivity = {0, 1, 2};
  return test::compute(Operation::physical_gradients, {{Shape::triangle, 1}, connectivity.data(), 1}, 3,
                       quadrature_rule(Shape::triangle, 1), x, u, 1);
}

// A det J that is not a normal double (a triangle scaled by 1e-160: det J ~ 1e-320, whose inverse
// overflows) is the same error as a zero; the same triangle scaled by 1e-150 (det J ~ 1e-300) computes.
TEST(Orientation, SubnormalDetJIsDegenerate) {
  FEINTERP_REQUIRE_EXECUTOR();
  for (double scale : {1e-150, 1e-160}) {
    SCOPED_TRACE("scale " + std::to_string(scale));
    const std::vector<double> x = {0, 0, 0, scale, 0, 0, 0, scale, 0};
    const std::vector<double> u = {0, 1, 0};  // u = x / scale at the nodes: gradient (1 / scale, 0)
    auto run = [&] { return one_triangle_gradients(x, u); };
    if (scale > 1e-155) {
      const test::Computed<double> got = run();
      EXPECT_NEAR(got.detj[0], scale * scale, 1e-12 * scale * scale);
      EXPECT_NEAR(got.out[0] * scale, 1.0, 1e-12);
      EXPECT_EQ(got.out[1], 0.0);
    } else {
      try {
        run();
        ADD_FAILURE() << "no DegenerateElementError";
      } catch (const DegenerateElementError& error) {
        EXPECT_EQ(error.kind(), DegenerateElementError::Kind::singular) << error.what();
        EXPECT_EQ(error.element(), 0);
      }
    }
  }
}

// Zero within rounding (orientation.hpp): a sliver whose height is 1e-10 of its base is computed, one
// whose height is 1e-15 of it (det J below 64 eps times the product of the edge lengths) is refused.
TEST(Orientation, SliversAreComputedUntilTheirDetJIsRoundingNoise) {
  FEINTERP_REQUIRE_EXECUTOR();
  for (double height : {1e-10, 1e-15}) {
    SCOPED_TRACE("height " + std::to_string(height));
    const std::vector<double> x = {0, 0, 0, 1, 0, 0, 0.5, height, 0};
    const std::vector<double> u = {0, 1, 0.5};  // u = x at the nodes
    auto run = [&] { return one_triangle_gradients(x, u); };
    if (height > 1e-12) {
      const test::Computed<double> got = run();
      EXPECT_NEAR(got.detj[0], height, 1e-12 * height);
      EXPECT_NEAR(got.out[0], 1.0, 1e-12);
      EXPECT_NEAR(got.out[1], 0.0, 1e-5);  // (0.5 - 0.5) / height: rounding of x, amplified by 1 / height
    } else {
      EXPECT_THROW(run(), DegenerateElementError);
    }
  }
}

// A block with space dimension 2 reads x and y only, so a node with z != 0 would silently lose its z:
// the plan refuses it when it is built, naming the node; the same block declared in 3D is computed.
TEST(Orientation, NodeOffThePlaneOfAPlanarBlockIsRefused) {
  FEINTERP_REQUIRE_EXECUTOR();
  for (ElementType type : {ElementType{Shape::line, 2}, ElementType{Shape::quadrilateral, 3}}) {
    SCOPED_TRACE(to_string(type));
    std::mt19937 random(std::random_device{}());
    TestMesh mesh = perturbed_mesh(type, 40, random);
    const int N = nodes_per_element(type);
    const node_index off = mesh.connectivity[std::size_t(17 * N + 1)];
    mesh.coordinates[std::size_t(off) * 3 + 2] = 0.125;
    const PointSet points = quadrature_rule(type.shape, 2);
    const std::vector<double> u(std::size_t(mesh.node_count), 1.0);
    auto run = [&] {
      test::compute(Operation::physical_gradients, mesh.block(), mesh.node_count, points, mesh.coordinates, u, 1);
    };
    expect_invalid_message(run, {"node " + std::to_string(off), "local node 1 of element 17", "z = 0.125",
                                 "space dimension is 2"});
    mesh.space_dimension = 3;
    EXPECT_NO_THROW(run());
  }
}

// ---- rotation invariance --------------------------------------------------------------------------

// A planar block of lines, triangles or quadrilaterals (S = 2), moved into 3D by a random rigid
// motion (S = 3): the measure is |det J| of the planar block, and the physical gradients are the
// planar ones rotated, R (g_x, g_y, 0), to 1e-12 relative. Curved elements (p >= 2: nodes moved off
// their affine positions) included.
class RotationInvariance : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(CurvesAndSurfaces, RotationInvariance,
                         ::testing::ValuesIn(test::curve_and_surface_types()),
                         name_of);

TEST_P(RotationInvariance, MeasureAndRotatedGradients) {
  FEINTERP_REQUIRE_EXECUTOR();
  const ElementType type = GetParam();
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int C = 2;
  const test::RandomBlock planar = test::random_block(type, 300, rng);
  const std::array<double, 9> R = test::random_rotation(rng);
  const double t[3] = {0.5, -2.0, 3.0};
  const test::RandomBlock space = test::rotated(planar, R, t);
  const std::vector<double> u = test::random_field(planar.node_count(), C, rng);
  const PointSet points = quadrature_rule(type.shape, 2 * type.order);
  auto physical = [&](const test::RandomBlock& block, std::vector<double>& detj) {
    test::Computed<double> got = test::compute(Operation::physical_gradients, block.view(), block.node_count(), points,
                                               block.coordinates, u, C);
    detj = got.detj;
    return got.out;
  };
  std::vector<double> planar_detj, space_detj;
  const std::vector<double> planar_gradients = physical(planar, planar_detj);
  const std::vector<double> space_gradients = physical(space, space_detj);
  for (double& d : planar_detj) d = std::abs(d);
  EXPECT_LE(test::relative_error(space_detj, planar_detj), 1e-12);
  EXPECT_LE(test::relative_error(space_gradients, test::rotate_gradients(planar_gradients, R)), 1e-12);
}

// The plan checks the block and the points once, at construction; a call checks only its sizes. Every
// message says what was wrong and what was expected.
TEST(InterpolateErrors, InvalidArgumentsAreRejectedWithTheExpectedSize) {
  FEINTERP_REQUIRE_EXECUTOR();
  const Executor executor = test::test_executor();
  InterpolatorOptions options;
  options.executor = executor;
  std::mt19937 random(1);
  const ElementType type{Shape::triangle, 2};
  TestMesh mesh = perturbed_mesh(type, 10, random);  // 60 nodes
  const PointSet points = random_points(type, 4, random);
  ExecutorArray<node_index> connectivity(executor, mesh.connectivity);
  const ExecutorArray<double> x(executor, mesh.coordinates),
      u(executor, std::vector<double>(std::size_t(mesh.node_count) * 2, 1.0));
  ExecutorArray<double> out(executor, 10 * 4 * 2 * 2), detj(executor, 40);
  BlockView block = mesh.block();
  block.connectivity = connectivity.data();
  const Interpolator<double> plan(block, mesh.node_count, points, x.data(), options);
  const FieldView field{u.data(), u.size(), 2};
  const OutputView output{out.data(), out.size()};

  // Wrong field size: expected 60 * 2 = 120.
  expect_invalid([&] { plan.apply(Operation::values, {u.data(), 119, 2}, output); }, "120");
  expect_invalid([&] { plan.apply(Operation::values, {u.data(), u.size(), 10}, output); }, "1 to 9");
  // Wrong output size: values need 10 * 4 * 2 = 80, gradients 160, det J 40.
  expect_invalid([&] { plan.apply(Operation::values, field, {out.data(), 79}); }, "80");
  expect_invalid([&] { plan.apply(Operation::reference_gradients, field, {out.data(), 159}); }, "160");
  expect_invalid([&] { plan.apply(Operation::physical_gradients, field, output, {detj.data(), 39}); }, "40");
  // Physical gradients from a plan built without coordinates.
  const Interpolator<double> no_geometry(block, mesh.node_count, points, nullptr, options);
  expect_invalid([&] { no_geometry.apply(Operation::physical_gradients, field, output); }, "coordinates are null");
  // Points of another shape.
  const PointSet square = random_points({Shape::quadrilateral, 1}, 4, random);
  expect_invalid([&] { Interpolator<double>(block, mesh.node_count, square, x.data(), options); }, "quadrilateral");
  // Connectivity out of range, found at construction: element 7, local node 4 holds 60, expected [0, 60).
  mesh.connectivity[7 * 6 + 4] = node_index(mesh.node_count);
  connectivity.copy_from(mesh.connectivity.data(), mesh.connectivity.size());
  expect_invalid_message([&] { Interpolator<double>(block, mesh.node_count, points, x.data(), options); },
                         {"[0, 60)", "element 7", "local node 4"});
  mesh.connectivity[7 * 6 + 4] = -1;
  connectivity.copy_from(mesh.connectivity.data(), mesh.connectivity.size());
  expect_invalid_message([&] { Interpolator<double>(block, mesh.node_count, points, x.data(), options); },
                         {"element 7", "local node 4", "-1"});
}

TEST(InterpolateErrors, EmptyBlockWritesNothing) {
  FEINTERP_REQUIRE_EXECUTOR();
  InterpolatorOptions options;
  options.executor = test::test_executor();
  const ElementType type{Shape::hexahedron, 1};
  std::mt19937 random(2);
  const Interpolator<double> plan({type, nullptr, 0}, 0, random_points(type, 2, random), nullptr, options);
  for (Operation op : {Operation::values, Operation::reference_gradients}) {
    EXPECT_EQ(plan.output_size(op, 1), 0u);
    EXPECT_NO_THROW(plan.apply(op, {nullptr, 0, 1}, {nullptr, 0}));
  }
  EXPECT_NO_THROW(plan.check());
}

}  // namespace
}  // namespace feinterp
