// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's transposes: point data back to the nodes (or to element vectors), the adjoint of
// kernels.cpp's forward operations.
//
// Per element: for each point, the C x W point data (W = 1 for values, D for gradients) is formed,
// mapped from physical to reference directions through K^T for physical gradients and multiplied by
// w_q |det J| when weighted, then y[n][c] += sum_w table(q, n, w) data[c][w]. Element vectors are
// written per element (any thread order gives the same bits); the nodal sum goes colour by colour
// (fem/ordering/colouring.hpp), so each node gets its contributions in one fixed order for any thread count.
// Sums are in the plan's precision Real, the geometry in double, as in the forward operations.
//
// The fused operators (apply_operator) are the weighted transposes of the field's own values (mass) or
// physical gradients (diffusion), computed per point from the element's nodal values instead of read,
// times the coefficient there (fem/coefficient.hpp). Their diagonals (operator_diagonal) sum, per node,
// w_q |det J| rho phi_n^2 or w_q |det J| (K grad phi_n) . kappa (K grad phi_n) over the points.
#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <type_traits>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/arguments.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cpu/plan.hpp>
#include <feinterp/cpu/threads.hpp>

namespace feinterp::backends::cpu {

namespace {

template <class Real>
struct TransposeProblem {
  Operation forward;  // the forward operation whose transpose this is
  const BlockView* block;
  offset_t elements;
  int points, components;
  bool geometric, weighted;
  const Real* f;
  const Real* coordinates;
  const Tabulation* table;
  const double* weights;
  const Real* u = nullptr;            // a fused operator's nodal field (then f is unused)
  const Real* coefficient = nullptr;  // a fused operator's, [(e*Q + q)*T + t]
  int coefficient_entries = 0;        // T; 0: none
  bool diagonal = false;              // the fused operator's diagonal (f and u unused)
};

// y (N x C, node-major) = the element's transpose; its geometry checked when it is used.
template <class Element, int S, class Real>
void element_transpose(const TransposeProblem<Real>& p, offset_t e, Real* y) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  const int C = p.components, Q = p.points;
  const bool physical = p.forward == Operation::physical_gradients;
  const int R = result_directions(p.forward, D, S);               // point-data directions
  const node_index* nodes = p.block->connectivity + e * N;
  double xe[N * S];
  if (p.geometric)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < S; ++k) xe[n * S + k] = double(p.coordinates[offset_t(nodes[n]) * 3 + k]);
  std::fill(y, y + N * C, Real(0));
  Real ue[p.u ? N * max_components : 1];
  if (p.u)
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < C; ++c) ue[n * C + c] = p.u[offset_t(nodes[n]) * C + c];
  OrientationRecord record;
  const GradientsLayout in{p.elements, Q, C, R};
  for (int q = 0; q < Q; ++q) {
    const Real* f = p.f ? p.f + in(e, q, 0, 0) : nullptr;  // null for a fused operator
    const double* g = p.table->gradients.data() + std::size_t(q) * N * D;
    Real data[max_components * 3];
    if (!p.geometric) {
      for (int i = 0; i < C * R; ++i) data[i] = f[i];
    } else {
      double J[S][D];
      jacobian<S, D, N>(xe, S, g, J);
      const double det = jacobian_determinant(J);
      record.add(q, det, orientation_of(det, shape_quality(J, det)));
      const double factor = p.weighted ? p.weights[q] * std::fabs(det) : 1.0;
      const Real* kappa = p.coefficient + (std::size_t(e) * std::size_t(Q) + std::size_t(q)) * p.coefficient_entries;
      if (p.diagonal) {  // y[n] += factor * rho phi_n^2, or factor * (K grad phi_n) . kappa (K grad phi_n)
        double K[S][D];
        if (physical) inverse_transpose(J, det, K);
        for (int n = 0; n < N; ++n) {
          double term;
          if (physical) {
            double gn[S], kgn[S];
            physical_gradient<S, D>(K, g + n * D, gn);
            for (int k = 0; k < S; ++k) kgn[k] = gn[k];
            apply_coefficient<S>(kappa, p.coefficient_entries, kgn);
            term = 0.0;
            for (int k = 0; k < S; ++k) term += gn[k] * kgn[k];
          } else {
            const double t = p.table->values[std::size_t(q) * N + n];
            double value[1] = {t * t};
            apply_coefficient<1>(kappa, p.coefficient_entries, value);
            term = value[0];
          }
          for (int c = 0; c < C; ++c) y[n * C + c] += Real(term * factor);
        }
        continue;
      }
      if (physical) {
        double K[S][D];
        inverse_transpose(J, det, K);
        for (int c = 0; c < C; ++c) {
          double physical_data[S], reference[D];
          if (p.u) {  // fused: this point's physical gradient of the field, times kappa
            double computed[D];
            for (int d = 0; d < D; ++d) {
              Real sum = Real(0);
              for (int n = 0; n < N; ++n) sum += ue[n * C + c] * Real(g[n * D + d]);
              computed[d] = double(sum);
            }
            physical_gradient<S, D>(K, computed, physical_data);
            apply_coefficient<S>(kappa, p.coefficient_entries, physical_data);
          } else {
            for (int k = 0; k < S; ++k) physical_data[k] = double(f[c * S + k]);
          }
          physical_gradient_transpose<S, D>(K, physical_data, reference);
          for (int d = 0; d < D; ++d) data[c * D + d] = Real(reference[d] * factor);
        }
      } else if (p.u) {  // fused mass: this point's value of the field, times rho
        const double* t = p.table->values.data() + std::size_t(q) * N;
        for (int c = 0; c < C; ++c) {
          Real sum = Real(0);
          for (int n = 0; n < N; ++n) sum += ue[n * C + c] * Real(t[n]);
          double value[1] = {double(sum)};
          apply_coefficient<1>(kappa, p.coefficient_entries, value);
          data[c] = Real(value[0] * factor);
        }
      } else {
        for (int i = 0; i < C * R; ++i) data[i] = Real(double(f[i]) * factor);
      }
    }
    if (p.forward == Operation::values) {
      const double* t = p.table->values.data() + std::size_t(q) * N;
      for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c) y[n * C + c] += Real(t[n]) * data[c];
    } else {
      for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c) {
          Real sum = Real(0);
          for (int d = 0; d < D; ++d) sum += Real(g[n * D + d]) * data[c * D + d];
          y[n * C + c] += sum;
        }
    }
  }
  if (p.geometric) check_orientation(*p.block, e, record, D < S);
}

