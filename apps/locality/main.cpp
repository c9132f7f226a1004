// SPDX-License-Identifier: BSD-3-Clause
// feinterp-locality: how each numbering of a generated mesh suits the gather (fem/ordering/gather_locality.hpp),
// on the CPU: natural (Gmsh's order), shuffled (random nodes: the worst case), and the shuffled mesh
// renumbered by rcm and hilbert, with the time the renumbering took. The same meshes as the GPU
// benchmarks' --numbering (apps/common/benchmark_mesh.hpp), so the two can be read side by side
// (docs/design/RENUMBERING.md). With --cpu-time, also the time of the CPU executor's reference gradients
// (scalar field, FP64, points at the element's nodes as the GPU benchmark's default, one thread by
// default so a shared machine's other work matters less: the fastest of --runs calls after one warm-up):
// what the numbering costs or buys where it can be measured on this machine.
//
//   feinterp-locality                               tri p1, tet p2, hex p3 at ~100k elements
//   feinterp-locality --types tri1,quad3 --size 1000000 --csv locality.csv --cpu-time
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/fem/ordering/gather_locality.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/generate.hpp>

#include <feinterp/apps/common/benchmark_mesh.hpp>
#include <feinterp/apps/common/build_info.hpp>

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

// The fastest of `runs` CPU calls of reference gradients on the block (after one untimed call), in ms.
double cpu_milliseconds(const Mesh& mesh, const ElementBlock& block, int threads, int runs) {
  InterpolatorOptions options;
  options.executor = Executor::cpu();
  options.threads = threads;
  const Interpolator<double> plan(block.view(), mesh.node_count(), element_nodes(block.type), nullptr, options);
  std::vector<double> u(std::size_t(mesh.node_count()));
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = mesh.coordinates[3 * i] - 2 * mesh.coordinates[3 * i + 1];
  std::vector<double> out(plan.output_size(Operation::reference_gradients, 1));
  double best = 1e300;
  for (int run = 0; run <= runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    plan.apply(Operation::reference_gradients, {u.data(), u.size(), 1}, {out.data(), out.size()});
    if (run > 0) best = std::min(best, 1e3 * seconds_since(start));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-locality: the gather locality of natural, shuffled, rcm and hilbert numberings of generated meshes"};
  std::vector<std::string> type_names{"tri1", "tet2", "hex3"};
  long long size = 100000;
  unsigned seed = 1;
  GatherLocalityOptions locality;
  std::string csv_path;
  bool cpu_time = false;
  int threads = 1, runs = 5;
  app.add_option("--types", type_names, "element types: tri1, quad2, tet2, hex3, ... (default tri1,tet2,hex3)")->delimiter(',');
  app.add_option("--size", size, "target elements per mesh")->check(CLI::Range(1LL, 1LL << 30));
  app.add_option("--seed", seed, "mesh and shuffle seed");
  app.add_option("--window", locality.window_elements, "elements per window of the sector efficiency")->check(CLI::Range(1, 1 << 20));
  app.add_option("--csv", csv_path, "also write the table as CSV to this file");
  app.add_flag("--cpu-time", cpu_time, "also time the CPU executor's reference gradients on each numbering");
  app.add_option("--threads", threads, "CPU threads of --cpu-time (0: the default count)")->check(CLI::Range(0, 1024));
  app.add_option("--runs", runs, "timed calls of --cpu-time (the fastest is reported)")->check(CLI::Range(1, 1000));
  app.set_version_flag("--version", app::version_text("feinterp-locality"));
  CLI11_PARSE(app, argc, argv);
  try {
    std::vector<ElementType> types;
    for (const std::string& name : type_names) types.push_back(parse_type(name));
    std::ostringstream csv;
    csv << "# feinterp-locality, git " << app::git_revision() << ", window " << locality.window_elements << " elements, "
        << locality.sector_bytes << "-byte sectors, " << locality.value_bytes << "-byte values"
        << (cpu_time ? ", CPU times on " + describe_executor(Executor::cpu(), threads) : std::string()) << "\n"
        << "element,order,elements,nodes,numbering,mean_spread,bandwidth,sector_efficiency,sectors_per_element,renumber_s"
        << (cpu_time ? ",cpu_reference_gradients_ms" : "") << "\n";
    if (cpu_time) std::printf("CPU times: reference gradients, C = 1, FP64, points = nodes, %s\n", describe_executor(Executor::cpu(), threads).c_str());
    std::printf("%-16s %9s %9s %-9s %12s %10s %8s %9s %11s%s\n", "element", "elements", "nodes", "numbering", "mean spread",
                "bandwidth", "sectors", "sect/elem", "renumber s", cpu_time ? "     cpu ms" : "");
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
          const double ms = cpu_time ? cpu_milliseconds(mesh, block, threads, runs) : 0;
          std::printf("%-16s %9lld %9lld %-9s %12.1f %10lld %8.3f %9.2f %11.3f", to_string(type).c_str(),
                      (long long)block.element_count(), (long long)mesh.node_count(), app::numbering_name(numbering),
                      g.mean_spread, (long long)g.bandwidth, g.sector_efficiency, g.sectors_per_element, renumber_s);
          if (cpu_time) std::printf(" %10.3f", ms);
          std::printf("\n");
          std::fflush(stdout);
          csv << shape_name(type.shape) << ',' << type.order << ',' << block.element_count() << ',' << mesh.node_count() << ','
              << app::numbering_name(numbering) << ',' << g.mean_spread << ',' << g.bandwidth << ',' << g.sector_efficiency
              << ',' << g.sectors_per_element << ',' << renumber_s;
          if (cpu_time) csv << ',' << ms;
          csv << '\n';
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
