// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised fused operators' sequences (cuda/kernels/sum_factorised/
// sum_factorised_operator_kernel.cuh), run on the host with one worker:
//   on the fly    the field and the coordinates through the forward stages together,
//                 tensor_diffusion_point at each lattice point, the adjoint stages back to the nodal lattice;
//   precomputed   the coordinates alone through the forward stages to tensor_operator_factors (the factor
//                 pass), then the field alone, tensor_precomputed_operator_point, the adjoint stages.
// Against the CPU plan's fused operators into element vectors, with a random SPD tensor kappa (on the
// fly) or a random scalar rho or kappa (precomputed), on one random curved quadrilateral (s = 2 and 3) or
// hexahedron of order 1-3, C = 1 and 3, at Gauss rules of degree 2p: equal to 1e-12.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/fem/tensor_structure.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

// The forward stages of F fields on the lattice: values or reference gradients, rows (f * V + k), lattice order.
template <int D, int P1, int Q1, bool Gradients>
std::vector<double> forward(const TensorStructure& t, const std::vector<double>& lattice, int F) {
  constexpr int Q = integer_power(Q1, D), V = Gradients ? D : 1;
  const double* B = t.values_1d.data();
  const double* G = t.derivatives_1d.data();
  std::vector<double> s0(std::size_t(tensor_stage_size(D, P1, Q1, F, Gradients, 0)));
  std::vector<double> s1(D == 3 ? std::size_t(tensor_stage_size(D, P1, Q1, F, Gradients, 1)) : 0);
  std::vector<double> R(std::size_t(F) * V * Q);
  tensor_contract<D, P1, Q1, Gradients, 0>(F, 0, 1, lattice.data(), s0.data(), B, G);
  if constexpr (D == 2) {
    tensor_contract<D, P1, Q1, Gradients, 1>(F, 0, 1, s0.data(), R.data(), B, G, Q);
  } else {
    tensor_contract<D, P1, Q1, Gradients, 1>(F, 0, 1, s0.data(), s1.data(), B, G);
    tensor_contract<D, P1, Q1, Gradients, 2>(F, 0, 1, s1.data(), R.data(), B, G, Q);
  }
  return R;
}

// The adjoint stages from the point rows (C x V rows of Qp, the set's order) to the element vector [n][c].
template <int D, int P1, int Q1, bool Gradients>
std::vector<double> adjoint(const TensorStructure& t, const std::vector<double>& rows, int C) {
  constexpr int N = integer_power(P1, D), Q = integer_power(Q1, D), V = Gradients ? D : 1;
  const double* B = t.values_1d.data();
  const double* G = t.derivatives_1d.data();
  // Two buffers, as the kernel: step j writes buffer j % 2.
  const std::size_t size = std::size_t(std::max(C * D * Q, C * N)) * 4;
  std::vector<double> buffer[2] = {std::vector<double>(size), std::vector<double>(size)};
  tensor_contract_transpose<D, P1, Q1, Gradients, D - 1>(C, 0, 1, rows.data(), buffer[0].data(), B, G, Q | 1, V,
                                                          t.point_of_lattice.data());
  if constexpr (D == 3)
    tensor_contract_transpose<D, P1, Q1, Gradients, 1>(C, 0, 1, buffer[0].data(), buffer[1].data(), B, G);
  constexpr int lattice_buffer = (D - 1) % 2;
  tensor_contract_transpose<D, P1, Q1, Gradients, 0>(C, 0, 1, buffer[1 - lattice_buffer].data(),
                                                      buffer[lattice_buffer].data(), B, G);
  std::vector<double> y(std::size_t(N) * C);
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      y[std::size_t(n) * C + c] = buffer[lattice_buffer][std::size_t(c) * N + t.node_lattice[std::size_t(n)]];
  return y;
}

