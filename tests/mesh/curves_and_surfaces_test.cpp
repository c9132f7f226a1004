// SPDX-License-Identifier: BSD-3-Clause
// Elements in a space of higher dimension than their own, on meshes Gmsh makes: the surface of the unit
// sphere (triangles and quadrilaterals, d = 2 < s = 3) and the unit circle (lines, d = 1 < s = 2),
// at orders 1 to 3, with their high-order nodes on the exact geometry.
//   * the measure converges to the exact area 4 pi / length 2 pi at the rate of the geometric
//     approximation, h^(p+1) at least;
//   * the tangential gradient of u = x on the sphere converges to e_x - (e_x . n) n, n = x / |x|, at the
//     rate of the normal's approximation, h^p;
//   * measures and Jacobians equal Gmsh's own (gmsh::model::mesh::getJacobians);
//   * a planar mesh whose curve loop runs clockwise (mirrored elements, det J < 0) gives the gradients
//     of its counter-clockwise twin, and a tangled element read from a file is an error naming its tag.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tabulation.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>
#include <feinterp/tests/support/element_lists.hpp>

using namespace feinterp;

namespace {

std::string name_of(const ::testing::TestParamInfo<ElementType>& info) {
  std::string s = to_string(info.param);
  for (char& c : s)
    if (c == ' ') c = '_';
  return s;
}

// What the quadrature of a block gives: its measure sum_e sum_q w_q det J(e, q), and the tangential
// gradient of u = x with the physical point of every (element, point).
struct Measured {
  double measure = 0;
  double h = 0;  // (measure / elements)^(1/d): the mesh size
  std::vector<double> gradients, points;
  std::vector<double> weighted_measure;  // w_q det J(e, q): the surface element of each point
};

// Quadrature of degree 12 (7 Gauss points per axis: 7 on lines, 49 on quadrilaterals and, collapsed, on
// triangles): the measure's integrand sqrt(det(J^T J)) is not a polynomial, and a rule this exact keeps
// the quadrature error far below the geometric one at these mesh sizes.
Measured measure(const Mesh& mesh) {
  const ElementBlock& block = mesh.blocks.at(0);
  const PointSet rule = quadrature_rule(block.type.shape, 12);
  const Interpolator<double> plan = test::cpu_plan(mesh, block, rule);
  const offset_t E = block.element_count();
  const int Q = rule.size(), S = mesh.space_dimension;
  Measured m;
  std::vector<double> x(mesh.coordinates.size() / 3);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = mesh.coordinates[3 * i];
  m.gradients.assign(output_size(Operation::physical_gradients, block.view(), Q, 1), 0.0);
  std::vector<double> detj(std::size_t(E) * std::size_t(Q));
  plan.apply(Operation::physical_gradients, {x.data(), x.size(), 1},
                                 {m.gradients.data(), m.gradients.size()}, {detj.data(), detj.size()});
  m.points.assign(std::size_t(E) * std::size_t(Q) * 3, 0.0);
  plan.apply(Operation::values, {mesh.coordinates.data(), mesh.coordinates.size(), 3},
                     {m.points.data(), m.points.size()});
  m.weighted_measure.resize(detj.size());
  for (offset_t e = 0; e < E; ++e)
    for (int q = 0; q < Q; ++q) {
      const std::size_t k = std::size_t(e * Q + q);
      m.weighted_measure[k] = rule.weights[std::size_t(q)] * detj[k];
      m.measure += m.weighted_measure[k];
    }
  m.h = std::pow(m.measure / double(E), 1.0 / dimension(block.type.shape));
  EXPECT_EQ(int(m.gradients.size()), E * Q * S);
  return m;
}

// The observed order of convergence between two meshes: log(e1 / e2) / log(h1 / h2).
double rate(double error1, double h1, double error2, double h2) { return std::log(error1 / error2) / std::log(h1 / h2); }

// ---- measures ---------------------------------------------------------------------------------------

class SphereSurface : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(TrianglesAndQuadrilaterals, SphereSurface,
                         ::testing::Values(ElementType{Shape::triangle, 1}, ElementType{Shape::triangle, 2},
                                           ElementType{Shape::triangle, 3}, ElementType{Shape::quadrilateral, 1},
                                           ElementType{Shape::quadrilateral, 2}, ElementType{Shape::quadrilateral, 3}),
                         name_of);

// Three meshes of the unit sphere's surface, h roughly halving (Gmsh: nodes on the sphere), measured.
std::vector<Measured> sphere_levels(ElementType type) {
  std::vector<Measured> levels;
  for (offset_t target : {150, 600, 2400}) {
    GenerateOptions options{type, target, 4};
    options.domain = Domain::sphere;
    const Mesh mesh = generate_mesh(options);
    EXPECT_EQ(mesh.space_dimension, 3);
    EXPECT_EQ(mesh.dimension, 2);
    levels.push_back(measure(mesh));
  }
  return levels;
}

// On each of the three meshes:
//   * the area error |A_h - 4 pi|: the rate from the coarsest to the finest mesh is at least p + 1 - 0.25
//     (Demlow 2009: the degree-p Lagrange interpolant of a smooth surface is within O(h^(p+1)) of it;
//     even p converge faster, as p + 2, by symmetry);
//   * the tangential gradient of u = x, against e_x - (e_x . n) n with n = x / |x| at the discrete
//     surface's point x(xi_q): its error is the normal's, O(h^p), in the L2 norm over the surface (the
//     maximum is ruled by the worst-shaped element of an unstructured mesh); the rate is at least
//     p - 0.25 and the finest error below h^p.
// Rates between consecutive unstructured meshes scatter by +-0.6 (measured on quadrilaterals), hence
// rates over the whole range, a factor 4 in h. Errors and rates are printed for the record.
TEST_P(SphereSurface, AreaAndTangentialGradientConverge) {
  const ElementType type = GetParam();
  const int p = type.order;
  std::vector<double> area_errors, gradient_errors, sizes;
  for (const Measured& m : sphere_levels(type)) {
    double squares = 0;
    for (std::size_t k = 0; k < m.points.size() / 3; ++k) {
      const double* x = &m.points[3 * k];
      const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
      const double n[3] = {x[0] / r, x[1] / r, x[2] / r};
      for (int i = 0; i < 3; ++i) {
        const double exact = (i == 0 ? 1.0 : 0.0) - n[0] * n[i];
        squares += m.weighted_measure[k] * std::pow(m.gradients[3 * k + std::size_t(i)] - exact, 2);
      }
    }
    area_errors.push_back(std::abs(m.measure - 4 * M_PI));
    gradient_errors.push_back(std::sqrt(squares / m.measure));
    sizes.push_back(m.h);
    std::printf("%s sphere: h %.4f, area %.15f, area error %.3e, tangential gradient L2 error %.3e\n",
                to_string(type).c_str(), m.h, m.measure, area_errors.back(), gradient_errors.back());
  }
  const double area_rate = rate(area_errors.front(), sizes.front(), area_errors.back(), sizes.back());
  const double gradient_rate = rate(gradient_errors.front(), sizes.front(), gradient_errors.back(), sizes.back());
  std::printf("%s sphere: rates over h %.4f -> %.4f: area %.2f, tangential gradient %.2f\n", to_string(type).c_str(),
              sizes.front(), sizes.back(), area_rate, gradient_rate);
  EXPECT_GE(area_rate, p + 1 - 0.25);
  EXPECT_LT(area_errors.back(), 4 * M_PI * std::pow(0.2, p + 1));
  EXPECT_GE(gradient_rate, p - 0.25);
  EXPECT_LT(gradient_errors.back(), std::pow(sizes.back(), p));
}

class Circle : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Orders, Circle, ::testing::Values(1, 2, 3));

