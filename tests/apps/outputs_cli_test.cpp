// SPDX-License-Identifier: BSD-3-Clause
// The outputs of feinterp interpolate read back by the readers their users have, and compared with the
// CSV of the same run (which is exact: the shortest text that reads back to each double):
//   .msh  Gmsh's own API: the physical group survives, one point view per quantity over both blocks,
//         each point's position and values equal to the CSV row's; meshio: the mesh, the points and
//         the field at every node (tests/apps/read_outputs.py);
//   .vtu  VTK's XML reader (ParaView's), through tests/apps/read_outputs.py: the mesh's cells in VTK's
//         node order, the field at the nodes, the points file equal to the CSV;
//   .npy  numpy.load, equal to the CSV;
//   .npz  numpy.load, each member equal to its CSV column and to numpy.save's bytes for it;
// and an unknown extension refused with one line and nothing written.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/support/temp_dir.hpp>
#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp;
using namespace feinterp::test;

namespace {

const char* const formula = "1+2*x+3*y-z";

// A generated box mesh of `type` with the field 1 + 2x + 3y - z (read from the file by --field too).
Mesh box_mesh(const std::string& path, ElementType type, offset_t elements) {
  GenerateOptions options;
  options.type = type;
  options.target_elements = elements;
  options.seed = 5;
  Mesh mesh = generate_mesh(options);
  write_msh(path, mesh);
  return mesh;
}

std::vector<std::vector<double>> csv_rows(const std::string& path, std::vector<std::string>& header) {
  std::istringstream csv(read_text(path));
  std::string line;
  std::getline(csv, line);
  std::istringstream names(line);
  for (std::string name; std::getline(names, name, ',');) header.push_back(name);
  std::vector<std::vector<double>> rows;
  while (std::getline(csv, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(cell.empty() ? NAN : std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// A unit cube of p2 tetrahedra (mesh size h) in a physical volume 7 named "body", meshed and written by
// Gmsh as a user's would be; Gmsh is left initialised, with the model, for the caller to finalize.
void gmsh_cube(const std::string& path, double h) {
  gmsh::initialize();
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::model::add("cube");
  gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1);
  gmsh::model::occ::synchronize();
  gmsh::model::addPhysicalGroup(3, {1}, 7);
  gmsh::model::setPhysicalName(3, 7, "body");
  gmsh::option::setNumber("Mesh.MeshSizeMax", h);
  gmsh::model::mesh::generate(3);
  gmsh::model::mesh::setOrder(2);
  gmsh::write(path);
}

int python_reader(const std::vector<std::string>& arguments) {
  std::string command = shell_quote(FEINTERP_PYTHON) + " " + shell_quote(FEINTERP_READ_OUTPUTS);
  for (const std::string& a : arguments) command += " " + shell_quote(a);
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(Outputs, MshPointViewsReadBackByGmsh) {
  TempDir dir;
  gmsh_cube(dir / "cube.msh", 0.4);
  gmsh::clear();

  const Result run = run_feinterp({"interpolate", dir / "cube.msh", "--expr", formula, "--output", dir / "out.msh",
                                   "--csv", dir / "out.csv"});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<std::string> header;
  const std::vector<std::vector<double>> rows = csv_rows(dir / "out.csv", header);
  ASSERT_FALSE(rows.empty());

  gmsh::open(dir / "out.msh");
  gmsh::vectorpair groups;
  gmsh::model::getPhysicalGroups(groups, 3);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].second, 7);
  std::string name;
  gmsh::model::getPhysicalName(3, 7, name);
  EXPECT_EQ(name, "body");

  // The point elements (type 15) and their nodes, in the order of the CSV's rows.
  std::vector<std::size_t> point_elements, point_nodes;
  gmsh::model::mesh::getElementsByType(15, point_elements, point_nodes);
  ASSERT_EQ(point_elements.size(), rows.size());
  std::vector<std::size_t> node_tags;
  std::vector<double> coordinates, parametric;
  gmsh::model::mesh::getNodes(node_tags, coordinates, parametric, -1, -1, true, false);
  std::map<std::size_t, const double*> where;
  for (std::size_t i = 0; i < node_tags.size(); ++i) where[node_tags[i]] = &coordinates[3 * i];
  std::map<std::size_t, std::size_t> row_of;  // point element tag -> CSV row
  for (std::size_t i = 0; i < point_elements.size(); ++i) {
    row_of[point_elements[i]] = i;
    const double* x = where.at(point_nodes[i]);
    for (int k = 0; k < 3; ++k) ASSERT_EQ(x[k], rows[i][std::size_t(3 + k)]) << "point " << i;
  }

  // One view per quantity: the nodal field, then values, reference gradients, physical gradients, det J.
  std::vector<int> views;
  gmsh::view::getTags(views);
  ASSERT_EQ(views.size(), 5u);
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  const struct {
    std::string name;
    std::vector<std::string> columns;  // the CSV columns of each point's values, then zeros (padding)
    int components;
  } expected[] = {{std::string(formula) + " values", {"u"}, 1},
                  {std::string(formula) + " reference gradients", {"du/dxi", "du/deta", "du/dzeta"}, 3},
                  {std::string(formula) + " physical gradients", {"du/dx", "du/dy", "du/dz"}, 3},
                  {"det J", {"detj"}, 1}};
  for (std::size_t v = 0; v < 4; ++v) {
    const int index = gmsh::view::getIndex(views[v + 1]);
    std::string view_name;
    gmsh::option::getString("View[" + std::to_string(index) + "].Name", view_name);
    EXPECT_EQ(view_name, expected[v].name);
    std::string type;
    std::vector<std::size_t> tags;
    std::vector<std::vector<double>> data;
    double time = 0;
    int components = 0;
    gmsh::view::getModelData(views[v + 1], 0, type, tags, data, time, components);
    EXPECT_EQ(type, "ElementNodeData");
    EXPECT_EQ(components, expected[v].components);
    ASSERT_EQ(tags.size(), rows.size());
    for (std::size_t i = 0; i < tags.size(); ++i) {
      const std::vector<double>& row = rows[row_of.at(tags[i])];
      ASSERT_EQ(data[i].size(), std::size_t(components));
      for (std::size_t c = 0; c < expected[v].columns.size(); ++c)
        ASSERT_EQ(data[i][c], row[column.at(expected[v].columns[c])]) << view_name << ", point " << i;
    }
  }
  gmsh::finalize();
}

// meshio (Debian's python3-meshio) reads the .msh: a Gmsh mesh whose elements are all in a physical group
// (the points then get one too) and a generated mesh with none, with --physical-gradients alone (the
// field's values at the points are then computed for the file), through tests/apps/read_outputs.py.
TEST(Outputs, MshReadBackByMeshio) {
  for (const bool grouped : {true, false}) {
    SCOPED_TRACE(grouped ? "physical groups" : "no physical group");
    TempDir dir;
    if (grouped) {
      gmsh_cube(dir / "mesh.msh", 0.5);
      gmsh::finalize();
    } else {
      box_mesh(dir / "mesh.msh", {Shape::hexahedron, 2}, 60);
    }
    const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--physical-gradients",
                                     "--output", dir / "out.msh", "--csv", dir / "out.csv"});
    ASSERT_EQ(run.status, 0) << run.err;
    const int status = python_reader({"msh", dir / "out.msh", dir / "out.csv", grouped ? "1" : "0"});
    if (status == 77) GTEST_SKIP() << "meshio (python3-meshio) is missing";
    ASSERT_EQ(status, 0);
  }
}

TEST(Outputs, VtuReadBackByVtkAsLagrangeCells) {
  // Compressed with zlib (the default), and raw for one type (--vtu-compression none).
  const struct {
    ElementType type;
    int vtk_type;
    bool raw;
  } cases[] = {{{Shape::triangle, 1}, 5, false},      {{Shape::triangle, 3}, 69, false},
               {{Shape::quadrilateral, 3}, 70, false}, {{Shape::tetrahedron, 2}, 71, false},
               {{Shape::tetrahedron, 2}, 71, true},    {{Shape::tetrahedron, 3}, 71, false},
               {{Shape::hexahedron, 2}, 72, false},    {{Shape::hexahedron, 3}, 72, false},
               {{Shape::line, 3}, 68, false}};
  for (const auto& c : cases) {
    SCOPED_TRACE(to_string(c.type) + (c.raw ? ", raw" : ""));
    TempDir dir;
    box_mesh(dir / "mesh.msh", c.type, 60);
    std::vector<std::string> arguments = {"interpolate", dir / "mesh.msh", "--expr", formula, "--output",
                                          dir / "out.vtu", "--csv", dir / "out.csv"};
    if (c.raw) arguments.insert(arguments.end(), {"--vtu-compression", "none"});
    const Result run = run_feinterp(arguments);
    ASSERT_EQ(run.status, 0) << run.err;
    std::vector<std::string> reader = {"vtu", dir / "out.vtu", dir / "out_points.vtu", dir / "out.csv",
                                       std::to_string(c.vtk_type)};
    if (c.raw) reader.push_back("none");
    const int status = python_reader(reader);
    if (status == 77) GTEST_SKIP() << "VTK's Python module (python3-vtk9) is missing";
    ASSERT_EQ(status, 0);
  }
}

TEST(Outputs, NpyReadBackByNumpy) {
  TempDir dir;
  // Two blocks of different reference dimensions: the triangles' missing zeta direction is NaN.
  box_mesh(dir / "mesh.msh", {Shape::tetrahedron, 2}, 300);
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--all-dimensions",
                                   "--output", dir / "out.npy", "--csv", dir / "out.csv"});
  ASSERT_EQ(run.status, 0) << run.err;
  const int status = python_reader({"npy", dir / "out.npy", dir / "out.csv"});
  if (status == 77) GTEST_SKIP() << "NumPy (python3-numpy) is missing";
  ASSERT_EQ(status, 0);
}

