// SPDX-License-Identifier: BSD-3-Clause
// The front door over the two backends. With CUDA (FEINTERP_HAS_CUDA, private to this library) a cuda
// plan is the CUDA backend's Plan, built on the executor's device, seen through cuda/front_door_plan.hpp,
// which names no CUDA type: the CUDA runtime is called and its headers are included by the backend alone
// (libfeinterp_cuda.so), never here (the ctest front_door_cuda_free checks this file's include closure).
#include <feinterp/interpolator/interpolator.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/cpu/plan.hpp>
#include <feinterp/interpolator/detail/array_location.hpp>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/front_door_plan.hpp>
#endif

namespace feinterp {

template <class Real>
struct Interpolator<Real>::Impl {
  Executor executor;
  BlockView block;
  offset_t node_count;
  int points, space_dimension;
  std::unique_ptr<backends::cpu::Plan<Real>> cpu;
#if FEINTERP_HAS_CUDA
  std::unique_ptr<backends::cuda::FrontDoorPlan<Real>> cuda;
#endif
};

template <class Real>
Interpolator<Real>::Interpolator(const BlockView& block, offset_t node_count, const PointSet& points,
                                 const Real* coordinates, const InterpolatorOptions& options) {
  auto impl = std::make_shared<Impl>();
  impl->executor = resolve_executor(options.executor);
  impl->block = block;
  impl->node_count = node_count;
  impl->space_dimension = feinterp::space_dimension(block);
  using detail::check_array_location;
  check_array_location("Interpolator", "the connectivity", block.connectivity,
                       std::size_t(block.element_count) * std::size_t(nodes_per_element(block.type)), impl->executor);
  check_array_location("Interpolator", "the coordinates", coordinates, std::size_t(node_count) * 3, impl->executor);
  if (impl->executor.kind() == ExecutorKind::cpu) {
    backends::cpu::PlanOptions cpu_options;
    cpu_options.threads = options.threads;
    cpu_options.operator_geometry = options.operator_geometry;
    impl->cpu = std::make_unique<backends::cpu::Plan<Real>>(block, node_count, points, coordinates, cpu_options);
    impl->points = impl->cpu->points();
  } else {
#if FEINTERP_HAS_CUDA
    impl->cuda = backends::cuda::make_front_door_plan(block, node_count, points, coordinates,
                                                      impl->executor.device(), impl->executor.stream(),
                                                      options.summation, options.operator_geometry);
    impl->block = impl->cuda->block();  // with the plan's own copy of the tags
    impl->points = impl->cuda->points();
#endif
  }
  impl_ = std::move(impl);
}

template <class Real>
const Executor& Interpolator<Real>::executor() const {
  return impl_->executor;
}
template <class Real>
const BlockView& Interpolator<Real>::block() const {
  return impl_->block;
}
template <class Real>
offset_t Interpolator<Real>::node_count() const {
  return impl_->node_count;
}
template <class Real>
int Interpolator<Real>::points() const {
  return impl_->points;
}
template <class Real>
int Interpolator<Real>::space_dimension() const {
  return impl_->space_dimension;
}
template <class Real>
std::size_t Interpolator<Real>::input_size(Operation op, int components) const {
  if (!is_transpose(op)) return std::size_t(impl_->node_count) * std::size_t(components);
  return point_data_size(op, impl_->block.element_count, impl_->points, components, dimension(impl_->block.type.shape),
                         impl_->space_dimension);
}
template <class Real>
std::size_t Interpolator<Real>::output_size(Operation op, int components, TransposeTarget target) const {
  if (!is_transpose(op))
    return feinterp::output_size(op, impl_->block.element_count, impl_->points, components,
                                 dimension(impl_->block.type.shape), impl_->space_dimension);
  const std::size_t per_node = std::size_t(components);
  return target == TransposeTarget::nodes
             ? std::size_t(impl_->node_count) * per_node
             : std::size_t(impl_->block.element_count) * std::size_t(nodes_per_element(impl_->block.type)) * per_node;
}
template <class Real>
std::size_t Interpolator<Real>::detj_size() const {
  return std::size_t(impl_->block.element_count) * std::size_t(impl_->points);
}

namespace {

// Refuses an output that shares memory with an input or another output: every backend reads its inputs
// while it writes (apply_laplacian(u, u) returned zeros). Pointer ranges: host memory, or one device's
// addresses, which the CUDA driver's unified address space keeps apart from every other allocation.
template <class T>
void check_disjoint(const char* call, const char* a_name, const T* a, std::size_t a_size, const char* b_name,
                    const T* b, std::size_t b_size) {
  if (!a || !b || a_size == 0 || b_size == 0) return;
  const auto a_begin = reinterpret_cast<std::uintptr_t>(a), b_begin = reinterpret_cast<std::uintptr_t>(b);
  const std::uintptr_t a_end = a_begin + a_size * sizeof(T), b_end = b_begin + b_size * sizeof(T);
  if (a_begin < b_end && b_begin < a_end)
    throw std::invalid_argument(std::string(call) + ": " + b_name + " overlaps " + a_name +
                                " in memory; expected separate arrays (the computation reads one while it writes "
                                "the other)");
}

struct ArrayArgument {
  const char* name;
  const void* data;
  std::size_t size;
};

void check_locations(const char* call, const Executor& executor, std::initializer_list<ArrayArgument> arrays) {
  for (const ArrayArgument& array : arrays) detail::check_array_location(call, array.name, array.data, array.size, executor);
}

}  // namespace

template <class Real>
void Interpolator<Real>::apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out,
                               BasicOutputView<Real> detj) const {
  check_disjoint("apply", "the field u", u.data, u.size, "the output", out.data, out.size);
  check_disjoint("apply", "the field u", u.data, u.size, "the det J output", detj.data, detj.size);
  check_disjoint("apply", "the output", out.data, out.size, "the det J output", detj.data, detj.size);
  check_locations("apply", impl_->executor, {{"the field u", u.data, u.size}, {"the output", out.data, out.size},
                                             {"the det J output", detj.data, detj.size}});
  if (impl_->cpu) return impl_->cpu->apply(op, u, out, detj);
#if FEINTERP_HAS_CUDA
  impl_->cuda->apply(op, u, out, detj);
#endif
}