// The length of the unit circle meshed by Gmsh with lines of order p converges to 2 pi, at a rate of
// at least p + 1 - 0.2 (structured along the curve: h halves exactly).
TEST_P(Circle, LengthConvergesToTwoPi) {
  const int p = GetParam();
  const ElementType type{Shape::line, p};
  double previous_error = 0, previous_h = 0;
  for (offset_t target : {12, 24, 48, 96}) {
    GenerateOptions options{type, target, 2};
    options.domain = Domain::sphere;
    const Mesh mesh = generate_mesh(options);
    ASSERT_EQ(mesh.space_dimension, 2);
    ASSERT_EQ(mesh.dimension, 1);
    const Measured m = measure(mesh);
    const double error = std::abs(m.measure - 2 * M_PI);
    std::printf("line p%d circle: %lld elements, length %.15f, error %.3e", p, (long long)mesh.element_count(),
                m.measure, error);
    if (previous_error > 0) {
      const double r = rate(previous_error, previous_h, error, m.h);
      std::printf(", rate %.2f", r);
      if (error > 1e-13) EXPECT_GE(r, p + 1 - 0.2);
    }
    std::printf("\n");
    previous_error = error;
    previous_h = m.h;
  }
}

// ---- Gmsh as the oracle of the geometry -------------------------------------------------------------

