// SPDX-License-Identifier: BSD-3-Clause
// write_msh: the file opens back in Gmsh (read through the SDK), with NodeData, ElementNodeData and
// ElementData views holding what was written; atomic replacement; nonexistent directories.
#include <gmsh.h>
#include <gtest/gtest.h>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>
#include <filesystem>
#include <map>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

struct ViewData {
  std::string type;
  int components = 0;
  std::vector<std::size_t> tags;
  std::vector<double> data;
};

// Opens `path` with the Gmsh SDK, as the GUI would, and returns its views by name.
std::map<std::string, ViewData> read_back(const std::string& path, std::size_t& nodes, std::size_t& elements) {
  std::map<std::string, ViewData> views;
  GmshSession session;
  gmsh::model::add("read_back");
  gmsh::merge(path);
  std::vector<std::size_t> tags;
  std::vector<double> x, u;
  gmsh::model::mesh::getNodes(tags, x, u, -1, -1, false, false);
  nodes = tags.size();
  std::vector<int> codes;
  gmsh::model::mesh::getElementTypes(codes);
  elements = 0;
  for (int c : codes) {
    std::vector<std::size_t> et, nt;
    gmsh::model::mesh::getElementsByType(c, et, nt);
    elements += et.size();
  }
  std::vector<int> view_tags;
  gmsh::view::getTags(view_tags);
  for (int tag : view_tags) {
    std::string name;
    gmsh::option::getString("View[" + std::to_string(gmsh::view::getIndex(tag)) + "].Name", name);
    ViewData v;
    double time;
    gmsh::view::getHomogeneousModelData(tag, 0, v.type, v.tags, v.data, time, v.components);
    views[name] = v;
  }
  EXPECT_TRUE(session.errors().empty());
  return views;
}

class WriteRoundTrip : public ::testing::TestWithParam<std::tuple<ElementType, double, bool>> {};

TEST_P(WriteRoundTrip, GmshReadsItBack) {
  const auto [type, version, binary] = GetParam();
  test::TempDir dir;
  const Mesh mesh = generate_mesh({type, 40, 3});
  const int D = dimension(type.shape);
  const std::size_t n = std::size_t(mesh.node_count());
  const ElementBlock& block = mesh.blocks[0];
  const std::size_t E = std::size_t(block.element_count());

  NodalField scalar{"scalar", 1, {}}, vector2{"vector2", 2, {}};
  for (std::size_t i = 0; i < n; ++i) {
    scalar.values.push_back(mesh.coordinates[3 * i] + 2 * mesh.coordinates[3 * i + 1]);
    vector2.values.push_back(double(i));
    vector2.values.push_back(-double(i));
  }
  // Values at the element's nodes (-> ElementNodeData) and gradients at a quadrature rule (-> ElementData).
  const PointSet nodes = visit(type, [](auto e) {
    PointSet p;
    p.shape = decltype(e)::shape;
    for (int k = 0; k < decltype(e)::nodes_per_element; ++k) {
      double xi[3];
      decltype(e)::reference_node(k, xi);
      p.coordinates.insert(p.coordinates.end(), xi, xi + decltype(e)::dimension);
    }
    return p;
  });
  const PointSet rule = quadrature_rule(type.shape, 2);
  const std::size_t Qn = std::size_t(nodes.size()), Qr = std::size_t(rule.size());
  std::vector<double> at_nodes(E * Qn), gradients(E * Qr * std::size_t(D));
  for (std::size_t e = 0; e < E; ++e) {
    for (std::size_t q = 0; q < Qn; ++q) at_nodes[e * Qn + q] = double(e) + 0.001 * double(q);
    for (std::size_t q = 0; q < Qr; ++q)
      for (int d = 0; d < D; ++d) gradients[(e * Qr + q) * std::size_t(D) + std::size_t(d)] = double(e) * (d + 1);
  }
  const std::vector<PointData> points = {{"u_at_nodes", 0, nodes, 1, 0, at_nodes.data(), at_nodes.size()},
                                         {"grad_u", 0, rule, 1, D, gradients.data(), gradients.size()}};
  const std::string path = dir / "out.msh";
  write_msh(path, mesh, {scalar, vector2}, points, {version, binary});

  std::size_t read_nodes = 0, read_elements = 0;
  const auto views = read_back(path, read_nodes, read_elements);
  EXPECT_EQ(read_nodes, n);
  EXPECT_EQ(read_elements, E);
  ASSERT_EQ(views.size(), 4u);

  std::map<std::size_t, std::size_t> node_index;
  for (std::size_t i = 0; i < n; ++i) node_index[mesh.node_tags[i]] = i;
  std::map<std::size_t, std::size_t> element_index;
  for (std::size_t e = 0; e < E; ++e) element_index[block.element_tags[e]] = e;  // the mesh's tags, both versions
  for (const auto& [name, view] : views)
    for (std::size_t tag : view.tags)
      ASSERT_EQ((view.type == "NodeData" ? node_index : element_index).count(tag), 1u) << name << " tag " << tag;

  const ViewData& s = views.at("scalar");
  EXPECT_EQ(s.type, "NodeData");
  ASSERT_EQ(s.components, 1);
  ASSERT_EQ(s.tags.size(), n);
  for (std::size_t k = 0; k < n; ++k)  // ASCII files round to 16 significant digits
    EXPECT_NEAR(s.data[k], scalar.values[node_index.at(s.tags[k])], 1e-15);

  const ViewData& v = views.at("vector2");  // 2 components padded to a 3-vector
  ASSERT_EQ(v.components, 3);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = node_index.at(v.tags[k]);
    EXPECT_EQ(v.data[3 * k], double(i));
    EXPECT_EQ(v.data[3 * k + 1], -double(i));
    EXPECT_EQ(v.data[3 * k + 2], 0.0);
  }

  const ViewData& en = views.at("u_at_nodes");
  EXPECT_EQ(en.type, "ElementNodeData");
  ASSERT_EQ(en.components, 1);
  ASSERT_EQ(en.tags.size(), E);
  ASSERT_EQ(en.data.size(), E * Qn);
  for (std::size_t k = 0; k < E; ++k) {
    const std::size_t e = element_index.at(en.tags[k]);
    for (std::size_t q = 0; q < Qn; ++q) EXPECT_NEAR(en.data[k * Qn + q], double(e) + 0.001 * double(q), 1e-13);
  }

  const ViewData& g = views.at("grad_u");  // the element mean of a constant-per-element gradient
  EXPECT_EQ(g.type, "ElementData");
  ASSERT_EQ(g.components, 3);
  for (std::size_t k = 0; k < E; ++k) {
    const std::size_t e = element_index.at(g.tags[k]);
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(g.data[k * 3 + std::size_t(d)], d < D ? double(e) * (d + 1) : 0.0, 1e-12 * (1 + double(e)));
  }

  // feinterp reads its own file back too, nodal fields included.
  const Mesh again = load_msh(path);
  EXPECT_EQ(again.node_count(), mesh.node_count());
  EXPECT_EQ(again.blocks[0].connectivity.size(), block.connectivity.size());
  const NodalField& s2 = field(again, "scalar", 1);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(s2.values[i], scalar.values[node_index.at(again.node_tags[i])], 1e-15);
}

