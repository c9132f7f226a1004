// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/kernel_variants.hpp>

#include <map>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include <feinterp/cuda/kernels/dense/async_gather_kernel_set.hpp>
#include <feinterp/cuda/kernels/dense/dense_64_registers_kernel_set.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_kernel_set.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_operator_kernel_set.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_transpose_kernel_set.hpp>
#include <feinterp/cuda/kernels/tensor_cores/tensor_core_kernel_set.hpp>

namespace feinterp::backends::cuda {

namespace {

template <class Real>
KernelSet<Real> dense_kernels(const LaunchShape& s) {
  return kernel_set<Real>(s.type, s.op, s.components, s.space_dimension, s.weighted, s.fused, s.run_time_components);
}

template <class Real>
KernelSet<Real> async_gather_kernels(const LaunchShape& s) {
  return async_gather_kernel_set<Real>(s.type, s.op, s.components);
}

template <class Real>
KernelSet<Real> dense_64_registers_kernels(const LaunchShape& s) {
  if (s.run_time_components) throw std::invalid_argument("the 64-register kernel has no run-time-C form");
  if constexpr (std::is_same_v<Real, double>)
    return dense_64_registers_kernel_set(s.type, s.op, s.components);
  else
    throw std::invalid_argument("the 64-register kernel is compiled in FP64 only");
}

template <class Real>
KernelSet<Real> tensor_core_kernels(const LaunchShape& s) {
  return tensor_core_kernel_set<Real>(s.type, s.op, s.components, s.run_time_components);
}

template <class Real>
KernelSet<Real> sum_factorised_kernels(const LaunchShape& s) {
  if (s.fused) {  // variant_traits refuses the mass operator on the fly
    return sum_factorised_operator_kernel_set<Real>(s.type, tensor_operator_kind(s), s.components, s.space_dimension,
                                                    s.points_per_direction, s.run_time_components);
  }
  if (is_transpose(s.op))
    return sum_factorised_transpose_kernel_set<Real>(s.type, s.op, s.components, s.space_dimension, s.weighted,
                                                     s.points_per_direction, s.run_time_components);
  return sum_factorised_kernel_set<Real>(s.type, s.op, s.components, s.space_dimension, s.points_per_direction,
                                         s.run_time_components);
}

struct Registry {
  std::mutex mutex;
  std::map<int, VariantKernels> kernels{
      {KernelVariant::dense.index(), VariantKernels{&dense_kernels<double>, &dense_kernels<float>}},
      {KernelVariant::dense_async_gather.index(), VariantKernels{&async_gather_kernels<double>, &async_gather_kernels<float>}},
      {KernelVariant::dense_64_registers.index(),
       VariantKernels{&dense_64_registers_kernels<double>, &dense_64_registers_kernels<float>}},
      {KernelVariant::dense_tensor_cores.index(), VariantKernels{&tensor_core_kernels<double>, &tensor_core_kernels<float>}},
      {KernelVariant::sum_factorised.index(), VariantKernels{&sum_factorised_kernels<double>, &sum_factorised_kernels<float>}}};
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

KernelVariant register_kernel_variant(const std::string& name, const VariantTraits& traits, const VariantKernels& kernels) {
  if (!kernels.fp64 || !kernels.fp32)
    throw std::invalid_argument("kernel variant " + name + ": its kernels need a lookup in each precision");
  const KernelVariant variant = tuning::register_kernel_variant_name(name);
  register_variant_traits(variant, traits);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.kernels[variant.index()] = kernels;
  return variant;
}

template <class Real>
KernelSet<Real> variant_kernel_set(const LaunchShape& shape) {
  VariantKernels kernels;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto found = r.kernels.find(shape.variant.index());
    if (found == r.kernels.end())
      throw std::invalid_argument(std::string("kernel variant ") + tuning::kernel_variant_name(shape.variant) +
                                  " has no kernels registered (cuda/kernel_variants.hpp)");
    kernels = found->second;
  }
  if constexpr (std::is_same_v<Real, double>)
    return kernels.fp64(shape);
  else
    return kernels.fp32(shape);
}

template KernelSet<double> variant_kernel_set<double>(const LaunchShape&);
template KernelSet<float> variant_kernel_set<float>(const LaunchShape&);

}  // namespace feinterp::backends::cuda