// Gmsh's own Jacobians at the points of a rule, by element tag: 9 entries per point, by column
// (getJacobians: [dx/du, dy/du, dz/du, dx/dv, ...]), and its determinants.
struct GmshJacobians {
  std::map<std::size_t, std::size_t> index;  // element tag -> position in Gmsh's order
  std::vector<double> jacobians, determinants;
};

GmshJacobians gmsh_jacobians(ElementType type, const PointSet& rule) {
  std::vector<double> local;  // (u, v, w) triplets
  for (int q = 0; q < rule.size(); ++q)
    for (int k = 0; k < 3; ++k) local.push_back(k < rule.dimension() ? rule.point(q)[k] : 0.0);
  GmshJacobians g;
  std::vector<double> coordinates;
  gmsh::model::mesh::getJacobians(gmsh_type_code(type), local, g.jacobians, g.determinants, coordinates);
  std::vector<std::size_t> tags, nodes;
  gmsh::model::mesh::getElementsByType(gmsh_type_code(type), tags, nodes);
  for (std::size_t i = 0; i < tags.size(); ++i) g.index[tags[i]] = i;
  return g;
}

// Meshes a surface or curve with Gmsh, writes it, and compares feinterp's measure and Jacobian of the
// loaded block (the reference gradients of the coordinates: J[k][d] = dx_k/dxi_d) with Gmsh's at a
// degree-6 rule, to 1e-12 relative.
void expect_gmsh_geometry(ElementType type, const std::function<void()>& geometry) {
  test::TempDir dir;
  const PointSet rule = quadrature_rule(type.shape, 6);
  GmshJacobians reference;
  {
    GmshSession session;
    gmsh::model::add("oracle");
    geometry();
    gmsh::option::setNumber("Mesh.MeshSizeMin", 0.3);
    gmsh::option::setNumber("Mesh.MeshSizeMax", 0.3);
    gmsh::option::setNumber("Mesh.ElementOrder", 1);
    gmsh::option::setNumber("Mesh.SecondOrderIncomplete", 0);
    // Quadrilaterals: recombined, then every element split into quadrilaterals (Blossom alone leaves a
    // few triangles on the sphere).
    gmsh::option::setNumber("Mesh.RecombineAll", type.shape == Shape::quadrilateral ? 1 : 0);
    gmsh::option::setNumber("Mesh.SubdivisionAlgorithm", type.shape == Shape::quadrilateral ? 1 : 0);
    gmsh::model::mesh::generate(dimension(type.shape));
    if (type.order > 1) gmsh::model::mesh::setOrder(type.order);
    reference = gmsh_jacobians(type, rule);
    gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
    gmsh::option::setNumber("Mesh.Binary", 1);
    gmsh::option::setNumber("Mesh.SaveAll", 1);
    gmsh::write(dir / "oracle.msh");
  }
  const Mesh mesh = load_msh(dir / "oracle.msh");
  const ElementBlock& block = mesh.blocks.at(0);
  ASSERT_EQ(block.type, type);
  ASSERT_EQ(std::size_t(block.element_count()), reference.index.size());
  const int Q = rule.size(), D = dimension(type.shape), S = mesh.space_dimension;
  const Interpolator<double> plan = test::cpu_plan(mesh, block, rule);
  const offset_t E = block.element_count();
  std::vector<double> J(std::size_t(E) * std::size_t(Q) * 3 * std::size_t(D)), detj(std::size_t(E * Q)),
      ones(std::size_t(mesh.node_count()), 1.0), gradients(output_size(Operation::physical_gradients, block.view(), Q, 1));
  plan.apply(Operation::reference_gradients, {mesh.coordinates.data(), mesh.coordinates.size(), 3}, {J.data(), J.size()});
  plan.apply(Operation::physical_gradients, {ones.data(), ones.size(), 1}, {gradients.data(), gradients.size()},
                                 {detj.data(), detj.size()});
  double worst_measure = 0, worst_jacobian = 0, scale = 0;
  for (offset_t e = 0; e < E; ++e) {
    const std::size_t g = reference.index.at(block.element_tags[std::size_t(e)]);
    for (int q = 0; q < Q; ++q) {
      const double gmsh_det = std::abs(reference.determinants[g * std::size_t(Q) + std::size_t(q)]);
      scale = std::max(scale, gmsh_det);
      worst_measure = std::max(worst_measure, std::abs(detj[std::size_t(e * Q + q)] - gmsh_det));
      for (int k = 0; k < 3; ++k)
        for (int d = 0; d < D; ++d) {
          const double ours = J[((std::size_t(e) * std::size_t(Q) + std::size_t(q)) * 3 + std::size_t(k)) * std::size_t(D) + std::size_t(d)];
          const double theirs = reference.jacobians[(g * std::size_t(Q) + std::size_t(q)) * 9 + std::size_t(d) * 3 + std::size_t(k)];
          worst_jacobian = std::max(worst_jacobian, std::abs(ours - theirs));
        }
    }
  }
  EXPECT_GT(S, D);
  EXPECT_LE(worst_measure, 1e-12 * scale) << to_string(type);
  EXPECT_LE(worst_jacobian, 1e-12) << to_string(type);
}

