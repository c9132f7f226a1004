// SPDX-License-Identifier: BSD-3-Clause
// The feinterp command, run as a user runs it: bad inputs end with exit status != 0 and exactly one
// line "feinterp: error: ..." that names the problem; outputs are written whole or not at all; the
// demo passes on the CPU; info and interpolate report correct numbers (a linear field's gradient is
// exact on any mesh, so its min and max must both equal the coefficients).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp;
using namespace feinterp::test;

namespace {

// A generated mesh of `type`, with the nodal field "linear" = 1 + 2x + 3y - z, written as MSH 4.1.
Mesh write_mesh(const std::string& path, ElementType type, offset_t elements = 200) {
  GenerateOptions options;
  options.type = type;
  options.target_elements = elements;
  options.seed = 3;
  Mesh mesh = generate_mesh(options);
  NodalField linear{"linear", 1, std::vector<double>(std::size_t(mesh.node_count()))};
  for (std::size_t i = 0; i < linear.values.size(); ++i) {
    const double* x = &mesh.coordinates[3 * i];
    linear.values[i] = 1 + 2 * x[0] + 3 * x[1] - x[2];
  }
  write_msh(path, mesh, {linear});
  return mesh;
}

// The min or max of one output of feinterp interpolate --json, per column.
std::vector<double> output_range(const Json& doc, const std::string& output, const std::string& end) {
  return numbers(doc.at("outputs").at(output).at(end));
}

void expect_one_error_line(const Result& run, const std::string& fragment) {
  EXPECT_NE(run.status, 0);
  const std::vector<std::string> lines = run.error_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("feinterp: error: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << lines[0];
  EXPECT_TRUE(run.out.empty()) << run.out;
}

std::string square_msh22(const std::string& extra = "") {
  return "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n"
         "$Elements\n2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n$EndElements\n" + extra;
}

TEST(Cli, HelpForEveryCommand) {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--help"}, {"demo", "--help"}, {"interpolate", "--help"}, {"info", "--help"}}) {
    const Result run = run_feinterp(arguments);
    EXPECT_EQ(run.status, 0) << arguments[0];
    EXPECT_NE(run.out.find("Usage"), std::string::npos) << run.out;
    if (arguments.size() == 2) EXPECT_NE(run.out.find("--json"), std::string::npos) << run.out;
  }
}

TEST(Cli, UnknownOptionIsOneLine) {
  expect_one_error_line(run_feinterp({"interpolate", "mesh.msh", "--expr", "x", "--bogus"}), "--bogus");
  expect_one_error_line(run_feinterp({"demo", "--device", "gpu"}), "--device");
}

TEST(Cli, MissingFile) {
  TempDir dir;
  expect_one_error_line(run_feinterp({"interpolate", dir / "absent.msh", "--expr", "x"}), "absent.msh");
  expect_one_error_line(run_feinterp({"info", dir / "absent.msh"}), "absent.msh");
}

TEST(Cli, NothingToInterpolate) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 1});
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh"}), "--field NAME");
}

TEST(Cli, BadExpression) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 1});
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x+*2"}), "bad expression 'x+*2'");
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x,"}), "empty expression");
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "log(x-x)"}), "finite");
}

// muparser's assignment would change x for the next component at the same node ("x=1,x" gave 1 and 1):
// refused, while comparisons with '=' in them are expressions.
TEST(Cli, AssignmentsInExpressionsAreRefused) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 1});
  const std::string mesh = dir / "mesh.msh";
  expect_one_error_line(run_feinterp({"interpolate", mesh, "--expr", "x=1,x"}), "assignment in expression 'x=1'");
  expect_one_error_line(run_feinterp({"interpolate", mesh, "--expr", "y, z = 2"}), "assignment in expression ' z = 2'");
  const Result compared = run_feinterp({"interpolate", mesh, "--expr", "(x<=0.5) + (y>=0.5) + (x==y) + (x!=y)"});
  EXPECT_EQ(compared.status, 0) << compared.err;
}

// A long --expr is quoted by its start and length in the one error line, not echoed whole.
TEST(Cli, LongExpressionsAreQuotedShort) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 1});
  std::string expression = "x";
  while (expression.size() < 80000) expression += "+x";
  expression += "+*";
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", expression});
  expect_one_error_line(run, "(" + std::to_string(expression.size()) + " characters)");
  EXPECT_LT(run.err.size(), 500u) << run.err.size();
}

