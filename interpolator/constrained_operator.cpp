// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/interpolator/constrained_operator.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/core/limits.hpp>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/node_vectors.hpp>
#endif

namespace feinterp {

namespace {

std::vector<node_index> sorted_nodes(std::vector<node_index> nodes, offset_t node_count) {
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  if (!nodes.empty() && (nodes.front() < 0 || offset_t(nodes.back()) >= node_count))
    throw std::invalid_argument("ConstrainedOperator: node " +
                                std::to_string(nodes.front() < 0 ? nodes.front() : nodes.back()) +
                                " is outside the operator's numbering; expected 0 to " + std::to_string(node_count - 1));
  return nodes;
}

}  // namespace

template <class Real>
ConstrainedOperator<Real>::ConstrainedOperator(const MeshOperator<Real>& op, std::vector<node_index> nodes,
                                               int components)
    : op_(&op),
      components_(components),
      nodes_(sorted_nodes(std::move(nodes), op.node_count())),
      executor_nodes_(op.executor(), nodes_),
      work_(op.executor(), std::size_t(op.node_count()) * std::size_t(std::max(components, 1))) {
  if (components < 1 || components > max_components)
    throw std::invalid_argument("ConstrainedOperator: " + std::to_string(components) + " components; expected 1 to " +
                                std::to_string(max_components));
}

template <class Real>
void ConstrainedOperator<Real>::check(const char* call, const char* name, std::size_t size, int components) const {
  const std::size_t needed = std::size_t(op_->node_count()) * std::size_t(components_);
  if (components != components_ || size < needed)
    throw std::invalid_argument(std::string("ConstrainedOperator::") + call + ": " + name + " has " +
                                std::to_string(size) + " values of " + std::to_string(components) +
                                " components; expected node_count * " + std::to_string(components_) + " = " +
                                std::to_string(needed));
}

template <class Real>
void ConstrainedOperator<Real>::assign_at_nodes(Real* target, const Real* source, Real scale, Real value) const {
  const Executor& executor = op_->executor();
#if FEINTERP_HAS_CUDA
  if (executor.kind() == ExecutorKind::cuda)
    return backends::cuda::assign_at_nodes(target, source, scale, value, executor_nodes_.data(), nodes_.size(),
                                           components_, executor.device(), executor.stream());
#endif
  (void)executor;
  const std::size_t C = std::size_t(components_);
  for (node_index node : nodes_)
    for (std::size_t c = 0; c < C; ++c) {
      const std::size_t at = std::size_t(node) * C + c;
      target[at] = source ? scale * source[at] : value;
    }
}

template <class Real>
void ConstrainedOperator<Real>::apply(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                      BasicCoefficientView<Real> coefficient) const {
  check("apply", "the field u", u.size, u.components);
  check("apply", "the output r", r.size, components_);
  if (u.data && r.data && u.data < r.data + r.size && r.data < u.data + u.size)
    throw std::invalid_argument("ConstrainedOperator::apply: the output r overlaps the field u; expected separate arrays "
                                "(r_D = u_D is written after A w)");
  const std::size_t size = std::size_t(op_->node_count()) * std::size_t(components_);
  const Executor& executor = op_->executor();
#if FEINTERP_HAS_CUDA
  if (executor.kind() == ExecutorKind::cuda)
    backends::cuda::copy_vector(work_.data(), u.data, size, executor.device(), executor.stream());
  else
#endif
    std::copy(u.data, u.data + size, work_.data());
  assign_at_nodes(work_.data(), nullptr, Real(0), Real(0));  // w = u with w_D = 0
  op_->apply_operator(op, {work_.data(), size, components_}, r, coefficient);
  assign_at_nodes(r.data, u.data, Real(1), Real(0));  // r_D = u_D
}

template <class Real>
void ConstrainedOperator<Real>::diagonal(FusedOperator op, BasicOutputView<Real> d,
                                         BasicCoefficientView<Real> coefficient) const {
  check("diagonal", "the output d", d.size, components_);
  op_->operator_diagonal(op, components_, d, coefficient);
  assign_at_nodes(d.data, nullptr, Real(0), Real(1));
}

template <class Real>
void ConstrainedOperator<Real>::eliminate(FusedOperator op, BasicFieldView<Real> g, BasicOutputView<Real> b,
                                          BasicCoefficientView<Real> coefficient) const {
  check("eliminate", "the boundary values g", g.size, g.components);
  check("eliminate", "the right-hand side b", b.size, components_);
  const std::size_t size = std::size_t(op_->node_count()) * std::size_t(components_);
  const Executor& executor = op_->executor();
#if FEINTERP_HAS_CUDA
  if (executor.kind() == ExecutorKind::cuda)
    backends::cuda::fill_vector(work_.data(), Real(0), size, executor.device(), executor.stream());
  else
#endif
    std::fill(work_.data(), work_.data() + size, Real(0));
  assign_at_nodes(work_.data(), g.data, Real(-1), Real(0));  // w = -g_D, 0 elsewhere
  op_->apply_operator(op, {work_.data(), size, components_}, b, coefficient, /*accumulate=*/true);  // b - A g_D
  assign_at_nodes(b.data, g.data, Real(1), Real(0));  // b_D = g_D
}

template class ConstrainedOperator<double>;
template class ConstrainedOperator<float>;

}  // namespace feinterp