class GmshGeometryOracle : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(CurvesAndSurfaces, GmshGeometryOracle,
                         ::testing::ValuesIn(test::curve_and_surface_types()),
                         name_of);

TEST_P(GmshGeometryOracle, MeasuresAndJacobiansAreGmshs) {
  const ElementType type = GetParam();
  if (type.shape == Shape::line)  // a curve in 3D: a circle arc tilted out of the plane z = 0
    expect_gmsh_geometry(type, [] {
      const int arc = gmsh::model::occ::addCircle(0, 0, 0, 1, -1, 0, 1.5 * M_PI);
      gmsh::model::occ::rotate({{1, arc}}, 0, 0, 0, 1, 1, 0, 0.7);
      gmsh::model::occ::synchronize();
    });
  else  // the sphere's surface
    expect_gmsh_geometry(type, [] {
      gmsh::model::occ::addSphere(0.1, -0.2, 0.3, 1.2);
      gmsh::model::occ::synchronize();
    });
}

// ---- orientation --------------------------------------------------------------------------------------

// The unit square's boundary as a curve loop, counter-clockwise or clockwise, meshed by Gmsh with the
// geo kernel: Gmsh orients the elements along the loop, so the clockwise twin's elements have det J < 0
// in feinterp's convention. Both give the exact gradients of a field of the elements' degree, with the
// same |det J| sum (the area), and det J < 0 everywhere on the clockwise one.
TEST(PlanarOrientation, ClockwiseMeshGivesTheGradientsOfItsCounterClockwiseTwin) {
  for (ElementType type : {ElementType{Shape::triangle, 2}, ElementType{Shape::quadrilateral, 1}}) {
    SCOPED_TRACE(to_string(type));
    test::TempDir dir;
    for (bool clockwise : {false, true}) {
      {
        GmshSession session;
        gmsh::model::add("square");
        const int a = gmsh::model::geo::addPoint(0, 0, 0, 0.2), b = gmsh::model::geo::addPoint(1, 0, 0, 0.2),
                  c = gmsh::model::geo::addPoint(1, 1, 0, 0.2), d = gmsh::model::geo::addPoint(0, 1, 0, 0.2);
        std::vector<int> lines = {gmsh::model::geo::addLine(a, b), gmsh::model::geo::addLine(b, c),
                                  gmsh::model::geo::addLine(c, d), gmsh::model::geo::addLine(d, a)};
        if (clockwise) lines = {-lines[3], -lines[2], -lines[1], -lines[0]};
        const int loop = gmsh::model::geo::addCurveLoop(lines);
        const int surface = gmsh::model::geo::addPlaneSurface({loop});
        gmsh::model::geo::synchronize();
        if (type.shape == Shape::quadrilateral) {  // transfinite: quadrilaterals only, no leftover triangle
          for (int line : lines) gmsh::model::mesh::setTransfiniteCurve(std::abs(line), 6);
          gmsh::model::mesh::setTransfiniteSurface(surface);
          gmsh::model::mesh::setRecombine(2, surface);
        }
        gmsh::option::setNumber("Mesh.RecombineAll", 0);
        gmsh::option::setNumber("Mesh.SecondOrderIncomplete", 0);
        gmsh::option::setNumber("Mesh.Algorithm", 6);
        gmsh::model::mesh::generate(2);
        if (type.order > 1) gmsh::model::mesh::setOrder(type.order);
        gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
        gmsh::option::setNumber("Mesh.SaveAll", 1);
        gmsh::write(dir / (clockwise ? "cw.msh" : "ccw.msh"));
      }
      const Mesh mesh = load_msh(dir / (clockwise ? "cw.msh" : "ccw.msh"));
      const ElementBlock& block = mesh.blocks.at(0);
      ASSERT_EQ(block.type, type);
      ASSERT_EQ(mesh.space_dimension, 2);
      // u = 1 + 2x - 3y + x y (x y is in Q1 and in P2): its gradient (2 + y, -3 + x).
      std::vector<double> u(std::size_t(mesh.node_count()));
      for (std::size_t i = 0; i < u.size(); ++i) {
        const double* x = &mesh.coordinates[3 * i];
        u[i] = 1 + 2 * x[0] - 3 * x[1] + (type.shape == Shape::quadrilateral || type.order > 1 ? x[0] * x[1] : 0.0);
      }
      const PointSet rule = quadrature_rule(type.shape, 2 * type.order);
      const Interpolator<double> plan = test::cpu_plan(mesh, block, rule);
      const std::size_t EQ = std::size_t(block.element_count()) * std::size_t(rule.size());
      std::vector<double> gradients(2 * EQ), detj(EQ), points(3 * EQ);
      plan.apply(Operation::physical_gradients, {u.data(), u.size(), 1}, {gradients.data(), gradients.size()},
                                     {detj.data(), detj.size()});
      plan.apply(Operation::values, {mesh.coordinates.data(), mesh.coordinates.size(), 3},
                         {points.data(), points.size()});
      double area = 0, worst = 0;
      for (std::size_t k = 0; k < EQ; ++k) {
        if (clockwise)
          ASSERT_LT(detj[k], 0.0) << "Gmsh meshed the clockwise loop with positive det J";
        else
          ASSERT_GT(detj[k], 0.0);
        area += rule.weights[k % std::size_t(rule.size())] * std::abs(detj[k]);
        const double* x = &points[3 * k];
        const bool bilinear = type.shape == Shape::quadrilateral || type.order > 1;
        worst = std::max({worst, std::abs(gradients[2 * k] - (2 + (bilinear ? x[1] : 0.0))),
                          std::abs(gradients[2 * k + 1] - (-3 + (bilinear ? x[0] : 0.0)))});
      }
      EXPECT_NEAR(area, 1.0, 1e-12);
      EXPECT_LT(worst, 1e-11);
    }
  }
}

