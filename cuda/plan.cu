// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/plan.hpp>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include <feinterp/fem/arguments.hpp>
#include <feinterp/fem/ordering/colouring.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cuda/kernel_variants.hpp>
#include <feinterp/cuda/kernels/baseline/baseline_kernel.cuh>
#include <feinterp/cuda/kernels/diagonal/diagonal_kernel.cuh>
#include <feinterp/cuda/kernels/diagonal/diagonal_kernel_set.hpp>
#include <feinterp/cuda/kernels/sum_factorised/sum_factorised_operator_kernel_set.hpp>
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/launch/tensor_bank_conflicts.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/cuda/layout/tensor_operator_layout.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/error.hpp>

namespace feinterp::backends::cuda {

namespace {

// Above 48 KB a block gets dynamic shared memory only after its kernel's limit is raised. The attribute
// belongs to the kernel function as loaded on one device (the current one), for the whole process:
// raising it to the largest size asked for so far is done once per (device, kernel, size), not per call.
void allow_shared_memory(int device, const void* kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return;
  struct Raised {
    int device;
    const void* kernel;
    std::size_t bytes;
  };
  static std::mutex mutex;
  static std::vector<Raised> raised;
  std::lock_guard<std::mutex> lock(mutex);
  for (const Raised& r : raised)
    if (r.device == device && r.kernel == kernel && r.bytes >= bytes) return;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
        "raising a kernel's shared-memory limit");
  raised.push_back({device, kernel, bytes});
}

// The device of a plan over `block`: the block's, which an explicit ordinal must name.
int plan_device(const std::shared_ptr<const DeviceBlock>& block, int requested) {
  if (!block) throw std::invalid_argument("a CUDA plan needs a DeviceBlock: got null");
  if (requested == current_device_ordinal) return block->device();
  const int device = resolve_device(requested);
  if (device != block->device())
    throw std::invalid_argument("a plan on CUDA device " + std::to_string(device) + " over a block on device " +
                                std::to_string(block->device()) + ": a plan computes on its block's device");
  return device;
}

}  // namespace

template <class Real>
Plan<Real>::Plan(std::shared_ptr<const DeviceBlock> block, const PointSet& points, const Real* coordinates,
                 const PlanOptions& options)
    : Plan(ScopedDevice(plan_device(block, options.device)), block, points, coordinates, options) {}

template <class Real>
Plan<Real>::Plan(const ScopedDevice& on_device, std::shared_ptr<const DeviceBlock> block, const PointSet& points,
                 const Real* coordinates, const PlanOptions& options)
    : device_(on_device.device()),
      block_(std::move(block)),
      table_(block_->view().type, points, options.stream),
      tensor_(feinterp::tensor_structure(block_->view().type, points, &why_not_tensor_)),
      coordinates_(coordinates),
      options_(options),
      space_dimension_(feinterp::space_dimension(block_->view())),
      flag_(1),
      slots_(std::make_unique<std::array<Slot, slot_count>>()) {
  options_.device = device_;
  if (options.elements_per_block < 0)
    throw std::invalid_argument("elements_per_block = " + std::to_string(options.elements_per_block) +
                                ": expected 0 (the tuned choice) or a count >= 1");
  check_cuda(cudaMemsetAsync(flag_.data(), 0xff, sizeof(unsigned long long), options.stream), "clearing a plan's flag");
  if (tensor_) {
    // The sum-factorised kernels' tables: B and G in the plan's precision (computed in double), and the
    // two permutations; a few hundred bytes, uploaded once whichever variant the launches choose.
    std::vector<Real> basis(tensor_->values_1d.begin(), tensor_->values_1d.end());
    basis.insert(basis.end(), tensor_->derivatives_1d.begin(), tensor_->derivatives_1d.end());
    std::vector<int> maps = tensor_->node_lattice;
    maps.insert(maps.end(), tensor_->point_of_lattice.begin(), tensor_->point_of_lattice.end());
    tensor_basis_ = DeviceBuffer<Real>(basis);
    // The forward kernel's copy by value; a set with more than p + 3 points per direction has no
    // sum-factorised kernel (layout/tensor_launch_shape.hpp) and runs dense, so its tables need no copy.
    if (basis.size() <= std::size_t(max_tensor_table_entries)) tensor_tables_ = std::move(basis);
    tensor_maps_ = DeviceBuffer<int>(maps);
  }
  if (coordinates_) check_planar(*block_, coordinates_, precision_of<Real>(), options.stream);
  check_cuda(cudaStreamSynchronize(options.stream), "building a plan");
  if (options.summation == Summation::deterministic) {
    // The colouring is computed on the host, once: a copy of the connectivity comes back for it.
    const BlockView& view = block_->view();
    std::vector<node_index> connectivity(std::size_t(view.element_count) * std::size_t(nodes_per_element(view.type)));
    check_cuda(cudaMemcpy(connectivity.data(), view.connectivity, connectivity.size() * sizeof(node_index),
                          cudaMemcpyDeviceToHost),
               "copying the connectivity to colour the elements");
    BlockView host = view;
    host.connectivity = connectivity.data();
    check_distinct_nodes(host);
    ElementColouring colouring = colour_elements(host, block_->node_count());
    colour_elements_ = DeviceBuffer<offset_t>(colouring.elements);
    colour_offsets_ = std::move(colouring.colour_offsets);
  }
}

