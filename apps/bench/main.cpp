// SPDX-License-Identifier: BSD-3-Clause
// feinterp-bench: times the packed kernels (elements_per_block from the tuning table, or the
// heuristic) against the one-element-per-block baseline on generated meshes (Gmsh's, or the structured
// box with --generator structured), and sets both
// against the device's copy bandwidth measured in the same run. Kernel-only times (batches of
// back-to-back launches, gpu_timing.hpp) and, apart, the host's cost of one call. Prints a table,
// writes CSV. --variants runs chosen kernel variants (tuning/kernel_variant.hpp) side by side: one row
// each, where it applies.
//
//   feinterp-bench                       all 15 element types, C = 1 and C = dim, reference gradients, ~1M elements
//   feinterp-bench --quick               ~50k elements, fewer repeats: under a minute
//   feinterp-bench --operations all --csv bench.csv
//   feinterp-bench --numbering shuffled  the nodes in random order (the worst case); rcm or hilbert: that
//                                        shuffled mesh renumbered (apps/common/benchmark_mesh.hpp)
//   feinterp-bench --generator structured --elements hex --orders 3 --size 12000000
//   feinterp-bench --elements hex,quad --points quadrature --variants dense,sum_factorised
//                                        dense against sum-factorised on the same meshes and data
//   feinterp-bench --elements tri,tet --variants dense,dense_tensor_cores
//                                        the dense product on CUDA cores against FP64 tensor cores
//   feinterp-bench --elements tri,tet --components 1 --variants dense,dense_async_gather
//                                        the dense kernel's gather loaded against copied
//   feinterp-bench --elements quad,hex --variants sum_factorised --tensor-strides odd
//                                        the sum-factorised kernel at the smallest odd buffer strides
//                                        (launch/tensor_bank_conflicts.hpp), against the default run
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/registry.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tensor_structure.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/generate.hpp>

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
  offset_t elements, nodes;
  int points, elements_per_block, rotations;
  offset_t bytes;
  double baseline_ms, packed_ms, host_us;
  cuda::KernelVariant variant;  // the variant the packed launch ran
  bool run_time_components;     // its run-time-C kernel, not one compiled for C
};

/// Whether `variant` applies to the configuration on this process's device (the space dimension of the
/// generated meshes is the element's own: only physical gradients read it, and no variant but dense
/// computes them on a 3D surface differently).
bool variant_applies_here(ElementType type, Operation op, const PointSet& points, int C,
                          Precision precision, cuda::KernelVariant variant, std::string* why_not) {
  cuda::LaunchShape shape{type, op, int(points.size()), C, dimension(type.shape) == 3 ? 3 : 2, precision};
  const std::optional<TensorStructure> tensor = tensor_structure(type, points);
  shape.points_per_direction = tensor ? tensor->points_per_direction : 0;
  shape.variant = variant;
  return cuda::variant_applies(shape, cuda::current_device(), why_not);
}

/// A --variants entry: "auto" (the plan's own choice: none) or a variant to force.
std::optional<cuda::KernelVariant> requested_variant(const std::string& name) {
  if (name == "auto") return std::nullopt;
  return tuning::parse_kernel_variant(name);
}

double gbs(offset_t bytes, double ms) { return double(bytes) / (ms * 1e-3) / 1e9; }

