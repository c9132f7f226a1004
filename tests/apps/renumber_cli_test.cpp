// SPDX-License-Identifier: BSD-3-Clause
// feinterp interpolate --renumber rcm|hilbert on a shuffled mesh of two blocks sharing nodes (tetrahedra
// p2 and their boundary triangles): the outputs mean what they mean without it. The CSV has the same
// rows (block, element tag, point) in the same order and the same numbers to 1e-14 of each column's
// largest (the CPU's Eigen products round by an element's place in a product: a few rows differ in the
// last bit); the .msh output holds the same mesh, node for node and element for element; the JSON
// document differs only in times and "renumber"; a method that does not exist is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/tests/support/temp_dir.hpp>
#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp;
using namespace feinterp::test;

namespace {

std::vector<std::vector<std::string>> csv_cells(const std::string& path) {
  std::istringstream csv(read_text(path));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(csv, line);) {
    std::vector<std::string> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

// The document without what may differ: times, the option itself, and the numbers compared apart.
Json comparable(Json doc) {
  for (const char* key : {"times", "files", "renumber", "outputs"}) doc.erase(key);
  for (Json& block : doc.at("blocks")) block.erase("kernel_s");
  return doc;
}

TEST(RenumberCli, OutputsAreTheSameAsWithout) {
  TempDir dir;
  GenerateOptions options{{Shape::tetrahedron, 2}, 600, 3, true};
  options.boundary = true;
  write_msh(dir / "mesh.msh", generate_mesh(options));
  auto run = [&](const std::string& name, const std::string& method) {
    const Result r = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x*y+z,sin(3*x)", "--all-dimensions",
                                   "--device", "cpu", "--json", "--renumber", method, "--csv", dir / (name + ".csv"),
                                   "--output", dir / (name + ".msh")});
    EXPECT_EQ(r.status, 0) << r.err;
    return parse_json(r.out);
  };
  const Json plain = run("none", "none");
  EXPECT_EQ(plain.at("renumber"), "none");
  const auto plain_csv = csv_cells(dir / "none.csv");
  ASSERT_GT(plain_csv.size(), 1000u);
  const Mesh plain_msh = load_msh(dir / "none.msh");
  for (const std::string method : {"rcm", "hilbert"}) {
    SCOPED_TRACE(method);
    const Json doc = run(method, method);
    EXPECT_EQ(doc.at("renumber"), method);
    EXPECT_EQ(comparable(doc), comparable(plain));
    // CSV: the same header and keys exactly, the numbers to 1e-14 of each column's largest magnitude.
    const auto csv = csv_cells(dir / (method + ".csv"));
    ASSERT_EQ(csv.size(), plain_csv.size());
    EXPECT_EQ(csv[0], plain_csv[0]);
    const std::size_t columns = plain_csv[0].size();
    std::vector<double> scale(columns, 0.0), difference(columns, 0.0);
    for (std::size_t i = 1; i < csv.size(); ++i) {
      ASSERT_EQ(csv[i].size(), columns) << "row " << i;
      for (std::size_t k = 0; k < 3; ++k) ASSERT_EQ(csv[i][k], plain_csv[i][k]) << "row " << i << ": block, element, point";
      for (std::size_t k = 3; k < columns; ++k) {
        if (plain_csv[i][k].empty() || csv[i][k].empty()) {  // a direction a triangle has not
          ASSERT_EQ(csv[i][k], plain_csv[i][k]);
          continue;
        }
        const double a = std::stod(csv[i][k]), b = std::stod(plain_csv[i][k]);
        scale[k] = std::max(scale[k], std::abs(b));
        difference[k] = std::max(difference[k], std::abs(a - b));
      }
    }
    for (std::size_t k = 3; k < columns; ++k) EXPECT_LE(difference[k], 1e-14 * scale[k]) << plain_csv[0][k];
    // The JSON's ranges, the same way.
    for (const auto& [quantity, ranges] : plain.at("outputs").items())
      for (const char* end : {"min", "max"}) {
        const std::vector<double> a = numbers(doc.at("outputs").at(quantity).at(end)), b = numbers(ranges.at(end));
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(a[k], b[k], 1e-14 * std::max(1.0, std::abs(b[k]))) << quantity;
      }
    // The written mesh: the file's nodes and elements in the file's order.
    const Mesh msh = load_msh(dir / (method + ".msh"));
    EXPECT_EQ(msh.node_tags, plain_msh.node_tags);
    EXPECT_EQ(msh.coordinates, plain_msh.coordinates);
    ASSERT_EQ(msh.blocks.size(), plain_msh.blocks.size());
    for (std::size_t b = 0; b < msh.blocks.size(); ++b) {
      EXPECT_EQ(msh.blocks[b].element_tags, plain_msh.blocks[b].element_tags);
      EXPECT_EQ(msh.blocks[b].connectivity, plain_msh.blocks[b].connectivity);
    }
    ASSERT_EQ(msh.fields.size(), plain_msh.fields.size());
    for (std::size_t f = 0; f < msh.fields.size(); ++f) EXPECT_EQ(msh.fields[f].values, plain_msh.fields[f].values);
  }
}

TEST(RenumberCli, UnknownMethodIsRefused) {
  const Result r = run_feinterp({"interpolate", std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/tri1_views_v41a.msh",
                                 "--expr", "x", "--renumber", "morton"});
  EXPECT_EQ(r.status, 2);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find("--renumber"), std::string::npos) << r.err;
}

}  // namespace