template <class Real>
typename Plan<Real>::Launch Plan<Real>::decide(Operation op, int components, bool weighted, bool fused,
                                               bool precomputed) const {
  const BlockView& view = block_->view();
  const DeviceInfo& device = device_info(device_);
  Launch l;
  LaunchShape shape{view.type, op, table_.points(), components, space_dimension_, precision_of<Real>(), weighted,
                    fused};
  shape.points_per_direction = tensor_ ? tensor_->points_per_direction : 0;
  shape.run_time_components = options_.run_time_components;
  shape.precomputed_geometry = fused && precomputed;
  if (options_.kernel == Kernel::baseline && options_.variant && *options_.variant != KernelVariant::dense &&
      !is_transpose(op))
    throw std::invalid_argument(std::string("the baseline kernel is dense: it cannot run the ") +
                                tuning::kernel_variant_name(*options_.variant) + " variant");
  if (options_.kernel == Kernel::packed) shape.variant = choose_kernel_variant(shape, device, options_.variant);
  if (shape.variant != KernelVariant::sum_factorised) shape.precomputed_geometry = false;  // dense computes J
  l.kernels = variant_kernel_set<Real>(shape);
  if (options_.kernel == Kernel::baseline && !is_transpose(op)) {
    const std::size_t bytes = baseline_shared_bytes(nodes_per_element(view.type), dimension(view.type.shape),
                                                    space_dimension_, op, table_.points(), sizeof(Real));
    if (bytes > device.shared_per_block_optin)
      throw std::invalid_argument("the baseline kernel needs " + std::to_string(bytes) + " bytes of shared memory for " +
                                  to_string(view.type) + " with " + std::to_string(table_.points()) + " points; " +
                                  device.name + " allows " + std::to_string(device.shared_per_block_optin));
    if (view.element_count > INT_MAX)
      throw std::invalid_argument("the baseline kernel runs one block per element: at most 2^31 - 1 elements");
    allow_shared_memory(device_, l.kernels.baseline, bytes);
    l.config = {threads_per_element(table_.points()), 1, 1, bytes};
    l.grid = dim3(unsigned(std::max<offset_t>(view.element_count, 1)));
    l.block = dim3(unsigned(l.config.threads_per_element));
    return l;
  }
  if (shape.variant == KernelVariant::sum_factorised && !is_transpose(op) && options_.tensor_strides == TensorStrides::counted) {
    // Strides chosen for the bank pattern cost up to shared_bank_words - 1 reals per element and buffer:
    // taken only where the block's count still fits with them (a count that fits only without them, as a
    // sweep may ask for, runs at the odd strides).
    LaunchShape counted = shape;
    counted.tensor_buffer_residues = choose_tensor_buffer_residues(shape, tensor_->node_lattice, tensor_->point_of_lattice);
    const int count = options_.elements_per_block ? options_.elements_per_block : choose_elements_per_block(shape, device);
    if (count <= max_elements_per_block(counted, device)) shape = counted;
  }
  l.config = packed_launch_config(shape, options_.elements_per_block, device);
  allow_shared_memory(device_, l.kernels.packed, l.config.shared_bytes);
  // Persistent grid: as many blocks as can be resident at once (each loads the table once and then
  // strides over groups of elements), never more than there are groups.
  const int threads = l.config.threads_per_element * l.config.element_slots;
  int resident = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, l.kernels.packed, threads, l.config.shared_bytes),
             "querying the packed kernel's occupancy");
  const offset_t groups = (view.element_count + l.config.elements_per_block - 1) / l.config.elements_per_block;
  const offset_t blocks = std::min<offset_t>(std::max<offset_t>(groups, 1), offset_t(std::max(resident, 1)) * device.multiprocessors);
  l.grid = dim3(unsigned(blocks));
  l.block = dim3(unsigned(l.config.threads_per_element), 1, unsigned(l.config.element_slots));
  return l;
}

