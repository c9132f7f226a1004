// SPDX-License-Identifier: BSD-3-Clause
// feinterp-cpu-bench: throughput of the CPU interpolation (values, reference gradients, physical
// gradients; C = 1 and C = dimension) on structured blocks built in memory, so that the numbers
// depend on nothing but the library and the machine.
//
//   feinterp-cpu-bench [--case tet:1] [--case hex:2] [--elements 1000000] [--runs 7] [--threads 0]
//                      [--points quadrature|nodes] [--csv FILE]
//
// Blocks: a cube of n^3 cells; tetrahedra split each cell into the 6 tetrahedra of Kuhn's
// subdivision around the main diagonal, hexahedra take one cell each. Nodes lie on the lattice of
// step 1/(n P), numbered x fastest, shared between neighbours; each element's nodes are placed by
// mapping the element's reference nodes (reference_node) into its cell, so the connectivity is in
// Gmsh order by construction. Points: the quadrature rule of degree 2p (default) or the element's
// nodes. Each measurement: one warm-up run, then the median of --runs runs. GB/s counts the minimal
// traffic of traffic.hpp, not what the caches actually move.
#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/elements/elements.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/core/traffic.hpp>

#include "../common/build_info.hpp"

using namespace feinterp;

namespace {

struct Mesh {
  ElementType type;
  offset_t node_count = 0;
  std::vector<node_index> connectivity;
  std::vector<double> coordinates;
  offset_t elements() const { return offset_t(connectivity.size()) / nodes_per_element(type); }
};

// Kuhn's 6 tetrahedra of the unit cube: vertices 0, e_a, e_a + e_b, (1,1,1) for each permutation
// (a, b, c) of the axes; odd permutations have negative volume and get vertices 1 and 2 swapped.
std::array<std::array<std::array<double, 3>, 4>, 6> kuhn_tetrahedra() {
  std::array<std::array<std::array<double, 3>, 4>, 6> tets{};
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int t = 0; t < 6; ++t) {
    std::array<std::array<double, 3>, 4> v{};
    v[1][perms[t][0]] = 1;
    v[2] = v[1];
    v[2][perms[t][1]] = 1;
    v[3] = {1, 1, 1};
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; ++k) a[k] = v[1][k], b[k] = v[2][k], c[k] = v[3][k];
    const double volume = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                          a[2] * (b[0] * c[1] - b[1] * c[0]);
    if (volume < 0) std::swap(v[1], v[2]);
    tets[t] = v;
  }
  return tets;
}

Mesh structured_block(ElementType type, offset_t target_elements) {
  if (type.shape != Shape::tetrahedron && type.shape != Shape::hexahedron)
    throw std::invalid_argument("the benchmark builds tetrahedra and hexahedra only, not " + to_string(type));
  const int per_cell = type.shape == Shape::tetrahedron ? 6 : 1;
  const offset_t n = std::max<offset_t>(1, offset_t(std::llround(std::cbrt(double(target_elements) / per_cell))));
  const int P = type.order;
  const offset_t L = n * P + 1;  // lattice points per axis
  Mesh mesh;
  mesh.type = type;
  mesh.node_count = L * L * L;
  mesh.coordinates.resize(std::size_t(mesh.node_count) * 3);
  for (offset_t k = 0; k < L; ++k)
    for (offset_t j = 0; j < L; ++j)
      for (offset_t i = 0; i < L; ++i) {
        double* x = &mesh.coordinates[std::size_t((k * L + j) * L + i) * 3];
        x[0] = double(i) / double(L - 1), x[1] = double(j) / double(L - 1), x[2] = double(k) / double(L - 1);
      }
  const auto tets = kuhn_tetrahedra();
  visit(type, [&](auto element) {
    using Element = decltype(element);
    constexpr int N = Element::nodes_per_element;
    mesh.connectivity.reserve(std::size_t(n * n * n * per_cell * N));
    for (offset_t ck = 0; ck < n; ++ck)
      for (offset_t cj = 0; cj < n; ++cj)
        for (offset_t ci = 0; ci < n; ++ci)
          for (int t = 0; t < per_cell; ++t)
            for (int node = 0; node < N; ++node) {
              double xi[3] = {0, 0, 0}, local[3];
              Element::reference_node(node, xi);
              if constexpr (Element::simplex) {
                const auto& v = tets[t];
                for (int k = 0; k < 3; ++k)
                  local[k] = v[0][k] + xi[0] * (v[1][k] - v[0][k]) + xi[1] * (v[2][k] - v[0][k]) +
                             xi[2] * (v[3][k] - v[0][k]);
              } else {
                for (int k = 0; k < 3; ++k) local[k] = (xi[k] + 1.0) / 2.0;
              }
              const offset_t i = ci * P + std::llround(local[0] * P), j = cj * P + std::llround(local[1] * P),
                             k = ck * P + std::llround(local[2] * P);
              mesh.connectivity.push_back(node_index((k * L + j) * L + i));
            }
  });
  return mesh;
}

