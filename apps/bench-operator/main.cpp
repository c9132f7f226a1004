// SPDX-License-Identifier: BSD-3-Clause
// feinterp-bench-operator: the fused FEM operators (Interpolator::apply_operator: mass and diffusion, with
// the geometry precomputed by the plan or computed at every call: --geometry) on generated meshes, in GDoF/s and against the device's copy
// bandwidth measured in the same run, and the cost of many blocks: the same mesh as one MeshOperator block
// and split into --blocks blocks of consecutive elements, which MeshOperator computes as one run (one plan,
// one launch: interpolator/mesh_operator.hpp); the runs column says how many it made.
//
// The operator's minimal bytes: the field read and the result written once (node_count * C reals each),
// the coordinates read once (3 reals per node) or, where the plan precomputed the geometry, its factors
// (Q or Q d(d+1)/2 reals per element), and the connectivity once (4 bytes per element node); the
// clearing of the result and the atomic additions' reads are the implementation's. The split operator's
// result is checked against the single block's before anything is timed. Kernel-only times (batches of
// back-to-back calls, gpu_timing.hpp). Prints a table, writes CSV.
//
//   feinterp-bench-operator --generator structured --size 3000000 --elements hex,tet
//   feinterp-bench-operator --quick --csv operator.csv
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <sstream>
#include <vector>

#include <feinterp/core/precision.hpp>
#include <feinterp/core/traffic.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>
#include <feinterp/mesh/atomic_file.hpp>

#include <feinterp/apps/common/benchmark_run.hpp>
#include <feinterp/apps/common/gpu_timing.hpp>
#include <feinterp/apps/common/relative_difference.hpp>

using namespace feinterp;

