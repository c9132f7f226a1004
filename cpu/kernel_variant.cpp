// SPDX-License-Identifier: BSD-3-Clause
// The CPU kernel variant's decision (kernel_variant.hpp).
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <feinterp/cpu/kernel_variant.hpp>

namespace feinterp::backends::cpu {

namespace {

// Whether `variant` can compute the configuration; otherwise false and `why_not` says why.
bool applies(KernelVariant variant, const CpuKernelConfiguration& c, std::string& why_not) {
  if (variant == KernelVariant::dense_product && c.single_precision && c.op == Operation::physical_gradients) {
    // The product would form J in float; the GPU and the batched loops accumulate it in double.
    why_not = "FP32 physical gradients take dense_batched, whose Jacobian is in double";
    return false;
  }
  if (variant != KernelVariant::sum_factorised) return true;
  if (c.type.shape != Shape::quadrilateral && c.type.shape != Shape::hexahedron) {
    why_not = "only quadrilaterals and hexahedra are sum-factorised";
    return false;
  }
  if (is_transpose(c.op)) {
    why_not = "the CPU transposes are dense";
    return false;
  }
  if (c.points_per_direction == 0) {
    why_not = "the point set is not a tensor product of one 1D set";
    return false;
  }
  if (!c.sum_factorised_compiled) {
    why_not = "no CPU kernel is compiled for " + std::to_string(c.points_per_direction) + " points per direction";
    return false;
  }
  return true;
}

// FEINTERP_CPU_KERNEL_VARIANT, read at each decision (a plan decides at each call).
KernelVariant environment_variant() {
  const char* value = std::getenv(cpu_kernel_variant_environment_variable);
  const std::string text = value ? value : "";
  if (text.empty() || text == "auto") return KernelVariant::automatic;
  for (KernelVariant v : {KernelVariant::dense, KernelVariant::dense_batched, KernelVariant::dense_product,
                         KernelVariant::sum_factorised})
    if (text == kernel_variant_name(v)) return v;
  throw std::invalid_argument(std::string(cpu_kernel_variant_environment_variable) + "='" + text +
                              "': expected dense, dense_batched, dense_product, sum_factorised or auto");
}

}  // namespace

const char* kernel_variant_name(KernelVariant variant) {
  switch (variant) {
    case KernelVariant::automatic: return "automatic";
    case KernelVariant::dense: return "dense";
    case KernelVariant::dense_batched: return "dense_batched";
    case KernelVariant::dense_product: return "dense_product";
    case KernelVariant::sum_factorised: return "sum_factorised";
  }
  return "unknown";
}

// Hexahedra p3 only, and only where the build lacks AVX-512. feinterp-cpu-bench, ~200k elements,
// degree-2p Gauss rules, FP64, 2 threads on the 2-core development VM, shared with other work (runs wander
// by up to 1.5x), ms dense / sum-factorised, built for x86-64's SSE2 baseline
// (docs/performance/cpu/sum-factorisation.md):
//
//                 values C=1   C=d          ref. grad C=1  C=d          phys. grad C=1  C=d
//   quad p1       0.77 / 0.70  1.28 / 1.10  1.55 / 1.61    2.37 / 4.83  8.70 / 11.5     8.60 / 14.5
//   quad p2       2.16 / 3.84  3.13 / 13.7  5.30 / 10.2    11.2 / 17.7  23.3 / 34.2     32.7 / 35.5
//   quad p3       8.19 / 6.59  9.98 / 16.2  9.46 / 11.3    20.0 / 30.8  49.3 / 61.3     51.4 / 67.3
//   hex p1        2.20 / 1.63  3.69 / 17.6  5.58 / 7.29    14.0 / 29.7  31.1 / 57.3     39.1 / 79.5
//   hex p2        18.3 / 22.9  66.3 / 91.7  48.5 / 45.4    95.1 / 161   200 / 229       225 / 302
//   hex p3        60.8 / 43.1  199 / 149    164 / 79.5     514 / 211    771 / 405       1180 / 628
//
// At hexahedra p3 the stages' 3 x 4^4 multiply-adds per variant and field against the dense 64 x 64 win
// 1.3-2.4x; below, the dense product (Eigen's kernels, or the element-batched SIMD loops) costs less than
// the stages' scalar loops and permuted gathers, and the few wins (quad p1 and p3 values at C = 1, hex p1
// values, hex p2 reference gradients at C = 1) are within the runs' spread. With AVX-512 (-march=native,
// 300k hexahedra p3, ms dense / sum-factorised) the dense kernels take the lead there too: values 39 / 70
// and 109 / 247 (C = 3), reference gradients 83 / 97 and 263 / 243, physical gradients 386 / 462 and
// 509 / 634 (docs/performance/cpu/simd-across-elements.md).
bool sum_factorisation_faster(const CpuKernelConfiguration& c) {
#if defined(__AVX512F__)
  (void)c;
  return false;
#else
  return c.type.shape == Shape::hexahedron && c.type.order >= 3;
#endif
}

KernelVariant choose_cpu_kernel_variant(const CpuKernelConfiguration& c, KernelVariant requested) {
  std::string why_not;
  if (requested != KernelVariant::automatic) {
    if (!applies(requested, c, why_not))
      throw std::invalid_argument(std::string("CPU kernel variant ") + kernel_variant_name(requested) + " requested for " +
                                  to_string(c.type) + ", " + operation_name(c.op) + ": " + why_not);
    return requested;
  }
  const KernelVariant forced = environment_variant();
  if (forced != KernelVariant::automatic) return applies(forced, c, why_not) ? forced : KernelVariant::dense;
  return applies(KernelVariant::sum_factorised, c, why_not) && sum_factorisation_faster(c) ? KernelVariant::sum_factorised
                                                                                          : KernelVariant::dense;
}

}  // namespace feinterp::backends::cpu
