// SPDX-License-Identifier: BSD-3-Clause
// Every bad input gives a MeshError naming the file and the problem: no crash, nothing run, nothing
// written, and the next good load still works (Gmsh 4.8.4's open lock must never stick).
#include <gtest/gtest.h>
#include <unistd.h>

#include <clocale>
#include <cstdlib>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/write.hpp>
#include <filesystem>
#include <random>
#include <thread>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;
using test::msh22;

namespace {

// Loads `path`, expects a MeshError whose message contains the path and every one of `words`.
void expect_load_error(const std::string& path, const std::vector<std::string>& words, const LoadOptions& options = {}) {
  try {
    load_msh(path, options);
    ADD_FAILURE() << "no error loading " << path;
  } catch (const MeshError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    for (const std::string& w : words) EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' not in: " << message;
  }
}

// A good file, loaded after each failure: a stuck Gmsh lock would make this come back empty.
void expect_good_load(const test::TempDir& dir) {
  const std::string good = dir / "good.msh";
  if (!test::exists(good)) test::write_file(good, msh22(test::square_nodes(), test::square_triangles()));
  const Mesh mesh = load_msh(good);
  ASSERT_EQ(mesh.node_count(), 4);
  ASSERT_EQ(mesh.element_count(), 2);
}

TEST(BadInput, NonexistentPath) {
  test::TempDir dir;
  expect_load_error(dir / "missing.msh", {"No such file"});
  expect_good_load(dir);
}

TEST(BadInput, EmptyFile) {
  test::TempDir dir;
  test::write_file(dir / "empty.msh", "");
  expect_load_error(dir / "empty.msh", {"empty"});
  expect_good_load(dir);
}

TEST(BadInput, Directory) {
  test::TempDir dir;
  expect_load_error(dir.path(), {"not a regular file"});
}

TEST(BadInput, RandomBytes) {
  test::TempDir dir;
  std::mt19937 rng(42);
  std::string bytes(4096, '\0');
  for (char& c : bytes) c = char(rng());
  test::write_file(dir / "random.msh", bytes);
  expect_load_error(dir / "random.msh", {"$MeshFormat"});
  expect_good_load(dir);
}

TEST(BadInput, RandomBytesAfterAValidHeader) {
  test::TempDir dir;
  std::mt19937 rng(7);
  for (const char* header : {"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"}) {
    std::string bytes = header;
    for (int i = 0; i < 4096; ++i) bytes.push_back(char(rng()));
    test::write_file(dir / "noise.msh", bytes);
    EXPECT_THROW(load_msh(dir / "noise.msh"), MeshError);
    expect_good_load(dir);
  }
}

TEST(BadInput, ScriptDisguisedAsMshDoesNotRun) {
  test::TempDir dir;
  const std::string marker = dir / "pwned";
  test::write_file(dir / "script.msh", "System \"touch " + marker + "\";\nExit;\n");
  expect_load_error(dir / "script.msh", {"not an MSH file"});
  EXPECT_FALSE(test::exists(marker)) << "the script ran";
  // Also behind a comment line and with a .geo-like body after a broken header.
  test::write_file(dir / "script2.msh", "// mesh\nSystem \"touch " + marker + "\";\nExit;\n");
  expect_load_error(dir / "script2.msh", {"$MeshFormat"});
  test::write_file(dir / "script3.msh", "$MeshFormat\nSystem \"touch " + marker + "\";\nExit;\n");
  expect_load_error(dir / "script3.msh", {"$MeshFormat"});
  EXPECT_FALSE(test::exists(marker)) << "the script ran";
  expect_good_load(dir);  // and the process is still here
}

TEST(BadInput, OptionFileBesideTheMeshIsIgnored) {
  test::TempDir dir;
  const std::string marker = dir / "pwned_by_opt";
  const std::string mesh_path = dir / "with_opt.msh";
  test::write_file(mesh_path, msh22(test::square_nodes(), test::square_triangles()));
  test::write_file(mesh_path + ".opt", "System \"touch " + marker + "\";\nExit;\n");
  std::vector<std::string> warnings;
  LoadOptions options;
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  const Mesh mesh = load_msh(mesh_path, options);
  EXPECT_EQ(mesh.element_count(), 2);
  EXPECT_FALSE(test::exists(marker)) << "Gmsh ran the .opt file";
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(".opt"), std::string::npos);
}

TEST(BadInput, TruncatedBinaryFiles) {
  test::TempDir dir;
  const Mesh mesh = generate_mesh({{Shape::tetrahedron, 2}, 300, 1});
  for (double version : {4.1, 2.2}) {
    const std::string full = dir / "full.msh";
    write_msh(full, mesh, {}, {}, {version, true});
    const std::string bytes = test::read_file(full);
    for (double fraction : {0.02, 0.3, 0.6, 0.95}) {
      SCOPED_TRACE(std::to_string(version) + " cut at " + std::to_string(fraction));
      const std::string cut = dir / "truncated.msh";
      test::write_file(cut, bytes.substr(0, std::size_t(double(bytes.size()) * fraction)));
      EXPECT_THROW(load_msh(cut), MeshError);
      expect_good_load(dir);
    }
  }
}

