// SPDX-License-Identifier: BSD-3-Clause
// The shape-function values and reference gradients of an element type at a point set, on the device,
// in a plan's precision and in the forward kernels' [n][w][q] order, computed there by the element's own
// __host__ __device__ code (in double, then stored); the same tables transposed to [q][w][n] for the
// transpose kernels (layout/shared_layout.hpp says why each order); the point set's weights, if any.
#pragma once

#include <cuda_runtime.h>

#include <feinterp/fem/point_set.hpp>
#include <feinterp/cuda/runtime/device_buffer.hpp>

namespace feinterp::backends::cuda {

template <class Real>
class DeviceTabulation {
 public:
  /// Throws std::invalid_argument for points of another shape or an empty set.
  DeviceTabulation(ElementType type, const PointSet& points, cudaStream_t stream = nullptr);
  ElementType type() const { return type_; }
  int points() const { return points_; }
  const Real* values() const { return values_.data(); }
  const Real* gradients() const { return gradients_.data(); }
  const Real* transposed_values() const { return transposed_values_.data(); }
  const Real* transposed_gradients() const { return transposed_gradients_.data(); }
  /// w_q, or null for a point set without weights.
  const Real* weights() const { return weights_.size() ? weights_.data() : nullptr; }

 private:
  ElementType type_;
  int points_ = 0;
  DeviceBuffer<Real> values_, gradients_, transposed_values_, transposed_gradients_, weights_;
};

}  // namespace feinterp::backends::cuda
