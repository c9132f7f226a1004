// SPDX-License-Identifier: BSD-3-Clause
// Test support: running an operation through the front door (interpolator/interpolator.hpp) on the
// executor a test executable is built for, host arrays in and out. The same test sources compile into a
// CPU executable and a GPU one (label `gpu`): FEINTERP_TEST_EXECUTOR is "cpu" or "cuda".
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <feinterp/interpolator/interpolator.hpp>

#ifndef FEINTERP_TEST_EXECUTOR
#define FEINTERP_TEST_EXECUTOR "cpu"
#endif

namespace feinterp::test {

/// The executor this test executable runs on.
inline Executor test_executor() { return parse_executor(FEINTERP_TEST_EXECUTOR); }

/// GPU executables skip, visibly, where no CUDA device is usable (CI's machine has nvcc but no GPU).
#define FEINTERP_REQUIRE_EXECUTOR()                                                                      \
  do {                                                                                                   \
    if (::feinterp::test::test_executor().kind() == ::feinterp::ExecutorKind::cuda &&                    \
        !::feinterp::cuda_usable())                                                                      \
      GTEST_SKIP() << "GPU test skipped: " << ::feinterp::cuda_unusable_reason();                        \
  } while (0)

template <class Real>
struct Computed {
  std::vector<Real> out, detj;
};

/// What one front-door call returns, on `executor`: the block's connectivity, the coordinates and the
/// field are copied there, the outputs (and det J, for physical gradients unless `with_detj` is false)
/// poisoned with NaN there first, then apply and check, and the results copied back. `coordinates` may
/// be empty (no geometry).
template <class Real>
Computed<Real> compute(const Executor& executor, Operation op, const BlockView& host_block, offset_t node_count,
                       const PointSet& points, const std::vector<Real>& coordinates, const std::vector<Real>& u,
                       int components, InterpolatorOptions options = {}, bool with_detj = true) {
  options.executor = executor;
  const std::size_t entries = std::size_t(host_block.element_count) * std::size_t(nodes_per_element(host_block.type));
  ExecutorArray<node_index> connectivity(executor, entries);
  connectivity.copy_from(host_block.connectivity, entries);
  const ExecutorArray<Real> x(executor, coordinates), field(executor, u);
  BlockView block = host_block;
  block.connectivity = connectivity.data();
  const Interpolator<Real> plan(block, node_count, points, coordinates.empty() ? nullptr : x.data(), options);
  const std::vector<Real> nan_out(plan.output_size(op, components), std::numeric_limits<Real>::quiet_NaN());
  const std::vector<Real> nan_detj(op == Operation::physical_gradients && with_detj ? plan.detj_size() : 0,
                                   std::numeric_limits<Real>::quiet_NaN());
  ExecutorArray<Real> out(executor, nan_out), detj(executor, nan_detj);
  plan.apply(op, {field.data(), field.size(), components}, {out.data(), out.size()}, {detj.data(), detj.size()});
  plan.check();
  return {out.to_vector(), detj.to_vector()};
}

/// The same on the test executable's executor.
template <class Real>
Computed<Real> compute(Operation op, const BlockView& host_block, offset_t node_count, const PointSet& points,
                       const std::vector<Real>& coordinates, const std::vector<Real>& u, int components,
                       InterpolatorOptions options = {}, bool with_detj = true) {
  return compute<Real>(test_executor(), op, host_block, node_count, points, coordinates, u, components, options,
                       with_detj);
}

}  // namespace feinterp::test