template <class Real>
const typename Plan<Real>::Launch& Plan<Real>::launch(Operation op, int components, bool weighted, bool fused,
                                                      bool precomputed) const {
  if (components < 1 || components > max_components)
    throw std::invalid_argument("unsupported component count " + std::to_string(components) + ": expected 1 to " +
                                std::to_string(max_components));
  const std::size_t mode = fused ? (precomputed ? 3 : 2) : weighted ? 1 : 0;
  const std::size_t index = (std::size_t(op) * slot_modes + mode) * max_components + std::size_t(components - 1);
  Slot& slot = (*slots_)[index];
  std::call_once(slot.once, [&] { slot.launch = decide(op, components, weighted, fused, fused && precomputed); });  // retried if decide throws
  return slot.launch;
}

template <class Real>
LaunchConfig Plan<Real>::launch_config(Operation op, int components, bool weighted, bool fused,
                                       bool precomputed) const {
  const ScopedDevice on_device(device_);
  return launch(op, components, weighted, fused, precomputed).config;
}

template <class Real>
void Plan<Real>::apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj) const {
  apply(op, u, out, detj, options_.stream);
}

template <class Real>
void Plan<Real>::apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj,
                       cudaStream_t stream) const {
  const ScopedDevice on_device(device_);
  const BlockView& view = block_->view();
  check_interpolation_arguments(
      "apply", interpolation_arguments(op, view.type, view.element_count, space_dimension_, table_.type(),
                                       table_.points(), block_->node_count(), u, out, detj, coordinates_));
  if (view.element_count == 0) return;
  const Launch& l = launch(op, u.components);
  KernelArgs<Real> args{view.connectivity, view.element_count, u.data, coordinates_,
                        op == Operation::values ? table_.values() : table_.gradients(),
                        table_.points(), u.components, out.data, detj.data, flag_.data(), nullptr};
  args.tensor_basis = tensor_basis_.size() ? tensor_basis_.data() : nullptr;
  args.tensor_maps = tensor_maps_.size() ? tensor_maps_.data() : nullptr;
  std::copy(tensor_tables_.begin(), tensor_tables_.end(), args.tensor_tables);
  args.elements_per_block = l.config.elements_per_block;
  args.tensor_buffer_residues[0] = l.config.tensor_buffer_residues.buffer[0];
  args.tensor_buffer_residues[1] = l.config.tensor_buffer_residues.buffer[1];
  const LaunchFunction<Real> function = options_.kernel == Kernel::baseline ? l.kernels.launch_baseline : l.kernels.launch_packed;
  function(l.grid, l.block, l.config.shared_bytes, stream, args);
  check_launch(operation_name(op));
}

template <class Real>
void Plan<Real>::apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                                 const TransposeOptions& options) const {
  apply_transpose(op, f, out, options, options_.stream);
}