// A p = 2 triangle (tag 82) whose mid-edge node is pulled inside: det J = 1 - 2.4 xi changes sign. The
// error names the file's tag, the block's type, the point and det J.
TEST(PlanarOrientation, TangledElementFromAFileIsAnErrorNamingItsTag) {
  test::TempDir dir;
  // Element 81: a good reference triangle; element 82: node 4 (the midpoint of edge 0-1 at (0.5, 0))
  // moved to (0.5, 0.6).
  test::write_file(dir / "tangled.msh",
                   test::msh22("7\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0.5 0.6 0\n5 0.5 0.5 0\n6 0 0.5 0\n7 0.5 0 0\n",
                               "2\n81 9 2 0 1 1 2 3 7 5 6\n82 9 2 0 1 1 2 3 4 5 6\n"));
  const Mesh mesh = load_msh(dir / "tangled.msh");
  const ElementBlock& block = mesh.blocks.at(0);
  const PointSet rule = quadrature_rule(Shape::triangle, 4);
  const Interpolator<double> plan = test::cpu_plan(mesh, block, rule);
  std::vector<double> u(std::size_t(mesh.node_count()), 1.0), out(2 * 2 * std::size_t(rule.size()));
  try {
    plan.apply(Operation::physical_gradients, {u.data(), u.size(), 1}, {out.data(), out.size()}, {});
    FAIL() << "expected DegenerateElementError";
  } catch (const DegenerateElementError& e) {
    const std::string message = e.what();
    ASSERT_TRUE(e.tag().has_value());
    EXPECT_EQ(*e.tag(), 82u);
    EXPECT_EQ(e.element(), 1);
    EXPECT_EQ(e.kind(), DegenerateElementError::Kind::tangled);
    for (const std::string& word : {std::string("tangled element tag 82"), std::string("triangle p2"),
                                    "at point " + std::to_string(e.point()), std::string("det J = ")})
      EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
  }
}