/// "3.2e-11": std::to_string prints a difference this small as 0.000000.
std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", x);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-bench: packed kernel vs one-element-per-block baseline, against copy bandwidth"};
  tuning::Selection selection;
  selection.add_options(app);
  selection.add_generator_option(app);
  tuning::BenchmarkRun run{"feinterp-bench"};
  run.add_options(app);
  std::vector<std::string> variant_names{"auto"};
  std::vector<std::string> accepted_variants = tuning::kernel_variant_names();
  accepted_variants.insert(accepted_variants.begin(), "auto");
  app.add_option("--variants", variant_names,
                 "kernel variants of the packed launch, a row each: auto (the plan's choice: table, "
                 "FEINTERP_KERNEL_VARIANT, default), dense, sum_factorised (quadrilaterals and hexahedra at "
                 "tensor-product points), dense_tensor_cores (FP64 values and reference gradients on compute "
                 "capability 8.0+), dense_async_gather (values and reference gradients at C = 1), "
                 "dense_64_registers (FP64 physical gradients of tetrahedra and hexahedra, C = 1..3); skipped, with "
                 "a note, where it does not apply")
      ->delimiter(',')
      ->check(CLI::IsMember(accepted_variants));
  std::string tensor_strides = "counted";
  app.add_option("--tensor-strides", tensor_strides,
                 "the sum-factorised forward kernel's per-element buffer strides: counted (each buffer's residue "
                 "with the fewest bank conflicts, the default) or odd (the smallest odd ones, to measure what the "
                 "count buys)")
      ->check(CLI::IsMember({"counted", "odd"}));
  std::string components_kernel = "compiled";
  app.add_option("--components-kernel", components_kernel,
                 "the packed launch's kernel for the component count: compiled (one specialised on C where C is "
                 "compiled, the run-time-C kernel above: cuda/layout/component_kernels.hpp), run-time (the run-time-C "
                 "kernel at every C) or both (a row each, to compare them)")
      ->check(CLI::IsMember({"compiled", "run-time", "both"}));
  CLI11_PARSE(app, argc, argv);
  std::vector<bool> run_time_kernels;
  if (components_kernel != "run-time") run_time_kernels.push_back(false);
  if (components_kernel != "compiled") run_time_kernels.push_back(true);
  const cuda::TensorStrides strides = tensor_strides == "odd" ? cuda::TensorStrides::odd : cuda::TensorStrides::counted;
  int& repeats = run.repeats;
  const int warmup = run.warmup;
  const std::string& csv_path = run.csv_path;
  try {
    selection.finish(repeats);
    const double copy = run.start();
    const cuda::DeviceInfo& device = cuda::current_device();

    std::vector<Row> rows;
    tuning::for_each_generated_mesh(selection, [&](ElementType type, const tuning::GeneratedBlock& mesh,
                                                   const PointSet& points) {
      for (int C : selection.component_counts(type))
        for (Operation op : selection.operations)
          for (Precision precision : selection.precisions) {
            tuning::BenchmarkCase bench({mesh.block(), &mesh.coordinates(), mesh.node_count(), points, C, op, precision},
                                        selection.seed);
            const tuning::CaseLaunch baseline{cuda::Kernel::baseline, 0};
            const std::vector<double> reference = bench.result(baseline);
            // In FP32 the packed and baseline kernels may differ by their roundings, which physical gradients
            // carry through K = J^-T (cond(J) times larger): bounded by four times the baseline's own FP32
            // error against the FP64 baseline on the same inputs (2.7e-4 for p = 3 quadrilaterals' physical
            // gradients at C = 6, sum-factorised, where a fixed 1e-5 failed), and never below 1e-5.
            double fp32_tolerance = 0;
            if (precision == Precision::fp32) {
              tuning::BenchmarkCase fp64({mesh.block(), &mesh.coordinates(), mesh.node_count(), points, C, op, Precision::fp64},
                                         selection.seed);
              fp32_tolerance = std::max(1e-5, 4 * max_relative_difference(reference, fp64.result(baseline)));
            }
            double baseline_ms = 0;
            for (const std::string& name : variant_names)
            for (bool run_time : run_time_kernels) {
              tuning::CaseLaunch packed{cuda::Kernel::packed, 0, requested_variant(name), strides, run_time};
              std::string why_not;
              if (packed.variant && !variant_applies_here(type, op, points, C, precision, *packed.variant, &why_not)) {
                std::fprintf(stderr, "  C=%d %-19s %s %s: does not apply (%s), skipped\n", C, operation_name(op),
                             precision_name(precision), name.c_str(), why_not.c_str());
                continue;
              }
              const cuda::LaunchConfig config = bench.launch_config(packed);
              const bool sum_factorised = config.variant == cuda::KernelVariant::sum_factorised;
              if (!run_time && components_kernel == "both" && cuda::uses_run_time_components(op, sum_factorised, C, false))
                continue;  // no compiled kernel at this C: the run-time row is the only one
              // The dense kernels compute the same sums in the same order per element as the baseline: equal
              // to rounding of Real. The sum-factorised one sums in another order: within a few roundings of
              // each output's terms, far below these bounds for the generated meshes' fields in [-1, 1].
              // Physical gradients pass through K = J^-T, which multiplies those roundings by cond(J): the
              // sum-factorised and baseline kernels differ by 1.7e-12 on the ~1M-element quad p3 Gmsh
              // mesh (H100), so they get 1e-11.
              const double tolerance = precision == Precision::fp32                  ? fp32_tolerance
                                       : op == Operation::physical_gradients ? 1e-11
                                                                             : 1e-12;
              const double difference = max_relative_difference(bench.result(packed), reference);
              if (!(difference <= tolerance))
                throw std::runtime_error(std::string("packed (") + tuning::kernel_variant_name(config.variant) +
                                         ") and baseline kernels disagree for " + to_string(type) + ", C = " +
                                         std::to_string(C) + ", " + operation_name(op) + ", " +
                                         precision_name(precision) + ": relative difference " +
                                         scientific(difference) + ", expected at most " + scientific(tolerance));
              if (baseline_ms == 0) baseline_ms = bench.time(baseline, warmup, repeats, run.issue).median_ms;
              Row row{type, C, op, precision, mesh.element_count(), mesh.node_count(), points.size(),
                      config.elements_per_block, bench.rotations(), bench.minimal_bytes(), baseline_ms, 0, 0,
                      config.variant, cuda::uses_run_time_components(op, sum_factorised, C, run_time)};
              const tuning::Timing timing = bench.time(packed, warmup, repeats, run.issue);
              row.packed_ms = timing.median_ms;
              row.host_us = timing.host_us;
              rows.push_back(row);
              std::fprintf(stderr, "  C=%d %-19s %s baseline %8.3f ms  packed %8.3f ms (%s%s, %d/block)  %5.1f%% of copy\n",
                           C, operation_name(op), precision_name(precision), row.baseline_ms, row.packed_ms,
                           tuning::kernel_variant_name(row.variant), row.run_time_components ? ", run-time C" : "",
                           row.elements_per_block,
                           100.0 * gbs(row.bytes, row.packed_ms) / copy);
            }
          }
    });

    std::printf("\n%s, copy bandwidth %.0f GB/s; %s points; %s numbering; kernel-only times, medians over %d batches of 10 "
                "back-to-back launches, %s (ms); host: the cost of one call on the host (us)\n",
                device.name.c_str(), copy, selection.points_name.c_str(), feinterp::app::numbering_name(selection.numbering), repeats,
                tuning::batch_issue_name(run.issue));
    std::printf("%-15s %2s %-19s %4s %-19s %-8s %9s %4s %8s %10s %10s %5s %7s %8s %7s %7s %7s\n", "element", "C",
                "operation", "prec", "variant", "C kernel", "elements", "Q", "MB", "baseline", "packed", "e/blk", "speedup",
                "GB/s", "%copy", "base%", "host");
    std::ostringstream csv;
    csv << "# feinterp-bench, device " << device.name << ", compute capability " << device.compute_capability()
        << ", driver " << device.driver_version << ", runtime " << device.runtime_version << ", numbering "
        << feinterp::app::numbering_name(selection.numbering) << ", meshes " << selection.generator
        << ", tensor strides " << tensor_strides << ", batches " << tuning::batch_issue_name(run.issue) << ", git "
        << feinterp::app::git_revision() << "\n";
    csv << "element,order,components,operation,precision,variant,elements,nodes,points,minimal_bytes,rotations,"
           "baseline_ms,packed_ms,elements_per_block,speedup,baseline_gbs,packed_gbs,copy_gbs,baseline_fraction_of_copy,"
           "packed_fraction_of_copy,host_us_per_call,components_kernel\n";
    for (const Row& r : rows) {
      const double packed_gbs = gbs(r.bytes, r.packed_ms), baseline_gbs = gbs(r.bytes, r.baseline_ms);
      const char* components_kernel_name = r.run_time_components ? "run-time" : "compiled";
      std::printf("%-15s %2d %-19s %4s %-19s %-8s %9lld %4d %8.1f %10.3f %10.3f %5d %6.2fx %8.0f %6.1f%% %6.1f%% %7.2f\n",
                  to_string(r.type).c_str(), r.components, operation_name(r.op), precision_name(r.precision),
                  tuning::kernel_variant_name(r.variant), components_kernel_name, (long long)r.elements, r.points, r.bytes / 1e6, r.baseline_ms, r.packed_ms, r.elements_per_block,
                  r.baseline_ms / r.packed_ms, packed_gbs, 100 * packed_gbs / copy, 100 * baseline_gbs / copy, r.host_us);
      csv << shape_name(r.type.shape) << ',' << r.type.order << ',' << r.components << ',' << operation_name(r.op) << ','
          << precision_name(r.precision) << ',' << tuning::kernel_variant_name(r.variant) << ',' << r.elements << ',' << r.nodes << ',' << r.points << ',' << r.bytes
          << ',' << r.rotations << ',' << r.baseline_ms << ',' << r.packed_ms << ',' << r.elements_per_block << ','
          << r.baseline_ms / r.packed_ms << ',' << baseline_gbs << ',' << packed_gbs << ',' << copy << ','
          << baseline_gbs / copy << ',' << packed_gbs / copy << ',' << r.host_us << ',' << components_kernel_name << '\n';
    }
    if (!csv_path.empty()) write_file_atomically(csv_path, csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
