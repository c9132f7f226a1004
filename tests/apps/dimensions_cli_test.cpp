// SPDX-License-Identifier: BSD-3-Clause
// The feinterp command on meshes whose elements are of lower dimension than their space: tilted planar
// surfaces, the surface of a sphere, a circle of lines, a 3D mesh with its boundary faces and edges;
// and the orientation policy as a user meets it: mirrored elements counted, a tangled element named by
// its tag, unsupported elements skipped only when asked.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp;
using namespace feinterp::test;

namespace {

// min or max of one output column set of `interpolate --json`.
std::vector<double> range(const Json& doc, const std::string& output, const std::string& end) {
  return numbers(doc.at("outputs").at(output).at(end));
}

// `interpolate --json` parsed, its schema checked.
Json interpolate_json(const Result& run) {
  Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.interpolate/1", "interpolate");
  return doc;
}

void expect_one_error_line(const Result& run, const std::vector<std::string>& words) {
  EXPECT_NE(run.status, 0);
  const std::vector<std::string> lines = run.error_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("feinterp: error: ", 0), 0u) << lines[0];
  for (const std::string& w : words) EXPECT_NE(lines[0].find(w), std::string::npos) << "'" << w << "' not in: " << lines[0];
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
    const Json doc = interpolate_json(run);
    EXPECT_EQ(doc.at("space_dimension"), 3);
    EXPECT_EQ(doc.at("dimension"), 2);
    EXPECT_EQ(doc.at("blocks").at(0).at("space_dimension"), 3);
    EXPECT_EQ(doc.at("blocks").at(0).at("dimension"), 2);
    EXPECT_NEAR(doc.at("blocks").at(0).at("measure").get<double>(), std::sqrt(5.0) / 2, 1e-12);
    const std::vector<double> low = range(doc, "physical_gradients", "min"),
                              high = range(doc, "physical_gradients", "max");
    const std::vector<double> expected = {0.8, 0.0, 0.4};
    ASSERT_EQ(low.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_NEAR(low[k], expected[k], 1e-12);
      EXPECT_NEAR(high[k], expected[k], 1e-12);
    }
    EXPECT_EQ(doc.at("blocks").at(0).at("mirrored_elements"), 0);  // d < s: no sign, nothing mirrored
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
  EXPECT_NEAR(interpolate_json(run).at("blocks").at(0).at("measure").get<double>(), M_PI, 1e-4);
}

// The surface mesh of a body and a circle of lines: info says what they are, interpolate computes.
TEST(CliDimensions, SphereSurfaceAndCircle) {
  TempDir dir;
  write_msh(dir / "sphere.msh", generated({Shape::quadrilateral, 3}, Domain::sphere));
  write_msh(dir / "circle.msh", generated({Shape::line, 2}, Domain::sphere, 64));
  const Result info = run_feinterp({"info", dir / "sphere.msh", "--json"});
  ASSERT_EQ(info.status, 0) << info.err;
  const Json info_doc = parse_json(info.out);
  expect_document(info_doc, "feinterp.info/1", "info");
  EXPECT_EQ(info_doc.at("dimension"), 2);
  EXPECT_EQ(info_doc.at("space_dimension"), 3);
  EXPECT_EQ(info_doc.at("blocks").at(0).at("element"), "quadrilateral");
  EXPECT_EQ(info_doc.at("blocks").at(0).at("order"), 3);
  const Result text = run_feinterp({"info", dir / "sphere.msh"});
  EXPECT_NE(text.out.find("2D elements in 3D space"), std::string::npos) << text.out;

  const Result sphere = run_feinterp({"interpolate", dir / "sphere.msh", "--expr", "x*y", "--json"});
  ASSERT_EQ(sphere.status, 0) << sphere.err;
  const Json sphere_doc = interpolate_json(sphere);
  EXPECT_EQ(sphere_doc.at("outputs").at("physical_gradients").at("columns"), (Json{"du/dx", "du/dy", "du/dz"}));
  EXPECT_NEAR(sphere_doc.at("blocks").at(0).at("measure").get<double>(), 4 * M_PI, 1e-3);

  const Result circle = run_feinterp({"interpolate", dir / "circle.msh", "--expr", "x", "--json"});
  ASSERT_EQ(circle.status, 0) << circle.err;
  const Json circle_doc = interpolate_json(circle);
  EXPECT_EQ(circle_doc.at("dimension"), 1);
  EXPECT_EQ(circle_doc.at("space_dimension"), 2);
  EXPECT_NEAR(circle_doc.at("blocks").at(0).at("measure").get<double>(), 2 * M_PI, 1e-5);
  EXPECT_EQ(circle_doc.at("outputs").at("reference_gradients").at("columns"), (Json{"du/dxi"}));
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
  const Json top_doc = interpolate_json(top);
  ASSERT_EQ(top_doc.at("blocks").size(), 1u) << top_doc;
  EXPECT_EQ(top_doc.at("blocks").at(0).at("element"), "tetrahedron");

  const Result all = run_feinterp({"interpolate", dir / "cube.msh", "--expr", "x", "--all-dimensions", "--json"});
  ASSERT_EQ(all.status, 0) << all.err;
  const Json all_doc = interpolate_json(all);
  const Json& blocks = all_doc.at("blocks");
  ASSERT_EQ(blocks.size(), 3u) << all_doc;
  // The volume is 1, the boundary's area 6, the edges' length 12.
  const std::tuple<const char*, int, double> expected[] = {{"tetrahedron", 3, 1.0}, {"triangle", 2, 6.0}, {"line", 1, 12.0}};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(blocks.at(i).at("element"), std::get<0>(expected[i]));
    EXPECT_EQ(blocks.at(i).at("order"), 1);
    EXPECT_EQ(blocks.at(i).at("dimension"), std::get<1>(expected[i]));
    EXPECT_EQ(blocks.at(i).at("space_dimension"), 3);
    EXPECT_NEAR(blocks.at(i).at("measure").get<double>(), std::get<2>(expected[i]), 1e-12);
  }
  // The tangential gradient of x on faces and edges has no component along their normals: all of
  // du/dx lies in [0, 1], and du/dy = du/dz = 0 on the volume, the faces x = const and the edges.
  const std::vector<double> low = range(all_doc, "physical_gradients", "min"),
                            high = range(all_doc, "physical_gradients", "max");
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
  const Json doc = interpolate_json(run);
  const Json& block = doc.at("blocks").at(0);
  const long long elements = block.at("elements").get<long long>();
  EXPECT_GT(elements, 0);
  EXPECT_EQ(block.at("mirrored_elements"), elements);
  EXPECT_LT(range(doc, "detj", "max")[0], 0.0);
  EXPECT_NEAR(block.at("measure").get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(range(doc, "physical_gradients", "min")[0], 2.0, 1e-12);
  EXPECT_NEAR(range(doc, "physical_gradients", "max")[1], -1.0, 1e-12);
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
                        {dir / "tangled.msh" + ": ", "tangled element tag 82", "triangle p2", "expected one sign"});
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
  const Json doc = interpolate_json(run);
  EXPECT_EQ(doc.at("skipped_elements"), 1);
  EXPECT_EQ(doc.at("elements"), 1);
  EXPECT_EQ(doc.at("blocks").at(0).at("element"), "tetrahedron");
  const Result text = run_feinterp({"interpolate", dir / "mixed.msh", "--expr", "x", "--skip-unsupported"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("skipped 1 element of unsupported types"), std::string::npos) << text.out;
}

}  // namespace
