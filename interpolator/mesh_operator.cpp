// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/interpolator/mesh_operator.hpp>

#include <stdexcept>
#include <string>

namespace feinterp {

namespace {

std::string block_name(std::size_t b, const BlockView& block) {
  return "block " + std::to_string(b) + " (" + to_string(block.type) + ")";
}

/// `view` from `offset` on, `size` values of it; the part must lie inside the view.
template <class View>
View part(const char* call, const char* what, View view, std::size_t offset, std::size_t size) {
  if (view.size < offset + size)
    throw std::invalid_argument(std::string("MeshOperator::") + call + ": " + what + " has " +
                                std::to_string(view.size) + " values; expected " + std::to_string(offset + size) +
                                " (every block's)");
  view.data += offset;
  view.size = size;
  return view;
}

/// Runs `call` for block b; a std::invalid_argument from its plan (a block it refuses, an array too small,
/// a rule without weights) names the block after `where`. DegenerateElementError already names the element.
template <class Call>
void for_block(const std::string& where, std::size_t b, const BlockView& block, Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + ": " + block_name(b, block) + ": " + e.what());
  }
}

/// The sum of size(plan) over the plans before block b (b = the block count: over all of them).
template <class Plans, class Size>
std::size_t sum_before(const char* call, const Plans& plans, std::size_t b, Size size) {
  if (b > plans.size())
    throw std::out_of_range(std::string("MeshOperator::") + call + ": block " + std::to_string(b) + " of " +
                            std::to_string(plans.size()));
  std::size_t sum = 0;
  for (std::size_t i = 0; i < b; ++i) sum += size(plans[i]);
  return sum;
}

}  // namespace

template <class Real>
MeshOperator<Real>::MeshOperator(const std::vector<OperatorBlock>& blocks, offset_t node_count, const Real* coordinates,
                                 const InterpolatorOptions& options)
    : coordinates_(coordinates) {
  if (blocks.empty()) throw std::invalid_argument("MeshOperator: no blocks; expected at least one");
  InterpolatorOptions resolved = options;
  resolved.executor = resolve_executor(options.executor);
  plans_.reserve(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b)
    for_block("MeshOperator", b, blocks[b].block,
              [&] { plans_.emplace_back(blocks[b].block, node_count, blocks[b].points, coordinates, resolved); });
}

template <class Real>
std::size_t MeshOperator<Real>::output_offset(std::size_t b, Operation op, int components) const {
  return sum_before("output_offset", plans_, b, [&](const Interpolator<Real>& plan) { return plan.output_size(op, components); });
}

template <class Real>
std::size_t MeshOperator<Real>::output_size(Operation op, int components) const {
  return output_offset(plans_.size(), op, components);
}

template <class Real>
std::size_t MeshOperator<Real>::detj_offset(std::size_t b) const {
  return sum_before("detj_offset", plans_, b, [](const Interpolator<Real>& plan) { return plan.detj_size(); });
}

template <class Real>
std::size_t MeshOperator<Real>::detj_size() const {
  return detj_offset(plans_.size());
}

template <class Real>
void MeshOperator<Real>::interpolate(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out,
                                     BasicOutputView<Real> detj) const {
  if (is_transpose(op))
    throw std::invalid_argument(std::string("MeshOperator::interpolate: ") + operation_name(op) +
                                " is a transpose; expected a forward operation (integrate computes transposes)");
  const int C = u.components;
  part("interpolate", "the output", out, 0, output_size(op, C));
  if (detj.data) part("interpolate", "the det J output", detj, 0, detj_size());
  std::size_t offset = 0, detj_at = 0;
  for (std::size_t b = 0; b < plans_.size(); ++b) {
    const std::size_t size = plans_[b].output_size(op, C);
    const BasicOutputView<Real> block_detj = detj.data ? part("interpolate", "the det J output", detj, detj_at,
                                                              plans_[b].detj_size())
                                                       : BasicOutputView<Real>{};
    for_block("MeshOperator::interpolate", b, plans_[b].block(),
              [&] { plans_[b].apply(op, u, part("interpolate", "the output", out, offset, size), block_detj); });
    offset += size;
    detj_at += plans_[b].detj_size();
  }
}