struct Row {
  std::string type, operation, points;
  int components, Q;
  offset_t elements;
  double seconds, elements_per_second, gigabytes_per_second;
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
  std::string points_kind = "quadrature", csv;
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
    } else if (arg == "--csv") {
      csv = next();
    } else {
      std::fprintf(stderr,
                   "usage: feinterp-cpu-bench [--case tet:1] [--case hex:2] [--elements N] [--runs R] "
                   "[--threads T] [--points quadrature|nodes] [--csv FILE]\n");
      return arg == "--help" ? 0 : 2;
    }
  }
  if (cases.empty()) cases = {{Shape::tetrahedron, 1}, {Shape::hexahedron, 2}};

  // The count the plans use (0: FEINTERP_NUM_THREADS, OMP_NUM_THREADS, the CPUs available); throws for a
  // bad one before any mesh is built.
  std::printf("%s (fewer on blocks under 1024 elements per thread)\n", describe_executor(Executor::cpu, threads).c_str());
  std::vector<Row> rows;
  std::printf("%-16s %-20s %2s %3s %9s %10s %12s %8s\n", "element", "operation", "C", "Q", "elements", "ms",
              "elements/s", "GB/s");
  for (ElementType type : cases) {
    const Mesh mesh = structured_block(type, target);
    const PointSet points = points_kind == "nodes" ? element_nodes(type) : quadrature_rule(type.shape, 2 * type.order);
    const int D = dimension(type.shape), N = nodes_per_element(type), Q = points.size();
    const BlockView block{type, mesh.connectivity.data(), mesh.elements()};
    InterpolatorOptions options;
    options.executor = Executor::cpu;
    options.threads = threads;
    const Interpolator<double> plan(block, mesh.node_count, points, mesh.coordinates.data(), options);
    std::mt19937_64 random(12345);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> field(std::size_t(mesh.node_count) * D);
    for (double& v : field) v = uniform(random);
    std::vector<double> out(plan.output_size(Operation::physical_gradients, D));
    std::vector<double> detj(plan.detj_size());
    for (int C : {1, D}) {
      const FieldView u{field.data(), std::size_t(mesh.node_count) * C, C};
      for (Operation op : forward_operations) {
        const OutputView o{out.data(), out.size()};
        const double seconds = median_seconds(runs, [&] { plan.apply(op, u, o, {detj.data(), detj.size()}); });
        const double bytes = double(minimal_bytes(op, block.element_count, N, mesh.node_count, Q, C, D, D));
        Row row{to_string(type), operation_name(op), points.name, C, Q, block.element_count, seconds,
                double(block.element_count) / seconds, bytes / seconds / 1e9};
        std::printf("%-16s %-20s %2d %3d %9lld %10.2f %12.4g %8.2f\n", row.type.c_str(), row.operation.c_str(), C, Q,
                    static_cast<long long>(row.elements), seconds * 1e3, row.elements_per_second,
                    row.gigabytes_per_second);
        std::fflush(stdout);
        rows.push_back(row);
      }
    }
  }
  if (!csv.empty()) {
    std::ofstream file(csv);
    if (!file) {
      std::fprintf(stderr, "cannot write %s\n", csv.c_str());
      return 1;
    }
    file << "element,operation,points,components,Q,elements,seconds,elements_per_second,GB_per_second\n";
    for (const Row& r : rows)
      file << r.type << ',' << r.operation << ",\"" << r.points << "\"," << r.components << ',' << r.Q << ','
           << r.elements << ',' << r.seconds << ',' << r.elements_per_second << ',' << r.gigabytes_per_second << '\n';
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