// ---- generation -----------------------------------------------------------------------------------------

TEST(GenerateSphere, NodesOnTheSphereOrCircleAndTheRightDimensions) {
  for (ElementType type : {ElementType{Shape::line, 3}, ElementType{Shape::triangle, 2}, ElementType{Shape::quadrilateral, 3}}) {
    SCOPED_TRACE(to_string(type));
    GenerateOptions options{type, 400, 1};
    options.domain = Domain::sphere;
    const Mesh mesh = generate_mesh(options);
    EXPECT_EQ(mesh.space_dimension, type.shape == Shape::line ? 2 : 3);
    EXPECT_EQ(mesh.blocks.at(0).space_dimension, mesh.space_dimension);
    EXPECT_GT(mesh.element_count(), 400 * 0.6);
    EXPECT_LT(mesh.element_count(), 400 * 1.4);
    for (std::size_t i = 0; i < mesh.coordinates.size(); i += 3) {
      const double* x = &mesh.coordinates[i];
      ASSERT_NEAR(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), 1.0, 1e-12);
    }
    EXPECT_GT(test::min_detj_at_nodes(mesh, mesh.blocks[0]), 0.0);
  }
  EXPECT_THROW(generate_mesh({{Shape::tetrahedron, 1}, 100, 1, false, Domain::sphere}), MeshError);
}

}  // namespace