template <class Real>
void MeshOperator<Real>::integrate(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> r,
                                   const TransposeOptions& options) const {
  if (options.target != TransposeTarget::nodes)
    throw std::invalid_argument(
        "MeshOperator::integrate: element vectors are a block's own; expected the nodal target (plan(b) "
        "computes a block's element vectors)");
  const Operation forward = forward_of(op);
  const int C = f.components;
  part("integrate", "the point data f", f, 0, output_size(forward, C));
  TransposeOptions block_options = options;
  std::size_t offset = 0;
  for (std::size_t b = 0; b < plans_.size(); ++b) {
    const std::size_t size = plans_[b].output_size(forward, C);
    for_block("MeshOperator::integrate", b, plans_[b].block(), [&] {
      plans_[b].apply_transpose(forward, part("integrate", "the point data f", f, offset, size), r, block_options);
    });
    block_options.accumulate = true;  // every block after the first adds to the sum
    offset += size;
  }
}

template <class Real>
std::size_t MeshOperator<Real>::coefficient_offset(std::size_t b, CoefficientShape shape) const {
  return sum_before("coefficient_offset", plans_, b, [&](const Interpolator<Real>& plan) {
    return plan.detj_size() * std::size_t(coefficient_entries(shape, plan.space_dimension()));
  });
}

template <class Real>
std::size_t MeshOperator<Real>::coefficient_size(CoefficientShape shape) const {
  return coefficient_offset(plans_.size(), shape);
}

template <class Real>
void MeshOperator<Real>::point_coordinates(BasicOutputView<Real> x) const {
  if (!coordinates_)
    throw std::invalid_argument("MeshOperator::point_coordinates: the operator was built without coordinates");
  interpolate(Operation::values, {coordinates_, std::size_t(node_count()) * 3, 3}, x);
}

template <class Real>
template <class Call>
void MeshOperator<Real>::for_each_block(const char* call, BasicCoefficientView<Real> coefficient, bool accumulate,
                                        Call&& per_block) const {
  if (coefficient.shape != CoefficientShape::none)
    part(call, "the coefficient", coefficient, 0, coefficient_size(coefficient.shape));
  TransposeOptions options;
  options.accumulate = accumulate;
  std::size_t offset = 0;
  for (std::size_t b = 0; b < plans_.size(); ++b) {
    BasicCoefficientView<Real> block_coefficient{};
    if (coefficient.shape != CoefficientShape::none) {
      const std::size_t size =
          plans_[b].detj_size() * std::size_t(coefficient_entries(coefficient.shape, plans_[b].space_dimension()));
      block_coefficient = part(call, "the coefficient", coefficient, offset, size);
      offset += size;
    }
    for_block(std::string("MeshOperator::") + call, b, plans_[b].block(),
              [&] { per_block(plans_[b], block_coefficient, options); });
    options.accumulate = true;  // every block after the first adds to the sum
  }
}

template <class Real>
void MeshOperator<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                        BasicCoefficientView<Real> coefficient, bool accumulate) const {
  for_each_block("apply_operator", coefficient, accumulate,
                 [&](const Interpolator<Real>& plan, BasicCoefficientView<Real> c, const TransposeOptions& options) {
                   plan.apply_operator(op, u, r, c, options);
                 });
}

template <class Real>
void MeshOperator<Real>::operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                           BasicCoefficientView<Real> coefficient) const {
  for_each_block("operator_diagonal", coefficient, false,
                 [&](const Interpolator<Real>& plan, BasicCoefficientView<Real> c, const TransposeOptions& options) {
                   plan.operator_diagonal(op, components, d, c, options);
                 });
}

template <class Real>
void MeshOperator<Real>::check() const {
  for (const Interpolator<Real>& plan : plans_) plan.check();
}

template class MeshOperator<double>;
template class MeshOperator<float>;

}  // namespace feinterp
