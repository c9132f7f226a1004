// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/launch/variant_traits.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/elements_per_thread.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>
#include <feinterp/cuda/layout/tensor_core_shared_layout.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/cuda/layout/tensor_operator_layout.hpp>
#include <feinterp/cuda/layout/tensor_transpose_launch_shape.hpp>

namespace feinterp::backends::cuda {

namespace {

std::size_t real_bytes(Precision precision) { return precision == Precision::fp64 ? sizeof(double) : sizeof(float); }

bool refuse(std::string* why_not, const std::string& sentence) {
  if (why_not) *why_not = sentence;
  return false;
}

/// A variant that applies to no more than one element per block's worth of shared memory.
bool fits_one_element(const LaunchShape& s, const DeviceInfo& device, const char* kernel, std::string* why_not) {
  if (max_elements_per_block(s, device) >= 1) return true;
  return refuse(why_not, "one element needs " + std::to_string(packed_shared_bytes(s, 1)) + " bytes of shared memory in the " +
                             kernel + " kernel; " + device.name + " allows " +
                             std::to_string(device.shared_per_block_optin) + " per block");
}

// ---- dense: the packed kernel, and its transpose ----------------------------------------------------------
int dense_threads_per_element(const LaunchShape& s) {
  if (!is_transpose(s.op)) return threads_per_element(s.points);
  return std::min(std::max(s.points, nodes_per_element(s.type)), max_threads_per_element);  // over points, then nodes
}

int dense_elements_per_thread(const LaunchShape& s) {
  // The run-time-C kernel computes one element per thread.
  if (is_transpose(s.op) || uses_run_time_components(s.op, false, s.components, s.run_time_components))
    return 1;
  return packed_elements_per_thread(s.op, s.components);
}

std::size_t dense_shared_bytes(const LaunchShape& s, int elements_per_block) {
  if (is_transpose(s.op))
    return transpose_shared_layout(nodes_per_element(s.type), dimension(s.type.shape), s.space_dimension, s.op,
                                   geometric(s), s.fused, s.points, s.components, elements_per_block,
                                   real_bytes(s.precision))
        .bytes;
  return shared_layout(nodes_per_element(s.type), dimension(s.type.shape), s.space_dimension, s.op, s.points,
                       s.components, elements_per_block, real_bytes(s.precision))
      .bytes;
}

bool dense_applies(const LaunchShape&, const DeviceInfo&, std::string*) { return true; }

// ---- dense_async_gather: the packed kernel with its gather copied ------------------------------------------
bool async_gather_applies(const LaunchShape& s, const DeviceInfo&, std::string* why_not) {
  if (s.op != Operation::values && s.op != Operation::reference_gradients)
    return refuse(why_not, std::string("the asynchronous-gather kernel computes values and reference gradients, not ") +
                               operation_name(s.op) +
                               (s.op == Operation::physical_gradients ? " (whose dense kernel always copies its gather)" : ""));
  if (s.run_time_components)
    return refuse(why_not, "the asynchronous-gather kernel has no run-time-C form: it is compiled for C = 1 only");
  if (packed_elements_per_thread(s.op, s.components) < 2)
    return refuse(why_not, "the asynchronous-gather kernel is compiled for C = 1 (two elements per thread), not C = " +
                               std::to_string(s.components));
  return true;
}

// ---- dense_64_registers: the packed kernel held to 64 registers ---------------------------------------------
bool dense_64_registers_applies(const LaunchShape& s, const DeviceInfo&, std::string* why_not) {
  if (s.op != Operation::physical_gradients)
    return refuse(why_not, std::string("the 64-register kernel computes physical gradients, not ") + operation_name(s.op));
  if (dimension(s.type.shape) != 3)
    return refuse(why_not, "the 64-register kernel is compiled for tetrahedra and hexahedra, not a " +
                               std::string(shape_name(s.type.shape)));
  if (s.precision != Precision::fp64)
    return refuse(why_not, "the 64-register kernel is compiled in FP64: in FP32 the physical-gradient kernels need fewer");
  if (s.run_time_components || s.components > compiled_components)
    return refuse(why_not, "the 64-register kernel is compiled for C = 1.." + std::to_string(compiled_components) +
                               " only, not " + (s.run_time_components ? "the run-time-C kernel" : "C = " + std::to_string(s.components)));
  return true;
}

// ---- sum_factorised ---------------------------------------------------------------------------------------
int sum_factorised_threads_per_element(const LaunchShape& s) {
  // Forward: a thread per line and field contracted; transposes: one per lattice point.
  return is_transpose(s.op)
             ? tensor_threads_per_element(dimension(s.type.shape), s.type.order + 1, s.points_per_direction)
             : tensor_forward_threads_per_element(dimension(s.type.shape), s.type.order + 1, s.points_per_direction,
                                                  tensor_forward_fields(s.op, s.components, s.space_dimension));
}

int one_element_per_thread(const LaunchShape&) { return 1; }

std::size_t sum_factorised_shared_bytes(const LaunchShape& s, int elements_per_block) {
  if (s.fused)
    return tensor_operator_shared_layout(tensor_operator_kind(s), dimension(s.type.shape), s.type.order + 1,
                                         s.points_per_direction, s.space_dimension, s.components, elements_per_block,
                                         real_bytes(s.precision))
        .bytes;
  if (is_transpose(s.op))
    return tensor_transpose_shared_layout(dimension(s.type.shape), s.type.order + 1, s.points_per_direction,
                                          s.space_dimension, s.op, geometric(s), s.components, elements_per_block,
                                          real_bytes(s.precision))
        .bytes;
  return tensor_shared_layout(dimension(s.type.shape), s.type.order + 1, s.points_per_direction, s.space_dimension,
                              s.op, s.components, elements_per_block, real_bytes(s.precision), s.tensor_buffer_residues)
      .bytes;
}

bool sum_factorised_applies(const LaunchShape& s, const DeviceInfo& device, std::string* why_not) {
  if (s.type.shape != Shape::quadrilateral && s.type.shape != Shape::hexahedron)
    return refuse(why_not, "the sum-factorised kernel needs a quadrilateral or hexahedron, not a " +
                               std::string(shape_name(s.type.shape)));
  if (s.fused && forward_of(s.op) != Operation::physical_gradients && !s.precomputed_geometry)
    return refuse(why_not, "the sum-factorised mass operator reads precomputed geometry (OperatorGeometry)");
  if (s.points_per_direction < 1)
    return refuse(why_not, "the point set is not a tensor product of one 1D set (fem/tensor_structure.hpp)");
  if (s.fused && (s.points_per_direction < operator_points_per_direction_min(s.type.order) ||
                  s.points_per_direction > operator_points_per_direction_max(s.type.order)))
    return refuse(why_not, std::to_string(s.points_per_direction) +
                               " points per direction: the sum-factorised operators are compiled for " +
                               std::to_string(operator_points_per_direction_min(s.type.order)) + " and " +
                               std::to_string(operator_points_per_direction_max(s.type.order)) + " at order " +
                               std::to_string(s.type.order));
  if (s.points_per_direction < min_tensor_points_per_direction ||
      s.points_per_direction > max_tensor_points_per_direction(s.type.order))
    return refuse(why_not, std::to_string(s.points_per_direction) +
                               " points per direction: the sum-factorised kernels are compiled for " +
                               std::to_string(min_tensor_points_per_direction) + " to " +
                               std::to_string(max_tensor_points_per_direction(s.type.order)) + " at order " +
                               std::to_string(s.type.order));
  return fits_one_element(s, device, "sum-factorised", why_not);
}

// ---- dense_tensor_cores -----------------------------------------------------------------------------------
int tensor_core_threads(const LaunchShape&) { return tensor_core_threads_per_element; }

std::size_t tensor_core_shared_bytes(const LaunchShape& s, int elements_per_block) {
  return tensor_core_shared_layout(nodes_per_element(s.type), s.op == Operation::values ? 1 : dimension(s.type.shape),
                                   s.points, s.components, elements_per_block)
      .bytes;
}

bool tensor_cores_apply(const LaunchShape& s, const DeviceInfo& device, std::string* why_not) {
  if (s.op != Operation::values && s.op != Operation::reference_gradients)
    return refuse(why_not, std::string("the tensor-core kernel computes values and reference gradients, not ") +
                               operation_name(s.op));
  if (s.precision != Precision::fp64) return refuse(why_not, "the tensor-core kernel is FP64 (DMMA); FP32 runs on the CUDA cores");
  if (device.major < 8)
    return refuse(why_not, device.name + " (compute capability " + device.compute_capability() +
                               ") has no FP64 tensor cores: they need 8.0 or newer");
  return fits_one_element(s, device, "tensor-core", why_not);
}

struct Registry {
  std::mutex mutex;
  std::map<int, VariantTraits> traits{
      {KernelVariant::dense.index(), {dense_applies, dense_threads_per_element, dense_elements_per_thread, dense_shared_bytes}},
      {KernelVariant::dense_async_gather.index(),
       {async_gather_applies, dense_threads_per_element, dense_elements_per_thread, dense_shared_bytes}},
      {KernelVariant::dense_64_registers.index(),
       {dense_64_registers_applies, dense_threads_per_element, dense_elements_per_thread, dense_shared_bytes}},
      {KernelVariant::sum_factorised.index(),
       {sum_factorised_applies, sum_factorised_threads_per_element, one_element_per_thread, sum_factorised_shared_bytes}},
      {KernelVariant::dense_tensor_cores.index(),
       {tensor_cores_apply, tensor_core_threads, one_element_per_thread, tensor_core_shared_bytes}}};
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

const VariantTraits& variant_traits(KernelVariant variant) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto found = r.traits.find(variant.index());
  if (found == r.traits.end())
    throw std::invalid_argument(std::string("kernel variant ") + tuning::kernel_variant_name(variant) +
                                " has no launch traits registered (cuda/kernel_variants.hpp)");
  return found->second;  // std::map: the reference stays valid as entries are added
}

void register_variant_traits(KernelVariant variant, const VariantTraits& traits) {
  if (!traits.applies || !traits.threads_per_element || !traits.elements_per_thread || !traits.shared_bytes)
    throw std::invalid_argument(std::string("kernel variant ") + tuning::kernel_variant_name(variant) +
                                ": its traits need every function (applies, threads_per_element, "
                                "elements_per_thread, shared_bytes)");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.traits[variant.index()] = traits;
}

}  // namespace feinterp::backends::cuda