template <class Real>
void Plan<Real>::apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                                 const TransposeOptions& options, cudaStream_t stream) const {
  const ScopedDevice on_device(device_);
  const BlockView& view = block_->view();
  check_transpose_arguments("apply_transpose",
                            transpose_arguments(op, view.type, view.element_count, space_dimension_, table_.type(),
                                                table_.points(), block_->node_count(), f, out, options,
                                                table_.weights() != nullptr, coordinates_));
  if (view.element_count == 0 && options.target == TransposeTarget::element_vectors) return;
  const Launch* l = view.element_count ? &launch(op, f.components, options.weighted) : nullptr;
  KernelArgs<Real> args{view.connectivity, view.element_count, f.data, coordinates_,
                        forward_of(op) == Operation::values ? table_.transposed_values() : table_.transposed_gradients(),
                        table_.points(), f.components, out.data, nullptr, flag_.data(), nullptr};
  args.weights = options.weighted ? table_.weights() : nullptr;
  args.tensor_basis = tensor_basis_.size() ? tensor_basis_.data() : nullptr;
  args.tensor_maps = tensor_maps_.size() ? tensor_maps_.data() : nullptr;
  launch_transpose(l, args, options, stream);
}

template <class Real>
TransposeArguments Plan<Real>::fused_arguments(BasicFieldView<Real> u, BasicOutputView<Real> r,
                                               const TransposeOptions& options) const {
  const BlockView& view = block_->view();
  return transpose_arguments(Operation::physical_gradients_transpose, view.type, view.element_count, space_dimension_,
                             table_.type(), table_.points(), block_->node_count(), u, r, options,
                             table_.weights() != nullptr, coordinates_);
}

template <class Real>
void Plan<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  apply_operator(op, u, r, coefficient, options, options_.stream);
}

template <class Real>
void Plan<Real>::apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                                BasicCoefficientView<Real> coefficient, const TransposeOptions& options,
                                cudaStream_t stream) const {
  const ScopedDevice on_device(device_);
  check_fused_arguments("apply_operator", op, fused_arguments(u, r, options), coefficient_arguments(coefficient));
  const Operation transpose = transpose_of(forward_of(op));
  const BlockView& view = block_->view();
  // A symmetric-tensor kappa needs K itself: that call computes J on the fly.
  const bool precomputed = options_.operator_geometry == OperatorGeometry::precomputed &&
                           coefficient.shape != CoefficientShape::symmetric_tensor;
  const Launch* l = view.element_count ? &launch(transpose, u.components, true, true, precomputed) : nullptr;
  KernelArgs<Real> args{view.connectivity, view.element_count, u.data, coordinates_,
                        op == FusedOperator::mass ? table_.transposed_values() : table_.transposed_gradients(),
                        table_.points(), u.components, r.data, nullptr, flag_.data(), nullptr};
  args.weights = table_.weights();
  args.coefficient = coefficient.data;
  args.coefficient_entries = coefficient_entries(coefficient.shape, space_dimension_);
  args.tensor_basis = tensor_basis_.size() ? tensor_basis_.data() : nullptr;  // the sum-factorised operators
  args.tensor_maps = tensor_maps_.size() ? tensor_maps_.data() : nullptr;
  if (l && precomputed && l->config.variant == KernelVariant::sum_factorised) args.geometry = operator_factors(op, stream);
  launch_transpose(l, args, options, stream);
}

