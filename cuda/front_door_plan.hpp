// SPDX-License-Identifier: BSD-3-Clause
// FrontDoorPlan<Real>: a CUDA plan (plan.hpp) as the front door (interpolator/interpolator.cpp) uses it,
// behind an interface that names no CUDA type, so that the front door compiles without the CUDA runtime's
// headers: its stream is the opaque handle Executor::stream() holds. Nothing here may include
// cuda_runtime.h, directly or through another header (the ctest front_door_cuda_free checks the front
// door's include closure).
#pragma once

#include <memory>

#include <feinterp/core/config.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/point_set.hpp>

namespace feinterp::backends::cuda {

template <class Real>
class FrontDoorPlan {
 public:
  virtual ~FrontDoorPlan() = default;

  /// The block as the plan holds it: device connectivity, with the plan's own host copy of the tags.
  virtual const BlockView& block() const = 0;
  virtual int points() const = 0;
  /// Plan<Real>'s calls on the plan's stream: device arrays, sizes checked.
  virtual void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out,
                     BasicOutputView<Real> detj) const = 0;
  virtual void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                               const TransposeOptions& options) const = 0;
  virtual void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                              BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const = 0;
  virtual void operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                 BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const = 0;
  /// Waits for the plan's stream; throws DegenerateElementError for an element met since the last check.
  virtual void check() const = 0;
};

/// A plan on `device` (an ordinal) and `stream` (a cudaStream_t of that device; null: its default
/// stream) over `block`, whose connectivity is already on that device (DeviceBlock::wrap: checked there
/// against `node_count`, not copied); `coordinates` device memory, as for Plan. Throws what DeviceBlock
/// and Plan throw.
template <class Real>
std::unique_ptr<FrontDoorPlan<Real>> make_front_door_plan(const BlockView& block, offset_t node_count,
                                                          const PointSet& points, const Real* coordinates, int device,
                                                          void* stream, Summation summation,
                                                          OperatorGeometry operator_geometry);

}  // namespace feinterp::backends::cuda