TEST(Cli, ExpressionWithUnknownVariable) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 1});
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "2*x + temperature"}),
                        "unknown variable 'temperature'");
}

TEST(Cli, UnknownField) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 1});
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--field", "pressure"}), "pressure");
}

TEST(Cli, FieldOfTheWrongSize) {
  TempDir dir;
  // A $NodeData view with values at 3 of the 4 nodes.
  write_text(dir / "short.msh", square_msh22("$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n3\n1 1.0\n2 2.0\n3 3.0\n$EndNodeData\n"));
  expect_one_error_line(run_feinterp({"interpolate", dir / "short.msh", "--field", "u"}), "no value at 1");
}

TEST(Cli, UnsupportedElement) {
  TempDir dir;
  // One 6-node prism (Gmsh type 6): not one of the 15 supported types.
  write_text(dir / "prism.msh",
             "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 0 1\n6 0 1 1\n"
             "$EndNodes\n$Elements\n1\n1 6 2 0 1 1 2 3 4 5 6\n$EndElements\n");
  const Result run = run_feinterp({"interpolate", dir / "prism.msh", "--expr", "x"});
  expect_one_error_line(run, "prism.msh");
}

TEST(Cli, QuadratureDegreeTooHigh) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::tetrahedron, 1});
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x", "--quadrature", "60"}), "60");
}

// --timing R: the same results, timed as the fastest of R calls; a negative count is one line.
TEST(Cli, TimingRepeatsGiveTheSameResults) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::tetrahedron, 2});
  const Result once = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "1+2*x+3*y-z", "--json"});
  const Result timed = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "1+2*x+3*y-z", "--timing", "3", "--json"});
  ASSERT_EQ(once.status, 0) << once.err;
  ASSERT_EQ(timed.status, 0) << timed.err;
  const Json a = parse_json(once.out), b = parse_json(timed.out);
  EXPECT_EQ(a.at("outputs"), b.at("outputs"));
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x", "--timing", "-1"}), "--timing");
}

TEST(Cli, NoGpuWithDeviceCuda) {
  const Result run = run_feinterp({"demo", "--device", "cuda", "--element", "tri", "--order", "1", "--size", "50"});
  if (run.status == 0) GTEST_SKIP() << "a GPU is present: the no-GPU error cannot be provoked here";
  expect_one_error_line(run, "--device cuda");
}

TEST(Cli, OutputInMissingDirectoryWritesNothing) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::triangle, 2});
  write_text(dir / "old.csv", "older results\n");
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x*y", "--csv", dir / "old.csv", "--output",
                                dir / "missing/out.msh"});
  expect_one_error_line(run, "does not exist");
  EXPECT_EQ(read_text(dir / "old.csv"), "older results\n");
  std::vector<std::string> files = dir.files();
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"mesh.msh", "old.csv"}));

  const Result csv = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x*y", "--csv", dir / "missing/out.csv"});
  expect_one_error_line(csv, "does not exist");
  EXPECT_EQ(dir.files().size(), 2u);
}