TEST(Outputs, NpzReadBackByNumpy) {
  TempDir dir;
  box_mesh(dir / "mesh.msh", {Shape::tetrahedron, 2}, 300);
  const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--all-dimensions",
                                   "--chunk-elements", "37", "--output", dir / "out.npz", "--csv", dir / "out.csv"});
  if (run.status != 0 && run.err.find("libzip-dev") != std::string::npos) {
    EXPECT_FALSE(std::ifstream(dir / "out.npz").good()) << "a refused .npz was written";
    GTEST_SKIP() << "feinterp built without libzip: " << run.err;
  }
  ASSERT_EQ(run.status, 0) << run.err;
  const int status = python_reader({"npz", dir / "out.npz", dir / "out.csv"});
  if (status == 77) GTEST_SKIP() << "NumPy (python3-numpy) is missing";
  ASSERT_EQ(status, 0);
}

// --chunk-elements N: the results are computed and written N elements at a time (--renumber's chunks are
// ranges of the file's order); the files have the same rows, in the same order, as in one chunk, with the
// same numbers but for the last bits the CPU's products round by an element's place in a batch, and the
// summary's counts and ranges are the same to those bits.
TEST(Outputs, ChunksGiveTheSameRows) {
  TempDir dir;
  box_mesh(dir / "mesh.msh", {Shape::tetrahedron, 2}, 300);
  std::mt19937 random(std::random_device{}());
  const std::string chunk = std::to_string(1 + random() % 17);
  for (const char* renumber : {"none", "hilbert"}) {
    const Result whole = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--all-dimensions", "--renumber",
                                       renumber, "--csv", dir / "whole.csv", "--json"});
    const Result cut = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--all-dimensions", "--renumber",
                                     renumber, "--csv", dir / "cut.csv", "--json", "--chunk-elements", chunk});
    ASSERT_EQ(whole.status, 0) << whole.err;
    ASSERT_EQ(cut.status, 0) << cut.err;
    const std::string a = read_text(dir / "whole.csv"), b = read_text(dir / "cut.csv");
    std::istringstream la(a), lb(b);
    std::string ra, rb;
    std::size_t rows = 0;
    while (std::getline(la, ra)) {
      ASSERT_TRUE(std::getline(lb, rb)) << "--chunk-elements " << chunk << ": rows missing after " << rows;
      std::istringstream fa(ra), fb(rb);
      std::string x, y;
      for (int column = 0; std::getline(fa, x, ','); ++column) {
        ASSERT_TRUE(std::getline(fb, y, ',')) << "row " << rows;
        if (rows == 0 || column < 3 || x.empty() || y.empty()) {
          ASSERT_EQ(x, y) << "row " << rows << ", column " << column << " (--chunk-elements " << chunk << ")";
        } else {
          EXPECT_NEAR(std::stod(x), std::stod(y), 1e-13) << "row " << rows << ", column " << column;
        }
      }
      ++rows;
    }
    EXPECT_FALSE(std::getline(lb, rb)) << "extra rows with --chunk-elements " << chunk;
    EXPECT_GT(rows, 1000u);
    const Json jw = parse_json(whole.out), jc = parse_json(cut.out);
    ASSERT_EQ(jw["blocks"].size(), jc["blocks"].size());
    for (std::size_t i = 0; i < jw["blocks"].size(); ++i) {
      EXPECT_EQ(jw["blocks"][i]["elements"], jc["blocks"][i]["elements"]);
      EXPECT_EQ(jw["blocks"][i]["mirrored_elements"], jc["blocks"][i]["mirrored_elements"]);
      EXPECT_NEAR(jw["blocks"][i]["measure"].get<double>(), jc["blocks"][i]["measure"].get<double>(), 1e-12);
    }
    for (const auto& [name, output] : jw["outputs"].items())
      for (const char* end : {"min", "max"}) {
        const std::vector<double> x = numbers(output[end]), y = numbers(jc["outputs"][name][end]);
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(x[k], y[k], 1e-13) << name << " " << end;
      }
  }
}

