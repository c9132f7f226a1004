// SPDX-License-Identifier: BSD-3-Clause
// Conjugate gradients for A x = b, A symmetric positive definite: the Poisson operator with its Dirichlet
// rows and columns the identity's (feinterp's ConstrainedOperator), or the mass operator. Unpreconditioned;
// all vectors live where the executor computes, and only the scalars come back.
#pragma once

#include <cmath>
#include <cstddef>

#include <feinterp/interpolator/interpolator.hpp>

#include "vector_ops.hpp"

namespace poisson {

struct CgOptions {
  double relative_tolerance = 1e-10;  ///< stop at ||r|| <= tolerance ||r_0||
  int max_iterations = 20000;
};

struct CgResult {
  int iterations = 0;
  double relative_residual = 0;
  bool converged = false;
};

/// Solves A x = b, starting from x = 0. `apply(in, out)` computes out = A in; b is left untouched. All
/// arrays have n values.
template <class Apply>
CgResult conjugate_gradients(const Apply& apply, const VectorOps& ops, feinterp::Executor executor, const double* b,
                             double* x, std::size_t n, const CgOptions& options = {}) {
  feinterp::ExecutorArray<double> r(executor, n), p(executor, n), q(executor, n);
  ops.copy(b, r.data(), n);
  ops.zero(x, n);
  ops.copy(r.data(), p.data(), n);
  double rr = ops.dot(r.data(), r.data(), n);
  const double rr0 = rr;
  CgResult result;
  if (rr0 == 0) return {0, 0, true};
  const double stop = options.relative_tolerance * options.relative_tolerance * rr0;
  while (result.iterations < options.max_iterations) {
    apply(p.data(), q.data());
    const double alpha = rr / ops.dot(p.data(), q.data(), n);
    ops.axpy(alpha, p.data(), x, n);
    ops.axpy(-alpha, q.data(), r.data(), n);
    const double rr_next = ops.dot(r.data(), r.data(), n);
    ++result.iterations;
    if (rr_next <= stop) {
      rr = rr_next;
      result.converged = true;
      break;
    }
    ops.xpby(r.data(), rr_next / rr, p.data(), n);
    rr = rr_next;
  }
  result.relative_residual = std::sqrt(rr / rr0);
  return result;
}

}  // namespace poisson
