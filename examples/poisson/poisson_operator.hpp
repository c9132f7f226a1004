// SPDX-License-Identifier: BSD-3-Clause
// The matrix-free operator of the Poisson example through feinterp's front door, over every block of the
// mesh (MeshOperator) with kappa at the quadrature points:
//
//   (A u)_i = sum_e sum_q grad(phi_i)(x_q) . (w_q |det J_q| kappa(x_q)) grad(u_h)(x_q)
//
// and the Dirichlet nodes as identity rows and columns (ConstrainedOperator: apply, then fix). Two more
// ways to the same sums with kappa = 1, for the table's timings:
//   unfused  two calls per block: the forward physical gradients at the points, then their weighted
//            transpose (w_q |det J|, mapped back through J^-T); the gradients are the only scratch array;
//   fused    one call per block, apply_operator(diffusion): one pass (one kernel on the GPU), no
//            gradients in memory. With kappa it is what CG uses.
#pragma once

#include <cstddef>

#include <feinterp/interpolator/constrained_operator.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>

namespace poisson {

class PoissonOperator {
 public:
  PoissonOperator(const feinterp::MeshOperator<double>& op, const feinterp::ConstrainedOperator<double>& constrained,
                  feinterp::BasicCoefficientView<double> kappa)
      : op_(op),
        constrained_(constrained),
        kappa_(kappa),
        gradients_(op.executor(), op.output_size(feinterp::Operation::physical_gradients, 1)),
        size_(std::size_t(op.node_count())) {}

  std::size_t size() const { return size_; }

  /// out = A_c in (the constrained operator, kappa at the points); nodal vectors where the operator
  /// computes. Asynchronous on the GPU.
  void apply(const double* in, double* out) const {
    constrained_.apply(feinterp::FusedOperator::diffusion, {in, size_, 1}, {out, size_}, kappa_);
  }
  /// out = A in with kappa = 1, fused.
  void apply_fused(const double* in, double* out) const {
    op_.apply_operator(feinterp::FusedOperator::diffusion, {in, size_, 1}, {out, size_});
  }
  /// The same as two calls per block.
  void apply_unfused(const double* in, double* out) const {
    forward(in);
    transpose(out);
  }
  /// The two halves, for timing them apart: gradients of `in` at the points, then into `out`.
  void forward(const double* in) const {
    op_.interpolate(feinterp::Operation::physical_gradients, {in, size_, 1}, {gradients_.data(), gradients_.size()});
  }
  void transpose(double* out) const {
    const feinterp::TransposeOptions weighted{feinterp::TransposeTarget::nodes, /*weighted=*/true, /*accumulate=*/false};
    op_.integrate(feinterp::Operation::physical_gradients, {gradients_.data(), gradients_.size(), 1}, {out, size_},
                  weighted);
  }

 private:
  const feinterp::MeshOperator<double>& op_;
  const feinterp::ConstrainedOperator<double>& constrained_;
  feinterp::BasicCoefficientView<double> kappa_;
  mutable feinterp::ExecutorArray<double> gradients_;
  std::size_t size_;
};

}  // namespace poisson
