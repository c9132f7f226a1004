// SPDX-License-Identifier: BSD-3-Clause
// feinterp-bench-scaling: how the tuned kernel's time grows with the element count, from the
// launch-bound regime (a few µs whatever the size: the launch, the grid's ramp-up and tail) to the
// bandwidth-bound one (time proportional to the elements, at a steady share of the copy bandwidth). For
// each element type and size: a mesh of about that many elements (the structured box by default,
// fem/structured_box.hpp: 10M elements in seconds), then the plan's kernel (the tuning table's variant and
// elements_per_block, as feinterp-bench's auto row) timed as feinterp-bench
// times it (kernel only, warm-up, batches of back-to-back launches, the median; inputs and outputs
// rotated over copies spanning 4x the L2 where they fit), against the device's copy bandwidth measured
// in the same run. Prints a table, writes CSV.
//
//   feinterp-bench-scaling                                  tri:1, tet:2, hex:3; reference gradients, FP64, C = 1,
//                                                           Q = nodes; 10k, 30k, ..., 10M elements
//   feinterp-bench-scaling --sizes 10000,100000,1000000,10000000 --csv scaling.csv
//   feinterp-bench-scaling --types hex:2 --components 1,3 --generator gmsh --sizes 100000,1000000
//
// Rotation stops at 16 copies: below 4 x L2 / 16 of minimal bytes per launch (12.5 MB on the H100, 50 MB
// of L2) the copies span less than 4x the L2, and below L2 / 16 (3 MB; 10k p1 triangles move 0.6 MB) they
// fit in it together, so the smallest sizes read and write L2 rather than DRAM. That is part of the
// launch-bound regime; the rot column says how many copies there were.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/kernel_variant.hpp>
#include <feinterp/mesh/atomic_file.hpp>

#include <feinterp/apps/common/benchmark_case.hpp>
#include <feinterp/apps/common/benchmark_run.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/common/selection.hpp>

using namespace feinterp;
namespace cuda = feinterp::backends::cuda;

