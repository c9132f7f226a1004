// SPDX-License-Identifier: BSD-3-Clause
// The vector operations of conjugate gradients, run where the vectors live: plain loops on the host
// for a cpu executor (vector_ops.cpp), CUDA kernels and a thrust reduction on the executor's device for
// a cuda one (vector_ops.cu, compiled only when the installed feinterp has CUDA and a CUDA compiler is
// found; POISSON_WITH_CUDA says so). The pointers are of that executor's memory (ExecutorArray).
#pragma once

#include <cstddef>
#include <memory>

#include <feinterp/interpolator/interpolator.hpp>

namespace poisson {

class VectorOps {
 public:
  virtual ~VectorOps() = default;
  virtual double dot(const double* x, const double* y, std::size_t n) const = 0;
  /// y += a x
  virtual void axpy(double a, const double* x, double* y, std::size_t n) const = 0;
  /// y = x + b y
  virtual void xpby(const double* x, double b, double* y, std::size_t n) const = 0;
  /// y = 0
  virtual void zero(double* y, std::size_t n) const = 0;
  /// y = x
  virtual void copy(const double* x, double* y, std::size_t n) const = 0;
};

std::unique_ptr<VectorOps> cpu_vector_ops();
/// Makes `device` the current device of the calling thread, where the operations then run. Throws
/// std::runtime_error when the example was built without CUDA.
std::unique_ptr<VectorOps> cuda_vector_ops(int device);

/// The operations for a resolved executor (cpu, or cuda on one device).
inline std::unique_ptr<VectorOps> vector_ops(const feinterp::Executor& executor) {
  return executor.kind() == feinterp::ExecutorKind::cuda ? cuda_vector_ops(executor.device()) : cpu_vector_ops();
}

}  // namespace poisson
