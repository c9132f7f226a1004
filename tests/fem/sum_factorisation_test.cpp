// SPDX-License-Identifier: BSD-3-Clause
// The stages of fem/sum_factorisation.hpp, run on the CPU the way the sum-factorised kernel runs them
// (cuda/kernels/sum_factorised/sum_factorised_kernel.cuh): the nodal values gathered into the lattice through the
// node permutation, each stage's units dealt out to a group of workers (here a loop over workers, one
// stage after the other: what a barrier between stages guarantees on the GPU), the last stage writing
// through the point permutation. Against the dense tabulation (fem/tabulation.hpp) and geometry.hpp on
// fresh random curved elements and fields, for every quadrilateral and hexahedron order, 1 to 6 points
// per direction (Gauss rules, in their order and shuffled, and the node lattice), C = 1, d and 9, and
// odd worker counts (a unit count that is no multiple of the workers), both the unit stages and the line
// stages of the forward kernel (bit for bit the same): values, reference gradients and
// physical gradients (S = 2 and 3 for quadrilaterals) to 1e-13; and the transposes the same way (the
// adjoint stages, with the geometry at each point: K^T for physical gradients, w_q |det J| when weighted)
// against the dense definition of the CPU backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/sum_factorisation_lines.hpp>
#include <feinterp/fem/tabulation.hpp>
#include <feinterp/fem/tensor_structure.hpp>

#include <feinterp/tests/support/random_block.hpp>

