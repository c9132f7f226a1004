// SPDX-License-Identifier: BSD-3-Clause
// The numbering of the GPU benchmarks' meshes (apps/common/benchmark_mesh.hpp and the --numbering option
// of selection.hpp), tested on the CPU since the benchmarks build only with CUDA: natural is Gmsh's mesh
// as generated, shuffled the generator's shuffle (what --shuffle measures), rcm and hilbert that
// shuffled mesh renumbered; the option parses, --shuffle means shuffled and contradicting it is an
// error; feinterp-locality runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <feinterp/fem/ordering/gather_locality.hpp>

#include <feinterp/apps/common/benchmark_mesh.hpp>
#include <feinterp/apps/common/selection.hpp>
#include <feinterp/tests/support/expect_invalid.hpp>

namespace feinterp {
namespace {

using test::expect_invalid;

TEST(BenchmarkMesh, NamesParse) {
  for (app::Numbering n : app::all_numberings) EXPECT_EQ(app::parse_numbering(app::numbering_name(n)), n);
  expect_invalid([] { app::parse_numbering("random"); }, "unknown numbering 'random': expected natural, shuffled, rcm or hilbert");
}

TEST(BenchmarkMesh, RcmAndHilbertRenumberTheShuffledMesh) {
  GenerateOptions options;
  options.type = {Shape::triangle, 2};
  options.target_elements = 600;
  options.seed = 4;
  const Mesh natural = app::generate_numbered_mesh(options, app::Numbering::natural);
  EXPECT_EQ(natural.node_tags, generate_mesh(options).node_tags);
  options.shuffle_nodes = true;
  const Mesh shuffled = generate_mesh(options);
  options.shuffle_nodes = false;  // ignored: the numbering decides
  EXPECT_EQ(app::generate_numbered_mesh(options, app::Numbering::shuffled).blocks[0].connectivity, shuffled.blocks[0].connectivity);
  const double scattered = measure_gather_locality(shuffled.blocks[0].view(), shuffled.node_count()).sectors_per_element;
  for (app::Numbering n : {app::Numbering::rcm, app::Numbering::hilbert}) {
    SCOPED_TRACE(app::numbering_name(n));
    const Mesh mesh = app::generate_numbered_mesh(options, n);
    EXPECT_EQ(mesh.renumbering.method, n == app::Numbering::rcm ? RenumberMethod::rcm : RenumberMethod::hilbert);
    EXPECT_EQ(mesh.node_tags, mesh.renumbering.nodes.to_new_order(shuffled.node_tags)) << "not the shuffled mesh renumbered";
    EXPECT_LT(measure_gather_locality(mesh.blocks[0].view(), mesh.node_count()).sectors_per_element, scattered / 2);
  }
}

tuning::Selection parsed(const std::vector<std::string>& arguments) {
  CLI::App app;
  tuning::Selection selection;
  selection.add_options(app);
  std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());  // CLI11's parse(vector) takes them reversed
  app.parse(reversed);
  int repeats = 20;
  selection.finish(repeats);
  return selection;
}

TEST(BenchmarkMesh, SelectionOption) {
  EXPECT_EQ(parsed({}).numbering, app::Numbering::natural);
  EXPECT_EQ(parsed({"--numbering", "hilbert"}).numbering, app::Numbering::hilbert);
  EXPECT_EQ(parsed({"--shuffle"}).numbering, app::Numbering::shuffled);
  EXPECT_EQ(parsed({"--shuffle", "--numbering", "shuffled"}).numbering, app::Numbering::shuffled);
  expect_invalid([] { parsed({"--shuffle", "--numbering", "rcm"}); }, "--shuffle with --numbering rcm");
  EXPECT_THROW(parsed({"--numbering", "morton"}), CLI::ValidationError);
  tuning::Selection selection = parsed({"--numbering", "rcm", "--size", "300", "--seed", "2"});
  const tuning::GeneratedBlock block({Shape::quadrilateral, 1}, selection);
  EXPECT_GT(block.element_count(), 0);
  const GatherLocality g = measure_gather_locality(block.block(), block.node_count());
  EXPECT_LT(g.bandwidth, block.node_count() / 4) << "the rcm numbering was not applied";
}

TEST(BenchmarkMesh, LocalityToolRuns) {
  const std::string command = std::string(FEINTERP_LOCALITY_EXE) + " --types tri1,hex2 --size 300 --cpu-time --runs 1 >/dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  const std::string bad = std::string(FEINTERP_LOCALITY_EXE) + " --types prism1 >/dev/null 2>&1";
  EXPECT_NE(std::system(bad.c_str()), 0);
}

}  // namespace
}  // namespace feinterp
