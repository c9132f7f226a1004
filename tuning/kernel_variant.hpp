// SPDX-License-Identifier: BSD-3-Clause
// KernelVariant: which family of forward kernels computes a launch. Defined here, in the lowest CUDA
// layer that names it (a tuning table's variant column); launch/kernel_variant_choice.hpp decides which
// one a launch uses, kernels/ implements them.
//
//   dense           the packed kernel (kernels/dense/packed_kernel.cuh): an N x Q table per block, any element
//                   and any point set
//   sum_factorised  kernels/sum_factorised/sum_factorised_kernel.cuh and sum_factorised_transpose_kernel.cuh: quadrilaterals and
//                   hexahedra at tensor-product point sets (fem/tensor_structure.hpp), contracted one axis
//                   at a time
//   dense_tensor_cores  kernels/tensor_cores/tensor_core_kernel.cuh: the dense product of the packed kernel as one matrix
//                   product per group of elements, on the FP64 tensor cores (DMMA, sm_80 and newer);
//                   values and reference gradients in double, any element and point set
//   dense_async_gather  the packed kernel of `dense`, its gather of nodal values issued as asynchronous
//                   copies (cp.async) instead of loads, as physical gradients always do; values and
//                   reference gradients at C = 1, where a thread computes two elements
//                   (layout/elements_per_thread.hpp) and what limits the kernel is the gather's latency:
//                   neither way wins everywhere (gather-copies-two-elements.md), so the sweep times both
//
// A new variant is a value here, its name below, and its applicability in the launch module
// (launch/kernel_variant_choice.hpp). The fused Laplacian has the dense variant only.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace feinterp::tuning {

enum class KernelVariant { dense, sum_factorised, dense_tensor_cores, dense_async_gather };

inline constexpr KernelVariant all_kernel_variants[] = {KernelVariant::dense, KernelVariant::sum_factorised,
                                                        KernelVariant::dense_tensor_cores,
                                                        KernelVariant::dense_async_gather};

/// Whether the variant runs the packed dense kernel (kernels/dense/packed_kernel.cuh), whichever way it gathers:
/// its launch shape (threads, elements per thread, shared memory) is the dense one.
constexpr bool runs_packed_dense_kernel(KernelVariant variant) {
  return variant == KernelVariant::dense || variant == KernelVariant::dense_async_gather;
}

inline const char* kernel_variant_name(KernelVariant variant) {
  switch (variant) {
    case KernelVariant::dense: return "dense";
    case KernelVariant::sum_factorised: return "sum_factorised";
    case KernelVariant::dense_tensor_cores: return "dense_tensor_cores";
    case KernelVariant::dense_async_gather: return "dense_async_gather";
  }
  return "unknown";
}

/// The names kernel_variant_name writes, in all_kernel_variants' order (the choices of a command line).
inline std::vector<std::string> kernel_variant_names() {
  std::vector<std::string> names;
  for (KernelVariant v : all_kernel_variants) names.push_back(kernel_variant_name(v));
  return names;
}

/// "dense, sum_factorised, dense_tensor_cores or dense_async_gather": the names, for the messages that say
/// what was expected.
inline std::string expected_kernel_variants() {
  const std::vector<std::string> names = kernel_variant_names();
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

/// A name kernel_variant_name writes, or "sumfac" (sum_factorised), "tensor_cores" (dense_tensor_cores)
/// or "async_gather" (dense_async_gather); throws std::invalid_argument naming what is accepted.
inline KernelVariant parse_kernel_variant(const std::string& name) {
  for (KernelVariant v : all_kernel_variants)
    if (name == kernel_variant_name(v)) return v;
  if (name == "sumfac") return KernelVariant::sum_factorised;
  if (name == "tensor_cores") return KernelVariant::dense_tensor_cores;
  if (name == "async_gather") return KernelVariant::dense_async_gather;
  throw std::invalid_argument("unknown kernel variant '" + name + "': expected " + expected_kernel_variants());
}

}  // namespace feinterp::tuning