namespace feinterp {
namespace {

enum class Kind { values, reference_gradients, physical_gradients };

struct ElementData {
  std::vector<double> u;  // [n * C + c], Gmsh node order
  std::vector<double> x;  // [n * 3 + k]
};

struct Results {
  std::vector<double> out;   // [(q * C + c) * R + r], the point set's order
  std::vector<double> detj;  // [q]
  /// dense() only: each output's sum of term magnitudes, sum_n |phi_n| |u_n| (values), sum_n |dphi_n,r|
  /// |u_n| (reference gradients), sum_d |K_kd| sum_n |dphi_n,d| |u_n| (physical gradients). The rounding
  /// of any summation order is a few eps times it, whatever cancellation leaves of the output itself.
  std::vector<double> scale;
};

/// max |got - expected| over the largest sum of term magnitudes: a relative error that a cancelling
/// output cannot inflate (one Gauss point of a random p3 field gave 2.6e-13 against its own value).
double error_against_terms(const std::vector<double>& got, const Results& expected) {
  double difference = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    difference = std::max(difference, std::abs(got[i] - expected.out[i]));
    scale = std::max(scale, expected.scale[i]);
  }
  return got.size() == expected.out.size() && scale > 0.0 ? difference / scale
                                                           : std::numeric_limits<double>::infinity();
}

/// The dense computation, as the CPU backend does it: N x Q tables and geometry.hpp.
template <int S, int D, int N>
Results dense(Kind kind, const Tabulation& table, const ElementData& e, int C) {
  const int Q = table.points;
  const int R = kind == Kind::values ? 1 : kind == Kind::reference_gradients ? D : S;
  Results r;
  r.out.assign(std::size_t(Q) * C * R, 0.0);
  r.scale.assign(std::size_t(Q) * C * R, 0.0);
  r.detj.assign(std::size_t(Q), 0.0);
  for (int q = 0; q < Q; ++q) {
    const double* phi = &table.values[std::size_t(q) * N];
    const double* dphi = &table.gradients[std::size_t(q) * N * D];
    std::vector<double> reference(std::size_t(C) * D, 0.0), magnitude(std::size_t(C) * D, 0.0);
    for (int c = 0; c < C; ++c)
      for (int n = 0; n < N; ++n) {
        const double u = e.u[std::size_t(n) * C + c];
        if (kind == Kind::values) {
          r.out[std::size_t(q) * C + c] += phi[n] * u;
          r.scale[std::size_t(q) * C + c] += std::abs(phi[n] * u);
        }
        for (int d = 0; d < D; ++d) {
          reference[std::size_t(c) * D + d] += dphi[n * D + d] * u;
          magnitude[std::size_t(c) * D + d] += std::abs(dphi[n * D + d] * u);
        }
      }
    if (kind == Kind::reference_gradients) {
      std::copy(reference.begin(), reference.end(), r.out.begin() + std::ptrdiff_t(q) * C * D);
      std::copy(magnitude.begin(), magnitude.end(), r.scale.begin() + std::ptrdiff_t(q) * C * D);
    }
    if (kind == Kind::physical_gradients) {
      double J[S][D];
      jacobian<S, D, N>(e.x.data(), 3, dphi, J);
      const double det = jacobian_determinant(J);
      double K[S][D];
      inverse_transpose(J, det, K);
      r.detj[std::size_t(q)] = det;
      for (int c = 0; c < C; ++c) {
        physical_gradient<S, D>(K, &reference[std::size_t(c) * D], &r.out[(std::size_t(q) * C + c) * S]);
        for (int k = 0; k < S; ++k)
          for (int d = 0; d < D; ++d)
            r.scale[(std::size_t(q) * C + c) * S + k] += std::abs(K[k][d]) * magnitude[std::size_t(c) * D + d];
      }
    }
  }
  return r;
}

/// The kernel's sequence of stages on one element, each stage run by `workers` workers in turn: the
/// unit stages (tensor_contract) in their layout, or, Lines, the line stages of the forward kernel
/// (cuda/layout/sum_factorisation_lines.hpp) in theirs, the padded rows left NaN so that reading one shows.
template <int D, int P1, int Q1, int C, Kind K, int S, bool Lines>
Results sum_factorised(const TensorStructure& t, const ElementData& e, int workers) {
  constexpr bool gradients = K != Kind::values, physical = K == Kind::physical_gradients;
  constexpr int F = physical ? C + S : C;  // the coordinates ride along as S more fields
  constexpr int N = integer_power(P1, D), Q = integer_power(Q1, D);
  constexpr int R = K == Kind::values ? 1 : K == Kind::reference_gradients ? D : S;
  constexpr int field_size = Lines ? tensor_lines_lattice_size(D, P1) : N;
  // The kernel's output rows: [q][c * R + r], CRp reals per point (CR rounded up to odd where it pays).
  constexpr int CRp = backends::cuda::tensor_output_point_stride(D, Q1, C * R);
  const double* B = t.values_1d.data();
  const double* G = t.derivatives_1d.data();
  const int* point_map = t.point_of_lattice.data();

  std::vector<double> in(std::size_t(F) * field_size, std::nan(""));
  for (int n = 0; n < N; ++n) {
    const int l = t.node_lattice[std::size_t(n)];
    const int a = Lines ? tensor_lines_lattice_slot(l, P1) : l;
    for (int c = 0; c < C; ++c) in[std::size_t(c) * field_size + a] = e.u[std::size_t(n) * C + c];
    if constexpr (physical)
      for (int k = 0; k < S; ++k) in[std::size_t(C + k) * field_size + a] = e.x[std::size_t(n) * 3 + k];
  }
  auto stage_size = [](int s) {
    return std::size_t(Lines ? tensor_lines_stage_size(D, P1, Q1, F, gradients, s)
                             : tensor_stage_size(D, P1, Q1, F, gradients, s));
  };
  // Stage s by every worker in turn.
  auto stage = [&](auto s_constant, const std::vector<double>& from, std::vector<double>& to, int stride, const int* map,
                   int point_stride) {
    constexpr int s = decltype(s_constant)::value;
    for (int w = 0; w < workers; ++w) {
      if constexpr (Lines)
        tensor_contract_lines<D, P1, Q1, gradients, s>(F, w, workers, from.data(), to.data(), B, G, stride, map,
                                                          point_stride);
      else
        tensor_contract<D, P1, Q1, gradients, s>(F, w, workers, from.data(), to.data(), B, G, stride, map, point_stride);
    }
  };
  std::vector<double> s0(stage_size(0), std::nan(""));
  std::vector<double> s1(D == 3 ? stage_size(1) : 0, std::nan(""));
  // The last stage: straight into the output rows [q * CRp + c * R + r], or, for physical gradients,
  // into the reference gradients of all F fields on the lattice, [(f * D + d) * Q + l].
  std::vector<double> last(physical ? std::size_t(F) * D * Q : std::size_t(Q) * CRp, std::nan(""));
  const int last_stride = physical ? Q : 1;
  const int* last_map = physical ? nullptr : point_map;
  const int last_point_stride = physical ? 1 : CRp;
  stage(std::integral_constant<int, 0>{}, in, s0, 0, nullptr, 1);
  if constexpr (D == 2) {
    stage(std::integral_constant<int, 1>{}, s0, last, last_stride, last_map, last_point_stride);
  } else {
    stage(std::integral_constant<int, 1>{}, s0, s1, 0, nullptr, 1);
    stage(std::integral_constant<int, 2>{}, s1, last, last_stride, last_map, last_point_stride);
  }
  Results r;
  r.out.assign(std::size_t(Q) * C * R, std::nan(""));
  r.detj.assign(std::size_t(Q), std::nan(""));
  std::vector<double> rows = last;
  if constexpr (physical) {
    rows.assign(std::size_t(Q) * CRp, std::nan(""));
    for (int w = 0; w < workers; ++w)
      for (int l = w; l < Q; l += workers) {
        unsigned orientation = 0;
        const int q = point_map[l];
        r.detj[std::size_t(q)] =
            tensor_physical_gradients<D, S>(C, last.data(), Q, l, rows.data() + std::size_t(q) * CRp, 1, 0, orientation);
        EXPECT_EQ(orientation, orientation_positive) << "point " << q;
      }
  }
  for (int q = 0; q < Q; ++q)
    for (int cr = 0; cr < C * R; ++cr) r.out[std::size_t(q) * C * R + cr] = rows[std::size_t(q) * CRp + cr];
  return r;
}

/// The point data of a transpose (the forward output's layout, [(q * C + c) * R + r]) back to the nodes,
/// as the CPU backend defines it: r[n][c] = sum_q factor_q sum_r T_q,n,r f_q,c,r with T = phi (values),
/// dphi/dxi_r (reference gradients), or dphi/dxi . K^T (physical gradients), factor_q = w_q |det J_q|
/// when weighted, else 1.
template <int S, int D, int N>
std::vector<double> dense_transpose(Kind kind, const Tabulation& table, const ElementData& e, const std::vector<double>& f,
                                    int C, const std::vector<double>* weights) {
  const int Q = table.points;
  const int R = kind == Kind::values ? 1 : kind == Kind::reference_gradients ? D : S;
  std::vector<double> r(static_cast<std::size_t>(N) * C, 0.0);
  for (int q = 0; q < Q; ++q) {
    const double* phi = &table.values[std::size_t(q) * N];
    const double* dphi = &table.gradients[std::size_t(q) * N * D];
    double J[S][D];
    jacobian<S, D, N>(e.x.data(), 3, dphi, J);
    const double det = jacobian_determinant(J);
    double K[S][D];
    inverse_transpose(J, det, K);
    const double factor = weights ? (*weights)[std::size_t(q)] * std::abs(det) : 1.0;
    for (int c = 0; c < C; ++c) {
      const double* g = &f[(std::size_t(q) * C + c) * R];
      double reference[D];
      if (kind == Kind::physical_gradients) physical_gradient_transpose<S, D>(K, g, reference);
      for (int n = 0; n < N; ++n) {
        double sum = 0;
        if (kind == Kind::values) sum = phi[n] * g[0];
        else
          for (int d = 0; d < D; ++d) sum += dphi[n * D + d] * (kind == Kind::physical_gradients ? reference[d] : g[d]);
        r[std::size_t(n) * C + c] += factor * sum;
      }
    }
  }
  return r;
}

/// The sum-factorised transpose kernel's sequence on one element: the point data in rows [(c*R + r)][q];
/// when geometric, the coordinates through the forward stages and each point's tensor_transpose_point;
/// then the adjoint stages, axis d - 1 first, each run by `workers` workers in turn.
template <int D, int P1, int Q1, int C, Kind K, int S>
std::vector<double> sum_factorised_transpose(const TensorStructure& t, const ElementData& e, const std::vector<double>& f,
                                             const std::vector<double>* weights, int workers) {
  constexpr bool gradients = K != Kind::values, physical = K == Kind::physical_gradients;
  constexpr int N = integer_power(P1, D), Q = integer_power(Q1, D);
  constexpr int R = K == Kind::values ? 1 : K == Kind::reference_gradients ? D : S;
  const int Qp = Q | 1;
  const double* B = t.values_1d.data();
  const double* G = t.derivatives_1d.data();
  const int* point_map = t.point_of_lattice.data();
  std::vector<double> rows(static_cast<std::size_t>(C) * R * Qp, std::nan(""));
  for (int q = 0; q < Q; ++q)
    for (int cr = 0; cr < C * R; ++cr) rows[std::size_t(cr) * Qp + q] = f[std::size_t(q) * C * R + cr];
  if (physical || weights) {
    std::vector<double> x(static_cast<std::size_t>(S) * N), x0(static_cast<std::size_t>(tensor_stage_size(D, P1, Q1, S, true, 0)));
    std::vector<double> x1(D == 3 ? std::size_t(tensor_stage_size(D, P1, Q1, S, true, 1)) : 0), J(static_cast<std::size_t>(S) * D * Q);
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < S; ++k) x[std::size_t(k) * N + t.node_lattice[std::size_t(n)]] = e.x[std::size_t(n) * 3 + k];
    for (int w = 0; w < workers; ++w) tensor_contract<D, P1, Q1, true, 0>(S, w, workers, x.data(), x0.data(), B, G);
    if constexpr (D == 2) {
      for (int w = 0; w < workers; ++w) tensor_contract<D, P1, Q1, true, 1>(S, w, workers, x0.data(), J.data(), B, G, Q);
    } else {
      for (int w = 0; w < workers; ++w) tensor_contract<D, P1, Q1, true, 1>(S, w, workers, x0.data(), x1.data(), B, G);
      for (int w = 0; w < workers; ++w) tensor_contract<D, P1, Q1, true, 2>(S, w, workers, x1.data(), J.data(), B, G, Q);
    }
    const double* w_q = weights ? weights->data() : nullptr;
    for (int w = 0; w < workers; ++w)
      for (int l = w; l < Q; l += workers) {
        unsigned orientation = 0;
        tensor_transpose_point<D, S, R, physical>(C, J.data(), Q, l, rows.data(), Qp, point_map[l], w_q, orientation);
        EXPECT_EQ(orientation, orientation_positive);
      }
  }
  // The adjoint stages: buffers sized as the forward stages' (the same arrays, read the other way).
  std::vector<double> a1(D == 3 ? std::size_t(tensor_stage_size(D, P1, Q1, C, gradients, 1)) : 0, std::nan(""));
  std::vector<double> a0(std::size_t(tensor_stage_size(D, P1, Q1, C, gradients, 0)), std::nan(""));
  std::vector<double> lattice(static_cast<std::size_t>(C) * N, std::nan(""));
  if constexpr (D == 2) {
    for (int w = 0; w < workers; ++w)
      tensor_contract_transpose<D, P1, Q1, gradients, 1>(C, w, workers, rows.data(), a0.data(), B, G, Qp, R, point_map);
  } else {
    for (int w = 0; w < workers; ++w)
      tensor_contract_transpose<D, P1, Q1, gradients, 2>(C, w, workers, rows.data(), a1.data(), B, G, Qp, R, point_map);
    for (int w = 0; w < workers; ++w) tensor_contract_transpose<D, P1, Q1, gradients, 1>(C, w, workers, a1.data(), a0.data(), B, G);
  }
  for (int w = 0; w < workers; ++w) tensor_contract_transpose<D, P1, Q1, gradients, 0>(C, w, workers, a0.data(), lattice.data(), B, G);
  std::vector<double> r(static_cast<std::size_t>(N) * C);
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c) r[std::size_t(n) * C + c] = lattice[std::size_t(c) * N + t.node_lattice[std::size_t(n)]];
  return r;
}