namespace {

const char* geometry_name(OperatorGeometry g) { return g == OperatorGeometry::precomputed ? "precomputed" : "on_the_fly"; }

struct Row {
  ElementType type;
  FusedOperator op;
  OperatorGeometry geometry;
  Precision precision;
  int components, points, blocks, runs;
  offset_t elements, nodes;
  std::size_t minimal_bytes;
  double ms, split_ms, host_us;
};

template <class Real>
Row measure(ElementType type, const tuning::GeneratedBlock& mesh, const PointSet& points, FusedOperator op, int C,
            int blocks, OperatorGeometry geometry, const tuning::BenchmarkRun& run) {
  const Executor executor = Executor::cuda();
  const BlockView host = mesh.block();
  const offset_t n = mesh.node_count(), E = host.element_count;
  const int N = nodes_per_element(type);
  const ExecutorArray<node_index> connectivity(
      executor, std::vector<node_index>(host.connectivity, host.connectivity + std::size_t(E) * N));
  const ExecutorArray<Real> x(executor, std::vector<Real>(mesh.coordinates().begin(), mesh.coordinates().end()));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Real> u_host(std::size_t(n) * C);
  for (Real& v : u_host) v = Real(unit(rng));
  const ExecutorArray<Real> u(executor, u_host);
  ExecutorArray<Real> r(executor, u_host.size()), r_split(executor, u_host.size());

  BlockView whole = host;
  whole.connectivity = connectivity.data();
  InterpolatorOptions options;
  options.executor = executor;
  options.operator_geometry = geometry;
  const MeshOperator<Real> one(std::vector<OperatorBlock>{{whole, points}}, n, x.data(), options);
  std::vector<OperatorBlock> parts;
  for (int b = 0; b < blocks; ++b) {
    const offset_t first = E * b / blocks, last = E * (b + 1) / blocks;
    BlockView part = whole;
    part.connectivity = connectivity.data() + first * N;
    part.element_count = last - first;
    part.element_tags = nullptr;
    parts.push_back({part, points});
  }
  const MeshOperator<Real> split(parts, n, x.data(), options);

  const BasicFieldView<Real> field{u.data(), u.size(), C};
  one.apply_operator(op, field, {r.data(), r.size()});
  split.apply_operator(op, field, {r_split.data(), r_split.size()});
  one.check();
  const std::vector<Real> a = r.to_vector(), b = r_split.to_vector();
  const double difference = max_relative_difference(std::vector<double>(a.begin(), a.end()),
                                                    std::vector<double>(b.begin(), b.end()));
  if (!(difference <= (sizeof(Real) == 8 ? 1e-12 : 1e-4)))
    throw std::runtime_error("the split operator disagrees with the single block for " + to_string(type) +
                             ": relative difference " + std::to_string(difference));

  const tuning::Timing whole_time = tuning::time_launches(
      [&](int) { one.apply_operator(op, field, {r.data(), r.size()}); }, run.warmup, run.repeats, 10, nullptr, run.issue);
  const tuning::Timing split_time = tuning::time_launches(
      [&](int) { split.apply_operator(op, field, {r_split.data(), r_split.size()}); }, run.warmup, run.repeats, 10,
      nullptr, run.issue);
  // Precomputed geometry: the factors replace the coordinates where the plan reads them (quadrilaterals
  // and hexahedra, the sum-factorised kernels; core/operation.hpp's OperatorGeometry).
  const bool tensor = type.shape == Shape::quadrilateral || type.shape == Shape::hexahedron;
  if (!tensor) geometry = OperatorGeometry::on_the_fly;  // what the plan does: the row says so
  const std::size_t bytes = std::size_t(operator_minimal_bytes(op, E, N, n, points.size(), C, dimension(type.shape),
                                                               precision_of<Real>(),
                                                               geometry == OperatorGeometry::precomputed));
  return {type, op, geometry, precision_of<Real>(), C, points.size(), blocks, int(split.run_count()), E, n, bytes,
          whole_time.median_ms, split_time.median_ms, whole_time.host_us};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-bench-operator: the fused mass and diffusion operators in GDoF/s and against copy bandwidth, "
               "and the cost of many blocks"};
  tuning::Selection selection;
  selection.shape_names = {"tetrahedron", "hexahedron"};
  selection.component_names = {"1"};
  selection.points_name = "quadrature";
  selection.add_options(app);
  selection.add_types_option(app);
  selection.add_generator_option(app);
  std::vector<std::string> operator_names{"mass", "diffusion"};
  app.add_option("--operators", operator_names, "mass, diffusion")->delimiter(',')->check(CLI::IsMember({"mass", "diffusion"}));
  std::vector<std::string> geometry_names{"precomputed"};
  app.add_option("--geometry", geometry_names, "precomputed, on_the_fly: where the fused operators take J from")
      ->delimiter(',')
      ->check(CLI::IsMember({"precomputed", "on_the_fly"}));
  int blocks = 50;
  app.add_option("--blocks", blocks, "blocks the split operator has (consecutive elements)")->check(CLI::Range(1, 100000));
  tuning::BenchmarkRun run{"feinterp-bench-operator"};
  run.add_options(app);
  CLI11_PARSE(app, argc, argv);
  try {
    selection.finish(run.repeats);
    const double copy = run.start();
    const backends::cuda::DeviceInfo& device = backends::cuda::current_device();
    std::vector<Row> rows;
    tuning::for_each_generated_mesh(selection, [&](ElementType type, const tuning::GeneratedBlock& mesh,
                                                   const PointSet& points) {
      for (const std::string& name : operator_names)
        for (const std::string& geometry_name : geometry_names)
          for (int C : selection.component_counts(type))
            for (Precision precision : selection.precisions) {
              const FusedOperator op = name == "mass" ? FusedOperator::mass : FusedOperator::diffusion;
              const OperatorGeometry geometry =
                  geometry_name == "precomputed" ? OperatorGeometry::precomputed : OperatorGeometry::on_the_fly;
              // Simplices always compute J on the fly (core/operation.hpp): one row, named so.
              const bool tensor = type.shape == Shape::quadrilateral || type.shape == Shape::hexahedron;
              if (!tensor && geometry == OperatorGeometry::precomputed && geometry_names.size() > 1) continue;
              rows.push_back(precision == Precision::fp64 ? measure<double>(type, mesh, points, op, C, blocks, geometry, run)
                                                          : measure<float>(type, mesh, points, op, C, blocks, geometry, run));
              const Row& r = rows.back();
              std::fprintf(stderr, "  %-9s %-11s C=%d %s  %8.3f ms  %6.2f GDoF/s  %5.1f%% of copy  %d blocks %8.3f ms (%+.1f%%)\n",
                           name.c_str(), geometry_name.c_str(), C, precision_name(precision), r.ms, double(r.nodes) * C / (r.ms * 1e6),
                           100 * double(r.minimal_bytes) / (r.ms * 1e6) / copy, blocks, r.split_ms,
                           100 * (r.split_ms / r.ms - 1));
            }
    });

    std::printf("\n%s, copy bandwidth %.0f GB/s; %s points; %s meshes; kernel-only times, medians over %d batches of 10 "
                "back-to-back calls, %s\n",
                device.name.c_str(), copy, selection.points_name.c_str(), selection.generator.c_str(), run.repeats,
                tuning::batch_issue_name(run.issue));
    std::printf("%-15s %-9s %-11s %2s %4s %9s %9s %4s %9s %8s %6s %6s %4s %9s %7s\n", "element", "operator", "geometry", "C", "prec",
                "elements", "nodes", "Q", "ms", "GDoF/s", "%copy", "blocks", "runs", "split_ms", "extra");
    std::ostringstream csv;
    csv << "# feinterp-bench-operator, device " << device.name << ", compute capability " << device.compute_capability()
        << ", driver " << device.driver_version << ", runtime " << device.runtime_version << ", generator "
        << selection.generator << ", batches " << tuning::batch_issue_name(run.issue) << ", git "
        << feinterp::app::git_revision() << "\n";
    csv << "element,order,operator,geometry,components,precision,elements,nodes,points,minimal_bytes,ms,gdofs,gbs,copy_gbs,"
           "fraction_of_copy,blocks,runs,split_ms,split_extra,host_us_per_call\n";
    for (const Row& r : rows) {
      const double gdofs = double(r.nodes) * r.components / (r.ms * 1e6), rate = double(r.minimal_bytes) / (r.ms * 1e6);
      std::printf("%-15s %-9s %-11s %2d %4s %9lld %9lld %4d %9.3f %8.2f %5.1f%% %6d %4d %9.3f %+6.1f%%\n",
                  to_string(r.type).c_str(), fused_operator_name(r.op), geometry_name(r.geometry), r.components, precision_name(r.precision),
                  (long long)r.elements, (long long)r.nodes, r.points, r.ms, gdofs, 100 * rate / copy, r.blocks, r.runs,
                  r.split_ms, 100 * (r.split_ms / r.ms - 1));
      csv << shape_name(r.type.shape) << ',' << r.type.order << ',' << fused_operator_name(r.op) << ','
          << geometry_name(r.geometry) << ',' << r.components
          << ',' << precision_name(r.precision) << ',' << r.elements << ',' << r.nodes << ',' << r.points << ','
          << r.minimal_bytes << ',' << r.ms << ',' << gdofs << ',' << rate << ',' << copy << ',' << rate / copy << ','
          << r.blocks << ',' << r.runs << ',' << r.split_ms << ',' << r.split_ms / r.ms - 1 << ',' << r.host_us << '\n';
    }
    if (!run.csv_path.empty()) write_file_atomically(run.csv_path, csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-bench-operator: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