template <class Real>
void Interpolator<Real>::apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                                         const TransposeOptions& options) const {
  check_disjoint("apply_transpose", "the point data f", f.data, f.size, "the output", out.data, out.size);
  check_locations("apply_transpose", impl_->executor,
                  {{"the point data f", f.data, f.size}, {"the output", out.data, out.size}});
  if (impl_->cpu) return impl_->cpu->apply_transpose(transpose_of(op), f, out, options);
#if FEINTERP_HAS_CUDA
  impl_->cuda->apply_transpose(transpose_of(op), f, out, options);
#endif
}

template <class Real>
void Interpolator<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                        BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  check_disjoint("apply_operator", "the field u", u.data, u.size, "the output r", r.data, r.size);
  check_disjoint("apply_operator", "the coefficient", coefficient.data, coefficient.size, "the output r", r.data, r.size);
  check_locations("apply_operator", impl_->executor,
                  {{"the field u", u.data, u.size}, {"the output r", r.data, r.size},
                   {"the coefficient", coefficient.data, coefficient.size}});
  if (impl_->cpu) return impl_->cpu->apply_operator(op, u, r, coefficient, options);
#if FEINTERP_HAS_CUDA
  impl_->cuda->apply_operator(op, u, r, coefficient, options);
#endif
}

template <class Real>
void Interpolator<Real>::operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                           BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  check_disjoint("operator_diagonal", "the coefficient", coefficient.data, coefficient.size, "the output d", d.data, d.size);
  check_locations("operator_diagonal", impl_->executor,
                  {{"the output d", d.data, d.size}, {"the coefficient", coefficient.data, coefficient.size}});
  if (impl_->cpu) return impl_->cpu->operator_diagonal(op, components, d, coefficient, options);
#if FEINTERP_HAS_CUDA
  impl_->cuda->operator_diagonal(op, components, d, coefficient, options);
#endif
}

template <class Real>
void Interpolator<Real>::apply_laplacian(BasicFieldView<Real> u, BasicOutputView<Real> r,
                                         const TransposeOptions& options) const {
  apply_operator(FusedOperator::diffusion, u, r, {}, options);
}

template <class Real>
void Interpolator<Real>::check() const {
#if FEINTERP_HAS_CUDA
  if (impl_->cuda) impl_->cuda->check();
#endif
}

template class Interpolator<double>;
template class Interpolator<float>;

}  // namespace feinterp