TEST(BadInput, HeaderProblems) {
  test::TempDir dir;
  const std::string p = dir / "header.msh";
  test::write_file(p, "$MeshFormat\n3.0 0 8\n$EndMeshFormat\n");
  expect_load_error(p, {"version '3.0'", "2.2 or 4.1"});
  test::write_file(p, "$MeshFormat\n4.1 0 4\n$EndMeshFormat\n");
  expect_load_error(p, {"data-size 4"});
  test::write_file(p, "$MeshFormat\n4.1 2 8\n$EndMeshFormat\n");
  expect_load_error(p, {"file-type 2"});
  test::write_file(p, std::string("$MeshFormat\n4.1 1 8\n\0\0\0\1\n$EndMeshFormat\n", 39));
  expect_load_error(p, {"byte order"});
  test::write_file(p, "$MeshFormat\n4.1 0 8\n");
  expect_load_error(p, {"$EndMeshFormat"});
  expect_good_load(dir);
}

TEST(BadInput, ValidFileWithNoElements) {
  test::TempDir dir;
  test::write_file(dir / "header_only.msh", msh22("", ""));
  expect_load_error(dir / "header_only.msh", {"no elements"});
  test::write_file(dir / "nodes_only.msh", msh22(test::square_nodes(), ""));
  expect_load_error(dir / "nodes_only.msh", {"no elements"});
  test::write_file(dir / "zero_elements.msh", msh22(test::square_nodes(), "0\n"));
  expect_load_error(dir / "zero_elements.msh", {"no elements"});
  test::write_file(dir / "points_only.msh", msh22(test::square_nodes(), "1\n1 15 2 0 1 1\n"));
  expect_load_error(dir / "points_only.msh", {"only points", "expected lines"});
  expect_good_load(dir);
}

TEST(BadInput, ElementReferencingAMissingNode) {
  test::TempDir dir;
  test::write_file(dir / "missing_node.msh", msh22(test::square_nodes(), "2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 99\n"));
  expect_load_error(dir / "missing_node.msh", {"99"});
  expect_good_load(dir);
}

TEST(BadInput, NotANumberCoordinates) {
  test::TempDir dir;
  test::write_file(dir / "nan.msh", msh22("4\n1 0 0 0\n2 1 0 0\n3 nan 1 0\n4 0 1 0\n", test::square_triangles()));
  expect_load_error(dir / "nan.msh", {"node 3", "non-finite"});
  test::write_file(dir / "inf.msh", msh22("4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 inf 0\n", test::square_triangles()));
  expect_load_error(dir / "inf.msh", {"node 4", "non-finite"});
  expect_good_load(dir);
}

// One prism (type 6), pyramid (7), 8-node quad (16), 20-node hex (17), order-4 triangle (23).
const std::string cube_nodes =
    "27\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n"
    "9 .5 0 0\n10 1 .5 0\n11 .5 1 0\n12 0 .5 0\n13 .5 0 1\n14 1 .5 1\n15 .5 1 1\n16 0 .5 1\n"
    "17 0 0 .5\n18 1 0 .5\n19 1 1 .5\n20 0 1 .5\n21 .25 0 0\n22 .75 0 0\n23 .25 .25 0\n24 .5 .25 0\n"
    "25 .25 .5 0\n26 .5 .5 0\n27 .75 .25 0\n";

