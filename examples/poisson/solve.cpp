// SPDX-License-Identifier: BSD-3-Clause
#include "solve.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/physical_group_nodes.hpp>

#include "manufactured.hpp"
#include "poisson_operator.hpp"

namespace poisson {

using namespace feinterp;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A forward operation of a nodal field (C components) over every block, brought to the host.
std::vector<double> forward_to_host(const MeshOperator<double>& op, Operation forward, const double* field, int C,
                                    std::vector<double>* detj = nullptr) {
  ExecutorArray<double> out(op.executor(), op.output_size(forward, C));
  ExecutorArray<double> det(op.executor(), detj ? op.detj_size() : 0);
  op.interpolate(forward, {field, std::size_t(op.node_count()) * std::size_t(C), C}, {out.data(), out.size()},
                 {det.data(), det.size()});
  op.check();
  if (detj) *detj = det.to_vector();
  return out.to_vector();
}

// Every block's points' coordinates, on the host.
std::vector<double> points_to_host(const MeshOperator<double>& op) {
  ExecutorArray<double> x(op.executor(), op.output_size(Operation::values, 3));
  op.point_coordinates({x.data(), x.size()});
  return x.to_vector();
}

// b_i = integral of phi_i g for g given at every block's points (host), where the operator computes.
void integrate_at_points(const MeshOperator<double>& op, const std::vector<double>& g_points, double* b) {
  const ExecutorArray<double> g(op.executor(), g_points);
  op.integrate(Operation::values, {g.data(), g.size(), 1}, {b, std::size_t(op.node_count())},
               TransposeOptions{TransposeTarget::nodes, /*weighted=*/true, /*accumulate=*/false});
}

// Seconds per call of `call`, the device synchronised around each batch (plan.check()): batches of
// doubling size until one lasts `min_seconds`, after one untimed warm-up call.
template <class Call>
double seconds_per_call(const MeshOperator<double>& op, const Call& call, double min_seconds) {
  call();
  op.check();
  for (int calls = 1;; calls *= 2) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < calls; ++i) call();
    op.check();
    const double elapsed = seconds_since(start);
    if (elapsed >= min_seconds || calls >= (1 << 20)) return elapsed / calls;
  }
}

}  // namespace

