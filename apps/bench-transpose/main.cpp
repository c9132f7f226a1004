// SPDX-License-Identifier: BSD-3-Clause
// feinterp-bench-transpose: times the packed transpose kernels (integration back to the nodes) on
// Gmsh-generated meshes, three ways per configuration, and sets each against the device's copy
// bandwidth measured in the same run, each against its own minimal bytes (core/traffic.hpp):
//
//   element vectors       y[e][n][c], no conflicts
//   nodes, atomic         atomicAdd into r[node][c] (the default summation)
//   nodes, deterministic  one launch per element colour, bitwise reproducible
//
// The two nodal results are cross-checked (equal to round-off) before anything is timed. Kernel-only
// times (batches of back-to-back launches, gpu_timing.hpp). Prints a table, writes CSV.
//
//   feinterp-bench-transpose                       12 types (no lines), C = 1 and dim, reference gradients^T, ~1M elements
//   feinterp-bench-transpose --quick --operations transposes --csv transpose.csv
#include <CLI/CLI.hpp>

#include <cstdio>
#include <sstream>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/registry.hpp>
#include <feinterp/mesh/atomic_file.hpp>

#include <feinterp/apps/common/benchmark_case.hpp>
#include <feinterp/apps/common/benchmark_run.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/common/selection.hpp>

using namespace feinterp;
namespace cuda = feinterp::backends::cuda;