// Keeps the DegenerateElementError of the smallest element across threads and colours.
class FirstError {
 public:
  void keep(offset_t element, std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_ || element < element_) {
      element_ = element;
      error_ = std::move(error);
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  offset_t element_ = 0;
  std::exception_ptr error_;
};

template <class Real>
void run_transpose(const TransposeProblem<Real>& p, const TransposeOptions& options, Real* out, int requested_threads,
                   const ElementColouring* colouring, offset_t node_count) {
  const int N = nodes_per_element(p.block->type);
  const int C = p.components;
  const bool nodes = options.target == TransposeTarget::nodes;
  if (nodes && !options.accumulate) std::fill(out, out + std::size_t(node_count) * std::size_t(C), Real(0));
  if (p.elements == 0) return;
  FirstError first_error;
  visit(p.block->type, [&](auto element) {
    using Element = decltype(element);
    constexpr int D = Element::dimension;
    auto with_s = [&](auto s) {
      constexpr int S = decltype(s)::value;
      auto one = [&](offset_t e, Real* y) {
        try {
          element_transpose<Element, S>(p, e, y);
          return true;
        } catch (const DegenerateElementError&) {
          first_error.keep(e, std::current_exception());
          return false;
        }
      };
      if (!nodes) {
        parallel_for(p.elements, thread_count(requested_threads, p.elements), 1, [&](offset_t begin, offset_t end) {
          for (offset_t e = begin; e < end; ++e) one(e, out + ElementVectorLayout{p.elements, N, C}(e, 0, 0));
        });
        return;
      }
      for (int colour = 0; colour < colouring->colours(); ++colour) {
        const offset_t first = colouring->colour_offsets[std::size_t(colour)];
        const offset_t count = colouring->colour_offsets[std::size_t(colour) + 1] - first;
        parallel_for(count, thread_count(requested_threads, count), 1, [&](offset_t begin, offset_t end) {
          Real y[Element::nodes_per_element * max_components];
          for (offset_t i = begin; i < end; ++i) {
            const offset_t e = colouring->elements[std::size_t(first + i)];
            if (!one(e, y)) continue;
            const node_index* element_nodes = p.block->connectivity + e * N;
            for (int n = 0; n < N; ++n)
              for (int c = 0; c < C; ++c) out[offset_t(element_nodes[n]) * C + c] += y[n * C + c];
          }
        });
      }
    };
    // Only a transpose that uses the geometry reads the space dimension.
    const int S = p.geometric ? space_dimension(*p.block) : (D == 3 ? 3 : 2);
    if constexpr (D <= 2)
      if (S == 2) return with_s(std::integral_constant<int, 2>{});
    with_s(std::integral_constant<int, 3>{});
  });
  first_error.rethrow();
}

// A fused operator (or its diagonal) as the weighted transpose of its forward operation, with no point data.
template <class Real>
TransposeProblem<Real> fused_problem(FusedOperator op, const BlockView& block, const Tabulation& table,
                                     const std::vector<double>& weights, const Real* coordinates, int components,
                                     BasicCoefficientView<Real> coefficient) {
  TransposeProblem<Real> p{forward_of(op), &block,      block.element_count, table.points, components, true, true,
                           nullptr,        coordinates, &table,              weights.data()};
  p.coefficient = coefficient.data;
  p.coefficient_entries = coefficient_entries(coefficient.shape, space_dimension(block));
  return p;
}

}  // namespace