namespace {

struct Row {
  ElementType type;
  int components;
  Operation op;
  Precision precision;
  offset_t target, elements, nodes;
  int points, elements_per_block, rotations;
  cuda::KernelVariant variant;  // the variant the plan chose for this size
  offset_t bytes;
  tuning::Timing timing;
};

double gbs(offset_t bytes, double ms) { return double(bytes) / (ms * 1e-3) / 1e9; }

// 10k to 10M in half-decade steps, so that the knee between the two regimes shows.
const std::vector<offset_t> default_sizes{10000, 30000, 100000, 300000, 1000000, 3000000, 10000000};
const std::vector<offset_t> quick_sizes{10000, 100000, 1000000};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-bench-scaling: the packed kernel's time against the element count, against copy bandwidth"};
  tuning::Selection selection;
  selection.type_names = {"tri:1", "tet:2", "hex:3"};
  selection.component_names = {"1"};
  selection.generator = "structured";
  selection.add_options(app);
  selection.add_types_option(app);
  selection.add_generator_option(app);
  std::vector<offset_t> sizes;
  app.add_option("--sizes", sizes, "element counts (each mesh has the nearest count its generator makes; default "
                                   "10k, 30k, 100k, ..., 10M; --quick: 10k, 100k, 1M)")
      ->delimiter(',')
      ->check(CLI::Range(offset_t(1), offset_t(1) << 30));
  tuning::BenchmarkRun run{"feinterp-bench-scaling"};
  run.add_options(app);
  CLI11_PARSE(app, argc, argv);
  try {
    // --elements or --orders choose shapes x orders instead of the default list of types.
    if (!app.count("--types") && (app.count("--elements") || app.count("--orders"))) selection.type_names.clear();
    if (app.count("--size"))
      throw std::invalid_argument("--size sets one mesh size; feinterp-bench-scaling takes a list: --sizes");
    selection.finish(run.repeats);
    if (sizes.empty()) sizes = selection.quick ? quick_sizes : default_sizes;
    const double copy = run.start();
    const cuda::DeviceInfo& device = cuda::current_device();

    std::vector<Row> rows;
    for (ElementType type : selection.types) {
      const PointSet points = selection.point_set(type);
      for (offset_t size : sizes) {
        selection.elements = size;
        const tuning::GeneratedBlock mesh = tuning::generate_block_verbosely(type, selection);
        for (int C : selection.component_counts(type))
          for (Operation op : selection.operations)
            for (Precision precision : selection.precisions) {
              tuning::BenchmarkCase bench({mesh.block(), &mesh.coordinates(), mesh.node_count(), points, C, op, precision},
                                          selection.seed);
              const tuning::CaseLaunch packed{cuda::Kernel::packed, 0};
              const cuda::LaunchConfig config = bench.launch_config(packed);
              Row row{type,   C, op, precision, size, mesh.element_count(), mesh.node_count(), points.size(),
                      config.elements_per_block, bench.rotations(), config.variant, bench.minimal_bytes(), {}};
              row.timing = bench.time(packed, run.warmup, run.repeats, run.issue);
              rows.push_back(row);
              std::fprintf(stderr, "  C=%d %s %s: %10.1f us  %5.1f%% of copy  (%s, %d/block, %d copies)\n", C,
                           operation_name(op), precision_name(precision), row.timing.median_ms * 1e3,
                           100.0 * gbs(row.bytes, row.timing.median_ms) / copy, tuning::kernel_variant_name(row.variant),
                           row.elements_per_block, row.rotations);
            }
      }
    }

    std::printf("\n%s, copy bandwidth %.0f GB/s; %s meshes, %s numbering, %s points; kernel-only times, medians over %d "
                "batches of 10 back-to-back launches, %s\n",
                device.name.c_str(), copy, selection.generator.c_str(), feinterp::app::numbering_name(selection.numbering),
                selection.points_name.c_str(), run.repeats, tuning::batch_issue_name(run.issue));
    std::printf("%-15s %2s %-19s %4s %10s %4s %10s %11s %8s %7s %11s %-18s %5s %4s\n", "element", "C", "operation", "prec",
                "elements", "Q", "MB", "us", "GB/s", "%copy", "us/1M elem", "variant", "e/blk", "rot");
    std::ostringstream csv;
    csv << "# feinterp-bench-scaling, device " << device.name << ", compute capability " << device.compute_capability()
        << ", driver " << device.driver_version << ", runtime " << device.runtime_version << ", git "
        << feinterp::app::git_revision() << ", meshes " << selection.generator << ", numbering "
        << feinterp::app::numbering_name(selection.numbering) << ", batches " << tuning::batch_issue_name(run.issue) << "\n";
    csv << "element,order,components,operation,precision,points,target_elements,elements,nodes,minimal_bytes,rotations,"
           "variant,elements_per_block,median_us,min_us,max_us,gbs,copy_gbs,fraction_of_copy,us_per_million_elements,"
           "host_us_per_call\n";
    for (const Row& r : rows) {
      const double us = r.timing.median_ms * 1e3, rate = gbs(r.bytes, r.timing.median_ms);
      const double per_million = us / (double(r.elements) / 1e6);
      std::printf("%-15s %2d %-19s %4s %10lld %4d %10.1f %11.1f %8.0f %6.1f%% %11.1f %-18s %5d %4d\n",
                  to_string(r.type).c_str(), r.components, operation_name(r.op), precision_name(r.precision),
                  (long long)r.elements, r.points, r.bytes / 1e6, us, rate, 100 * rate / copy, per_million,
                  tuning::kernel_variant_name(r.variant), r.elements_per_block, r.rotations);
      csv << shape_name(r.type.shape) << ',' << r.type.order << ',' << r.components << ',' << operation_name(r.op) << ','
          << precision_name(r.precision) << ',' << r.points << ',' << r.target << ',' << r.elements << ',' << r.nodes << ','
          << r.bytes << ',' << r.rotations << ',' << tuning::kernel_variant_name(r.variant) << ','
          << r.elements_per_block << ',' << us << ',' << r.timing.min_ms * 1e3
          << ',' << r.timing.max_ms * 1e3 << ',' << rate << ',' << copy << ',' << rate / copy << ',' << per_million << ','
          << r.timing.host_us << '\n';
    }
    if (!run.csv_path.empty()) write_file_atomically(run.csv_path, csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-bench-scaling: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