template <class F, int... I>
void with_constant(int value, F&& f, std::integer_sequence<int, I...>) {
  ((value == I + 1 ? (f(std::integral_constant<int, I + 1>{}), true) : false) || ...);
}

/// f(std::integral_constant<int, value>) for value in 1..Max.
template <int Max, class F>
void with_constant(int value, F&& f) {
  with_constant(value, f, std::make_integer_sequence<int, Max>{});
}

class SumFactorisationTest : public ::testing::TestWithParam<ElementType> {};
INSTANTIATE_TEST_SUITE_P(QuadrilateralsAndHexahedra, SumFactorisationTest,
                         ::testing::Values(ElementType{Shape::quadrilateral, 1}, ElementType{Shape::quadrilateral, 2},
                                           ElementType{Shape::quadrilateral, 3}, ElementType{Shape::hexahedron, 1},
                                           ElementType{Shape::hexahedron, 2}, ElementType{Shape::hexahedron, 3}),
                         [](const auto& info) {
                           return std::string(shape_name(info.param.shape)) + "_p" + std::to_string(info.param.order);
                         });

TEST_P(SumFactorisationTest, StagesReproduceTheDenseProductAtEveryTensorPointSet) {
  const ElementType type = GetParam();
  const unsigned seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  visit(type, [&](auto element) {
    using Element = decltype(element);
    if constexpr (Element::shape == Shape::quadrilateral || Element::shape == Shape::hexahedron) {
    constexpr int D = Element::dimension, P1 = Element::order + 1, N = Element::nodes_per_element;
    // Point sets: the nodes, and Gauss rules of 1 to 6 points per direction, one of them shuffled.
    std::vector<PointSet> sets{element_nodes(type)};
    for (int degree = 0; degree <= 10; degree += 2) sets.push_back(quadrature_rule(type.shape, degree));
    {
      PointSet p = quadrature_rule(type.shape, 2 * type.order);
      std::vector<int> order(std::size_t(p.size()));
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      PointSet s = p;
      for (std::size_t q = 0; q < order.size(); ++q)
        for (int k = 0; k < D; ++k) s.coordinates[q * D + std::size_t(k)] = p.coordinates[std::size_t(order[q]) * D + std::size_t(k)];
      s.name = p.name + " (shuffled)";
      sets.push_back(s);
    }
    for (const PointSet& points : sets) {
      const std::optional<TensorStructure> t = tensor_structure(type, points);
      ASSERT_TRUE(t) << points.name;
      const Tabulation table = tabulate(type, points);
      with_constant<6>(t->points_per_direction, [&](auto q1) {
        constexpr int Q1 = decltype(q1)::value;
        for (int S : D == 3 ? std::vector<int>{3} : std::vector<int>{2, 3}) {
          const test::RandomBlock block = test::random_block(type, 1, rng, 0.01, S);
          auto element_data = [&](int C) {
            ElementData e;
            e.u = test::random_field(N, C, rng);
            e.x.resize(std::size_t(N) * 3);
            for (int n = 0; n < N; ++n)
              for (int k = 0; k < 3; ++k)
                e.x[std::size_t(n) * 3 + k] = block.coordinates[std::size_t(block.connectivity[std::size_t(n)]) * 3 + k];
            return e;
          };
          auto check = [&](auto c, int workers) {
            constexpr int C = decltype(c)::value;
            SCOPED_TRACE(points.name + ", S = " + std::to_string(S) + ", C = " + std::to_string(C) + ", " +
                         std::to_string(workers) + " workers");
            const ElementData e = element_data(C);
            auto compare = [&](auto kind_constant, auto s_constant) {
              constexpr Kind K = decltype(kind_constant)::value;
              constexpr int SS = decltype(s_constant)::value;
              const Results expected = dense<SS, D, N>(K, table, e, C);
              const Results units = sum_factorised<D, P1, Q1, C, K, SS, false>(*t, e, workers);
              EXPECT_LE(error_against_terms(units.out, expected), 1e-13) << "kind " << int(K) << ", units";
              if (K == Kind::physical_gradients) EXPECT_LE(test::relative_error(units.detj, expected.detj), 1e-13);
              // The lines: the same arithmetic in the same order (accumulate_stage_term), so bit for bit.
              const Results lines = sum_factorised<D, P1, Q1, C, K, SS, true>(*t, e, workers);
              EXPECT_EQ(lines.out, units.out) << "kind " << int(K) << ", lines";
              if (K == Kind::physical_gradients) EXPECT_EQ(lines.detj, units.detj);
            };
            using values = std::integral_constant<Kind, Kind::values>;
            using reference = std::integral_constant<Kind, Kind::reference_gradients>;
            using physical = std::integral_constant<Kind, Kind::physical_gradients>;
            compare(values{}, std::integral_constant<int, 3>{});
            compare(reference{}, std::integral_constant<int, 3>{});
            if (S == 3) compare(physical{}, std::integral_constant<int, 3>{});
            if constexpr (D == 2)
              if (S == 2) compare(physical{}, std::integral_constant<int, 2>{});
          };
          check(std::integral_constant<int, 1>{}, 1);
          check(std::integral_constant<int, D>{}, 5);
          check(std::integral_constant<int, 9>{}, 13);
          // The transposes, unweighted and (rules with weights) weighted.
          auto check_transpose = [&](auto c, int workers) {
            constexpr int C = decltype(c)::value;
            const ElementData e = element_data(C);
            for (bool weighted : {false, true}) {
              if (weighted && points.weights.empty()) continue;
              const std::vector<double>* weights = weighted ? &points.weights : nullptr;
              SCOPED_TRACE(points.name + ", S = " + std::to_string(S) + ", C = " + std::to_string(C) + ", " +
                           std::to_string(workers) + " workers, transpose" + (weighted ? ", weighted" : ""));
              auto compare = [&](auto kind_constant, auto s_constant) {
                constexpr Kind K = decltype(kind_constant)::value;
                constexpr int SS = decltype(s_constant)::value;
                const int R = K == Kind::values ? 1 : K == Kind::reference_gradients ? D : SS;
                const std::vector<double> f = test::random_field(offset_t(table.points) * R, C, rng);
                const std::vector<double> expected = dense_transpose<SS, D, N>(K, table, e, f, C, weights);
                const std::vector<double> got = sum_factorised_transpose<D, P1, Q1, C, K, SS>(*t, e, f, weights, workers);
                EXPECT_LE(test::relative_error(got, expected), 1e-13) << "kind " << int(K);
              };
              using values = std::integral_constant<Kind, Kind::values>;
              using reference = std::integral_constant<Kind, Kind::reference_gradients>;
              using physical = std::integral_constant<Kind, Kind::physical_gradients>;
              if (S == 3) {
                compare(values{}, std::integral_constant<int, 3>{});
                compare(reference{}, std::integral_constant<int, 3>{});
                compare(physical{}, std::integral_constant<int, 3>{});
              }
              if constexpr (D == 2)
                if (S == 2) {
                  compare(values{}, std::integral_constant<int, 2>{});
                  compare(reference{}, std::integral_constant<int, 2>{});
                  compare(physical{}, std::integral_constant<int, 2>{});
                }
            }
          };
          check_transpose(std::integral_constant<int, 1>{}, 3);
          check_transpose(std::integral_constant<int, D>{}, 7);
          check_transpose(std::integral_constant<int, 9>{}, 16);
        }
      });
    }
    }
  });
}

}  // namespace
}  // namespace feinterp
