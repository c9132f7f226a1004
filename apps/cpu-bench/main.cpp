// SPDX-License-Identifier: BSD-3-Clause
// feinterp-cpu-bench: throughput of the CPU interpolation (values, reference gradients, physical
// gradients), their transposes into the nodal vector and the fused mass and diffusion operators
// (C = 1 and C = dimension) on structured blocks built in memory, so that the numbers depend on nothing
// but the library and the machine.
//
//   feinterp-cpu-bench [--case tet:1] [--case hex:2] [--elements 1000000] [--runs 7] [--threads 0]
//                      [--points quadrature|nodes] [--geometry precomputed|on_the_fly] [--triad-mib M]
//                      [--csv FILE]
//
// Blocks: the library's structured box (fem/structured_box.hpp) of about --elements elements, any of
// the 15 types: the unit interval, square or cube in n cells per side (2 triangles or 6 Kuhn tetrahedra
// per cell), nodes on the lattice of step 1/(n P), numbered x fastest and shared between neighbours,
// each element's nodes its reference nodes in Gmsh's order. Points: the quadrature rule of degree 2p
// (default) or the element's nodes. Each measurement: one warm-up run, then the median of --runs runs.
// GB/s counts the minimal traffic of traffic.hpp, not what the caches actually move; "triad" is that
// rate over STREAM's triad bandwidth measured first in the same run with the same threads
// (triad_bandwidth.hpp; --triad-mib sets its arrays' size, 0 skips it). GDoF/s: the nodal vector's
// values (nodes x C) per second, the usual rate of a FEM operator. The transposes are unweighted
// (physical gradients' read the coordinates anyway); the fused operators have no coefficient and take
// their geometry as --geometry says (InterpolatorOptions::operator_geometry; default precomputed, whose
// one-time computation the warm-up call absorbs).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/structured_box.hpp>
#include <feinterp/core/traffic.hpp>
#include <feinterp/mesh/atomic_file.hpp>

#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/cpu-bench/triad_bandwidth.hpp>

using namespace feinterp;

namespace {

struct Row {
  std::string type, operation, points;
  int components, Q;
  offset_t elements;
  double seconds, elements_per_second, gigabytes_per_second, share_of_triad, dofs_per_second;
};

template <class F>
double median_seconds(int runs, F&& f) {
  f();  // warm-up: page faults on the output, caches, thread start-up
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

// The whole of `text` as an int, or std::invalid_argument naming the option (std::stoi accepts "4x" and
// its error says only "stoi").
static int parse_int(const std::string& option, const std::string& text) {
  int x = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    throw std::invalid_argument(option + " " + text + ": expected an integer");
  return x;
}

static int run(int argc, char** argv) {
  if (feinterp::app::asked_for_version(argc, argv, "feinterp-cpu-bench")) return 0;
  std::vector<ElementType> cases;
  offset_t target = 1000000;
  int runs = 7, threads = 0;
  long long triad_mib = -1;  // -1: default_triad_bytes()
  std::string points_kind = "quadrature", csv;
  OperatorGeometry geometry = OperatorGeometry::precomputed;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--case") {
      const std::string v = next();
      const auto colon = v.find(':');
      if (colon == std::string::npos) throw std::invalid_argument("--case expects shape:order, e.g. tet:1, got " + v);
      cases.push_back({parse_shape(v.substr(0, colon)), std::stoi(v.substr(colon + 1))});
    } else if (arg == "--elements") {
      target = std::stoll(next());
    } else if (arg == "--runs") {
      runs = std::max(1, std::stoi(next()));
    } else if (arg == "--threads") {
      threads = parse_int(arg, next());
      if (threads < 0) throw std::invalid_argument("--threads " + std::to_string(threads) + ": expected 0 (the default) or more");
    } else if (arg == "--points") {
      points_kind = next();
      if (points_kind != "quadrature" && points_kind != "nodes")
        throw std::invalid_argument("--points expects quadrature or nodes, got " + points_kind);
    } else if (arg == "--geometry") {
      const std::string v = next();
      if (v != "precomputed" && v != "on_the_fly")
        throw std::invalid_argument("--geometry expects precomputed or on_the_fly, got " + v);
      geometry = v == "precomputed" ? OperatorGeometry::precomputed : OperatorGeometry::on_the_fly;
    } else if (arg == "--triad-mib") {
      triad_mib = parse_int(arg, next());
      if (triad_mib < 0) throw std::invalid_argument("--triad-mib " + std::to_string(triad_mib) + ": expected 0 (no triad) or more");
    } else if (arg == "--csv") {
      csv = next();
    } else {
      std::fprintf(stderr,
                   "usage: feinterp-cpu-bench [--case tet:1] [--case hex:2] [--elements N] [--runs R] "
                   "[--threads T] [--points quadrature|nodes] [--geometry precomputed|on_the_fly] [--triad-mib M] "
                   "[--csv FILE]\n");
      return arg == "--help" ? 0 : 2;
    }
  }
  if (cases.empty()) cases = {{Shape::tetrahedron, 1}, {Shape::hexahedron, 2}};

