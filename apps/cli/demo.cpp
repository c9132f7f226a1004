// SPDX-License-Identifier: BSD-3-Clause
// feinterp demo: for each selected element type, a Gmsh mesh of the unit segment/square/cube
// (generate_mesh, Domain::box), a random polynomial field of total degree p in the s coordinates of
// the mesh's space (polynomial.hpp says why every interpolation of it is exact up to round-off on
// these meshes), and the three operations on the chosen device, each checked against the polynomial at
// the physical points x(xi_q):
//   values               u_c(x(xi_q))
//   reference gradients  du_c/dxi_d = sum_k du_c/dx_k (x(xi_q)) dx_k/dxi_d, with dx/dxi of the mesh
//   physical gradients   du_c/dx_k (x(xi_q)) when d = s; for a line (d = 1 < s = 2) the tangential
//                        gradient t (t . grad u_c), t the unit tangent dx/dxi / |dx/dxi|
// x(xi_q) and dx/dxi come from interpolating the node coordinates on the CPU: they depend on the mesh
// only, not on the field or the device under test.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include <feinterp/elements/visit.hpp>
#include <feinterp/core/layout.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/apps/common/relative_difference.hpp>
#include <feinterp/core/traffic.hpp>
#include <feinterp/mesh/generate.hpp>

#include <feinterp/apps/cli/commands.hpp>
#include <feinterp/apps/cli/field_runner.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/cli/json_schemas.hpp>
#include <feinterp/apps/cli/json_document.hpp>
#include <feinterp/apps/cli/json_writer.hpp>
#include <feinterp/apps/cli/polynomial.hpp>
#include <feinterp/apps/common/progress.hpp>

