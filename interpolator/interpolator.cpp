// SPDX-License-Identifier: BSD-3-Clause
// The front door's one file that knows whether this build has CUDA: every other part of the project
// (apps/, examples/, python/) goes through Interpolator and ExecutorArray.
#include <feinterp/interpolator/interpolator.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <feinterp/cpu/default_threads.hpp>
#include <feinterp/cpu/plan.hpp>

#if FEINTERP_HAS_CUDA
#include <cuda_runtime.h>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/device_block.hpp>
#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/plan.hpp>
#endif

namespace feinterp {

const char* executor_name(Executor executor) {
  switch (executor) {
    case Executor::cpu: return "cpu";
    case Executor::cuda: return "cuda";
    case Executor::automatic: return "auto";
  }
  return "unknown";
}

Executor parse_executor(const std::string& name) {
  if (name == "cpu") return Executor::cpu;
  if (name == "cuda") return Executor::cuda;
  if (name == "auto" || name == "automatic") return Executor::automatic;
  throw std::invalid_argument("unknown executor '" + name + "': expected cpu, cuda or auto");
}

bool cuda_usable() {
#if FEINTERP_HAS_CUDA
  return backends::cuda::cuda_available();
#else
  return false;
#endif
}

std::string cuda_unusable_reason() {
#if FEINTERP_HAS_CUDA
  return backends::cuda::cuda_unavailable_reason();
#else
  return "this feinterp was built without CUDA (FEINTERP_CUDA=OFF)";
#endif
}

Executor resolve_executor(Executor requested) {
  if (requested == Executor::cpu) return Executor::cpu;
  const bool usable = cuda_usable();
  if (requested == Executor::cuda && !usable) throw std::runtime_error("the cuda executor: " + cuda_unusable_reason());
  return usable ? Executor::cuda : Executor::cpu;
}

int cpu_thread_count(int threads) { return backends::cpu::resolve_threads(threads); }

std::string describe_executor(Executor executor, int threads) {
#if FEINTERP_HAS_CUDA
  if (executor == Executor::cuda) {
    const backends::cuda::DeviceInfo& info = backends::cuda::current_device();
    return info.name + " (compute capability " + info.compute_capability() + ")";
  }
#endif
  (void)executor;
  const int count = cpu_thread_count(threads);
  return "CPU, " + std::to_string(count) + (count == 1 ? " thread" : " threads");
}

// ---- the plan --------------------------------------------------------------------------------------

template <class Real>
struct Interpolator<Real>::Impl {
  Executor executor;
  BlockView block;
  offset_t node_count;
  int points, space_dimension;
  std::unique_ptr<backends::cpu::Plan<Real>> cpu;
#if FEINTERP_HAS_CUDA
  std::unique_ptr<backends::cuda::Plan<Real>> cuda;
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
  if (impl->executor == Executor::cpu) {
    impl->cpu = std::make_unique<backends::cpu::Plan<Real>>(block, node_count, points, coordinates,
                                                            backends::cpu::PlanOptions{options.threads});
    impl->points = impl->cpu->points();
  } else {
#if FEINTERP_HAS_CUDA
    namespace cuda = backends::cuda;
    const cudaStream_t stream = static_cast<cudaStream_t>(options.cuda_stream);
    auto device_block = std::make_shared<const cuda::DeviceBlock>(cuda::DeviceBlock::wrap(block, node_count, stream));
    cuda::PlanOptions plan;
    plan.elements_per_block = options.elements_per_block;
    plan.kernel = options.baseline_kernel ? cuda::Kernel::baseline : cuda::Kernel::packed;
    plan.stream = stream;
    plan.summation = options.summation;
    impl->cuda = std::make_unique<cuda::Plan<Real>>(std::move(device_block), points, coordinates, plan);
    impl->block = impl->cuda->block().view();  // with the plan's own copy of the tags
    impl->points = impl->cuda->points();
#endif
  }
  impl_ = std::move(impl);
}

template <class Real>
Executor Interpolator<Real>::executor() const {
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

template <class Real>
void Interpolator<Real>::apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out,
                               BasicOutputView<Real> detj) const {
  if (impl_->cpu) return impl_->cpu->apply(op, u, out, detj);
#if FEINTERP_HAS_CUDA
  impl_->cuda->apply(op, u, out, detj);
#endif
}

template <class Real>
void Interpolator<Real>::apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                                         const TransposeOptions& options) const {
  if (impl_->cpu) return impl_->cpu->apply_transpose(transpose_of(op), f, out, options);
#if FEINTERP_HAS_CUDA
  impl_->cuda->apply_transpose(transpose_of(op), f, out, options);
#endif
}

