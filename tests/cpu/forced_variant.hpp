// SPDX-License-Identifier: BSD-3-Clause
// The CPU kernel tests' harness: one forward call of a plan forced to a kernel variant, into outputs
// poisoned with NaN, checking that the forced variant is the one that runs; an FP32 result held to the
// precision tests' bounds; a variant's results bitwise the same for 1, 2, 3 and 8 threads.
#pragma once

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <feinterp/cpu/plan.hpp>
#include <feinterp/fem/quadrature.hpp>

#include <feinterp/tests/support/float_error_bounds.hpp>
#include <feinterp/tests/support/random_block.hpp>

namespace feinterp::backends::cpu {

template <class Real>
std::vector<Real> in_precision(const std::vector<double>& x) {
  return std::vector<Real>(x.begin(), x.end());
}

template <class Real>
struct Results {
  std::vector<Real> out, detj;
};

// One forward call of a plan forced to `variant` with `threads` threads, into outputs poisoned with NaN.
template <class Real>
Results<Real> compute(Operation op, const test::RandomBlock& block, const PointSet& points, const std::vector<Real>& x,
                      const std::vector<Real>& u, int C, KernelVariant variant, int threads) {
  PlanOptions options;
  options.threads = threads;
  options.variant = variant;
  const Plan<Real> plan(block.view(), block.node_count(), points, x.data(), options);
  EXPECT_EQ(plan.variant(op, C), variant) << "the forced variant is the one that runs";
  const int D = dimension(block.type.shape);
  const int R = op == Operation::values ? 1 : op == Operation::reference_gradients ? D : block.space_dimension;
  const std::size_t EQ = std::size_t(block.elements) * std::size_t(points.size());
  Results<Real> r{std::vector<Real>(EQ * C * R, std::nan("")), std::vector<Real>(EQ, std::nan(""))};
  plan.apply(op, {u.data(), u.size(), C}, {r.out.data(), r.out.size()}, {r.detj.data(), r.detj.size()});
  return r;
}

inline std::string describe(ElementType type, Operation op, int C, unsigned seed) {
  return to_string(type) + ", " + operation_name(op) + ", C = " + std::to_string(C) +
         " (FEINTERP_TEST_SEED=" + std::to_string(seed) + ")";
}

/// Each FP32 entry (and det J) within its bound (tests/support/float_error_bounds.hpp) of the FP64
/// result; the first 5 failures reported.
inline void expect_within_float_bounds(const Results<float>& got, const Results<double>& exact,
                                       const test::ErrorBounds& bounds, Operation op) {
  const std::vector<double>& bound = bounds.of(op);
  ASSERT_EQ(got.out.size(), exact.out.size());
  int failures = 0;
  for (std::size_t i = 0; i < got.out.size() && failures < 5; ++i)
    if (!(std::abs(double(got.out[i]) - exact.out[i]) <= bound[i]))  // NaN fails
      ADD_FAILURE() << "entry " << i << ": " << got.out[i] << " against " << exact.out[i] << ", bound " << bound[i]
                    << (++failures == 5 ? " (and maybe more)" : "");
  if (op == Operation::physical_gradients)
    for (std::size_t i = 0; i < got.detj.size() && failures < 5; ++i)
      if (!(std::abs(double(got.detj[i]) - exact.detj[i]) <= bounds.detj[i]))
        ADD_FAILURE() << "det J " << i << ": " << got.detj[i] << " against " << exact.detj[i]
                      << (++failures == 5 ? " (and maybe more)" : "");
}

/// `variant`'s results for every type, C = 1, d and 9 and every forward operation, on fresh random
/// blocks at the degree-2p rules: bitwise the same for 1, 2, 3 and 8 threads.
template <class Real, class Types>
void expect_bitwise_for_any_thread_count(const Types& types, KernelVariant variant) {
  for (ElementType type : types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    // 8 * 1024 + 5: every count up to 8 splits the block (threads.hpp), and the ranges' ends are uneven.
    const test::RandomBlock block = test::random_block(type, 8 * 1024 + 5, rng);
    const PointSet points = quadrature_rule(type.shape, 2 * type.order);
    const int D = dimension(type.shape);
    const std::vector<Real> x = in_precision<Real>(block.coordinates);
    for (int C : {1, D, 9}) {
      const std::vector<Real> u = in_precision<Real>(test::random_field(block.node_count(), C, rng));
      for (Operation op : forward_operations) {
        SCOPED_TRACE(describe(type, op, C, seed));
        const auto one = compute<Real>(op, block, points, x, u, C, variant, 1);
        for (const Real v : one.out) ASSERT_TRUE(std::isfinite(v)) << "an output left unwritten";
        for (int threads : {2, 3, 8}) {
          const auto many = compute<Real>(op, block, points, x, u, C, variant, threads);
          EXPECT_EQ(std::memcmp(one.out.data(), many.out.data(), one.out.size() * sizeof(Real)), 0)
              << threads << " threads";
          if (op == Operation::physical_gradients)
            EXPECT_EQ(std::memcmp(one.detj.data(), many.detj.data(), one.detj.size() * sizeof(Real)), 0)
                << "det J, " << threads << " threads";
        }
      }
    }
  }
}

}  // namespace feinterp::backends::cpu