namespace feinterp::app {

void add_demo_options(CLI::App& command, DemoOptions& o) {
  command.add_option("--element", o.shapes,
                     "element shapes: line triangle quadrilateral tetrahedron hexahedron (or tri quad tet hex); "
                     "default all")
      ->delimiter(',');
  command.add_option("--order", o.orders, "element orders 1 2 3; default all")->delimiter(',')->check(CLI::Range(1, 3));
  command.add_option("--components", o.components, "field components C (1 to 9)")->capture_default_str()->check(CLI::Range(1, int(max_components)));
  command.add_option("--size", o.size, "target elements per mesh")->capture_default_str()->check(CLI::Range(1LL, 1LL << 30));
  command.add_option("--quadrature", o.quadrature, "quadrature degree (default 2p)")->check(CLI::Range(0, 100));
  command.add_option("--device", o.device, "cpu, cuda, cuda:N (device N) or auto (the GPU if there is one)")->capture_default_str()
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  command.add_option("--threads", o.threads,
                     "CPU threads (default 0: FEINTERP_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs this "
                     "process may use)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--seed", o.seed, "mesh and coefficient seed")->capture_default_str();
  command.add_option("--repeats", o.repeats, "runs per operation; the fastest is reported")->capture_default_str()->check(CLI::Range(1, 1000));
  command.add_option("--tolerance", o.tolerance, "largest relative error accepted")->capture_default_str()->check(CLI::PositiveNumber);
  command.add_flag("--json", o.json, "print one JSON object instead of the table");
}

namespace {

struct OperationResult {
  double seconds = 0;
  offset_t bytes = 0;
  double error = 0;  ///< max |computed - exact| / max |exact|
};

struct PairResult {
  ElementType type;
  offset_t elements = 0, nodes = 0;
  int points = 0;
  double generate_s = 0;
  OperationResult ops[3];
};

double gbs(offset_t bytes, double seconds) { return seconds > 0 ? double(bytes) / seconds / 1e9 : 0.0; }

PairResult run_pair(ElementType type, const DemoOptions& o, const Device& device) {
  PairResult r;
  r.type = type;
  const int p = type.order, D = dimension(type.shape), C = o.components;
  Progress generating("feinterp", "generating a ~" + std::to_string(o.size) + "-element " + to_string(type) + " mesh");
  GenerateOptions generate;
  generate.type = type;
  generate.target_elements = o.size;
  generate.seed = o.seed;
  generate.domain = Domain::box;
  const Mesh mesh = generate_mesh(generate);
  r.generate_s = generating.finish();
  const auto found = std::find_if(mesh.blocks.begin(), mesh.blocks.end(), [&](const ElementBlock& b) { return b.type == type; });
  if (found == mesh.blocks.end()) throw std::runtime_error("the generated mesh has no " + to_string(type) + " block");
  const BlockView block = found->view();
  const offset_t E = block.element_count, nodes = mesh.node_count();
  const PointSet points = quadrature_rule(type.shape, o.quadrature < 0 ? 2 * p : o.quadrature);
  const int Q = points.size();
  r.elements = E;
  r.nodes = nodes;
  r.points = Q;

  const int S = space_dimension(block);
  const Polynomial polynomial(p, S, C, o.seed * 7919u + unsigned(gmsh_type_code(type)));
  std::vector<double> field(std::size_t(nodes) * std::size_t(C));
  for (offset_t n = 0; n < nodes; ++n) polynomial.evaluate(&mesh.coordinates[std::size_t(3 * n)], &field[std::size_t(n * C)], nullptr);

  // The geometry at the points, on the CPU: x_k(xi_q) and dx_k/dxi_d.
  const feinterp::Interpolator<double> geometry(block, nodes, points, nullptr, {Executor::cpu(), o.threads});
  const FieldView coordinates{mesh.coordinates.data(), mesh.coordinates.size(), 3};
  std::vector<double> x(std::size_t(E * Q * 3)), dx(std::size_t(E * Q * 3 * D));
  geometry.apply(Operation::values, coordinates, {x.data(), x.size()});
  geometry.apply(Operation::reference_gradients, coordinates, {dx.data(), dx.size()});
  const std::size_t EQ = std::size_t(E) * std::size_t(Q);
  std::vector<double> exact_values(EQ * std::size_t(C)), exact_physical(EQ * std::size_t(C * S)),
      exact_reference(EQ * std::size_t(C * D));
  std::vector<double> g(std::size_t(C * S));
  for (std::size_t k = 0; k < EQ; ++k) {
    polynomial.evaluate(&x[3 * k], &exact_values[k * std::size_t(C)], g.data());
    auto jacobian = [&](int i, int d) { return dx[(k * 3 + std::size_t(i)) * std::size_t(D) + std::size_t(d)]; };
    for (int c = 0; c < C; ++c) {
      for (int d = 0; d < D; ++d) {
        double sum = 0;
        for (int i = 0; i < S; ++i) sum += g[std::size_t(c * S + i)] * jacobian(i, d);
        exact_reference[k * std::size_t(C * D) + std::size_t(c * D + d)] = sum;
      }
      double* physical = &exact_physical[k * std::size_t(C * S) + std::size_t(c * S)];
      if (D == S) {
        for (int i = 0; i < S; ++i) physical[i] = g[std::size_t(c * S + i)];
      } else {  // a line: t (t . grad u), t = dx/dxi / |dx/dxi|
        double length2 = 0, along = 0;
        for (int i = 0; i < S; ++i) length2 += jacobian(i, 0) * jacobian(i, 0), along += jacobian(i, 0) * g[std::size_t(c * S + i)];
        for (int i = 0; i < S; ++i) physical[i] = jacobian(i, 0) * along / length2;
      }
    }
  }

  FieldRunner interpolator(device, mesh.coordinates, {field.data(), field.size(), C}, o.threads);
  interpolator.set_block(block, points);
  const Operation operations[3] = {Operation::values, Operation::reference_gradients, Operation::physical_gradients};
  const std::vector<double>* exact[3] = {&exact_values, &exact_reference, &exact_physical};
  std::vector<double> out;
  for (int i = 0; i < 3; ++i) {
    r.ops[i].seconds = interpolator.run(operations[i], out, nullptr, o.repeats);
    r.ops[i].bytes = minimal_bytes(operations[i], E, nodes_per_element(type), nodes, Q, C, D, S);
    r.ops[i].error = max_relative_difference(out, *exact[i]);
  }
  return r;
}

void print_header(const DemoOptions& o, const Device& device) {
  std::printf("feinterp demo on %s: %d-component polynomial fields of degree p, quadrature degree %s, ~%lld elements per mesh\n",
              describe(device, o.threads).c_str(), o.components,
              o.quadrature < 0 ? "2p" : std::to_string(o.quadrature).c_str(), o.size);
  std::printf("times: fastest of %d runs of the %s alone; GB/s: minimal bytes (core/traffic.hpp) / time\n\n", o.repeats,
              on_gpu(device) ? "kernel" : "threaded CPU loop");
  std::printf("%-16s %9s %9s %4s | %-17s | %-17s | %-17s | %-19s\n", "", "", "", "", "      values", " ref. gradients",
              "phys. gradients", " max relative error");
  std::printf("%-16s %9s %9s %4s | %8s %8s | %8s %8s | %8s %8s | %9s %9s\n", "element", "elements", "nodes", "Q", "ms",
              "GB/s", "ms", "GB/s", "ms", "GB/s", "values", "gradients");
}

void print_row(const PairResult& r) {
  std::printf("%-16s %9lld %9lld %4d |", to_string(r.type).c_str(), (long long)r.elements, (long long)r.nodes, r.points);
  for (const OperationResult& op : r.ops) std::printf(" %8.3f %8.2f |", op.seconds * 1e3, gbs(op.bytes, op.seconds));
  std::printf(" %9.1e %9.1e\n", r.ops[0].error, std::max(r.ops[1].error, r.ops[2].error));
  std::fflush(stdout);
}

void print_json(const DemoOptions& o, const Device& device, const std::vector<PairResult>& results, double worst) {
  JsonWriter json(std::cout);
  begin_document(json, json_schema::demo, "demo");
  json.member("device", device_name(device)).member("device_name", describe(device, o.threads));
  if (!on_gpu(device)) json.member("threads", cpu_thread_count(o.threads));
  json.member("components", o.components).member("target_elements", o.size).member("repeats", o.repeats);
  json.key("quadrature_degree");
  if (o.quadrature < 0)
    json.value("2p");
  else
    json.value(o.quadrature);
  json.key("pairs").begin_array();
  const Operation operations[3] = {Operation::values, Operation::reference_gradients, Operation::physical_gradients};
  for (const PairResult& r : results) {
    json.begin_object().member("element", shape_name(r.type.shape)).member("order", r.type.order);
    json.member("elements", (long long)r.elements).member("nodes", (long long)r.nodes).member("points", r.points);
    json.member("generate_s", r.generate_s).key("operations").begin_object();
    for (int i = 0; i < 3; ++i) {
      const OperationResult& op = r.ops[i];
      json.key(operation_name(operations[i])).begin_object().member("seconds", op.seconds);
      json.member("minimal_bytes", (long long)op.bytes).member("gbs", gbs(op.bytes, op.seconds));
      json.member("relative_error", op.error).end_object();
    }
    json.end_object().end_object();
  }
  json.end_array().member("max_relative_error", worst).member("tolerance", o.tolerance);
  json.member("passed", worst <= o.tolerance).end_object();
}

}  // namespace

int run_demo(const DemoOptions& o) {
  std::vector<ElementType> types;
  for (const std::string& name : o.shapes)
    for (int p : o.orders) types.push_back({parse_shape(name), p});
  if (types.empty()) throw std::invalid_argument("demo: no element type selected");
  for (ElementType type : types)
    if (o.quadrature > max_quadrature_degree(type.shape))
      throw std::invalid_argument("--quadrature " + std::to_string(o.quadrature) + ": the highest degree for " +
                                  shape_name(type.shape) + " is " + std::to_string(max_quadrature_degree(type.shape)));
  const Device device = choose_device(o.device);
  describe(device, o.threads);  // a bad --threads or thread variable fails now, before the first mesh
  if (!o.json) print_header(o, device);

  std::vector<PairResult> results;
  double worst = 0;
  std::string worst_pair;
  for (ElementType type : types) {
    results.push_back(run_pair(type, o, device));
    if (!o.json) print_row(results.back());
    for (const OperationResult& op : results.back().ops)
      if (!(op.error <= worst)) {  // NaN counts as worst
        worst = op.error;
        worst_pair = to_string(type);
      }
  }
  if (o.json) print_json(o, device, results, worst);
  if (!(worst <= o.tolerance)) {
    char message[200];
    std::snprintf(message, sizeof message, "demo: relative error %.3g on %s exceeds the tolerance %.3g", worst,
                  worst_pair.c_str(), o.tolerance);
    throw std::runtime_error(message);
  }
  return 0;
}

}  // namespace feinterp::app