// Standard output is an explicit '-' (--csv -): the same bytes as the file, the summary on stderr instead;
// --output - (whose format is its extension) and --json beside it (also on stdout) are refused.
TEST(Outputs, CsvToStandardOutputIsAnExplicitDash) {
  TempDir dir;
  box_mesh(dir / "mesh.msh", {Shape::triangle, 2}, 200);
  const Result to_file = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--csv", dir / "out.csv"});
  ASSERT_EQ(to_file.status, 0) << to_file.err;
  const Result streamed = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--csv", "-"});
  ASSERT_EQ(streamed.status, 0) << streamed.err;
  EXPECT_EQ(streamed.out, read_text(dir / "out.csv"));
  EXPECT_GT(std::count(streamed.out.begin(), streamed.out.end(), '\n'), 200);
  EXPECT_NE(streamed.err.find("wrote standard output (--csv -)"), std::string::npos) << streamed.err;
  EXPECT_NE(streamed.err.find("min"), std::string::npos) << streamed.err;  // the summary's table
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"mesh.msh", "out.csv"}));

  const Result output = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--output", "-"});
  EXPECT_NE(output.status, 0);
  EXPECT_EQ(output.error_lines().size(), 1u) << output.err;
  EXPECT_NE(output.err.find("--output '-': standard output takes CSV only; expected --csv -"), std::string::npos)
      << output.err;
  const Result both = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--csv", "-", "--json"});
  EXPECT_NE(both.status, 0);
  EXPECT_EQ(both.error_lines().size(), 1u) << both.err;
  EXPECT_NE(both.err.find("--csv - and --json both write to standard output"), std::string::npos) << both.err;
  EXPECT_TRUE(both.out.empty()) << both.out;
}