  // The count the plans use (0: FEINTERP_NUM_THREADS, OMP_NUM_THREADS, the CPUs available); throws for a
  // bad one before any mesh is built.
  std::printf("%s (fewer on blocks under 1024 elements per thread)\n", describe_executor(Executor::cpu(), threads).c_str());
  app::TriadBandwidth triad;
  if (triad_mib != 0) {
    triad = app::triad_bandwidth(threads, triad_mib < 0 ? app::default_triad_bytes() : std::size_t(triad_mib) << 20);
    std::printf("triad bandwidth %.2f GB/s (3 arrays of %zu MiB, %d threads, the best of 10 runs)\n",
                triad.gigabytes_per_second, triad.bytes_per_array >> 20, triad.threads);
  }
  std::vector<Row> rows;
  std::printf("%-16s %-28s %2s %3s %9s %10s %12s %8s %6s %7s\n", "element", "operation", "C", "Q", "elements", "ms",
              "elements/s", "GB/s", "triad", "GDoF/s");
  for (ElementType type : cases) {
    const StructuredBox mesh = structured_box(type, structured_box_cells(type, target));
    const PointSet points = points_kind == "nodes" ? element_nodes(type) : quadrature_rule(type.shape, 2 * type.order);
    const BlockView block = mesh.view();
    const int D = dimension(type.shape), S = block.space_dimension, N = nodes_per_element(type), Q = points.size();
    InterpolatorOptions options;
    options.executor = Executor::cpu();
    options.threads = threads;
    options.operator_geometry = geometry;
    const Interpolator<double> plan(block, mesh.node_count(), points, mesh.coordinates.data(), options);
    std::mt19937_64 random(12345);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> field(std::size_t(mesh.node_count()) * D);
    for (double& v : field) v = uniform(random);
    std::vector<double> out(plan.output_size(Operation::physical_gradients, D));
    for (double& v : out) v = uniform(random);  // the transposes' point data
    std::vector<double> result(field.size());
    std::vector<double> detj(plan.detj_size());
    auto measure = [&](const std::string& operation, int C, double bytes, auto&& call) {
      const double seconds = median_seconds(runs, call);
      const double rate = bytes / seconds / 1e9;
      Row row{to_string(type), operation, points.name, C, Q, block.element_count, seconds,
              double(block.element_count) / seconds, rate,
              triad.gigabytes_per_second > 0 ? rate / triad.gigabytes_per_second : 0.0,
              double(mesh.node_count()) * C / seconds};
      std::printf("%-16s %-28s %2d %3d %9lld %10.2f %12.4g %8.2f %5.0f%% %7.3f\n", row.type.c_str(), row.operation.c_str(),
                  C, Q, static_cast<long long>(row.elements), seconds * 1e3, row.elements_per_second,
                  row.gigabytes_per_second, 100 * row.share_of_triad, row.dofs_per_second / 1e9);
      std::fflush(stdout);
      rows.push_back(row);
    };
    for (int C : {1, D}) {
      const FieldView u{field.data(), std::size_t(mesh.node_count()) * C, C};
      const OutputView r{result.data(), std::size_t(mesh.node_count()) * C};
      for (Operation op : forward_operations) {
        const OutputView o{out.data(), out.size()};
        measure(operation_name(op), C, double(minimal_bytes(op, block.element_count, N, mesh.node_count(), Q, C, D, S)),
                [&] { plan.apply(op, u, o, {detj.data(), detj.size()}); });
      }
      for (Operation op : forward_operations) {
        const FieldView f{out.data(), plan.output_size(op, C), C};
        const Operation transpose = transpose_of(op);
        measure(operation_name(transpose), C,
                double(minimal_bytes(transpose, block.element_count, N, mesh.node_count(), Q, C, D, S)),
                [&] { plan.apply_transpose(op, f, r); });
      }
      for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion}) {
        measure(std::string("operator ") + fused_operator_name(op), C,
                double(operator_minimal_bytes(op, block.element_count, N, mesh.node_count(), Q, C, D)),
                [&] { plan.apply_operator(op, u, r); });
      }
    }
  }
  if (!csv.empty()) {
    std::ostringstream file;
    file << "element,operation,points,components,Q,elements,seconds,elements_per_second,GB_per_second,triad_GB_per_second,"
            "share_of_triad,GDoF_per_second\n";
    for (const Row& r : rows)
      file << r.type << ',' << r.operation << ",\"" << r.points << "\"," << r.components << ',' << r.Q << ','
           << r.elements << ',' << r.seconds << ',' << r.elements_per_second << ',' << r.gigabytes_per_second << ','
           << triad.gigabytes_per_second << ',' << r.share_of_triad << ',' << r.dofs_per_second / 1e9 << '\n';
    write_file_atomically(csv, file.str());
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-cpu-bench: error: %s\n", e.what());
  }
  return 1;
}