template <class Real>
void Interpolator<Real>::apply_laplacian(BasicFieldView<Real> u, BasicOutputView<Real> r,
                                         const TransposeOptions& options) const {
  if (impl_->cpu) return impl_->cpu->apply_laplacian(u, r, options);
#if FEINTERP_HAS_CUDA
  impl_->cuda->apply_laplacian(u, r, options);
#endif
}

template <class Real>
void Interpolator<Real>::check() const {
#if FEINTERP_HAS_CUDA
  if (impl_->cuda) impl_->cuda->check();
#endif
}

template class Interpolator<double>;
template class Interpolator<float>;

// ---- arrays where an executor computes --------------------------------------------------------------

template <class T>
ExecutorArray<T>::ExecutorArray(Executor executor, std::size_t size) : executor_(resolve_executor(executor)), size_(size) {
  if (size == 0) return;
#if FEINTERP_HAS_CUDA
  if (executor_ == Executor::cuda) {
    backends::cuda::check(cudaMalloc(reinterpret_cast<void**>(&data_), size * sizeof(T)),
                          "allocating " + std::to_string(size * sizeof(T)) + " bytes of device memory");
    return;
  }
#endif
  data_ = new T[size];
}

template <class T>
ExecutorArray<T>::ExecutorArray(Executor executor, const std::vector<T>& host) : ExecutorArray(executor, host.size()) {
  copy_from(host.data(), host.size());
}

template <class T>
ExecutorArray<T>::ExecutorArray(ExecutorArray&& other) noexcept
    : executor_(other.executor_), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

template <class T>
ExecutorArray<T>& ExecutorArray<T>::operator=(ExecutorArray&& other) noexcept {
  if (this != &other) {
    release();
    executor_ = other.executor_;
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

template <class T>
ExecutorArray<T>::~ExecutorArray() {
  release();
}

template <class T>
void ExecutorArray<T>::release() noexcept {
  if (!data_) return;
#if FEINTERP_HAS_CUDA
  if (executor_ == Executor::cuda) cudaFree(data_);
  else
#endif
    delete[] data_;
  data_ = nullptr;
  size_ = 0;
}

namespace {

// One synchronous copy between host memory and memory where `executor` computes.
void copy_bytes(Executor executor, void* to, const void* from, std::size_t bytes, bool to_executor) {
#if FEINTERP_HAS_CUDA
  if (executor == Executor::cuda) {
    backends::cuda::check(cudaMemcpy(to, from, bytes, to_executor ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost),
                          to_executor ? "copying to the device" : "copying from the device");
    return;
  }
#endif
  (void)executor;
  (void)to_executor;
  std::memcpy(to, from, bytes);
}

}  // namespace

template <class T>
void ExecutorArray<T>::copy_from(const T* host, std::size_t count) {
  if (count > size_)
    throw std::invalid_argument("ExecutorArray: copying " + std::to_string(count) + " values into " + std::to_string(size_));
  if (count) copy_bytes(executor_, data_, host, count * sizeof(T), true);
}

template <class T>
void ExecutorArray<T>::copy_to(T* host, std::size_t count) const {
  if (count > size_)
    throw std::invalid_argument("ExecutorArray: copying " + std::to_string(count) + " values out of " + std::to_string(size_));
  if (count) copy_bytes(executor_, host, data_, count * sizeof(T), false);
}

template <class T>
std::vector<T> ExecutorArray<T>::to_vector() const {
  std::vector<T> host(size_);
  copy_to(host.data(), size_);
  return host;
}

template class ExecutorArray<double>;
template class ExecutorArray<float>;
template class ExecutorArray<node_index>;

}  // namespace feinterp
