// SPDX-License-Identifier: BSD-3-Clause
// One row of the convergence table: mesh the unit ball, assemble the right-hand side, solve the
// Dirichlet problem -div(kappa grad u) = f by CG with the matrix-free operator, project the exact
// solution by CG on the mass operator, measure both errors against the manufactured solution and time
// the operator.
#pragma once

#include <feinterp/elements/element_type.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include "cg.hpp"

namespace poisson {

struct CaseOptions {
  feinterp::ElementType type{feinterp::Shape::tetrahedron, 1};
  feinterp::offset_t target_elements = 1000;
  feinterp::Executor executor = feinterp::Executor::cpu();  ///< resolved: cpu, or cuda on one device
  CgOptions cg;
  feinterp::Summation summation = feinterp::Summation::atomic;  ///< cuda: how the transposes sum
  double timing_seconds = 0.1;  ///< at least this long timing each of apply, forward and transpose
  unsigned seed = 1;
};

struct CaseResult {
  feinterp::ElementType type;
  feinterp::offset_t elements = 0;
  double h = 0;                     ///< (volume / elements)^(1/3)
  feinterp::offset_t dofs = 0;      ///< nodes, Dirichlet ones included
  feinterp::offset_t dirichlet = 0; ///< nodes of the boundary group
  int points = 0;                   ///< quadrature points per element of the operator
  CgResult cg, projection_cg;       ///< the Dirichlet problem's solve, the mass projection's
  double l2_error = 0, h1_error = 0;  ///< ||u_h - u||_L2, |u_h - u|_H1 (rule of degree 2p + 2)
  double projection_l2_error = 0;   ///< ||P u - u||_L2 of the L2 projection P
  double apply_seconds = 0;         ///< per call, what CG applies: fused diffusion with kappa, constrained
  double fused_seconds = 0;         ///< per call, fused diffusion with kappa = 1
  double unfused_seconds = 0, forward_seconds = 0, transpose_seconds = 0;  ///< per call (kappa = 1): the two calls, each
  double solve_seconds = 0;         ///< the whole CG solve
  double gdofs() const { return double(dofs) / apply_seconds * 1e-9; }
  double unfused_gdofs() const { return double(dofs) / unfused_seconds * 1e-9; }
  double fused_gdofs() const { return double(dofs) / fused_seconds * 1e-9; }
  /// CG's throughput, vector operations included: DoFs times iterations per second, in 10^9.
  double cg_gdofs() const { return double(dofs) * cg.iterations / solve_seconds * 1e-9; }
};

/// Throws std::exception (feinterp's errors, or std::runtime_error) with a one-line message.
CaseResult solve_case(const CaseOptions& options);

}  // namespace poisson