template <class Real>
const ElementColouring& Plan<Real>::colouring() const {
  std::call_once(colouring_once_, [&] { colouring_ = colour_elements(block_, node_count_); });
  return colouring_;
}

template <class Real>
void Plan<Real>::apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                                 const TransposeOptions& options) const {
  check_transpose_arguments("apply_transpose",
                            transpose_arguments(op, block_.type, block_.element_count, space_dimension_, table_.type,
                                                table_.points, node_count_, f, out, options, !weights_.empty(),
                                                coordinates_));
  const TransposeProblem<Real> p{forward_of(op),
                                 &block_,
                                 block_.element_count,
                                 table_.points,
                                 f.components,
                                 transpose_needs_geometry(op, options),
                                 options.weighted,
                                 f.data,
                                 coordinates_,
                                 &table_,
                                 weights_.data()};
  const bool nodes = options.target == TransposeTarget::nodes;
  run_transpose(p, options, out.data, options_.threads, nodes ? &colouring() : nullptr, node_count_);
}

template <class Real>
void Plan<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  check_fused_arguments("apply_operator", op, fused_arguments(u, r, options), coefficient_arguments(coefficient));
  TransposeProblem<Real> p = fused_problem(op, block_, table_, weights_, coordinates_, u.components, coefficient);
  p.u = u.data;
  const bool nodes = options.target == TransposeTarget::nodes;
  run_transpose(p, options, r.data, options_.threads, nodes ? &colouring() : nullptr, node_count_);
}

template <class Real>
void Plan<Real>::operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                   BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  check_diagonal_arguments("operator_diagonal", op, fused_arguments(BasicFieldView<Real>{nullptr, 0, components}, d, options),
                           coefficient_arguments(coefficient));
  TransposeProblem<Real> p = fused_problem(op, block_, table_, weights_, coordinates_, components, coefficient);
  p.diagonal = true;
  const bool nodes = options.target == TransposeTarget::nodes;
  run_transpose(p, options, d.data, options_.threads, nodes ? &colouring() : nullptr, node_count_);
}

template <class Real>
TransposeArguments Plan<Real>::fused_arguments(BasicFieldView<Real> u, BasicOutputView<Real> r,
                                               const TransposeOptions& options) const {
  return transpose_arguments(Operation::physical_gradients_transpose, block_.type, block_.element_count, space_dimension_,
                             table_.type, table_.points, node_count_, u, r, options, !weights_.empty(), coordinates_);
}

template const ElementColouring& Plan<double>::colouring() const;
template const ElementColouring& Plan<float>::colouring() const;
template void Plan<double>::apply_transpose(Operation, BasicFieldView<double>, BasicOutputView<double>,
                                            const TransposeOptions&) const;
template void Plan<float>::apply_transpose(Operation, BasicFieldView<float>, BasicOutputView<float>,
                                           const TransposeOptions&) const;
template void Plan<double>::apply_operator(FusedOperator, BasicFieldView<double>, BasicOutputView<double>,
                                           BasicCoefficientView<double>, const TransposeOptions&) const;
template void Plan<float>::apply_operator(FusedOperator, BasicFieldView<float>, BasicOutputView<float>,
                                          BasicCoefficientView<float>, const TransposeOptions&) const;
template void Plan<double>::operator_diagonal(FusedOperator, int, BasicOutputView<double>, BasicCoefficientView<double>,
                                              const TransposeOptions&) const;
template void Plan<float>::operator_diagonal(FusedOperator, int, BasicOutputView<float>, BasicCoefficientView<float>,
                                             const TransposeOptions&) const;

}  // namespace feinterp::backends::cpu
