// SPDX-License-Identifier: BSD-3-Clause
// Test support: the error bound of each output entry of an FP32 plan against the exact (FP64) result,
// derived from the element, its order and the values; tests/interpolator/precision_test.cpp explains
// the derivation. gamma = (N + 3) eps also covers the sum-factorised kernel's roundings (at most
// 1 + d + d (p + 1) per output relative to the same sum of |terms|: 7 to 16, against N + 3 = 7 to 67;
// cuda/kernels/sum_factorised/sum_factorised_kernel.cuh).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <feinterp/fem/tabulation.hpp>

#include <feinterp/tests/support/random_block.hpp>

namespace feinterp::test {

constexpr double float_roundoff = 0x1p-24;

/// The bound of each output entry of an FP32 plan against the exact result (comment above).
struct ErrorBounds {
  std::vector<double> values, reference_gradients, physical_gradients, detj;
  const std::vector<double>& of(Operation op) const {
    return op == Operation::values ? values : op == Operation::reference_gradients ? reference_gradients
                                                                                    : physical_gradients;
  }
};

inline ErrorBounds float_error_bounds(const RandomBlock& block, const PointSet& points, const std::vector<double>& u,
                                      int C) {
  const Tabulation table = tabulate(block.type, points);
  const int N = table.nodes, D = table.dimension, Q = table.points, S = block.space_dimension;
  const double gamma = (N + 3) * float_roundoff;
  ErrorBounds b;
  const std::size_t EQ = std::size_t(block.elements) * std::size_t(Q);
  b.values.resize(EQ * C);
  b.reference_gradients.resize(EQ * C * D);
  b.physical_gradients.resize(EQ * C * S);
  b.detj.resize(EQ);
  for (offset_t e = 0; e < block.elements; ++e)
    for (int q = 0; q < Q; ++q) {
      const std::size_t eq = std::size_t(e) * Q + q;
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(S, D), A_J = Eigen::MatrixXd::Zero(S, D);
      Eigen::MatrixXd r = Eigen::MatrixXd::Zero(C, D), A_r = Eigen::MatrixXd::Zero(C, D);
      Eigen::VectorXd A_values = Eigen::VectorXd::Zero(C);
      for (int n = 0; n < N; ++n) {
        const std::size_t node = std::size_t(block.connectivity[std::size_t(e) * N + n]);
        const double phi = table.values[std::size_t(q) * N + n];
        for (int c = 0; c < C; ++c) A_values[c] += std::abs(phi * u[node * C + c]);
        for (int d = 0; d < D; ++d) {
          const double dphi = table.gradients[(std::size_t(q) * N + n) * D + d];
          for (int k = 0; k < S; ++k) {
            J(k, d) += dphi * block.coordinates[node * 3 + k];
            A_J(k, d) += std::abs(dphi * block.coordinates[node * 3 + k]);
          }
          for (int c = 0; c < C; ++c) {
            r(c, d) += dphi * u[node * C + c];
            A_r(c, d) += std::abs(dphi * u[node * C + c]);
          }
        }
      }
      const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(J).singularValues();
      const double s_min = sigma[D - 1], kappa = S > D ? sigma[0] / s_min : 1.0;
      const double measure = sigma.prod();  // |det J| for D = S, sqrt(det(J^T J)) for D < S
      b.detj[eq] = 4 * gamma * measure * std::sqrt(double(D)) * A_J.norm() / s_min * kappa;
      for (int c = 0; c < C; ++c) {
        b.values[eq * C + c] = gamma * A_values[c];
        for (int d = 0; d < D; ++d) b.reference_gradients[(eq * C + c) * D + d] = gamma * A_r(c, d);
        const double g = 4 * gamma * (A_r.row(c).norm() / s_min + A_J.norm() * r.row(c).norm() / (s_min * s_min) * kappa);
        for (int k = 0; k < S; ++k) b.physical_gradients[(eq * C + c) * S + k] = g;
      }
    }
  return b;
}

/// Fails for each entry (the first 5 reported) where |got - expected| exceeds its bound or is NaN.
inline void expect_within(const std::vector<float>& got, const std::vector<double>& expected,
                          const std::vector<double>& bound, const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  ASSERT_EQ(bound.size(), expected.size()) << what;
  std::size_t failures = 0;
  double worst = 0;  // the largest error / bound
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = std::abs(double(got[i]) - expected[i]);
    if (!(error <= bound[i]) && ++failures <= 5)
      ADD_FAILURE() << what << "[" << i << "]: fp32 " << got[i] << ", fp64 " << expected[i] << ", error " << error
                    << " > bound " << bound[i];
    if (bound[i] > 0) worst = std::max(worst, error / bound[i]);
  }
  EXPECT_EQ(failures, 0u) << what << ": the largest error is " << worst << " of its bound";
}

}  // namespace feinterp::test
