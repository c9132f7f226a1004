// SPDX-License-Identifier: BSD-3-Clause
// feinterp-locality: how each numbering of a generated mesh suits the gather (fem/gather_locality.hpp),
// on the CPU: natural (Gmsh's order), shuffled (random nodes: the worst case), and the shuffled mesh
// renumbered by rcm and hilbert, with the time the renumbering took. The same meshes as the GPU
// benchmarks' --numbering (apps/common/benchmark_mesh.hpp), so the two can be read side by side
// (fem/RENUMBERING.md).
//
//   feinterp-locality                               tri p1, tet p2, hex p3 at ~100k elements
//   feinterp-locality --types tri1,quad3 --size 1000000 --csv locality.csv
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/fem/gather_locality.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/generate.hpp>

#include "../common/benchmark_mesh.hpp"
#include "../common/build_info.hpp"

using namespace feinterp;

namespace {

// "tri1", "hexahedron3": a shape name (element_type.hpp's) and an order.
ElementType parse_type(const std::string& text) {
  const std::size_t digit = text.find_first_of("0123456789");
  if (digit == std::string::npos || digit + 1 != text.size())
    throw std::invalid_argument("element type '" + text + "': expected a shape and an order, as tri1, tet2 or hex3");
  ElementType type{parse_shape(text.substr(0, digit)), text[digit] - '0'};
  check_order(type);
  return type;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-locality: the gather locality of natural, shuffled, rcm and hilbert numberings of generated meshes"};
  std::vector<std::string> type_names{"tri1", "tet2", "hex3"};
  long long size = 100000;
  unsigned seed = 1;
  GatherLocalityOptions locality;
  std::string csv_path;
  app.add_option("--types", type_names, "element types: tri1, quad2, tet2, hex3, ... (default tri1,tet2,hex3)")->delimiter(',');
  app.add_option("--size", size, "target elements per mesh")->check(CLI::Range(1LL, 1LL << 30));
  app.add_option("--seed", seed, "mesh and shuffle seed");
  app.add_option("--window", locality.window_elements, "elements per window of the sector efficiency")->check(CLI::Range(1, 1 << 20));
  app.add_option("--csv", csv_path, "also write the table as CSV to this file");
  app.set_version_flag("--version", app::version_text("feinterp-locality"));
  CLI11_PARSE(app, argc, argv);
  try {
    std::vector<ElementType> types;
    for (const std::string& name : type_names) types.push_back(parse_type(name));
    std::ostringstream csv;
    csv << "# feinterp-locality, git " << app::git_revision() << ", window " << locality.window_elements << " elements, "
        << locality.sector_bytes << "-byte sectors, " << locality.value_bytes << "-byte values\n"
        << "element,order,elements,nodes,numbering,mean_spread,bandwidth,sector_efficiency,sectors_per_element,renumber_s\n";
    std::printf("%-15s %9s %9s %-9s %12s %10s %8s %9s %11s\n", "element", "elements", "nodes", "numbering", "mean spread",
                "bandwidth", "sectors", "sect/elem", "renumber s");
    for (const ElementType type : types) {
      std::fprintf(stderr, "[%s] generating ~%lld elements with Gmsh (natural and shuffled)...\n", to_string(type).c_str(), size);
      GenerateOptions options;
      options.type = type;
      options.target_elements = size;
      options.seed = seed;
      const Mesh natural = generate_mesh(app::generate_options(options, app::Numbering::natural));
      const Mesh shuffled = generate_mesh(app::generate_options(options, app::Numbering::shuffled));
      for (const app::Numbering numbering : app::all_numberings) {
        Mesh mesh = numbering == app::Numbering::natural ? natural : shuffled;
        const auto start = std::chrono::steady_clock::now();
        app::apply_numbering(mesh, numbering);
        const double renumber_s = seconds_since(start);
        for (const ElementBlock& block : mesh.blocks) {
          if (block.type != type) continue;
          const GatherLocality g = measure_gather_locality(block.view(), mesh.node_count(), locality);
          std::printf("%-15s %9lld %9lld %-9s %12.1f %10lld %8.3f %9.2f %11.3f\n", to_string(type).c_str(),
                      (long long)block.element_count(), (long long)mesh.node_count(), app::numbering_name(numbering),
                      g.mean_spread, (long long)g.bandwidth, g.sector_efficiency, g.sectors_per_element, renumber_s);
          csv << shape_name(type.shape) << ',' << type.order << ',' << block.element_count() << ',' << mesh.node_count() << ','
              << app::numbering_name(numbering) << ',' << g.mean_spread << ',' << g.bandwidth << ',' << g.sector_efficiency
              << ',' << g.sectors_per_element << ',' << renumber_s << '\n';
        }
      }
    }
    if (!csv_path.empty()) write_file_atomically(csv_path, csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-locality: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
