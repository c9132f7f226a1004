// SPDX-License-Identifier: BSD-3-Clause
// The matrix-free Poisson operator through feinterp's front door:
//
//   (A u)_i = sum_e sum_q grad(phi_i)(x_q) . (w_q |det J_q|) grad(u_h)(x_q)
//
// two ways through one plan:
//   unfused  two calls: the forward physical gradients of u at the quadrature points, then the transpose
//            of the physical gradients with `weighted`, which multiplies by w_q |det J| (the "scale at
//            the points" step) and maps back through J^-T into the nodes; the gradients at the points
//            are the only scratch array;
//   fused    one call, apply_laplacian: the same sums in one pass (one kernel on the GPU), with no
//            gradients in memory.
// The solver uses the fused one; the table times both (solve.cpp).
#pragma once

#include <cstddef>

#include <feinterp/interpolator/interpolator.hpp>

namespace poisson {

class PoissonOperator {
 public:
  explicit PoissonOperator(const feinterp::Interpolator<double>& plan)
      : plan_(plan),
        gradients_(plan.executor(), plan.output_size(feinterp::Operation::physical_gradients, 1)),
        size_(std::size_t(plan.node_count())) {}

  std::size_t size() const { return size_; }

  /// out = A in; both nodal vectors (size() values) where the plan computes. Asynchronous on the GPU.
  void apply(const double* in, double* out) const {
    plan_.apply_laplacian({in, size_, 1}, {out, size_});
  }
  /// The same as two calls.
  void apply_unfused(const double* in, double* out) const {
    forward(in);
    transpose(out);
  }
  /// The two halves, for timing them apart: gradients of `in` at the points, then into `out`.
  void forward(const double* in) const {
    plan_.apply(feinterp::Operation::physical_gradients, {in, size_, 1}, {gradients_.data(), gradients_.size()});
  }
  void transpose(double* out) const {
    const feinterp::TransposeOptions weighted{feinterp::TransposeTarget::nodes, /*weighted=*/true, /*accumulate=*/false};
    plan_.apply_transpose(feinterp::Operation::physical_gradients, {gradients_.data(), gradients_.size(), 1},
                          {out, size_}, weighted);
  }

 private:
  const feinterp::Interpolator<double>& plan_;
  mutable feinterp::ExecutorArray<double> gradients_;
  std::size_t size_;
};

}  // namespace poisson
