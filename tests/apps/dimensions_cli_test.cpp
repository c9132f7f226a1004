// SPDX-License-Identifier: BSD-3-Clause
// The feinterp command on meshes whose elements are of lower dimension than their space: tilted planar
// surfaces, the surface of a sphere, a circle of lines, a 3D mesh with its boundary faces and edges;
// and the orientation policy as a user meets it: mirrored elements counted, a tangled element named by
// its tag, unsupported elements skipped only when asked.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <cmath>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>

#include "cli_support.hpp"

using namespace feinterp;
using namespace feinterp::test;

namespace {

// min or max of one output column set of `interpolate --json`.
std::vector<double> range(const std::string& json, const std::string& output, const std::string& end) {
  return json_numbers(json, end, "\"" + output + "\":{\"columns\"");
}

void expect_one_error_line(const Result& run, const std::vector<std::string>& words) {
  EXPECT_NE(run.status, 0);
  const std::vector<std::string> lines = run.error_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("feinterp: error: ", 0), 0u) << lines[0];
  for (const std::string& w : words) EXPECT_NE(lines[0].find(w), std::string::npos) << "'" << w << "' not in: " << lines[0];
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Mesh generated(ElementType type, Domain domain, offset_t elements = 300) {
  GenerateOptions options{type, elements, 5};
  options.domain = domain;
  return generate_mesh(options);
}

// Rotates every node by `angle` about the x axis (y, z) -> (y cos - z sin, y sin + z cos).
void rotate_about_x(Mesh& mesh, double angle) {
  for (std::size_t i = 0; i < mesh.coordinates.size(); i += 3) {
    const double y = mesh.coordinates[i + 1], z = mesh.coordinates[i + 2];
    mesh.coordinates[i + 1] = y * std::cos(angle) - z * std::sin(angle);
    mesh.coordinates[i + 2] = y * std::sin(angle) + z * std::cos(angle);
  }
}

// The unit square lifted onto the plane z = x / 2: area sqrt(5) / 2, and the tangential gradient of
// u = x is e_x - (e_x . n) n = (0.8, 0, 0.4), n = (-1, 0, 2) / sqrt(5), on every element.
TEST(CliDimensions, TiltedSquareHasItsTrueAreaAndTangentialGradient) {
  for (ElementType type : {ElementType{Shape::triangle, 1}, ElementType{Shape::quadrilateral, 2}}) {
    SCOPED_TRACE(to_string(type));
    TempDir dir;
    Mesh mesh = generated(type, Domain::box);
    for (std::size_t i = 0; i < mesh.coordinates.size(); i += 3) mesh.coordinates[i + 2] = 0.5 * mesh.coordinates[i];
    write_msh(dir / "tilted.msh", mesh);
    const Result run = run_feinterp({"interpolate", dir / "tilted.msh", "--expr", "x", "--physical-gradients",
                                     "--device", "cpu", "--json"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(json_numbers(run.out, "space_dimension")[0], 3);
    EXPECT_EQ(json_numbers(run.out, "dimension")[0], 2);
    EXPECT_NEAR(json_numbers(run.out, "measure")[0], std::sqrt(5.0) / 2, 1e-12);
    const std::vector<double> low = range(run.out, "physical_gradients", "min"),
                              high = range(run.out, "physical_gradients", "max");
    const std::vector<double> expected = {0.8, 0.0, 0.4};
    ASSERT_EQ(low.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_NEAR(low[k], expected[k], 1e-12);
      EXPECT_NEAR(high[k], expected[k], 1e-12);
    }
    EXPECT_EQ(json_numbers(run.out, "mirrored_elements")[0], 0);  // d < s: no sign, nothing mirrored
  }
}

// The unit disk tilted by 40 degrees: its area is pi (not pi cos 40 = 2.4066, what dropping z gave),
// up to the p = 2 boundary's geometric error.
TEST(CliDimensions, TiltedDiskHasAreaPi) {
  TempDir dir;
  Mesh mesh = generated({Shape::triangle, 2}, Domain::ball, 600);
  rotate_about_x(mesh, 40.0 * M_PI / 180.0);
  write_msh(dir / "disk.msh", mesh);
  const Result run = run_feinterp({"interpolate", dir / "disk.msh", "--expr", "x", "--physical-gradients", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NEAR(json_numbers(run.out, "measure")[0], M_PI, 1e-4);
}

// The surface mesh of a body and a circle of lines: info says what they are, interpolate computes.
TEST(CliDimensions, SphereSurfaceAndCircle) {
  TempDir dir;
  write_msh(dir / "sphere.msh", generated({Shape::quadrilateral, 3}, Domain::sphere));
  write_msh(dir / "circle.msh", generated({Shape::line, 2}, Domain::sphere, 64));
  const Result info = run_feinterp({"info", dir / "sphere.msh", "--json"});
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_EQ(json_numbers(info.out, "dimension")[0], 2);
  EXPECT_EQ(json_numbers(info.out, "space_dimension")[0], 3);
  const Result text = run_feinterp({"info", dir / "sphere.msh"});
  EXPECT_NE(text.out.find("2D elements in 3D space"), std::string::npos) << text.out;

  const Result sphere = run_feinterp({"interpolate", dir / "sphere.msh", "--expr", "x*y", "--json"});
  ASSERT_EQ(sphere.status, 0) << sphere.err;
  EXPECT_NE(sphere.out.find("\"columns\":[\"du/dx\",\"du/dy\",\"du/dz\"]"), std::string::npos) << sphere.out;
  EXPECT_NEAR(json_numbers(sphere.out, "measure")[0], 4 * M_PI, 1e-3);

  const Result circle = run_feinterp({"interpolate", dir / "circle.msh", "--expr", "x", "--json"});
  ASSERT_EQ(circle.status, 0) << circle.err;
  EXPECT_EQ(json_numbers(circle.out, "dimension")[0], 1);
  EXPECT_EQ(json_numbers(circle.out, "space_dimension")[0], 2);
  EXPECT_NEAR(json_numbers(circle.out, "measure")[0], 2 * M_PI, 1e-5);
  EXPECT_NE(circle.out.find("\"columns\":[\"du/dxi\"]"), std::string::npos) << circle.out;
}

// A cube meshed by Gmsh, written with its boundary triangles and edges: by default the tetrahedra only;
// with --all-dimensions three blocks of dimensions 3, 2 and 1, each computed in 3D space.
TEST(CliDimensions, LowerDimensionalBlocksWhenAsked) {
  TempDir dir;
  {
    GmshSession session;
    gmsh::model::add("cube");
    gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
    gmsh::model::occ::synchronize();
    gmsh::option::setNumber("Mesh.MeshSizeMax", 0.5);
    gmsh::option::setNumber("Mesh.MeshSizeMin", 0.5);
    gmsh::model::mesh::generate(3);
    gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
    gmsh::option::setNumber("Mesh.SaveAll", 1);
    gmsh::write(dir / "cube.msh");
  }
  const Result top = run_feinterp({"interpolate", dir / "cube.msh", "--expr", "x", "--json"});
  ASSERT_EQ(top.status, 0) << top.err;
  EXPECT_EQ(occurrences(top.out, "{\"block\":"), 1u) << top.out;
  EXPECT_NE(top.out.find("\"element\":\"tetrahedron\""), std::string::npos) << top.out;

  const Result all = run_feinterp({"interpolate", dir / "cube.msh", "--expr", "x", "--all-dimensions", "--json"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(occurrences(all.out, "{\"block\":"), 3u) << all.out;
  for (const char* block : {"\"element\":\"tetrahedron\",\"order\":1,\"dimension\":3,\"space_dimension\":3",
                            "\"element\":\"triangle\",\"order\":1,\"dimension\":2,\"space_dimension\":3",
                            "\"element\":\"line\",\"order\":1,\"dimension\":1,\"space_dimension\":3"})
    EXPECT_NE(all.out.find(block), std::string::npos) << block << " in " << all.out;
  // The volume is 1, the boundary's area 6, the edges' length 12.
  std::vector<double> measures;
  for (std::size_t at = all.out.find("\"measure\":"); at != std::string::npos; at = all.out.find("\"measure\":", at + 1))
    measures.push_back(std::strtod(all.out.c_str() + at + 10, nullptr));
  ASSERT_EQ(measures.size(), 3u) << all.out;
  EXPECT_NEAR(measures[0], 1.0, 1e-12);
  EXPECT_NEAR(measures[1], 6.0, 1e-12);
  EXPECT_NEAR(measures[2], 12.0, 1e-12);
  // The tangential gradient of x on faces and edges has no component along their normals: all of
  // du/dx lies in [0, 1], and du/dy = du/dz = 0 on the volume, the faces x = const and the edges.
  const std::vector<double> low = range(all.out, "physical_gradients", "min"),
                            high = range(all.out, "physical_gradients", "max");
  ASSERT_EQ(low.size(), 3u);
  EXPECT_NEAR(low[0], 0.0, 1e-12);
  EXPECT_NEAR(high[0], 1.0, 1e-12);
}

// A clockwise-meshed square: every element is mirrored (det J < 0), the command computes it and says
// so; the gradient of the linear field is still exact.
TEST(CliDimensions, MirroredElementsAreCounted) {
  TempDir dir;
  {
    GmshSession session;
    gmsh::model::add("clockwise");
    const int a = gmsh::model::geo::addPoint(0, 0, 0, 0.25), b = gmsh::model::geo::addPoint(1, 0, 0, 0.25),
              c = gmsh::model::geo::addPoint(1, 1, 0, 0.25), d = gmsh::model::geo::addPoint(0, 1, 0, 0.25);
    const int ab = gmsh::model::geo::addLine(a, b), bc = gmsh::model::geo::addLine(b, c),
              cd = gmsh::model::geo::addLine(c, d), da = gmsh::model::geo::addLine(d, a);
    gmsh::model::geo::addPlaneSurface({gmsh::model::geo::addCurveLoop({-da, -cd, -bc, -ab})});
    gmsh::model::geo::synchronize();
    gmsh::model::mesh::generate(2);
    gmsh::option::setNumber("Mesh.MshFileVersion", 2.2);
    gmsh::option::setNumber("Mesh.SaveAll", 1);
    gmsh::write(dir / "clockwise.msh");
  }
  const Result run = run_feinterp({"interpolate", dir / "clockwise.msh", "--expr", "2*x-y", "--physical-gradients", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const double elements = json_numbers(run.out, "elements", "\"blocks\"")[0];
  EXPECT_GT(elements, 0);
  EXPECT_EQ(json_numbers(run.out, "mirrored_elements")[0], elements);
  EXPECT_LT(range(run.out, "detj", "max")[0], 0.0);
  EXPECT_NEAR(json_numbers(run.out, "measure")[0], 1.0, 1e-12);
  EXPECT_NEAR(range(run.out, "physical_gradients", "min")[0], 2.0, 1e-12);
  EXPECT_NEAR(range(run.out, "physical_gradients", "max")[1], -1.0, 1e-12);
  const Result text = run_feinterp({"interpolate", dir / "clockwise.msh", "--expr", "x", "--physical-gradients"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("mirrored"), std::string::npos) << text.out;
}

// Element 82, a p = 2 triangle with its edge 0-1 midpoint pulled to (0.5, 0.6), folds: one error line
// naming its tag, its type and what was expected.
TEST(CliDimensions, TangledElementIsNamedByItsTag) {
  TempDir dir;
  write_text(dir / "tangled.msh",
             "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n7\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0.5 0.6 0\n5 0.5 0.5 0\n"
             "6 0 0.5 0\n7 0.5 0 0\n$EndNodes\n$Elements\n2\n81 9 2 0 1 1 2 3 7 5 6\n82 9 2 0 1 1 2 3 4 5 6\n$EndElements\n");
  expect_one_error_line(run_feinterp({"interpolate", dir / "tangled.msh", "--expr", "x", "--physical-gradients"}),
                        {"tangled element tag 82", "triangle p2", "expected one sign"});
  // Values and reference gradients do not depend on the geometry: they are computed.
  EXPECT_EQ(run_feinterp({"interpolate", dir / "tangled.msh", "--expr", "x", "--values"}).status, 0);
}

// One prism (unsupported) beside one tetrahedron: an error naming the type by default; with
// --skip-unsupported the tetrahedron is computed and the skipped element is counted.
TEST(CliDimensions, SkipUnsupportedDropsAndCounts) {
  TempDir dir;
  write_text(dir / "mixed.msh",
             "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n7\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 0 1\n"
             "6 0 1 1\n7 0 0 -1\n$EndNodes\n$Elements\n2\n1 6 2 0 1 1 2 3 4 5 6\n2 4 2 0 1 1 3 2 7\n$EndElements\n");
  expect_one_error_line(run_feinterp({"interpolate", dir / "mixed.msh", "--expr", "x"}), {"Prism", "skip"});
  const Result run = run_feinterp({"interpolate", dir / "mixed.msh", "--expr", "x", "--skip-unsupported", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(json_numbers(run.out, "skipped_elements")[0], 1);
  EXPECT_EQ(json_numbers(run.out, "elements")[0], 1);
  const Result text = run_feinterp({"interpolate", dir / "mixed.msh", "--expr", "x", "--skip-unsupported"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("skipped 1 element of unsupported types"), std::string::npos) << text.out;
}

}  // namespace