TEST(Cli, SuccessfulWritesReplaceOlderFiles) {
  TempDir dir;
  const Mesh mesh = write_mesh(dir / "mesh.msh", {Shape::quadrilateral, 2});
  write_text(dir / "out.csv", "older results\n");
  write_text(dir / "out.msh", "older mesh\n");
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "1+2*x+3*y", "--values", "--csv",
                                dir / "out.csv", "--output", dir / "out.msh", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<std::string> files = dir.files();
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"mesh.msh", "out.csv", "out.msh"}));  // no temporary left
  const Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.interpolate/1", "interpolate");
  EXPECT_EQ(doc.at("files").size(), 2u) << doc;  // the paths written, as strings
  for (const Json& file : doc.at("files")) EXPECT_TRUE(file.is_string()) << file;
  EXPECT_EQ(doc.at("outputs").size(), 1u) << "--values only";
  EXPECT_EQ(doc.at("outputs").at("values").at("columns"), (Json{"u"}));

  // The CSV: a header and one row per element and point (degree-4 Gauss rule: 3 x 3), each value
  // equal to the formula at the row's x, y.
  std::istringstream csv(read_text(dir / "out.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "block,element,point,x,y,z,u");
  std::size_t rows = 0;
  double worst = 0;
  while (std::getline(csv, line)) {
    std::vector<double> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(std::stod(cell));
    ASSERT_EQ(cells.size(), 7u) << line;
    worst = std::max(worst, std::abs(cells[6] - (1 + 2 * cells[3] + 3 * cells[4])));
    ++rows;
  }
  EXPECT_EQ(rows, std::size_t(mesh.element_count()) * 9u);
  EXPECT_LT(worst, 1e-12);

  // The MSH: a mesh Gmsh reads back, with the field as a NodeData view; its nodes are the mesh's and one
  // per quadrature point (the point views' nodes, where the field's view holds the interpolated values).
  const Mesh written = load_msh(dir / "out.msh");
  EXPECT_EQ(written.node_count(), mesh.node_count() + mesh.element_count() * 9);
  ASSERT_EQ(written.fields.size(), 1u);
  EXPECT_EQ(written.fields[0].name, "1+2*x+3*y");
}

TEST(Cli, DemoPassesOnTheCpu) {
  const Result run = run_feinterp({"demo", "--device", "cpu", "--size", "300", "--element", "tri,hex", "--order", "1,3",
                                "--components", "2", "--threads", "3", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.demo/1", "demo");
  EXPECT_EQ(doc.at("device"), "cpu");
  EXPECT_EQ(doc.at("device_name"), "CPU, 3 threads");
  EXPECT_EQ(doc.at("threads"), 3);
  EXPECT_EQ(doc.at("components"), 2);
  EXPECT_EQ(doc.at("quadrature_degree"), "2p");
  EXPECT_EQ(doc.at("passed"), true);
  ASSERT_TRUE(doc.at("max_relative_error").is_number());
  EXPECT_LT(doc.at("max_relative_error").get<double>(), 1e-9);
  EXPECT_EQ(doc.at("tolerance").get<double>(), 1e-9);
  // One pair per (element, order), in the order asked, each with its three operations.
  const Json& pairs = doc.at("pairs");
  ASSERT_EQ(pairs.size(), 4u) << pairs;
  const std::pair<const char*, int> expected[] = {{"triangle", 1}, {"triangle", 3}, {"hexahedron", 1}, {"hexahedron", 3}};
  for (std::size_t i = 0; i < 4; ++i) {
    const Json& pair = pairs.at(i);
    EXPECT_EQ(pair.at("element"), expected[i].first);
    EXPECT_EQ(pair.at("order"), expected[i].second);
    EXPECT_GT(pair.at("elements").get<long long>(), 0);
    EXPECT_TRUE(pair.at("points").is_number_integer());
    for (const char* op : {"values", "reference_gradients", "physical_gradients"}) {
      const Json& result = pair.at("operations").at(op);
      EXPECT_GT(result.at("seconds").get<double>(), 0) << op;
      EXPECT_GT(result.at("minimal_bytes").get<long long>(), 0) << op;
      EXPECT_LT(result.at("relative_error").get<double>(), 1e-9) << op;
    }
  }
  // A bad thread count is one error line, from the option or from the environment.
  expect_one_error_line(run_feinterp({"demo", "--threads", "-2"}), "--threads");
  expect_one_error_line(run_feinterp({"demo", "--threads", "many"}), "--threads");

  const Result table = run_feinterp({"demo", "--device", "cpu", "--size", "200", "--element", "quad", "--order", "2"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("quadrilateral p2"), std::string::npos) << table.out;
}

TEST(Cli, InfoReportsTheFile) {
  TempDir dir;
  const Mesh mesh = write_mesh(dir / "mesh.msh", {Shape::tetrahedron, 2});
  const Result run = run_feinterp({"info", dir / "mesh.msh", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.info/1", "info");
  EXPECT_EQ(doc.at("mesh"), dir / "mesh.msh");
  EXPECT_EQ(doc.at("dimension"), 3);
  EXPECT_EQ(doc.at("space_dimension"), 3);
  EXPECT_EQ(doc.at("nodes"), mesh.node_count());
  EXPECT_EQ(doc.at("elements"), mesh.element_count());
  EXPECT_EQ(doc.at("skipped_elements"), 0);
  ASSERT_EQ(doc.at("blocks").size(), 1u);
  const Json& block = doc.at("blocks").at(0);
  EXPECT_EQ(block.at("element"), "tetrahedron");
  EXPECT_EQ(block.at("order"), 2);
  EXPECT_EQ(block.at("dimension"), 3);
  EXPECT_EQ(block.at("space_dimension"), 3);
  EXPECT_EQ(block.at("gmsh_type"), 11);
  EXPECT_EQ(block.at("nodes_per_element"), 10);
  EXPECT_EQ(block.at("elements"), mesh.element_count());
  ASSERT_EQ(doc.at("fields").size(), 1u);
  EXPECT_EQ(doc.at("fields").at(0).at("name"), "linear");
  EXPECT_EQ(doc.at("fields").at(0).at("components"), 1);
  EXPECT_TRUE(doc.at("physical_groups").is_array());
  EXPECT_TRUE(doc.at("warnings").is_array());
  EXPECT_TRUE(doc.at("load_s").is_number());
  EXPECT_EQ(numbers(doc.at("bounding_box").at("min")), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(numbers(doc.at("bounding_box").at("max")), (std::vector<double>{1, 1, 1}));
  // The unit cube's volume, from the mass operator over the mesh (straight-sided: exact to round-off).
  EXPECT_NEAR(double(doc.at("measure")), 1.0, 1e-12);

  const Result text = run_feinterp({"info", dir / "mesh.msh"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("tetrahedron p2"), std::string::npos) << text.out;
  const std::size_t volume = text.out.find("\nvolume: ");
  ASSERT_NE(volume, std::string::npos) << text.out;
  EXPECT_NEAR(std::stod(text.out.substr(volume + 9)), 1.0, 1e-12) << text.out;
}

// A degenerate element leaves the measure undefined: a warning naming the element, not an error, so that
// info still describes the file.
TEST(Cli, InfoWarnsOfADegenerateElement) {
  TempDir dir;
  write_text(dir / "flat.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 1 0\n"
                               "4 0 0 1\n5 1 1 0\n$EndNodes\n$Elements\n2\n1 4 2 0 1 1 2 3 4\n2 4 2 0 1 1 2 3 5\n"
                               "$EndElements\n");
  const Result run = run_feinterp({"info", dir / "flat.msh", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const Json doc = parse_json(run.out);
  EXPECT_TRUE(doc.at("measure").is_null());
  ASSERT_EQ(doc.at("warnings").size(), 1u);
  EXPECT_NE(std::string(doc.at("warnings").at(0)).find("degenerate element tag 2"), std::string::npos) << run.out;
  const Result text = run_feinterp({"info", dir / "flat.msh"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_EQ(text.out.find("volume:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("warning: the measure is undefined: degenerate element tag 2"), std::string::npos) << text.out;
}

// A linear field's physical gradient is exact on every element: min == max == (2, 3, -1).
void expect_linear_gradient(const Json& json, int dimension) {
  const std::vector<double> g = {2, 3, -1};
  const std::vector<double> low = output_range(json, "physical_gradients", "min"),
                            high = output_range(json, "physical_gradients", "max");
  ASSERT_EQ(low.size(), std::size_t(dimension));
  ASSERT_EQ(high.size(), std::size_t(dimension));
  for (int d = 0; d < dimension; ++d) {
    EXPECT_NEAR(low[std::size_t(d)], g[std::size_t(d)], 1e-11);
    EXPECT_NEAR(high[std::size_t(d)], g[std::size_t(d)], 1e-11);
  }
}

TEST(Cli, InterpolateLinearFieldFromExpressionAndFromFile) {
  for (ElementType type : {ElementType{Shape::triangle, 3}, ElementType{Shape::hexahedron, 2}}) {
    TempDir dir;
    write_mesh(dir / "mesh.msh", type);
    const int D = dimension(type.shape);
    const Result expr = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "1+2*x+3*y-z", "--device", "cpu",
                                      "--threads", "2", "--json"});
    ASSERT_EQ(expr.status, 0) << expr.err;
    const Json expr_doc = parse_json(expr.out);
    expect_document(expr_doc, "feinterp.interpolate/1", "interpolate");
    expect_linear_gradient(expr_doc, D);
    EXPECT_EQ(expr_doc.at("field").at("source"), "expression");
    EXPECT_EQ(expr_doc.at("field").at("name"), "1+2*x+3*y-z");
    EXPECT_EQ(expr_doc.at("field").at("components"), 1);
    EXPECT_EQ(expr_doc.at("device"), "cpu");
    EXPECT_EQ(expr_doc.at("threads"), 2);
    EXPECT_EQ(expr_doc.at("device_name"), "CPU, 2 threads");
    const Result file = run_feinterp({"interpolate", dir / "mesh.msh", "--field", "linear", "--device", "cpu", "--json"});
    ASSERT_EQ(file.status, 0) << file.err;
    const Json doc = parse_json(file.out);
    expect_document(doc, "feinterp.interpolate/1", "interpolate");
    expect_linear_gradient(doc, D);
    EXPECT_EQ(doc.at("field").at("source"), "file");
    EXPECT_EQ(doc.at("dimension"), D);
    EXPECT_EQ(doc.at("skipped_elements"), 0);
    // One block, with its size, points and the kernel time of each quantity computed.
    ASSERT_EQ(doc.at("blocks").size(), 1u);
    const Json& block = doc.at("blocks").at(0);
    EXPECT_EQ(block.at("block"), 0);
    EXPECT_EQ(block.at("element"), shape_name(type.shape));
    EXPECT_EQ(block.at("order"), type.order);
    EXPECT_EQ(block.at("elements"), doc.at("elements"));
    EXPECT_EQ(block.at("mirrored_elements"), 0);
    EXPECT_NEAR(block.at("measure").get<double>(), 1.0, 1e-12);  // the unit square or cube
    EXPECT_GT(block.at("points").get<int>(), 0);
    for (const char* op : {"values", "reference_gradients", "physical_gradients"})
      EXPECT_TRUE(block.at("kernel_s").at(op).is_number()) << op;
    for (const char* time : {"load_s", "field_s", "transfer_s", "kernel_s", "write_s"})
      EXPECT_GE(doc.at("times").at(time).get<double>(), 0.0) << time;
    EXPECT_EQ(doc.at("files"), Json::array());
    // Values stay within the field's range on the unit square/cube: [1 - 1, 1 + 2 + 3].
    const double low = output_range(doc, "values", "min")[0], high = output_range(doc, "values", "max")[0];
    EXPECT_GE(low, 0.0 - 1e-12);
    EXPECT_LE(high, 6.0 + 1e-12);
    EXPECT_LT(low, high);
    // det J > 0 everywhere, and the reference gradients exist too.
    EXPECT_GT(output_range(doc, "detj", "min")[0], 0.0);
    EXPECT_EQ(output_range(doc, "reference_gradients", "min").size(), std::size_t(D));
  }
}

TEST(Cli, InterpolateVectorFieldAtNodes) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::quadrilateral, 1});
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x,min(x,y)", "--expr", "y",
                                "--physical-gradients", "--values", "--points", "nodes", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.interpolate/1", "interpolate");
  EXPECT_EQ(doc.at("field").at("components"), 3);
  EXPECT_EQ(doc.at("outputs").at("values").at("columns"), (Json{"u0", "u1", "u2"}));
  EXPECT_EQ(doc.at("blocks").at(0).at("point_set"), "nodes of quadrilateral p1");
  EXPECT_FALSE(doc.at("outputs").contains("reference_gradients")) << doc;
  // At the nodes, values are the nodal values: x and y over the unit square span exactly [0, 1].
  EXPECT_EQ(output_range(doc, "values", "min"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(output_range(doc, "values", "max"), (std::vector<double>{1, 1, 1}));
  const std::vector<double> g = output_range(doc, "physical_gradients", "max");
  ASSERT_EQ(g.size(), 6u);
  EXPECT_NEAR(g[0], 1, 1e-12);  // d(x)/dx
  EXPECT_NEAR(g[1], 0, 1e-12);  // d(x)/dy
  EXPECT_NEAR(g[4], 0, 1e-12);  // d(y)/dx
  EXPECT_NEAR(g[5], 1, 1e-12);  // d(y)/dy
}

TEST(Cli, InterpolateTableSummary) {
  TempDir dir;
  write_mesh(dir / "mesh.msh", {Shape::tetrahedron, 1});
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x", "--device", "cpu"});
  ASSERT_EQ(run.status, 0) << run.err;
  for (const char* fragment : {"tetrahedron p1", "physical_gradients", "times: load"})
    EXPECT_NE(run.out.find(fragment), std::string::npos) << fragment << " in " << run.out;
}

}  // namespace