template <class Real>
const Real* Plan<Real>::operator_factors(FusedOperator op, cudaStream_t stream) const {
  const std::lock_guard<std::mutex> lock(factors_mutex_);
  DeviceBuffer<Real>& kept = factors_[op == FusedOperator::mass ? 0 : 1];
  if (kept.size()) return kept.data();
  const BlockView& view = block_->view();
  const DeviceInfo& device = device_info(device_);
  const int D = dimension(view.type.shape), P1 = view.type.order + 1, Q1 = tensor_->points_per_direction;
  const TensorOperatorKind kind = op == FusedOperator::mass ? TensorOperatorKind::mass_factors
                                                            : TensorOperatorKind::diffusion_factors;
  DeviceBuffer<Real> factors{std::size_t(view.element_count) * std::size_t(table_.points()) *
                             std::size_t(operator_factor_entries(kind, D))};
  const KernelSet<Real> kernels =
      sum_factorised_operator_kernel_set<Real>(view.type, kind, 1, space_dimension_, Q1, false);
  // One thread per lattice point; elements along z up to 256 threads, fewer where shared memory is short.
  const int threads = tensor_threads_per_element(D, P1, Q1);
  int elements = std::max(1, 256 / threads);
  auto bytes = [&](int e) {
    return tensor_operator_shared_layout(kind, D, P1, Q1, space_dimension_, 1, e, sizeof(Real)).bytes;
  };
  while (elements > 1 && bytes(elements) > 48 * 1024) --elements;
  allow_shared_memory(device_, kernels.packed, bytes(elements));
  const offset_t groups = (view.element_count + elements - 1) / elements;
  KernelArgs<Real> args{view.connectivity, view.element_count, nullptr, coordinates_, nullptr,
                        table_.points(), 1, factors.data(), nullptr, flag_.data(), nullptr};
  args.weights = table_.weights();
  args.tensor_basis = tensor_basis_.data();
  args.tensor_maps = tensor_maps_.data();
  kernels.launch_packed(dim3(unsigned(std::min<offset_t>(groups, offset_t(device.multiprocessors) * 8))),
                        dim3(unsigned(threads), 1, unsigned(elements)), bytes(elements), stream, args);
  check_launch("precomputing a fused operator's geometry");
  check(stream);  // a degenerate or tangled element throws here, and nothing is kept
  kept = std::move(factors);
  return kept.data();
}

template <class Real>
void Plan<Real>::operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                                   BasicCoefficientView<Real> coefficient, const TransposeOptions& options) const {
  const ScopedDevice on_device(device_);
  check_diagonal_arguments("operator_diagonal", op, fused_arguments({nullptr, 0, components}, d, options),
                           coefficient_arguments(coefficient));
  const BlockView& view = block_->view();
  Launch l;
  if (view.element_count) {
    const DeviceInfo& device = device_info(device_);
    const int N = nodes_per_element(view.type), D = dimension(view.type.shape), Q = table_.points();
    l.kernels = diagonal_kernel_set<Real>(view.type, op, space_dimension_);
    // Threads over an element's points, then its nodes; 256 threads per block where shared memory allows.
    const int threads = std::min((std::max(N, Q) + 31) / 32 * 32, 128);
    int elements = std::max(1, 256 / threads);
    while (elements > 1 && diagonal_shared_bytes(op, N, D, space_dimension_, Q, elements) > 48 * 1024) --elements;
    l.config.shared_bytes = diagonal_shared_bytes(op, N, D, space_dimension_, Q, elements);
    if (l.config.shared_bytes > device.shared_per_block_optin)
      throw std::invalid_argument("operator_diagonal on " + to_string(view.type) + " with " + std::to_string(Q) +
                                  " points needs " + std::to_string(l.config.shared_bytes) + " bytes of shared memory; " +
                                  device.name + " allows " + std::to_string(device.shared_per_block_optin));
    allow_shared_memory(device_, l.kernels.packed, l.config.shared_bytes);
    l.config.elements_per_block = elements;
    const offset_t groups = (view.element_count + elements - 1) / elements;
    l.grid = dim3(unsigned(std::min<offset_t>(groups, offset_t(device.multiprocessors) * 8)));
    l.block = dim3(unsigned(threads), 1, unsigned(elements));
  }
  KernelArgs<Real> args{view.connectivity, view.element_count, nullptr, coordinates_, table_.values(),
                        table_.points(), components, d.data, nullptr, flag_.data(), nullptr};
  args.weights = table_.weights();
  args.coefficient = coefficient.data;
  args.coefficient_entries = coefficient_entries(coefficient.shape, space_dimension_);
  launch_transpose(view.element_count ? &l : nullptr, args, options, options_.stream);
}

