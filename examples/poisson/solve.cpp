// SPDX-License-Identifier: BSD-3-Clause
#include "solve.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/mesh/generate.hpp>

#include "manufactured.hpp"
#include "poisson_operator.hpp"

namespace poisson {

using namespace feinterp;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// 1 on the free nodes, 0 on the nodes of the elements of the physical group named "boundary", found by
// name among the mesh's groups as a FEM code finds its Dirichlet boundary in a file.
std::vector<double> free_node_mask(const Mesh& mesh, offset_t* constrained) {
  const int d = mesh.dimension;
  int tag = 0;
  for (const PhysicalGroup& g : mesh.physical_groups)
    if (g.dimension == d - 1 && g.name == boundary_group_name) tag = g.tag;
  if (tag == 0) throw std::runtime_error("the mesh has no physical group named 'boundary' of dimension " + std::to_string(d - 1));
  std::vector<double> mask(std::size_t(mesh.node_count()), 1.0);
  for (const ElementBlock& b : mesh.blocks) {
    if (dimension(b.type.shape) != d - 1) continue;
    const std::size_t per = std::size_t(nodes_per_element(b.type));
    for (std::size_t e = 0; e < b.element_tags.size(); ++e)
      if (b.physical_tags[e] == tag)
        for (std::size_t k = 0; k < per; ++k) mask[std::size_t(b.connectivity[e * per + k])] = 0.0;
  }
  *constrained = 0;
  for (double m : mask) *constrained += m == 0.0;
  if (*constrained == 0) throw std::runtime_error("the physical group 'boundary' has no nodes");
  return mask;
}

// A forward operation of a nodal field (C components) where the plan computes, brought to the host.
std::vector<double> forward_to_host(const Interpolator<double>& plan, Operation op, const double* field, int C,
                                    std::vector<double>* detj = nullptr) {
  ExecutorArray<double> out(plan.executor(), plan.output_size(op, C));
  ExecutorArray<double> det(plan.executor(), detj ? plan.detj_size() : 0);
  plan.apply(op, {field, std::size_t(plan.node_count()) * std::size_t(C), C}, {out.data(), out.size()},
             {det.data(), det.size()});
  plan.check();
  if (detj) *detj = det.to_vector();
  return out.to_vector();
}

// Seconds per call of `call`, the device synchronised around each batch (plan.check()): batches of
// doubling size until one lasts `min_seconds`, after one untimed warm-up call.
template <class Call>
double seconds_per_call(const Interpolator<double>& plan, const Call& call, double min_seconds) {
  call();
  plan.check();
  for (int calls = 1;; calls *= 2) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < calls; ++i) call();
    plan.check();
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
  const ElementBlock& cells = mesh.blocks.front();
  const std::size_t n = std::size_t(mesh.node_count());
  const std::vector<double> mask = free_node_mask(mesh, &result.dirichlet);
  result.elements = cells.element_count();
  result.dofs = mesh.node_count();
  result.h = std::cbrt(4.0 * M_PI / 3.0 / double(result.elements));

  // ---- the plans, where they compute: the operator's rule and the error's (degree 2p + 2) ------------
  const Executor executor = options.executor;
  const ExecutorArray<node_index> connectivity(executor, cells.connectivity);
  const ExecutorArray<double> coordinates(executor, mesh.coordinates);
  const BlockView block{cells.type, connectivity.data(), cells.element_count()};
  InterpolatorOptions plan_options;
  plan_options.executor = executor;
  plan_options.summation = options.summation;
  const int p = options.type.order;
  const PointSet rule = quadrature_rule(options.type.shape, 2 * p);
  const Interpolator<double> plan(block, mesh.node_count(), rule, coordinates.data(), plan_options);
  result.points = rule.size();
  const PoissonOperator A(plan);
  const auto ops = vector_ops(executor);

  // ---- b_i = integral of phi_i f: f at the physical points (the coordinates interpolated as a
  // 3-component field), then the weighted transpose of the values ------------------------------------
  const std::vector<double> x_points = forward_to_host(plan, Operation::values, coordinates.data(), 3);
  std::vector<double> f_points(x_points.size() / 3);
  for (std::size_t i = 0; i < f_points.size(); ++i) f_points[i] = source(&x_points[3 * i]);
  const ExecutorArray<double> f(executor, f_points), free_mask(executor, mask);
  ExecutorArray<double> b(executor, n);
  plan.apply_transpose(Operation::values, {f.data(), f.size(), 1}, {b.data(), n},
                       TransposeOptions{TransposeTarget::nodes, /*weighted=*/true, /*accumulate=*/false});

  // ---- lifting: u_0 = the exact solution on the boundary nodes, 0 inside; solve A x = b - A u_0 on the
  // free nodes, u = u_0 + x --------------------------------------------------------------------------------
  std::vector<double> lifted(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    if (mask[i] == 0.0) lifted[i] = exact_solution(&mesh.coordinates[3 * i]);
  ExecutorArray<double> u(executor, lifted), Au0(executor, n), x(executor, n);
  A.apply(u.data(), Au0.data());
  ops->axpy(-1.0, Au0.data(), b.data(), n);
  const Clock::time_point solve_start = Clock::now();
  result.cg = conjugate_gradients([&](const double* in, double* out) { A.apply(in, out); }, *ops, executor,
                                  free_mask.data(), b.data(), x.data(), n, options.cg);
  ops->axpy(1.0, x.data(), u.data(), n);
  plan.check();
  result.solve_seconds = seconds_since(solve_start);

  // ---- the error, with a finer rule: u_h, grad u_h and det J at its points, the points from the
  // coordinates --------------------------------------------------------------------------------------------
  {
    const PointSet fine = quadrature_rule(options.type.shape, 2 * p + 2);
    const Interpolator<double> error_plan(block, mesh.node_count(), fine, coordinates.data(), plan_options);
    std::vector<double> detj;
    const std::vector<double> uh = forward_to_host(error_plan, Operation::values, u.data(), 1);
    const std::vector<double> grad = forward_to_host(error_plan, Operation::physical_gradients, u.data(), 1, &detj);
    const std::vector<double> xq = forward_to_host(error_plan, Operation::values, coordinates.data(), 3);
    const std::size_t Q = std::size_t(fine.size());
    double l2 = 0, h1 = 0;
    for (std::size_t i = 0; i < uh.size(); ++i) {
      const double w = fine.weights[i % Q] * std::abs(detj[i]);
      const double e = uh[i] - exact_solution(&xq[3 * i]);
      double g[3];
      exact_gradient(&xq[3 * i], g);
      l2 += w * e * e;
      for (int k = 0; k < 3; ++k) h1 += w * (grad[3 * i + std::size_t(k)] - g[k]) * (grad[3 * i + std::size_t(k)] - g[k]);
    }
    result.l2_error = std::sqrt(l2);
    result.h1_error = std::sqrt(h1);
  }

  // ---- the operator's speed: fused, unfused, and the unfused halves apart -------------------------------
  const double t = options.timing_seconds;
  result.apply_seconds = seconds_per_call(plan, [&] { A.apply(u.data(), Au0.data()); }, t);
  result.unfused_seconds = seconds_per_call(plan, [&] { A.apply_unfused(u.data(), Au0.data()); }, t);
  result.forward_seconds = seconds_per_call(plan, [&] { A.forward(u.data()); }, t);
  result.transpose_seconds = seconds_per_call(plan, [&] { A.transpose(Au0.data()); }, t);
  return result;
}

}  // namespace poisson
