// SPDX-License-Identifier: BSD-3-Clause
// Essential (Dirichlet) boundary conditions on a MeshOperator's fused operators, in the "apply, then fix"
// form (MFEM's ConstrainedOperator, deal.II's constrained matrix-free operators): with D the constrained
// nodes (every component of each) and A the mass or diffusion operator,
//
//   A_c u = A (u with u_D = 0), then (A_c u)_D = u_D
//
// which is A with the rows and columns of D replaced by the identity's: symmetric when A is, and positive
// definite when A is on the free nodes (diffusion with at least one constrained node per connected part).
// To solve A u = b with u_D = g_D, solve A_c u = b_c with b_c = eliminate(g, b): b - A g_D on the free rows,
// g_D on D. The nodes come from the mesh boundary (fem/boundary.hpp) or a physical group
// (mesh/physical_group_nodes.hpp).
//
//   const ConstrainedOperator<double> a(op, boundary_nodes(views, n));
//   a.eliminate(FusedOperator::diffusion, {g, n, 1}, {b, n});     // b <- b_c
//   a.apply(FusedOperator::diffusion, {u, n, 1}, {r, n});         // r = A_c u, inside CG
//
// On a cuda executor the node list and a workspace of node_count * C values live on its device, and every
// call is kernels on its stream (no synchronisation). Calls share the workspace: one at a time per object.
#pragma once

#include <vector>

#include <feinterp/core/operation.hpp>
#include <feinterp/interpolator/executor_array.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>

namespace feinterp {

template <class Real>
class ConstrainedOperator {
 public:
  /// Constrains `nodes` (host memory, in [0, node_count), duplicates merged) of `op`, which must outlive
  /// this, for fields of `components` components. Throws std::invalid_argument naming a node out of range.
  ConstrainedOperator(const MeshOperator<Real>& op, std::vector<node_index> nodes, int components = 1);

  const MeshOperator<Real>& mesh_operator() const { return *op_; }
  /// The constrained nodes, ascending, each once.
  const std::vector<node_index>& nodes() const { return nodes_; }
  int components() const { return components_; }

  /// r = A_c u (node_count * C values each, C = components()).
  void apply(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
             BasicCoefficientView<Real> coefficient = {}) const;

  /// A_c's diagonal: A's (MeshOperator::operator_diagonal), 1 on the constrained nodes.
  void diagonal(FusedOperator op, BasicOutputView<Real> d, BasicCoefficientView<Real> coefficient = {}) const;

  /// b <- b_c for the boundary values in `g` (a nodal vector; its constrained entries are read): b - A g_D
  /// on the free rows, g_D on the constrained ones.
  void eliminate(FusedOperator op, BasicFieldView<Real> g, BasicOutputView<Real> b,
                 BasicCoefficientView<Real> coefficient = {}) const;

 private:
  void check(const char* call, const char* name, std::size_t size, int components) const;
  // target at the constrained nodes = source ? scale * source : value (every component).
  void assign_at_nodes(Real* target, const Real* source, Real scale, Real value) const;

  const MeshOperator<Real>* op_;
  int components_;
  std::vector<node_index> nodes_;
  ExecutorArray<node_index> executor_nodes_;
  mutable ExecutorArray<Real> work_;
};

}  // namespace feinterp
