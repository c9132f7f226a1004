// SPDX-License-Identifier: BSD-3-Clause
// KernelVariant: which family of kernels computes a launch, by name: the vocabulary of a tuning table's
// variant column, the sweep's and the benchmarks' --variants, FEINTERP_KERNEL_VARIANT and the tests.
// Defined here, on the lowest floor that names it; cuda/launch/kernel_variant_choice.hpp decides which
// one a launch uses, cuda/kernels/ implements them. The built-in five:
//
//   dense               the packed kernel (cuda/kernels/dense/packed_kernel.cuh): an N x Q table per
//                       block, any element and any point set
//   sum_factorised      cuda/kernels/sum_factorised/: quadrilaterals and hexahedra at tensor-product point
//                       sets (fem/tensor_structure.hpp), contracted one axis at a time
//   dense_tensor_cores  cuda/kernels/tensor_cores/: the dense product as one matrix product per group of
//                       elements on the FP64 tensor cores (DMMA, sm_80 and newer); values and reference
//                       gradients in double, any element and point set
//   dense_async_gather  the packed kernel of `dense`, its gather of nodal values issued as asynchronous
//                       copies (cp.async) instead of loads; values and reference gradients at C = 1, where
//                       a thread computes two elements and the gather's latency limits the kernel: neither
//                       way wins everywhere (docs/performance/nvidia-h100-80gb-hbm3/
//                       gather-copies-two-elements.md), so the sweep times both
//   dense_64_registers  the packed kernel of `dense` held to 64 registers (two blocks of 512 threads per
//                       multiprocessor); physical gradients of tetrahedra and hexahedra in double at the
//                       compiled C (1..3), where ptxas left free gives the C = 3 kernels 76-85 registers:
//                       on the H200 the cap takes 0.955-1.11 of the free time, depending on the element
//                       (docs/performance/nvidia-h200/register-caps.md), so the sweep times both
//
// A new variant is registered by name here (register_kernel_variant_name), and with its traits and
// kernels in the backend's registry (cuda/kernel_variants.hpp), which the plan, the launch decisions, the
// tables, the sweep, the benchmarks and the tests iterate.
#pragma once

#include <string>
#include <vector>

namespace feinterp::tuning {

/// A kernel variant: a small value standing for one family of kernels. The five built-in ones are the
/// constants below; a family added later gets the next value from register_kernel_variant_name.
class KernelVariant {
 public:
  constexpr KernelVariant() = default;  ///< dense
  /// The variant registered `index`-th (0: dense); see all_kernel_variants.
  static constexpr KernelVariant at(int index) { return KernelVariant(index); }
  constexpr int index() const { return index_; }
  friend constexpr bool operator==(KernelVariant a, KernelVariant b) { return a.index_ == b.index_; }
  friend constexpr bool operator!=(KernelVariant a, KernelVariant b) { return a.index_ != b.index_; }
  friend constexpr bool operator<(KernelVariant a, KernelVariant b) { return a.index_ < b.index_; }

  static const KernelVariant dense, sum_factorised, dense_tensor_cores, dense_async_gather, dense_64_registers;

 private:
  constexpr explicit KernelVariant(int index) : index_(index) {}
  int index_ = 0;
};
inline constexpr KernelVariant KernelVariant::dense{0};
inline constexpr KernelVariant KernelVariant::sum_factorised{1};
inline constexpr KernelVariant KernelVariant::dense_tensor_cores{2};
inline constexpr KernelVariant KernelVariant::dense_async_gather{3};
inline constexpr KernelVariant KernelVariant::dense_64_registers{4};

/// Registers a variant's name and returns its value: the next one, or the one the name already has.
/// Throws std::invalid_argument for a name that is empty, holds anything but [a-z0-9_], or is an alias
/// parse_kernel_variant accepts. Thread-safe; names are never removed.
KernelVariant register_kernel_variant_name(const std::string& name);

/// Every registered variant, the built-in five first, in registration order.
std::vector<KernelVariant> all_kernel_variants();

/// Whether the packed dense kernel (kernels/dense/packed_kernel.cuh) runs the variant, whichever way it
/// gathers and whatever its register cap: its launch shape (threads, elements per thread, shared memory)
/// is the dense one.
constexpr bool runs_packed_dense_kernel(KernelVariant variant) {
  return variant == KernelVariant::dense || variant == KernelVariant::dense_async_gather ||
         variant == KernelVariant::dense_64_registers;
}

/// The variant's registered name ("dense", "sum_factorised", ...); "unknown" for a value never registered.
const char* kernel_variant_name(KernelVariant variant);

/// The names kernel_variant_name writes, in all_kernel_variants' order (the choices of a command line).
std::vector<std::string> kernel_variant_names();

/// "dense, sum_factorised, dense_tensor_cores, dense_async_gather or dense_64_registers": the names, for the messages that say
/// what was expected.
std::string expected_kernel_variants();

/// A registered name, or "sumfac" (sum_factorised), "tensor_cores" (dense_tensor_cores) or "async_gather"
/// (dense_async_gather); throws std::invalid_argument naming what is accepted.
KernelVariant parse_kernel_variant(const std::string& name);

}  // namespace feinterp::tuning
