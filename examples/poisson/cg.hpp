// SPDX-License-Identifier: BSD-3-Clause
// Conjugate gradients for A x = b on the free nodes, with the Dirichlet nodes eliminated by masking:
// the residual and the search direction are zero there, so that only the rows and columns of the free
// nodes take part (the lifting of the boundary values is done by the caller, in the right-hand side).
// Unpreconditioned; all vectors live where the executor computes, and only the scalars come back.
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

/// Solves A x = b for x on the nodes where mask = 1 (x = 0 where mask = 0), starting from x = 0.
/// `apply(in, out)` computes out = A in; b is left untouched. All arrays have n values.
template <class Apply>
CgResult conjugate_gradients(const Apply& apply, const VectorOps& ops, feinterp::Executor executor, const double* mask,
                             const double* b, double* x, std::size_t n, const CgOptions& options = {}) {
  feinterp::ExecutorArray<double> r(executor, n), p(executor, n), q(executor, n);
  ops.copy(b, r.data(), n);
  ops.mask(mask, r.data(), n);
  ops.zero(x, n);
  ops.copy(r.data(), p.data(), n);
  double rr = ops.dot(r.data(), r.data(), n);
  const double rr0 = rr;
  CgResult result;
  if (rr0 == 0) return {0, 0, true};
  const double stop = options.relative_tolerance * options.relative_tolerance * rr0;
  while (result.iterations < options.max_iterations) {
    apply(p.data(), q.data());
    ops.mask(mask, q.data(), n);
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
