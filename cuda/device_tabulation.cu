// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/device_tabulation.hpp>

#include <string>
#include <vector>

#include <feinterp/fem/block.hpp>
#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/kernels/kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace {

// to[(q * W + w) * N + n] = from[(n * W + w) * Q + q]: a few thousand values once per plan.
template <class Real>
__global__ void transpose_table(const Real* from, Real* to, int N, int W, int Q) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * W * Q) return;
  const int q = i / (W * N), w = (i / N) % W, n = i % N;
  to[i] = from[(n * W + w) * Q + q];
}

template <class Real>
void transpose_into(const DeviceBuffer<Real>& from, DeviceBuffer<Real>& to, int N, int W, int Q, cudaStream_t stream) {
  const int count = N * W * Q;
  transpose_table<<<(count + 255) / 256, 256, 0, stream>>>(from.data(), to.data(), N, W, Q);
}

}  // namespace

template <class Real>
DeviceTabulation<Real>::DeviceTabulation(ElementType type, const PointSet& points, cudaStream_t stream)
    : type_(type), points_(points.size()) {
  check_order(type);
  if (points.shape != type.shape)
    throw std::invalid_argument(std::string("DeviceTabulation: the points are on a ") + shape_name(points.shape) +
                                ", expected a " + shape_name(type.shape) + " for " + to_string(type));
  check_point_set(points);
  const int N = nodes_per_element(type), D = dimension(type.shape);
  values_ = DeviceBuffer<Real>(std::size_t(N) * points_);
  gradients_ = DeviceBuffer<Real>(std::size_t(N) * D * points_);
  DeviceBuffer<double> coordinates(points.coordinates);
  kernel_set<Real>(type, Operation::values, 1, default_space_dimension(type))
      .tabulate(coordinates.data(), points_, values_.data(), gradients_.data(), stream);
  transposed_values_ = DeviceBuffer<Real>(std::size_t(N) * points_);
  transposed_gradients_ = DeviceBuffer<Real>(std::size_t(N) * D * points_);
  transpose_into(values_, transposed_values_, N, 1, points_, stream);
  transpose_into(gradients_, transposed_gradients_, N, D, points_, stream);
  check_launch("tabulation of " + to_string(type));
  if (!points.weights.empty()) {
    std::vector<Real> weights(points.weights.begin(), points.weights.end());
    weights_ = DeviceBuffer<Real>(weights);
  }
  check(cudaStreamSynchronize(stream), "tabulating " + to_string(type));  // before `coordinates` is freed
}

template class DeviceTabulation<double>;
template class DeviceTabulation<float>;

}  // namespace feinterp::backends::cuda
