// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/interpolator/mesh_operator.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/runtime/device_memory.hpp>
#endif

namespace feinterp {

namespace {

/// "block 3 (tetrahedron p2)", or "blocks 3 to 9 (tetrahedron p2)" for `count` blocks from `first`.
std::string blocks_name(std::size_t first, std::size_t count, const BlockView& block) {
  const std::string which = count == 1 ? "block " + std::to_string(first)
                                       : "blocks " + std::to_string(first) + " to " + std::to_string(first + count - 1);
  return which + " (" + to_string(block.type) + ")";
}

/// Blocks that compute as one plan: the same element type, space dimension and points.
bool compute_as_one(const OperatorBlock& a, const OperatorBlock& b) {
  return a.block.type == b.block.type && space_dimension(a.block) == space_dimension(b.block) &&
         a.points.shape == b.points.shape && a.points.coordinates == b.points.coordinates &&
         a.points.weights == b.points.weights;
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

/// Runs `call`; a std::invalid_argument from a plan (a block it refuses, an array too small, a rule without
/// weights) names the block or blocks, `name`, after `where`. DegenerateElementError already names the element.
template <class Call>
void for_named(const std::string& where, const std::string& name, Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + ": " + name + ": " + e.what());
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
    for_named("MeshOperator", blocks_name(b, 1, blocks[b].block),
              [&] { plans_.emplace_back(blocks[b].block, node_count, blocks[b].points, coordinates, resolved); });

  // Runs: the blocks that compute as one, their connectivity copied end to end where the executor computes.
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (!runs_.empty() && compute_as_one(blocks[runs_.back().first], blocks[b])) ++runs_.back().count;
    else runs_.push_back({b, 1, -1});
  }
  const Executor& executor = resolved.executor;
  for (Run& run : runs_) {
    if (run.count == 1) continue;
    const BlockView& head = blocks[run.first].block;
    const std::size_t N = std::size_t(nodes_per_element(head.type));
    offset_t elements = 0;
    bool tagged = true;
    for (std::size_t b = run.first; b < run.first + run.count; ++b) {
      elements += blocks[b].block.element_count;
      tagged = tagged && blocks[b].block.element_tags;
    }
    ExecutorArray<node_index> connectivity(executor, std::size_t(elements) * N);
    std::vector<std::size_t> tags;
    std::size_t at = 0;
    for (std::size_t b = run.first; b < run.first + run.count; ++b) {
      const BlockView& block = blocks[b].block;
      const std::size_t entries = std::size_t(block.element_count) * N;
#if FEINTERP_HAS_CUDA
      if (executor.kind() == ExecutorKind::cuda)
        backends::cuda::copy_on_device(connectivity.data() + at, block.connectivity, entries * sizeof(node_index),
                                       executor.device(), executor.stream());
      else
#endif
        std::copy(block.connectivity, block.connectivity + entries, connectivity.data() + at);
      if (tagged) tags.insert(tags.end(), block.element_tags, block.element_tags + block.element_count);
      at += entries;
    }
    BlockView merged = head;
    merged.connectivity = connectivity.data();
    merged.element_count = elements;
    merged_connectivity_.push_back(std::move(connectivity));
    merged_tags_.push_back(std::move(tags));
    merged.element_tags = tagged ? merged_tags_.back().data() : nullptr;
    for_named("MeshOperator", blocks_name(run.first, run.count, head),
              [&] { merged_.emplace_back(merged, node_count, blocks[run.first].points, coordinates, resolved); });
    run.merged = std::ptrdiff_t(merged_.size() - 1);
  }
}

template <class Real>
std::string MeshOperator<Real>::run_name(const Run& run) const {
  return blocks_name(run.first, run.count, plans_[run.first].block());
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
  for (const Run& run : runs_) {
    const Interpolator<Real>& plan = run_plan(run);
    const std::size_t size = plan.output_size(op, C);
    const BasicOutputView<Real> run_detj = detj.data ? part("interpolate", "the det J output", detj, detj_at,
                                                            plan.detj_size())
                                                     : BasicOutputView<Real>{};
    for_named("MeshOperator::interpolate", run_name(run), [&] {
      plan.apply(op, u, part("interpolate", "the output", out, offset, size), run_detj);
    });
    offset += size;
    detj_at += plan.detj_size();
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
  TransposeOptions run_options = options;
  std::size_t offset = 0;
  for (const Run& run : runs_) {
    const Interpolator<Real>& plan = run_plan(run);
    const std::size_t size = plan.output_size(forward, C);
    for_named("MeshOperator::integrate", run_name(run), [&] {
      plan.apply_transpose(forward, part("integrate", "the point data f", f, offset, size), r, run_options);
    });
    run_options.accumulate = true;  // every run after the first adds to the sum
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
void MeshOperator<Real>::for_each_run(const char* call, BasicCoefficientView<Real> coefficient, bool accumulate,
                                      Call&& per_run) const {
  if (coefficient.shape != CoefficientShape::none)
    part(call, "the coefficient", coefficient, 0, coefficient_size(coefficient.shape));
  TransposeOptions options;
  options.accumulate = accumulate;
  std::size_t offset = 0;
  for (const Run& run : runs_) {
    const Interpolator<Real>& plan = run_plan(run);
    BasicCoefficientView<Real> run_coefficient{};
    if (coefficient.shape != CoefficientShape::none) {
      const std::size_t size =
          plan.detj_size() * std::size_t(coefficient_entries(coefficient.shape, plan.space_dimension()));
      run_coefficient = part(call, "the coefficient", coefficient, offset, size);
      offset += size;
    }
    for_named(std::string("MeshOperator::") + call, run_name(run), [&] { per_run(plan, run_coefficient, options); });
    options.accumulate = true;  // every run after the first adds to the sum
  }
}

template <class Real>
void MeshOperator<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                        BasicCoefficientView<Real> coefficient, bool accumulate) const {
  for_each_run("apply_operator", coefficient, accumulate,
                 [&](const Interpolator<Real>& plan, BasicCoefficientView<Real> c, const TransposeOptions& options) {
                   plan.apply_operator(op, u, r, c, options);
                 });
}

template <class Real>
void MeshOperator<Real>::operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                           BasicCoefficientView<Real> coefficient) const {
  for_each_run("operator_diagonal", coefficient, false,
                 [&](const Interpolator<Real>& plan, BasicCoefficientView<Real> c, const TransposeOptions& options) {
                   plan.operator_diagonal(op, components, d, c, options);
                 });
}

template <class Real>
void MeshOperator<Real>::check() const {
  for (const Interpolator<Real>& plan : plans_) plan.check();
  for (const Interpolator<Real>& plan : merged_) plan.check();
}

template class MeshOperator<double>;
template class MeshOperator<float>;

}  // namespace feinterp