namespace {

struct Way {
  const char* name;
  TransposeTarget target;
  Summation summation;
};
constexpr Way ways[] = {{"element_vectors", TransposeTarget::element_vectors, Summation::atomic},
                        {"nodes_atomic", TransposeTarget::nodes, Summation::atomic},
                        {"nodes_deterministic", TransposeTarget::nodes, Summation::deterministic}};

struct Row {
  ElementType type;
  int components;
  Operation op;
  Precision precision;
  offset_t elements, nodes;
  int points, elements_per_block;
  offset_t bytes[3];
  double ms[3], host_us[3];
};

double gbs(offset_t bytes, double ms) { return double(bytes) / (ms * 1e-3) / 1e9; }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-bench-transpose: the transpose kernels (element vectors, atomic and deterministic nodal "
               "sums) against copy bandwidth"};
  tuning::Selection selection;
  selection.shape_names = {"triangle", "quadrilateral", "tetrahedron", "hexahedron"};
  selection.operation_names = {"reference_gradients_transpose"};
  selection.add_options(app);
  selection.add_generator_option(app);
  tuning::BenchmarkRun run{"feinterp-bench-transpose"};
  run.add_options(app);
  CLI11_PARSE(app, argc, argv);
  int& repeats = run.repeats;
  const int warmup = run.warmup;
  const std::string& csv_path = run.csv_path;
  try {
    selection.finish(repeats);
    for (Operation op : selection.operations)
      if (!is_transpose(op))
        throw std::invalid_argument(std::string(operation_name(op)) + " is not a transpose (feinterp-bench times forward operations)");
    const double copy = run.start();
    const cuda::DeviceInfo& device = cuda::current_device();

    std::vector<Row> rows;
    tuning::for_each_generated_mesh(selection, [&](ElementType type, const tuning::GeneratedBlock& mesh,
                                                   const PointSet& points) {
      for (int C : selection.component_counts(type))
        for (Operation op : selection.operations)
          for (Precision precision : selection.precisions) {
            Row row{type, C, op, precision, mesh.element_count(), mesh.node_count(), points.size(), 0, {}, {}, {}};
            std::vector<double> nodal[2];
            for (int w = 0; w < 3; ++w) {
              tuning::CaseSpec spec{mesh.block(), &mesh.coordinates(), mesh.node_count(), points, C, op, precision};
              spec.transpose.target = ways[w].target;
              spec.summation = ways[w].summation;
              tuning::BenchmarkCase bench(spec, selection.seed);
              const tuning::CaseLaunch packed{cuda::Kernel::packed, 0};
              if (w > 0) nodal[w - 1] = bench.result(packed);
              row.elements_per_block = bench.launch_config(packed).elements_per_block;
              const tuning::Timing timing = bench.time(packed, warmup, repeats, run.issue);
              row.bytes[w] = bench.minimal_bytes();
              row.ms[w] = timing.median_ms;
              row.host_us[w] = timing.host_us;
            }
            // Atomic and deterministic sums: the same contributions in another order.
            const double tolerance = precision == Precision::fp64 ? 1e-12 : 1e-4;
            const double difference = max_relative_difference(nodal[0], nodal[1]);
            if (!(difference <= tolerance))
              throw std::runtime_error("atomic and deterministic sums disagree for " + to_string(type) + ", C = " +
                                       std::to_string(C) + ", " + precision_name(precision) + ": relative difference " +
                                       std::to_string(difference));
            rows.push_back(row);
            std::fprintf(stderr, "  C=%d %-29s %s  element vectors %7.3f ms (%5.1f%%)  atomic %7.3f ms (%5.1f%%)  "
                         "deterministic %7.3f ms (%5.1f%%)\n", C, operation_name(op), precision_name(precision),
                         row.ms[0], 100 * gbs(row.bytes[0], row.ms[0]) / copy, row.ms[1],
                         100 * gbs(row.bytes[1], row.ms[1]) / copy, row.ms[2], 100 * gbs(row.bytes[2], row.ms[2]) / copy);
          }
    });

    std::printf("\n%s, copy bandwidth %.0f GB/s; %s points; %s numbering; kernel-only times, medians over %d batches of 10 "
                "back-to-back launches, %s (ms), each way against its own minimal bytes\n",
                device.name.c_str(), copy, selection.points_name.c_str(), feinterp::app::numbering_name(selection.numbering), repeats,
                tuning::batch_issue_name(run.issue));
    std::printf("%-15s %2s %-29s %4s %9s %4s %5s %9s %6s %9s %6s %9s %6s\n", "element", "C", "operation", "prec",
                "elements", "Q", "e/blk", "evec_ms", "%copy", "atomic_ms", "%copy", "determ_ms", "%copy");
    std::ostringstream csv;
    csv << "# feinterp-bench-transpose, device " << device.name << ", compute capability " << device.compute_capability()
        << ", driver " << device.driver_version << ", runtime " << device.runtime_version << ", numbering "
        << feinterp::app::numbering_name(selection.numbering) << ", batches " << tuning::batch_issue_name(run.issue)
        << ", git " << feinterp::app::git_revision() << "\n";
    csv << "element,order,components,operation,precision,elements,nodes,points,elements_per_block,way,minimal_bytes,ms,"
           "gbs,copy_gbs,fraction_of_copy,host_us_per_call\n";
    for (const Row& r : rows) {
      std::printf("%-15s %2d %-29s %4s %9lld %4d %5d", to_string(r.type).c_str(), r.components, operation_name(r.op),
                  precision_name(r.precision), (long long)r.elements, r.points, r.elements_per_block);
      for (int w = 0; w < 3; ++w) {
        const double rate = gbs(r.bytes[w], r.ms[w]);
        std::printf(" %9.3f %5.1f%%", r.ms[w], 100 * rate / copy);
        csv << shape_name(r.type.shape) << ',' << r.type.order << ',' << r.components << ',' << operation_name(r.op)
            << ',' << precision_name(r.precision) << ',' << r.elements << ',' << r.nodes << ',' << r.points << ','
            << r.elements_per_block << ',' << ways[w].name << ',' << r.bytes[w] << ',' << r.ms[w] << ',' << rate << ','
            << copy << ',' << rate / copy << ',' << r.host_us[w] << '\n';
      }
      std::printf("\n");
    }
    if (!csv_path.empty()) write_file_atomically(csv_path, csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-bench-transpose: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
