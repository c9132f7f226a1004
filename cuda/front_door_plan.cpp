// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/front_door_plan.hpp>

#include <utility>

#include <feinterp/cuda/device_block.hpp>
#include <feinterp/cuda/plan.hpp>
#include <feinterp/cuda/runtime/scoped_device.hpp>

namespace feinterp::backends::cuda {

namespace {

template <class Real>
class FrontDoorPlanOf final : public FrontDoorPlan<Real> {
 public:
  FrontDoorPlanOf(std::shared_ptr<const DeviceBlock> block, const PointSet& points, const Real* coordinates,
                  const PlanOptions& options)
      : plan_(std::move(block), points, coordinates, options) {}

  const BlockView& block() const override { return plan_.block().view(); }
  int points() const override { return plan_.points(); }
  void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out,
             BasicOutputView<Real> detj) const override {
    plan_.apply(op, u, out, detj);
  }
  void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                       const TransposeOptions& options) const override {
    plan_.apply_transpose(op, f, out, options);
  }
  void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                      BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const override {
    plan_.apply_operator(op, u, r, coefficient, options);
  }
  void operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                         BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const override {
    plan_.operator_diagonal(op, components, d, coefficient, options);
  }
  void check() const override { plan_.check(); }

 private:
  Plan<Real> plan_;
};

}  // namespace

template <class Real>
std::unique_ptr<FrontDoorPlan<Real>> make_front_door_plan(const BlockView& block, offset_t node_count,
                                                          const PointSet& points, const Real* coordinates, int device,
                                                          void* stream, Summation summation,
                                                          OperatorGeometry operator_geometry) {
  const cudaStream_t on_stream = static_cast<cudaStream_t>(stream);
  // The block is checked on the plan's device and belongs to it; the plan takes its device from it.
  const ScopedDevice on_device(device);
  auto device_block = std::make_shared<const DeviceBlock>(DeviceBlock::wrap(block, node_count, on_stream));
  PlanOptions options;
  options.device = device;
  options.stream = on_stream;
  options.summation = summation;
  options.operator_geometry = operator_geometry;
  return std::make_unique<FrontDoorPlanOf<Real>>(std::move(device_block), points, coordinates, options);
}

template std::unique_ptr<FrontDoorPlan<double>> make_front_door_plan<double>(const BlockView&, offset_t,
                                                                              const PointSet&, const double*, int,
                                                                              void*, Summation, OperatorGeometry);
template std::unique_ptr<FrontDoorPlan<float>> make_front_door_plan<float>(const BlockView&, offset_t, const PointSet&,
                                                                            const float*, int, void*, Summation,
                                                                            OperatorGeometry);

}  // namespace feinterp::backends::cuda