// The precomputed kinds: the factor pass over the coordinates, then the field's pass with a scalar `scale`
// per point (the set's order).
template <int D, int P1, int Q1, int S, bool Diffusion>
std::vector<double> by_precomputed_stages(const TensorStructure& t, const test::RandomBlock& e,
                                          const std::vector<double>& u, int C, const std::vector<double>& weights,
                                          const std::vector<double>& scale) {
  constexpr int N = integer_power(P1, D), Q = integer_power(Q1, D);
  constexpr int T = Diffusion ? diffusion_factor_entries(D) : 1, V = Diffusion ? D : 1;
  std::vector<double> coordinates(static_cast<std::size_t>(S * N)), field(static_cast<std::size_t>(C * N));
  for (int n = 0; n < N; ++n) {
    const std::size_t node = std::size_t(e.connectivity[std::size_t(n)]);
    const int a = t.node_lattice[std::size_t(n)];
    for (int k = 0; k < S; ++k) coordinates[std::size_t(k) * N + a] = e.coordinates[node * 3 + k];
    for (int c = 0; c < C; ++c) field[std::size_t(c) * N + a] = u[node * C + c];
  }
  const std::vector<double> J = forward<D, P1, Q1, true>(t, coordinates, S);
  std::vector<double> factors(std::size_t(T) * Q, std::nan(""));
  for (int l = 0; l < Q; ++l) {
    unsigned orientation = 0;
    tensor_operator_factors<D, S, Diffusion>(J.data(), Q, l, weights[std::size_t(t.point_of_lattice[std::size_t(l)])],
                                             factors.data() + l, Q, orientation);
    EXPECT_EQ(orientation, orientation_positive);
  }
  const std::vector<double> R = forward<D, P1, Q1, Diffusion>(t, field, C);
  std::vector<double> rows(std::size_t(C) * V * (Q | 1), std::nan(""));
  for (int l = 0; l < Q; ++l) {
    const int q = t.point_of_lattice[std::size_t(l)];
    tensor_precomputed_operator_point<D, Diffusion>(C, R.data(), Q, l, rows.data(), Q | 1, q, factors.data() + l, Q,
                                                    scale[std::size_t(q)]);
  }
  return adjoint<D, P1, Q1, Diffusion>(t, rows, C);
}

template <int D, int P1, int Q1, int S>
std::vector<double> by_stages(const TensorStructure& t, const test::RandomBlock& e, const std::vector<double>& u, int C,
                              const std::vector<double>& weights, const std::vector<double>& kappa, int T) {
  constexpr int N = integer_power(P1, D), Q = integer_power(Q1, D);
  const int F = C + S, Qp = Q | 1;
  std::vector<double> lattice(std::size_t(F) * N);
  for (int n = 0; n < N; ++n) {
    const std::size_t node = std::size_t(e.connectivity[std::size_t(n)]);
    for (int c = 0; c < C; ++c) lattice[std::size_t(c) * N + t.node_lattice[std::size_t(n)]] = u[node * C + c];
    for (int k = 0; k < S; ++k) lattice[std::size_t(C + k) * N + t.node_lattice[std::size_t(n)]] = e.coordinates[node * 3 + k];
  }
  const std::vector<double> R = forward<D, P1, Q1, true>(t, lattice, F);
  std::vector<double> rows(std::size_t(C) * D * Qp, std::nan(""));
  for (int l = 0; l < Q; ++l) {
    const int q = t.point_of_lattice[std::size_t(l)];
    unsigned orientation = 0;
    tensor_diffusion_point<D, S>(C, R.data(), Q, l, rows.data(), Qp, q, weights.data(), kappa.data() + std::size_t(q) * T,
                                 T, orientation);
    EXPECT_EQ(orientation, orientation_positive);
  }
  return adjoint<D, P1, Q1, true>(t, rows, C);
}

// Calls f(D, P1, S), each a std::integral_constant, for a quadrilateral or hexahedron of `type` in space
// dimension S whose rule has Q1 = P1 points per direction (the degree-2p Gauss rules these tests use).
template <class F>
void with_compile_time_sizes(ElementType type, int S, const TensorStructure& t, F&& f) {
  visit(type, [&](auto element) {
    using Element = decltype(element);
    constexpr int D = Element::dimension, P1 = Element::order + 1;
    if constexpr (Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron) {
      auto run = [&](auto s) {
        if constexpr (decltype(s)::value >= D)
          if (t.points_per_direction == P1) f(std::integral_constant<int, D>{}, std::integral_constant<int, P1>{}, s);
      };
      if (S == 2)
        run(std::integral_constant<int, 2>{});
      else
        run(std::integral_constant<int, 3>{});
    }
  });
}

struct Case {
  ElementType type;
  int S;
};

class SumFactorisedOperators : public ::testing::TestWithParam<Case> {};
INSTANTIATE_TEST_SUITE_P(Elements, SumFactorisedOperators,
                         ::testing::Values(Case{{Shape::quadrilateral, 1}, 2}, Case{{Shape::quadrilateral, 2}, 2},
                                           Case{{Shape::quadrilateral, 3}, 2}, Case{{Shape::quadrilateral, 2}, 3},
                                           Case{{Shape::hexahedron, 1}, 3}, Case{{Shape::hexahedron, 2}, 3},
                                           Case{{Shape::hexahedron, 3}, 3}),
                         [](const auto& info) {
                           return std::string(shape_name(info.param.type.shape)) + "_p" +
                                  std::to_string(info.param.type.order) + "_s" + std::to_string(info.param.S);
                         });