CaseResult solve_case(const CaseOptions& options) {
  CaseResult result;
  result.type = options.type;

  // ---- the mesh: the unit ball, with the elements' order of geometry and its boundary group ---------
  GenerateOptions generate{options.type, options.target_elements, options.seed};
  generate.domain = Domain::ball;
  generate.boundary = true;
  const Mesh mesh = generate_mesh(generate);
  const std::size_t n = std::size_t(mesh.node_count());
  const std::vector<node_index> dirichlet = physical_group_nodes(mesh, boundary_group_name);
  result.dirichlet = offset_t(dirichlet.size());
  result.dofs = mesh.node_count();

  // ---- the operators, where they compute: every block of the ball's dimension, at the operator's rule
  // and at the error's (degree 2p + 2) ----------------------------------------------------------------------
  const Executor executor = options.executor;
  InterpolatorOptions operator_options;
  operator_options.executor = executor;
  operator_options.summation = options.summation;
  const int p = options.type.order;
  std::vector<ExecutorArray<node_index>> connectivities;
  std::vector<OperatorBlock> blocks, error_blocks;
  for (const ElementBlock& b : mesh.blocks) {
    if (dimension(b.type.shape) != mesh.dimension) continue;
    connectivities.emplace_back(executor, b.connectivity);
    const BlockView view{b.type, connectivities.back().data(), b.element_count()};
    blocks.push_back({view, quadrature_rule(b.type.shape, 2 * p)});
    error_blocks.push_back({view, quadrature_rule(b.type.shape, 2 * p + 2)});
    result.elements += b.element_count();
    result.points = blocks.back().points.size();
  }
  result.h = std::cbrt(4.0 * M_PI / 3.0 / double(result.elements));
  const ExecutorArray<double> coordinates(executor, mesh.coordinates);
  const MeshOperator<double> op(blocks, mesh.node_count(), coordinates.data(), operator_options);
  const ConstrainedOperator<double> constrained(op, dirichlet);
  const auto ops = vector_ops(executor);

  // ---- kappa and f at the points, from the points' coordinates; b_i = integral of phi_i f ----------------
  const std::vector<double> x_points = points_to_host(op);
  std::vector<double> kappa_points(x_points.size() / 3), f_points(kappa_points.size());
  for (std::size_t i = 0; i < f_points.size(); ++i) {
    kappa_points[i] = kappa(&x_points[3 * i]);
    f_points[i] = source(&x_points[3 * i]);
  }
  const ExecutorArray<double> kappa_array(executor, kappa_points);
  const BasicCoefficientView<double> kappa_view{kappa_array.data(), kappa_array.size(), CoefficientShape::scalar};
  const PoissonOperator A(op, constrained, kappa_view);
  ExecutorArray<double> b(executor, n);
  integrate_at_points(op, f_points, b.data());

  // ---- the boundary values: g = the exact solution at every node (only the Dirichlet ones are read);
  // b_c = b - A g_D on the free rows, g_D on the Dirichlet ones; then CG on A_c u = b_c ----------------------
  std::vector<double> g_host(n);
  for (std::size_t i = 0; i < n; ++i) g_host[i] = exact_solution(&mesh.coordinates[3 * i]);
  const ExecutorArray<double> g(executor, g_host);
  constrained.eliminate(FusedOperator::diffusion, {g.data(), n, 1}, {b.data(), n}, kappa_view);
  ExecutorArray<double> u(executor, n), scratch(executor, n);
  const Clock::time_point solve_start = Clock::now();
  result.cg = conjugate_gradients([&](const double* in, double* out) { A.apply(in, out); }, *ops, executor, b.data(),
                                  u.data(), n, options.cg);
  op.check();
  result.solve_seconds = seconds_since(solve_start);

  // ---- the L2 projection of the exact solution: M w = integral of phi_i u, by CG on the mass operator ----
  std::vector<double> u_points(f_points.size());
  for (std::size_t i = 0; i < u_points.size(); ++i) u_points[i] = exact_solution(&x_points[3 * i]);
  ExecutorArray<double> projection(executor, n), m(executor, n);
  integrate_at_points(op, u_points, m.data());
  result.projection_cg = conjugate_gradients(
      [&](const double* in, double* out) { op.apply_operator(FusedOperator::mass, {in, n, 1}, {out, n}); }, *ops,
      executor, m.data(), projection.data(), n, options.cg);
  op.check();

  // ---- the errors, with a finer rule: u_h, grad u_h and det J at its points, and the points ------------
  {
    const MeshOperator<double> error_op(error_blocks, mesh.node_count(), coordinates.data(), operator_options);
    std::vector<double> detj;
    const std::vector<double> uh = forward_to_host(error_op, Operation::values, u.data(), 1);
    const std::vector<double> grad = forward_to_host(error_op, Operation::physical_gradients, u.data(), 1, &detj);
    const std::vector<double> ph = forward_to_host(error_op, Operation::values, projection.data(), 1);
    const std::vector<double> xq = points_to_host(error_op);
    double l2 = 0, h1 = 0, projection_l2 = 0;
    std::size_t at = 0;
    for (std::size_t block = 0; block < error_blocks.size(); ++block) {
      const PointSet& fine = error_blocks[block].points;
      const std::size_t Q = std::size_t(fine.size()), end = at + error_op.plan(block).detj_size();
      for (std::size_t i = at; i < end; ++i) {
        const double w = fine.weights[(i - at) % Q] * std::abs(detj[i]);
        const double exact = exact_solution(&xq[3 * i]), e = uh[i] - exact, e_projection = ph[i] - exact;
        double gradient[3];
        exact_gradient(&xq[3 * i], gradient);
        l2 += w * e * e;
        projection_l2 += w * e_projection * e_projection;
        for (std::size_t k = 0; k < 3; ++k) h1 += w * (grad[3 * i + k] - gradient[k]) * (grad[3 * i + k] - gradient[k]);
      }
      at = end;
    }
    result.l2_error = std::sqrt(l2);
    result.h1_error = std::sqrt(h1);
    result.projection_l2_error = std::sqrt(projection_l2);
  }

  // ---- the operator's speed: what CG applies, fused with kappa = 1, unfused, and the unfused halves -----
  const double t = options.timing_seconds;
  result.apply_seconds = seconds_per_call(op, [&] { A.apply(u.data(), scratch.data()); }, t);
  result.fused_seconds = seconds_per_call(op, [&] { A.apply_fused(u.data(), scratch.data()); }, t);
  result.unfused_seconds = seconds_per_call(op, [&] { A.apply_unfused(u.data(), scratch.data()); }, t);
  result.forward_seconds = seconds_per_call(op, [&] { A.forward(u.data()); }, t);
  result.transpose_seconds = seconds_per_call(op, [&] { A.transpose(scratch.data()); }, t);
  return result;
}

}  // namespace poisson
