// SPDX-License-Identifier: BSD-3-Clause
#include "device_tabulation.hpp"

#include <string>

#include "../../fem/block.hpp"
#include "runtime/error.hpp"
#include "kernels/kernel_set.hpp"

namespace feinterp::backends::cuda {

template <class Real>
DeviceTabulation<Real>::DeviceTabulation(ElementType type, const PointSet& points, cudaStream_t stream)
    : type_(type), points_(points.size()) {
  check_order(type);
  if (points.shape != type.shape)
    throw std::invalid_argument(std::string("DeviceTabulation: the points are on a ") + shape_name(points.shape) +
                                ", expected a " + shape_name(type.shape) + " for " + to_string(type));
  if (points_ < 1) throw std::invalid_argument("DeviceTabulation: the point set is empty");
  const int N = nodes_per_element(type), D = dimension(type.shape);
  values_ = DeviceBuffer<Real>(std::size_t(N) * points_);
  gradients_ = DeviceBuffer<Real>(std::size_t(N) * D * points_);
  DeviceBuffer<double> coordinates(points.coordinates);
  kernel_set<Real>(type, Operation::values, 1, default_space_dimension(type))
      .tabulate(coordinates.data(), points_, values_.data(), gradients_.data(), stream);
  check_launch("tabulation of " + to_string(type));
  check(cudaStreamSynchronize(stream), "tabulating " + to_string(type));  // before `coordinates` is freed
}

template class DeviceTabulation<double>;
template class DeviceTabulation<float>;

}  // namespace feinterp::backends::cuda
