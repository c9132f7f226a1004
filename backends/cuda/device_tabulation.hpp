// SPDX-License-Identifier: BSD-3-Clause
// The shape-function values and reference gradients of an element type at a point set, on the device,
// in a plan's precision and in the kernels' [n][w][q] order, computed there by the element's own
// __host__ __device__ code (in double, then stored).
#pragma once

#include <cuda_runtime.h>

#include "../../fem/point_set.hpp"
#include "runtime/device_buffer.hpp"

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

 private:
  ElementType type_;
  int points_ = 0;
  DeviceBuffer<Real> values_, gradients_;
};

}  // namespace feinterp::backends::cuda
