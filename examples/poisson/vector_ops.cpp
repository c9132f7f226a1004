// SPDX-License-Identifier: BSD-3-Clause
// The host variant of vector_ops.hpp: plain loops (CG's vector work is a few percent of an operator
// apply, which runs on the plan's threads). Without CUDA, also the stub for cuda_vector_ops.
#include "vector_ops.hpp"

#include <stdexcept>

namespace poisson {

namespace {

class CpuVectorOps final : public VectorOps {
 public:
  double dot(const double* x, const double* y, std::size_t n) const override {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
  }
  void axpy(double a, const double* x, double* y, std::size_t n) const override {
    for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
  }
  void xpby(const double* x, double b, double* y, std::size_t n) const override {
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i] + b * y[i];
  }
  void zero(double* y, std::size_t n) const override {
    for (std::size_t i = 0; i < n; ++i) y[i] = 0;
  }
  void copy(const double* x, double* y, std::size_t n) const override {
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i];
  }
};

}  // namespace

std::unique_ptr<VectorOps> cpu_vector_ops() { return std::make_unique<CpuVectorOps>(); }

#ifndef POISSON_WITH_CUDA
std::unique_ptr<VectorOps> cuda_vector_ops(int) {
  throw std::runtime_error(
      "this poisson example was built without CUDA (the installed feinterp has none, or no CUDA compiler was found)");
}
#endif

}  // namespace poisson