TEST_P(SumFactorisedOperators, StagesEqualTheFusedDiffusion) {
  const ElementType type = GetParam().type;
  const int S = GetParam().S, p = type.order;
  std::mt19937_64 rng(test::test_seed());
  const test::RandomBlock e = test::random_block(type, 1, rng, 0.05, S);
  const PointSet rule = quadrature_rule(type.shape, 2 * p);
  const TensorStructure t = *tensor_structure(type, rule);
  const int Q = rule.size(), T = S * (S + 1) / 2;
  std::uniform_real_distribution<double> off(-0.3, 0.3);
  std::vector<double> kappa(std::size_t(Q) * T);
  for (int q = 0; q < Q; ++q)
    for (int a = 0; a < S; ++a)
      for (int b = a; b < S; ++b) kappa[std::size_t(q) * T + std::size_t(symmetric_entry(S, a, b))] = (a == b ? 2.0 : 0.0) + off(rng);
  const Interpolator<double> plan(e.view(), e.node_count(), rule, e.coordinates.data(), {Executor::cpu()});
  for (int C : {1, 3}) {
    SCOPED_TRACE("C = " + std::to_string(C));
    const std::vector<double> u = test::random_field(e.node_count(), C, rng);
    std::vector<double> expected(std::size_t(nodes_per_element(type)) * C);
    TransposeOptions element_vectors;
    element_vectors.target = TransposeTarget::element_vectors;
    plan.apply_operator(FusedOperator::diffusion, {u.data(), u.size(), C}, {expected.data(), expected.size()},
                        {kappa.data(), kappa.size(), CoefficientShape::symmetric_tensor}, element_vectors);
    std::vector<double> got;
    with_compile_time_sizes(type, S, t, [&](auto d, auto p1, auto s) {
      got = by_stages<decltype(d)::value, decltype(p1)::value, decltype(p1)::value, decltype(s)::value>(
          t, e, u, C, rule.weights, kappa, T);
    });
    ASSERT_EQ(got.size(), expected.size()) << "Q1 " << t.points_per_direction;
    EXPECT_LE(test::relative_error(got, expected), 1e-12);
  }
}

TEST_P(SumFactorisedOperators, PrecomputedStagesEqualTheFusedOperators) {
  const ElementType type = GetParam().type;
  const int S = GetParam().S, p = type.order;
  std::mt19937_64 rng(test::test_seed());
  const test::RandomBlock e = test::random_block(type, 1, rng, 0.05, S);
  const PointSet rule = quadrature_rule(type.shape, 2 * p);
  const TensorStructure t = *tensor_structure(type, rule);
  const int Q = rule.size();
  std::uniform_real_distribution<double> positive(0.5, 2.0);
  std::vector<double> scale(static_cast<std::size_t>(Q));
  for (double& v : scale) v = positive(rng);
  const Interpolator<double> plan(e.view(), e.node_count(), rule, e.coordinates.data(), {Executor::cpu()});
  for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
    for (int C : {1, 3}) {
      SCOPED_TRACE(std::string(fused_operator_name(op)) + ", C = " + std::to_string(C));
      const std::vector<double> u = test::random_field(e.node_count(), C, rng);
      std::vector<double> expected(std::size_t(nodes_per_element(type)) * C);
      TransposeOptions element_vectors;
      element_vectors.target = TransposeTarget::element_vectors;
      plan.apply_operator(op, {u.data(), u.size(), C}, {expected.data(), expected.size()},
                          {scale.data(), scale.size(), CoefficientShape::scalar}, element_vectors);
      std::vector<double> got;
      with_compile_time_sizes(type, S, t, [&](auto d, auto p1, auto s) {
        constexpr int D = decltype(d)::value, P1 = decltype(p1)::value, Sc = decltype(s)::value;
        got = op == FusedOperator::mass ? by_precomputed_stages<D, P1, P1, Sc, false>(t, e, u, C, rule.weights, scale)
                                        : by_precomputed_stages<D, P1, P1, Sc, true>(t, e, u, C, rule.weights, scale);
      });
      ASSERT_EQ(got.size(), expected.size()) << "Q1 " << t.points_per_direction;
      EXPECT_LE(test::relative_error(got, expected), 1e-12);
    }
}

}  // namespace
}  // namespace feinterp