TEST(Outputs, UnknownExtensionIsRefusedBeforeAnyWork) {
  TempDir dir;
  box_mesh(dir / "mesh.msh", {Shape::triangle, 1}, 50);
  for (const std::string name : {"out.vtk", "out", "out.MSH.txt"}) {
    const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", formula, "--output", dir / name});
    EXPECT_NE(run.status, 0);
    EXPECT_NE(run.err.find("feinterp: error: --output"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("expected .msh (Gmsh), .vtu (ParaView, VTK)"), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
  EXPECT_EQ(dir.files(), std::vector<std::string>{"mesh.msh"});
}

namespace {

// Two triangles whose last node and element have the largest tag Gmsh reads, a 9-component view "T" and a
// view without a name (a $NodeData without string tags).
const char* const largest_tags_msh = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
1 4 1 2147483647
2 1 0 4
1
2
3
2147483647
0 0 0
1 0 0
1 1 0
0 1 0
$EndNodes
$Elements
1 2 1 2147483647
2 1 2 2
1 1 2 3
2147483647 1 3 2147483647
$EndElements
$NodeData
1
"T"
1
0
3
0
9
4
1 1 2 3 4 5 6 7 8 9
2 1 2 3 4 5 6 7 8 9
3 1 2 3 4 5 6 7 8 9
2147483647 1 2 3 4 5 6 7 8 9
$EndNodeData
$NodeData
0
1
0
3
0
1
4
1 1
2 2
3 3
2147483647 4
$EndNodeData
)";

}  // namespace

// What the reader accepts, the .msh output writes: tag 2147483647 (the points take the unused tags below
// it), and the gradients of a 9-component field (one tensor view per direction). Gmsh 4.8's own view
// reader crashes on a view at node 2147483647 (the input file's too), so Gmsh reads back the same mesh
// with tag 5 instead, and feinterp (whose loader reads views itself) the one with the largest tags.
TEST(Outputs, MshOfTheLargestTagsAndNineComponents) {
  TempDir dir;
  const std::string largest = largest_tags_msh;
  write_text(dir / "largest.msh", largest);
  write_text(dir / "small.msh", std::regex_replace(largest, std::regex("2147483647"), "5"));
  for (const std::string mesh : {"largest", "small"}) {
    SCOPED_TRACE(mesh);
    const Result run = run_feinterp({"interpolate", dir / (mesh + ".msh"), "--field", "T", "--output", dir / (mesh + "-out.msh")});
    ASSERT_EQ(run.status, 0) << run.err;
    const Result expr = run_feinterp({"interpolate", dir / (mesh + ".msh"), "--expr", "x", "--output", dir / "expr.msh"});
    ASSERT_EQ(expr.status, 0) << expr.err;
    const Result again = run_feinterp({"interpolate", dir / (mesh + "-out.msh"), "--field", "T", "--values", "--json"});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(parse_json(again.out)["field"]["components"], 9);
    EXPECT_EQ(parse_json(again.out)["nodes"], 4 + 2 * 3);  // the mesh's and the 3 points of each triangle
  }

  gmsh::initialize();
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::open(dir / "small-out.msh");
  std::vector<int> views;
  gmsh::view::getTags(views);
  std::vector<std::string> names;
  for (const int v : views) {
    std::string name;
    gmsh::option::getString("View[" + std::to_string(gmsh::view::getIndex(v)) + "].Name", name);
    names.push_back(name);
  }
  for (const std::string expected : {"T", "T values", "T reference gradients d/dxi", "T reference gradients d/deta",
                                     "T reference gradients d/dzeta", "T physical gradients d/dx", "T physical gradients d/dy",
                                     "T physical gradients d/dz", "det J"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  gmsh::clear();
  gmsh::finalize();
}

// A view without a name is chosen by its place in `feinterp info`'s list: --field '#2'.
TEST(Outputs, AViewWithoutANameIsChosenByItsNumber) {
  TempDir dir;
  write_text(dir / "largest.msh", largest_tags_msh);
  const Result info = run_feinterp({"info", dir / "largest.msh"});
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find("#1   T "), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("#2   (unnamed) "), std::string::npos) << info.out;
  const Result run = run_feinterp({"interpolate", dir / "largest.msh", "--field", "#2", "--values", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const Json json = parse_json(run.out);
  EXPECT_EQ(json["field"]["name"], "#2");
  EXPECT_EQ(json["field"]["components"], 1);
  const Result none = run_feinterp({"interpolate", dir / "largest.msh", "--field", "#3"});
  EXPECT_EQ(none.status, 1);
  ASSERT_EQ(none.error_lines().size(), 1u) << none.err;
  EXPECT_NE(none.err.find("no field named '#3' in the mesh (fields: #1 'T', #2 '')"), std::string::npos) << none.err;
}
