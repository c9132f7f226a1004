// SPDX-License-Identifier: BSD-3-Clause
// One forward or transpose call through the CUDA backend's plan, for the GPU tests of the kernel
// variants: the field and coordinates rounded to the plan's precision, outputs poisoned with NaN on the
// device, apply and check(), and what the launch was (its variant and elements per block); the CPU
// executor's answer to compare with; and how many elements per block a forced variant fits on this device.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/cuda/plan.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/device_buffer.hpp>
#include <feinterp/core/layout.hpp>

#include <feinterp/tests/support/front_door.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp::test {

struct GpuRun {
  std::vector<double> out, detj;             ///< as double, whatever the plan's precision
  backends::cuda::LaunchConfig config;       ///< what the launch was: its variant and elements per block
  std::size_t written_outside = 0;           ///< reals of the output's allocation, around the output, not NaN after
};

/// Where the field and the output start in their device allocations: that many reals past its start,
/// so 0 is 16-byte aligned (cudaMalloc) and 1 is a view into a larger array, off the vector boundary
/// the kernels' vector loads and stores need. The reals before (and one after) are NaN.
struct Placement {
  int field = 0, out = 0;
};

template <class Real>
GpuRun gpu(Operation op, const RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
           const backends::cuda::PlanOptions& options, BlockView view, Placement placement = {}) {
  namespace cuda = backends::cuda;
  auto device_block = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(view, block.node_count()));
  const std::size_t size = output_size(op, view, points.size(), C);
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  std::vector<Real> field(std::size_t(placement.field), nan);
  field.insert(field.end(), u.begin(), u.end());
  cuda::DeviceBuffer<Real> du(field), dx(std::vector<Real>(block.coordinates.begin(), block.coordinates.end())),
      dout(std::vector<Real>(placement.out + size + 1, nan)),
      ddetj(std::vector<Real>(std::size_t(block.elements) * points.size(), nan));
  const cuda::Plan<Real> plan(device_block, points, dx.data(), options);
  plan.apply(op, {du.data() + placement.field, u.size(), C}, {dout.data() + placement.out, size},
             {ddetj.data(), ddetj.size()});
  plan.check();
  GpuRun run;
  run.config = plan.launch_config(op, C);
  const std::vector<Real> out = dout.to_host(options.stream), detj = ddetj.to_host(options.stream);
  run.out.assign(out.begin() + placement.out, out.begin() + placement.out + size);
  for (std::size_t i = 0; i < out.size(); ++i)
    if ((i < std::size_t(placement.out) || i >= placement.out + size) && !std::isnan(out[i])) ++run.written_outside;
  if (op == Operation::physical_gradients) run.detj.assign(detj.begin(), detj.end());
  return run;
}

template <class Real>
GpuRun gpu(Operation op, const RandomBlock& block, const PointSet& points, const std::vector<double>& u, int C,
           const backends::cuda::PlanOptions& options) {
  return gpu<Real>(op, block, points, u, C, options, block.view());
}

inline Computed<double> cpu(Operation op, const RandomBlock& block, const PointSet& points,
                            const std::vector<double>& u, int C, const BlockView& view) {
  return compute<double>(Executor::cpu(), op, view, block.node_count(), points, block.coordinates, u, C);
}

inline Computed<double> cpu(Operation op, const RandomBlock& block, const PointSet& points,
                            const std::vector<double>& u, int C) {
  return cpu(op, block, points, u, C, block.view());
}

/// The transpose of `op` of point data f on the CPU executor (the front door); the output NaN-poisoned,
/// or `initial` (accumulate).
inline std::vector<double> cpu_transpose(Operation op, const RandomBlock& block, const PointSet& points,
                                         const std::vector<double>& f, int C, const TransposeOptions& t,
                                         const std::vector<double>* initial = nullptr) {
  InterpolatorOptions options;
  options.executor = Executor::cpu();
  const Interpolator<double> plan(block.view(), block.node_count(), points, block.coordinates.data(), options);
  std::vector<double> out = initial ? *initial
                                    : std::vector<double>(plan.output_size(transpose_of(op), C, t.target),
                                                          std::numeric_limits<double>::quiet_NaN());
  plan.apply_transpose(op, {f.data(), f.size(), C}, {out.data(), out.size()}, t);
  return out;
}

/// The same through the CUDA backend's plan in precision Real.
template <class Real>
GpuRun gpu_transpose(Operation op, const RandomBlock& block, const PointSet& points, const std::vector<double>& f, int C,
                     const TransposeOptions& t, const backends::cuda::PlanOptions& options,
                     const std::vector<double>* initial = nullptr) {
  namespace cuda = backends::cuda;
  auto device_block =
      std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::upload(block.view(), block.node_count()));
  const std::size_t size = t.target == TransposeTarget::nodes
                               ? std::size_t(block.node_count()) * C
                               : std::size_t(block.elements) * std::size_t(nodes_per_element(block.type)) * C;
  std::vector<Real> start = initial ? std::vector<Real>(initial->begin(), initial->end())
                                    : std::vector<Real>(size, std::numeric_limits<Real>::quiet_NaN());
  cuda::DeviceBuffer<Real> df(std::vector<Real>(f.begin(), f.end())),
      dx(std::vector<Real>(block.coordinates.begin(), block.coordinates.end())), dout(start);
  const cuda::Plan<Real> plan(device_block, points, dx.data(), options);
  plan.apply_transpose(op, {df.data(), df.size(), C}, {dout.data(), size}, t);
  plan.check();
  GpuRun run;
  run.config = plan.launch_config(transpose_of(op), C, t.weighted);
  const std::vector<Real> out = dout.to_host();
  run.out.assign(out.begin(), out.end());
  return run;
}

/// Plan options that force `variant` (and a count, 0: the plan's choice).
inline backends::cuda::PlanOptions forced(backends::cuda::KernelVariant variant, int elements_per_block = 0) {
  backends::cuda::PlanOptions options;
  options.variant = variant;
  options.elements_per_block = elements_per_block;
  return options;
}

/// The most elements per block a launch forced to `variant` fits on this device, for the element type at
/// these points, C and precision, in the element's own space dimension (0: not even one).
inline int max_forced_elements_per_block(backends::cuda::KernelVariant variant, ElementType type, Operation op,
                                         const PointSet& points, int C, Precision precision) {
  namespace cuda = backends::cuda;
  cuda::LaunchShape shape{type, op, points.size(), C, dimension(type.shape) == 3 ? 3 : 2, precision};
  shape.variant = variant;
  return cuda::max_elements_per_block(shape, cuda::current_device());
}

}  // namespace feinterp::test
