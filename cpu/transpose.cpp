// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's transposes: point data back to the nodes (or to element vectors), the adjoint of
// kernels.cpp's forward operations.
//
// Per element, for each point: the C x W point data (W = 1 for values, D for gradients), mapped from
// physical to reference directions through K^T for physical gradients and multiplied by w_q |det J| when
// weighted, then y[n][c] += sum_w table(q, n, w) data[c][w]; element-batched, one element per SIMD lane
// (batched_transpose.hpp). Element vectors are written per element (any thread order gives the same bits);
// the nodal sum goes colour by colour (fem/ordering/colouring.hpp), so each node gets its contributions in
// one fixed order for any thread count. Sums are in the plan's precision Real, the geometry in double, as
// in the forward operations.
//
// The fused operators (apply_operator) are the weighted transposes of the field's own values (mass) or
// physical gradients (diffusion), computed per point from the element's nodal values instead of read,
// times the coefficient there (fem/coefficient.hpp). Their diagonals (operator_diagonal) sum, per node,
// w_q |det J| rho phi_n^2 or w_q |det J| (K grad phi_n) . kappa (K grad phi_n) over the points.
#include <algorithm>

#include <feinterp/fem/arguments.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/cpu/batched_kernels.hpp>
#include <feinterp/cpu/batched_transpose.hpp>
#include <feinterp/cpu/plan.hpp>
#include <feinterp/cpu/threads.hpp>

namespace feinterp::backends::cpu {

namespace {

template <class Real>
void run_transpose(const TransposeCall<Real>& p, const TransposeOptions& options, Real* out, int requested_threads,
                   const ElementColouring* colouring, offset_t node_count) {
  const int C = p.components;
  const bool nodes = options.target == TransposeTarget::nodes;
  if (nodes && !options.accumulate) std::fill(out, out + std::size_t(node_count) * std::size_t(C), Real(0));
  if (p.elements == 0) return;
  FirstError first_error;
  if (!nodes) {
    parallel_for(p.elements, thread_count(requested_threads, p.elements), batch_lanes, [&](offset_t begin, offset_t end) {
      run_batched_transpose(p, nullptr, begin, end, false, out, first_error);
    });
  } else {
    for (int colour = 0; colour < colouring->colours(); ++colour) {
      const offset_t first = colouring->colour_offsets[std::size_t(colour)];
      const offset_t count = colouring->colour_offsets[std::size_t(colour) + 1] - first;
      const offset_t* elements = colouring->elements.data() + first;
      parallel_for(count, thread_count(requested_threads, count), batch_lanes, [&](offset_t begin, offset_t end) {
        run_batched_transpose(p, elements, begin, end, true, out, first_error);
      });
    }
  }
  first_error.rethrow();
}

// A fused operator (or its diagonal) as the weighted transpose of its forward operation, with no point data.
template <class Real>
TransposeCall<Real> fused_problem(FusedOperator op, const BlockView& block, const Tabulation& table,
                                     const std::vector<double>& weights, const Real* coordinates, int components,
                                     BasicCoefficientView<Real> coefficient) {
  TransposeCall<Real> p{forward_of(op), &block,      block.element_count, table.points, components, true, true,
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
  const TransposeCall<Real> p{forward_of(op),
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
const std::vector<Real>& Plan<Real>::operator_factors(FusedOperator op) const {
  const int i = int(op);
  std::call_once(factors_once_[i], [&] {  // a throw leaves the flag unset
    const int D = dimension(block_.type.shape);
    const std::size_t entries = op == FusedOperator::mass ? 1 : std::size_t(D * (D + 1) / 2);
    const offset_t E = block_.element_count;
    std::vector<Real> factors(std::size_t(E) * std::size_t(table_.points) * entries);
    FirstError first_error;
    parallel_for(E, thread_count(options_.threads, E), batch_lanes, [&](offset_t begin, offset_t end) {
      run_operator_factors(op, block_, coordinates_, table_, weights_.data(), begin, end, factors.data(), first_error);
    });
    first_error.rethrow();
    factors_[i] = std::move(factors);
  });
  return factors_[i];
}

template <class Real>
void Plan<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  check_fused_arguments("apply_operator", op, fused_arguments(u, r, options), coefficient_arguments(coefficient));
  TransposeCall<Real> p = fused_problem(op, block_, table_, weights_, coordinates_, u.components, coefficient);
  p.u = u.data;
  // A P1 simplex's J, from its D + 1 nodes, costs less than reading the factors (tetrahedra p1 ran at
  // 0.65-0.76x of the on-the-fly time with them): it keeps computing it.
  const bool affine_simplex = nodes_per_element(block_.type) == dimension(block_.type.shape) + 1;
  if (options_.operator_geometry == OperatorGeometry::precomputed && !affine_simplex && p.coefficient_entries <= 1 &&
      p.elements > 0) {
    p.factors = operator_factors(op).data();
    p.geometric = false;  // checked when the factors were computed
  }
  const bool nodes = options.target == TransposeTarget::nodes;
  run_transpose(p, options, r.data, options_.threads, nodes ? &colouring() : nullptr, node_count_);
}

template <class Real>
void Plan<Real>::operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                   BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  check_diagonal_arguments("operator_diagonal", op, fused_arguments(BasicFieldView<Real>{nullptr, 0, components}, d, options),
                           coefficient_arguments(coefficient));
  TransposeCall<Real> p = fused_problem(op, block_, table_, weights_, coordinates_, components, coefficient);
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