TEST(BadInput, UnsupportedElementTypes) {
  test::TempDir dir;
  const std::string tet = "1 4 2 0 1 1 2 4 5\n";
  struct Case {
    const char* file;
    std::string elements;
    std::vector<std::string> words;
  } cases[] = {
      {"prism.msh", "3\n" + tet + "2 6 2 0 1 1 2 3 5 6 7\n3 6 2 0 1 1 3 4 5 7 8\n", {"Prism", "type 6", "2 elements"}},
      {"pyramid.msh", "2\n" + tet + "2 7 2 0 1 1 2 3 4 5\n", {"Pyramid", "type 7", "1 elements"}},
      {"quad8.msh", "1\n1 16 2 0 1 1 2 3 4 9 10 11 12\n", {"type 16", "1 elements"}},
      {"hex20.msh", "1\n1 17 2 0 1 1 2 3 4 5 6 7 8 9 12 17 10 18 11 19 20 13 16 14 15\n", {"type 17", "1 elements"}},
      {"tri15.msh", "1\n1 23 2 0 1 1 2 4 21 9 22 10 26 11 12 25 23 24 27 3\n", {"type 23", "1 elements"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    test::write_file(dir / c.file, msh22(cube_nodes, c.elements));
    expect_load_error(dir / c.file, c.words);
    expect_good_load(dir);
  }
  // Skipped with a warning on request: the tetrahedron stays.
  std::vector<std::string> warnings;
  LoadOptions skip;
  skip.skip_unsupported = true;
  skip.warn = [&](const std::string& w) { warnings.push_back(w); };
  const Mesh mesh = load_msh(dir / "prism.msh", skip);
  ASSERT_EQ(mesh.blocks.size(), 1u);
  EXPECT_EQ(mesh.blocks[0].type, (ElementType{Shape::tetrahedron, 1}));
  EXPECT_EQ(mesh.element_count(), 1);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("2 elements"), std::string::npos) << warnings[0];
  // Nothing supported left after skipping: still an error.
  expect_load_error(dir / "quad8.msh", {"no elements of a supported type"}, skip);
}

TEST(BadInput, MixedOrders) {
  test::TempDir dir;
  // A 3-node and a 6-node triangle.
  test::write_file(dir / "mixed_orders.msh",
                   msh22(cube_nodes, "2\n1 2 2 0 1 1 2 3\n2 9 2 0 1 1 2 4 9 26 12\n"));
  expect_load_error(dir / "mixed_orders.msh", {"mixes element orders", "type 2", "type 9", "1 elements"});
  LoadOptions skip;
  skip.skip_unsupported = true;
  EXPECT_THROW(load_msh(dir / "mixed_orders.msh", skip), MeshError);
  expect_good_load(dir);
}

TEST(BadInput, SparseAndUnorderedNodeTags) {
  test::TempDir dir;
  // Tags far apart (hashed map) and out of order.
  test::write_file(dir / "sparse.msh", msh22("4\n1000000 1 1 0\n7 0 0 0\n55 1 0 0\n3 0 1 0\n",
                                             "2\n10 2 2 0 1 7 55 1000000\n4 2 2 0 1 7 1000000 3\n"));
  const Mesh mesh = load_msh(dir / "sparse.msh");
  ASSERT_EQ(mesh.node_count(), 4);
  ASSERT_EQ(mesh.blocks.size(), 1u);
  const ElementBlock& b = mesh.blocks[0];
  ASSERT_EQ(b.element_count(), 2);
  const std::size_t expected_tags[2][3] = {{7, 55, 1000000}, {7, 1000000, 3}};
  const double expected_x[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const std::size_t tags_in_order[4] = {7, 55, 1000000, 3};
  for (std::size_t e = 0; e < 2; ++e) {
    // Element tags 10 and 4: whichever order Gmsh returns them in, each keeps its own nodes.
    const std::size_t which = b.element_tags[e] == 10 ? 0 : 1;
    for (std::size_t n = 0; n < 3; ++n) {
      const std::size_t node = std::size_t(b.connectivity[e * 3 + n]);
      EXPECT_EQ(mesh.node_tags[node], expected_tags[which][n]);
      for (std::size_t t = 0; t < 4; ++t)
        if (tags_in_order[t] == mesh.node_tags[node]) {
          EXPECT_EQ(mesh.coordinates[node * 3], expected_x[t][0]);
          EXPECT_EQ(mesh.coordinates[node * 3 + 1], expected_x[t][1]);
        }
    }
  }
  // Dense but unordered.
  test::write_file(dir / "unordered.msh", msh22("4\n3 1 1 0\n1 0 0 0\n4 0 1 0\n2 1 0 0\n", test::square_triangles()));
  const Mesh m2 = load_msh(dir / "unordered.msh");
  const std::size_t expected[6] = {1, 2, 3, 1, 3, 4};
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(m2.node_tags[std::size_t(m2.blocks[0].connectivity[k])], expected[k]);
}

TEST(BadInput, DuplicateNodeTags) {
  test::TempDir dir;
  test::write_file(dir / "dup.msh", msh22("4\n1 0 0 0\n2 1 0 0\n2 1 1 0\n4 0 1 0\n", test::square_triangles()));
  EXPECT_THROW(load_msh(dir / "dup.msh"), MeshError);
  expect_good_load(dir);
}

TEST(GmshHandling, LocaleAndEnvironmentAreRestored) {
  test::TempDir dir;
  const std::string locale_before = std::setlocale(LC_ALL, nullptr);
  const char* path = std::getenv("PATH");
  const std::string path_before = path ? path : "";
  const bool python_path_set = std::getenv("PYTHONPATH") != nullptr;
  expect_good_load(dir);
  EXPECT_EQ(std::setlocale(LC_ALL, nullptr), locale_before);
  EXPECT_EQ(std::string(std::getenv("PATH") ? std::getenv("PATH") : ""), path_before);
  EXPECT_EQ(std::getenv("PYTHONPATH") != nullptr, python_path_set);
}

TEST(GmshHandling, MeshNamedWithAnotherExtension) {
  test::TempDir dir;
  test::write_file(dir / "mesh.dat", msh22(test::square_nodes(), test::square_triangles()));
  EXPECT_EQ(load_msh(dir / "mesh.dat").element_count(), 2);
}

}  // namespace

namespace {
TEST(GmshHandling, ConcurrentCallsAreSerialised) {
  test::TempDir dir;
  test::write_file(dir / "a.msh", msh22(test::square_nodes(), test::square_triangles()));
  std::vector<offset_t> counts(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < counts.size(); ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i)
        counts[t] += t % 2 ? load_msh(dir / "a.msh").element_count() : generate_mesh({{Shape::triangle, 1}, 50, 1}).element_count() > 0;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(counts[1], 10);
  EXPECT_EQ(counts[3], 10);
  EXPECT_EQ(counts[0], 5);
}
}  // namespace
