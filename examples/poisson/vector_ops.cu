// SPDX-License-Identifier: BSD-3-Clause
// The device variant of vector_ops.hpp: one grid-stride kernel per operation and thrust's reduction
// for the dot product, all on the default stream of the plan's device, the stream the Interpolator plan
// launches on (its executor has no stream of its own), so they are ordered with the operator applies
// without any event.
#include <thrust/execution_policy.h>
#include <thrust/inner_product.h>

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "vector_ops.hpp"

namespace poisson {

namespace {

constexpr int threads_per_block = 256;

int blocks_for(std::size_t n) {
  const std::size_t blocks = (n + threads_per_block - 1) / threads_per_block;
  return int(blocks < 65535 ? (blocks > 0 ? blocks : 1) : 65535);  // grid-stride beyond that
}

void check_launch(const char* what) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw std::runtime_error(std::string("poisson: ") + what + ": " + cudaGetErrorString(status));
}

__global__ void axpy_kernel(double a, const double* x, double* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    y[i] += a * x[i];
}

__global__ void xpby_kernel(const double* x, double b, double* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    y[i] = x[i] + b * y[i];
}

class CudaVectorOps final : public VectorOps {
 public:
  double dot(const double* x, const double* y, std::size_t n) const override {
    // Synchronous: the result comes back to the host, as CG needs it for its next step.
    return thrust::inner_product(thrust::device, x, x + n, y, 0.0);
  }
  void axpy(double a, const double* x, double* y, std::size_t n) const override {
    axpy_kernel<<<blocks_for(n), threads_per_block>>>(a, x, y, n);
    check_launch("axpy");
  }
  void xpby(const double* x, double b, double* y, std::size_t n) const override {
    xpby_kernel<<<blocks_for(n), threads_per_block>>>(x, b, y, n);
    check_launch("xpby");
  }
  void zero(double* y, std::size_t n) const override {
    const cudaError_t status = cudaMemsetAsync(y, 0, n * sizeof(double), 0);  // all-zero bytes: +0.0
    if (status != cudaSuccess) throw std::runtime_error(std::string("poisson: zero: ") + cudaGetErrorString(status));
  }
  void copy(const double* x, double* y, std::size_t n) const override {
    const cudaError_t status = cudaMemcpyAsync(y, x, n * sizeof(double), cudaMemcpyDeviceToDevice, 0);
    if (status != cudaSuccess) throw std::runtime_error(std::string("poisson: copy: ") + cudaGetErrorString(status));
  }
};

}  // namespace

std::unique_ptr<VectorOps> cuda_vector_ops(int device) {
  const cudaError_t status = cudaSetDevice(device);
  if (status != cudaSuccess)
    throw std::runtime_error("poisson: device " + std::to_string(device) + ": " + cudaGetErrorString(status));
  return std::make_unique<CudaVectorOps>();
}

}  // namespace poisson
