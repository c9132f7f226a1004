// SPDX-License-Identifier: BSD-3-Clause
// The front door: one plan per (block, points, executor, precision), in the spirit of MFEM's
// QuadratureInterpolator and libCEED's CeedBasis.
//
//   const Interpolator<double> plan(block, node_count, quadrature_rule(block.type.shape, 4), coordinates);
//   plan.apply(Operation::physical_gradients, {u, n * C, C}, {out, out_size}, {detj, detj_size});
//   plan.check();   // GPU: waits, and reports a degenerate element met since the last check
//   plan.apply_transpose(Operation::physical_gradients, {g, g_size, C}, {r, n * C}, {.weighted = true});
//
// apply_transpose is the adjoint of apply (integration, libCEED's CEED_TRANSPOSE, deal.II's
// integrate): point data in the layout of the forward operation's output, summed into the nodes, or
// into element vectors; with `weighted`, multiplied by w_q |det J| first (TransposeOptions, core/operation.hpp).
// The CPU sums deterministically (by element colour); a GPU plan sums with atomics unless it was built
// with Summation::deterministic.
//
// The plan checks everything once, at construction: the block (connectivity in range, space dimension,
// z = 0 for a planar block), the points, the executor. A call checks only its arrays (their sizes, that
// outputs overlap no input, and that each lives where the plan computes: host arrays given to a cuda plan,
// or device arrays to a cpu plan, throw std::invalid_argument naming the array) and runs the one
// operation: one switch inside each backend (cpu, cuda).
//
// Executors and memory (interpolator/executor.hpp). `cpu`: host arrays, each call synchronous, a
// degenerate or tangled element (fem/orientation.hpp) throws DegenerateElementError from apply itself.
// `cuda`: arrays on the executor's device (the connectivity, the coordinates, the fields and outputs of
// every call); the plan keeps that device and stream from its construction, and a call is a kernel
// launch on that stream, on that device whatever device is current, and nothing else (no allocation, no
// synchronisation); a degenerate element is recorded on the device and reported by check(), which waits
// for the stream. `automatic` picks cuda when a GPU is usable, else cpu; executor() says which, and
// ExecutorArray (interpolator/executor_array.hpp) puts data where it computes.
//
// Precision: Real is double or float. The field, coordinates and outputs share it; shape functions and
// geometry are computed in double and stored (or combined) in Real.
#pragma once

#include <cstddef>
#include <memory>

#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/interpolator/executor.hpp>
#include <feinterp/interpolator/executor_array.hpp>

namespace feinterp {

/// What a plan is built with. The CUDA backend's tuning knobs (elements per block, kernel variant,
/// the baseline kernel) are not here: benchmarks and tests set them on backends::cuda::PlanOptions.
struct InterpolatorOptions {
  /// Where the plan computes: its kind, and for cuda its device and stream (interpolator/executor.hpp).
  Executor executor = Executor::automatic();
  /// cpu: threads per call; 0 for the default: FEINTERP_NUM_THREADS, else OMP_NUM_THREADS (its first
  /// entry), else the CPUs this process may use (affinity, cgroup v2 quota). A bad variable throws
  /// std::invalid_argument when the plan is built. Blocks under 1024 elements per thread use fewer.
  int threads = 0;
  /// cuda: how nodal transposes sum shared nodes; deterministic colours the elements when the plan is built
  /// (the block's connectivity is copied to the host once for that).
  Summation summation = Summation::atomic;
  /// The fused operators' geometry, precomputed once or computed at every call (core/operation.hpp; on
  /// the CPU for every element type, on the GPU where it has both kernels).
  OperatorGeometry operator_geometry = OperatorGeometry::precomputed;
};

template <class Real>
class Interpolator {
 public:
  /// `block.connectivity` and `coordinates` (x[node*3 + k], needed for physical gradients, may be null)
  /// live where the executor computes (for cuda, on its device). Throws std::invalid_argument naming what
  /// is wrong (a device the machine does not have included), std::runtime_error for cuda without a GPU.
  Interpolator(const BlockView& block, offset_t node_count, const PointSet& points, const Real* coordinates = nullptr,
               const InterpolatorOptions& options = {});

  /// The executor resolved when the plan was built: cpu, or cuda with its device and stream.
  const Executor& executor() const;
  const BlockView& block() const;
  offset_t node_count() const;
  int points() const;
  int space_dimension() const;
  /// Values in the input of `op` for a field of `components` components: node_count * C for a forward
  /// operation, the point data for a transpose (core/layout.hpp).
  std::size_t input_size(Operation op, int components) const;
  /// Values in the output of `op` for a field of `components` components (core/layout.hpp); for a
  /// transpose, into `target`.
  std::size_t output_size(Operation op, int components, TransposeTarget target = TransposeTarget::nodes) const;
  /// Values in a det J output: elements * points.
  std::size_t detj_size() const;

  /// Computes `op` (core/layout.hpp's layouts). `detj`: physical gradients only; may be empty.
  void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj = {}) const;

  /// The transpose of `op` (a forward operation or its transpose): `f` holds point data in the layout of
  /// the forward operation's output, with f.components = C; `out` the nodal vector (node_count * C) or
  /// the element vectors (elements * nodes_per_element * C). cpu: a degenerate element, met when the
  /// geometry is used (physical gradients, weighted), throws DegenerateElementError; cuda: check() reports it.
  void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                       const TransposeOptions& options = {}) const;

  /// A fused operator (core/operation.hpp's FusedOperator), r = A u: the mass operator
  /// A_ij = sum_e sum_q w_q |det J| rho phi_i phi_j, or the diffusion (stiffness) operator
  /// A_ij = sum_e sum_q w_q |det J| grad(phi_i) . kappa grad(phi_j), per component (C components of u;
  /// the tangential gradients for d < s). Equal to apply(forward_of(op)), the coefficient applied at each
  /// point, then apply_transpose(weighted), but in one pass with no point data in memory (on the GPU one
  /// kernel). `u` the nodal field (node_count * C values); `coefficient` rho or kappa at the plan's points
  /// (none: 1; a symmetric tensor for diffusion only); options.target and options.accumulate as for a
  /// transpose (weighted is implied: the point set must be a quadrature rule, and the plan needs
  /// coordinates).
  void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                      BasicCoefficientView<Real> coefficient = {}, const TransposeOptions& options = {}) const;

  /// The diagonal of apply_operator's A (Jacobi preconditioning), for a field of `components` components:
  /// d[node * C + c] = A_nn, the same for every component; into the element vectors' diagonals with
  /// options.target. Arguments as for apply_operator, without a field.
  void operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                         BasicCoefficientView<Real> coefficient = {}, const TransposeOptions& options = {}) const;

  /// apply_operator(FusedOperator::diffusion, u, r, {}, options): the Laplacian with kappa = 1.
  void apply_laplacian(BasicFieldView<Real> u, BasicOutputView<Real> r, const TransposeOptions& options = {}) const;

  /// cuda: waits for the plan's stream, then throws DegenerateElementError if a physical-gradient call
  /// met a degenerate or tangled element since the last check (and forgets it). cpu: nothing to do.
  void check() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace feinterp