// Clears the nodal output unless accumulating, then one launch, or one per colour for deterministic
// nodal sums. `l` (null when the block is empty) is only read when there are elements.
template <class Real>
void Plan<Real>::launch_transpose(const Launch* l, KernelArgs<Real> args, const TransposeOptions& options,
                                  cudaStream_t stream) const {
  const bool nodes = options.target == TransposeTarget::nodes;
  if (nodes && !options.accumulate && block_->node_count() > 0)
    check_cuda(cudaMemsetAsync(args.out, 0, std::size_t(block_->node_count()) * args.components * sizeof(Real), stream),
               "clearing a transpose's output");
  if (args.elements == 0) return;
  args.geometry_table = table_.gradients();
  if (!nodes || options_.summation == Summation::atomic) {
    args.store = nodes ? TransposeStore::atomic_add : TransposeStore::element_vectors;
    l->kernels.launch_packed(l->grid, l->block, l->config.shared_bytes, stream, args);
    check_launch("a transpose");
    return;
  }
  // Deterministic: colour after colour, each adding into nodes no other element of its colour touches.
  args.store = TransposeStore::add;
  for (int colour = 0; colour < colours(); ++colour) {
    const offset_t first = colour_offsets_[std::size_t(colour)];
    args.elements = colour_offsets_[std::size_t(colour) + 1] - first;
    args.element_list = colour_elements_.data() + first;
    const offset_t groups = (args.elements + l->config.elements_per_block - 1) / l->config.elements_per_block;
    const dim3 grid(unsigned(std::min<offset_t>(l->grid.x, std::max<offset_t>(groups, 1))));
    l->kernels.launch_packed(grid, l->block, l->config.shared_bytes, stream, args);
    check_launch("a transpose");
  }
}

template <class Real>
void Plan<Real>::check(cudaStream_t stream) const {
  const ScopedDevice on_device(device_);
  // The flag is read on `stream` itself, after its launches: this waits for that stream only, never for
  // the device or the legacy default stream.
  unsigned long long bad = no_element;
  check_cuda(cudaMemcpyAsync(&bad, flag_.data(), sizeof bad, cudaMemcpyDeviceToHost, stream), "reading a plan's flag");
  check_cuda(cudaStreamSynchronize(stream), "waiting for a plan's launches");
  if (bad == no_element) return;
  check_cuda(cudaMemsetAsync(flag_.data(), 0xff, sizeof(unsigned long long), stream), "clearing a plan's flag");
  // Why: the baseline kernel on that element alone records each point's det J and orientation. Its field
  // is the coordinates themselves (3 components, node_count * 3 values: every read stays in bounds),
  // whatever field the flagged launch had, which may be gone by now.
  const BlockView& view = block_->view();
  const int N = nodes_per_element(view.type), D = dimension(view.type.shape), Q = table_.points();
  DeviceBuffer<Real> detj{std::size_t(Q)}, out{output_size(Operation::physical_gradients, 1, Q, 3, D, space_dimension_)};
  DeviceBuffer<unsigned> bits{std::size_t(Q)};
  DeviceBuffer<unsigned long long> scratch(1);
  const KernelSet<Real> kernels = kernel_set<Real>(view.type, Operation::physical_gradients, 3, space_dimension_);
  const std::size_t bytes = baseline_shared_bytes(N, D, space_dimension_, Operation::physical_gradients, Q, sizeof(Real));
  allow_shared_memory(device_, kernels.baseline, bytes);
  const KernelArgs<Real> one{view.connectivity + offset_t(bad) * N, 1, coordinates_, coordinates_, table_.gradients(), Q, 3,
                             out.data(), detj.data(), scratch.data(), bits.data()};
  kernels.launch_baseline(dim3(1), dim3(unsigned(threads_per_element(Q))), bytes, stream, one);
  check_launch("the rerun of a flagged element");
  const std::vector<Real> dets = detj.to_host(stream);  // waits for the rerun
  const std::vector<unsigned> orientation = bits.to_host(stream);
  OrientationRecord record;
  for (int q = 0; q < Q; ++q) record.add(q, double(dets[std::size_t(q)]), orientation[std::size_t(q)]);
  check_orientation(view, offset_t(bad), record, D < space_dimension_);
  throw std::logic_error("the GPU flagged " + describe_element(view, offset_t(bad)) +
                         " as degenerate, but its rerun finds det J of one sign at every point");
}

template class Plan<double>;
template class Plan<float>;

}  // namespace feinterp::backends::cuda