INSTANTIATE_TEST_SUITE_P(
    Types, WriteRoundTrip,
    ::testing::Values(std::make_tuple(ElementType{Shape::triangle, 2}, 4.1, true),
                      std::make_tuple(ElementType{Shape::quadrilateral, 3}, 4.1, false),
                      std::make_tuple(ElementType{Shape::tetrahedron, 1}, 2.2, true),
                      std::make_tuple(ElementType{Shape::hexahedron, 2}, 2.2, false),
                      std::make_tuple(ElementType{Shape::tetrahedron, 3}, 4.1, true)));

TEST(Write, NonexistentDirectoryThrowsAndWritesNothing) {
  test::TempDir dir;
  const Mesh mesh = generate_mesh({{Shape::triangle, 1}, 20, 0});
  const std::string path = dir / "no/such/dir/out.msh";
  try {
    write_msh(path, mesh);
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(test::exists(dir / "no"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Write, FailureLeavesTheOlderFileInPlace) {
  test::TempDir dir;
  const Mesh mesh = generate_mesh({{Shape::triangle, 1}, 20, 0});
  const std::string path = dir / "out.msh";
  write_msh(path, mesh);
  const std::string before = test::read_file(path);
  NodalField wrong{"wrong", 1, std::vector<double>(3, 0.0)};  // not one value per node
  EXPECT_THROW(write_msh(path, mesh, {wrong}), MeshError);
  Mesh broken = mesh;
  broken.blocks[0].connectivity[0] = node_index(broken.node_count());  // out of range
  EXPECT_THROW(write_msh(path, broken), MeshError);
  EXPECT_EQ(test::read_file(path), before);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) files += entry.is_regular_file();
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
  // A successful write replaces it.
  write_msh(path, mesh, {NodalField{"ok", 1, std::vector<double>(std::size_t(mesh.node_count()), 1.0)}});
  EXPECT_NE(test::read_file(path), before);
  EXPECT_EQ(load_msh(path).fields.size(), 1u);
}

}  // namespace
