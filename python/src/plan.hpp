// SPDX-License-Identifier: BSD-3-Clause
// The plan as the Python module holds it (interpolator.cpp binds it as _feinterp.Plan64 and Plan32;
// mesh_operator.cpp builds MeshOperators over plans): every array checked once per call against the
// layouts of core/layout.hpp, the front door run with the GIL released, the arrays' streams ordered
// around it (stream_order.hpp). See interpolator.cpp for the shapes and the memory rules.
#pragma once

#include <feinterp/core/limits.hpp>
#include <feinterp/interpolator/interpolator.hpp>

#include <pybind11/stl.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <feinterp/python/src/arguments.hpp>
#include <feinterp/python/src/arrays.hpp>
#include <feinterp/python/src/bindings.hpp>
#include <feinterp/python/src/stream_order.hpp>

namespace feinterp::python {


using Shape_ = std::vector<std::int64_t>;

// The executor of a plan: `executor` (a feinterp.Executor or a name) resolved, with `stream` for cuda.
inline Executor plan_executor(py::handle executor, std::intptr_t stream) {
  const Executor resolved = resolve_executor(executor_from(executor));
  if (resolved.kind() != ExecutorKind::cuda) return resolved;
  return Executor::cuda(resolved.device(), reinterpret_cast<void*>(stream));
}

/// cuda_stream: a cudaStream_t as an integer (0: the legacy default stream).
inline std::intptr_t stream_argument(py::handle cuda_stream) {
  return integer_argument<std::intptr_t>(cuda_stream, "cuda_stream", 0);
}

/// C of an array whose dimension `axis` holds the components: refused past an int, the library refuses
/// past max_components with its own message.
inline int components_of(const ArrayRef& a, std::size_t axis, const std::string& name) {
  const std::int64_t C = a.shape.size() > axis ? a.shape[axis] : 1;
  if (C > std::numeric_limits<int>::max())
    throw py::value_error(name + ": " + std::to_string(C) + " components, expected 1 to " + std::to_string(max_components));
  return int(C);
}

/// A component count argument, 1 to max_components.
inline int components_argument(py::handle components) {
  return integer_argument<int>(components, "components", 1, max_components);
}

/// The front door's views of checked arrays.
template <class Real>
BasicFieldView<Real> field_view(const ArrayRef& a, int C) {
  return {static_cast<const Real*>(a.data), std::size_t(a.size()), C};
}
template <class Real>
BasicOutputView<Real> output_view(const ArrayRef& a) {
  return {static_cast<Real*>(a.data), std::size_t(a.size())};
}

/// rho or kappa from a checked array (or none): a scalar per point when its rank is `scalar_rank`, a
/// symmetric tensor's upper entries when it has one more axis.
template <class Real>
BasicCoefficientView<Real> coefficient_view(const std::optional<ArrayRef>& a, std::size_t scalar_rank) {
  if (!a) return {};
  return {static_cast<const Real*>(a->data), std::size_t(a->size()),
          a->shape.size() == scalar_rank ? CoefficientShape::scalar : CoefficientShape::symmetric_tensor};
}

/// The CUDA streams of the arrays that carry one (null entries skipped), for StreamOrder.
inline std::vector<std::intptr_t> array_streams(std::initializer_list<const ArrayRef*> arrays) {
  std::vector<std::intptr_t> s;
  for (const ArrayRef* a : arrays)
    if (a != nullptr && a->stream) s.push_back(*a->stream);
  return s;
}

template <class Real>
class Plan {
 public:
  // The plan owns every array it keeps, copied here (host arrays to its device, device arrays on it):
  // nothing the caller does to its arrays later (writing, resizing, freeing them) can change what the
  // plan reads.
  Plan(ElementType type, py::handle connectivity, const PointSet& points, py::handle coordinates,
       py::handle node_count_argument, py::handle space_dimension_argument, py::handle element_tags,
       py::handle executor, py::handle threads_argument, py::handle cuda_stream, Summation summation,
       OperatorGeometry operator_geometry)
      : executor_(plan_executor(executor, stream_argument(cuda_stream))),
        stream_(stream_argument(cuda_stream)),
        order_(stream_, executor_.device()) {
    const Memory here = memory();
    const int npe = nodes_per_element(type);
    offset_t node_count =
        node_count_argument.is_none() ? -1 : integer_argument<offset_t>(node_count_argument, "node_count", 0);
    const int space_dimension = integer_argument<int>(space_dimension_argument, "space_dimension", 0, 3);
    const int threads = integer_argument<int>(threads_argument, "threads", 0);

    ArrayRef c = read_array(connectivity, "connectivity", stream_);
    if (c.shape.size() != 2 || c.shape[1] != npe)
      throw py::value_error("connectivity: expected shape (E, " + std::to_string(npe) + ") for " + to_string(type) +
                            ", got " + c.shape_string());
    // Host connectivity and coordinates are accepted by a cuda plan too (copied below).
    expect(c, "connectivity", int32, {c.shape}, c.device ? here : Memory::host, false);
    const offset_t E = c.shape[0];
    const node_index* connectivity_data = static_cast<const node_index*>(c.data);
    owned_connectivity_.emplace(executor_, std::size_t(c.size()));
    if (c.device)
      owned_connectivity_->copy_from_device(connectivity_data, std::size_t(c.size()));
    else
      owned_connectivity_->copy_from(connectivity_data, std::size_t(c.size()));
    connectivity_data = owned_connectivity_->data();

    const Real* coordinates_data = nullptr;
    if (!coordinates.is_none()) {
      ArrayRef x = read_array(coordinates, "coordinates", stream_);
      const std::int64_t N = x.shape.size() == 2 ? x.shape[0] : -1;
      if (node_count < 0 && N >= 0) node_count = N;
      expect(x, "coordinates", dtype_of<Real>(), {{node_count, 3}}, x.device ? here : Memory::host, false);
      coordinates_data = static_cast<const Real*>(x.data);
      owned_coordinates_.emplace(executor_, std::size_t(x.size()));
      if (x.device)
        owned_coordinates_->copy_from_device(coordinates_data, std::size_t(x.size()));
      else
        owned_coordinates_->copy_from(coordinates_data, std::size_t(x.size()));
      coordinates_data = owned_coordinates_->data();
    } else if (node_count < 0) {
      throw py::value_error("node_count: required when no coordinates are given");
    }

    const std::size_t* tags = nullptr;
    if (!element_tags.is_none()) {
      ArrayRef t = read_array(element_tags, "element_tags", stream_);
      expect(t, "element_tags", uint64, {{E}}, Memory::host, false);  // host memory: read by error messages
      const auto* first = static_cast<const std::size_t*>(t.data);
      owned_tags_.assign(first, first + t.size());
      tags = owned_tags_.data();
    }

    const BlockView block{type, connectivity_data, E, space_dimension, tags};
    InterpolatorOptions options;
    options.executor = executor_;
    options.threads = threads;
    options.summation = summation;
    options.operator_geometry = operator_geometry;
    py::gil_scoped_release release;
    plan_.emplace(block, node_count, points, coordinates_data, options);
  }

  void apply(Operation op, py::handle u, py::handle out, py::handle detj) {
    if (is_transpose(op))
      throw py::value_error(std::string("op: ") + operation_name(op) + " is a transpose: use apply_transpose");
    const ArrayRef ua = nodal(u, "u");
    const int C = components(ua);
    const ArrayRef oa = output(out, "out", {point_shape(op, C)});
    std::optional<ArrayRef> da;
    if (!detj.is_none()) {
      if (op != Operation::physical_gradients)
        throw py::value_error(std::string("detj: only physical_gradients computes det J, not ") + operation_name(op));
      da = output(detj, "detj", {{E(), Q()}});
      expect_disjoint(*da, "detj", ua, "u");
      expect_disjoint(*da, "detj", oa, "out");
    }
    expect_disjoint(oa, "out", ua, "u");
    order_.plan_waits_for(array_streams({&ua, &oa, da ? &*da : nullptr}));
    {
      py::gil_scoped_release release;
      plan_->apply(op, field_view<Real>(ua, C), output_view<Real>(oa), da ? output_view<Real>(*da) : BasicOutputView<Real>{});
    }
    order_.wait_for_plan(array_streams({&oa, da ? &*da : nullptr}));
  }

  void apply_transpose(Operation op, py::handle f, py::handle out, const TransposeOptions& options) {
    const ArrayRef fa = read_array(f, "f", stream_);
    const Operation forward = forward_of(op);
    if (fa.shape.size() < 3)
      throw py::value_error("f: expected point data of shape " + shape_string(point_shape(forward, -1)) +
                            " (C: the field's components), got " + fa.shape_string());
    const int C = components_of(fa, 2, "f");
    expect(fa, "f", dtype_of<Real>(), {point_shape(forward, C)}, memory(), false);
    const ArrayRef oa = output(out, "out", transpose_shapes(options.target, C));
    expect_disjoint(oa, "out", fa, "f");
    order_.plan_waits_for(array_streams({&fa, &oa}));
    {
      py::gil_scoped_release release;
      plan_->apply_transpose(op, field_view<Real>(fa, C), output_view<Real>(oa), options);
    }
    order_.wait_for_plan(array_streams({&oa}));
  }

  void apply_operator(FusedOperator op, py::handle u, py::handle r, py::handle coefficient,
                      const TransposeOptions& options) {
    const ArrayRef ua = nodal(u, "u");
    const int C = components(ua);
    const ArrayRef ra = output(r, "out", transpose_shapes(options.target, C));
    expect_disjoint(ra, "out", ua, "u");
    const std::optional<ArrayRef> ka = point_coefficient(coefficient);
    if (ka) expect_disjoint(ra, "out", *ka, "coefficient");
    order_.plan_waits_for(array_streams({&ua, &ra, ka ? &*ka : nullptr}));
    {
      py::gil_scoped_release release;
      plan_->apply_operator(op, field_view<Real>(ua, C), output_view<Real>(ra), coefficient_view<Real>(ka, 2), options);
    }
    order_.wait_for_plan(array_streams({&ra}));
  }

  void operator_diagonal(FusedOperator op, py::handle components, py::handle d, py::handle coefficient,
                         const TransposeOptions& options) {
    const int C = components_argument(components);
    const ArrayRef da = output(d, "out", transpose_shapes(options.target, C));
    const std::optional<ArrayRef> ka = point_coefficient(coefficient);
    if (ka) expect_disjoint(da, "out", *ka, "coefficient");
    order_.plan_waits_for(array_streams({&da, ka ? &*ka : nullptr}));
    {
      py::gil_scoped_release release;
      plan_->operator_diagonal(op, C, output_view<Real>(da), coefficient_view<Real>(ka, 2), options);
    }
    order_.wait_for_plan(array_streams({&da}));
  }

  void check() const {
    py::gil_scoped_release release;
    plan_->check();
  }

  /// The shape of op's output for C components: point data for a forward operation, the nodal vector
  /// or the element vectors for a transpose.
  Shape_ output_shape(Operation op, py::handle components, TransposeTarget target) const {
    const int C = components_argument(components);
    if (!is_transpose(op)) return point_shape(op, C);
    return transpose_shapes(target, C).front();
  }

  ExecutorKind executor() const { return executor_.kind(); }
  /// The resolved executor with the plan's stream, and the coordinates the plan owns (null: none): what a
  /// MeshOperator over plans shares (mesh_operator.cpp).
  const Executor& executor_value() const { return executor_; }
  const Real* coordinates() const { return owned_coordinates_ ? owned_coordinates_->data() : nullptr; }
  /// The plan's CUDA device; -1 for a cpu plan.
  int device() const { return executor_.device(); }
  std::intptr_t cuda_stream() const { return stream_; }
  const Interpolator<Real>& front_door() const { return *plan_; }
  offset_t E() const { return plan_->block().element_count; }
  int Q() const { return plan_->points(); }
  int reference_dimension() const { return dimension(plan_->block().type.shape); }

 private:
  Memory memory() const { return executor_.kind() == ExecutorKind::cuda ? Memory::device : Memory::host; }

  Shape_ point_shape(Operation op, int C) const {
    Shape_ shape{E(), Q(), C};
    if (forward_of(op) != Operation::values)
      shape.push_back(result_directions(op, reference_dimension(), plan_->space_dimension()));
    return shape;
  }

  std::vector<Shape_> transpose_shapes(TransposeTarget target, int C) const {
    if (target == TransposeTarget::element_vectors) return {{E(), nodes_per_element(plan_->block().type), C}};
    return nodal_shapes(C);
  }

  std::vector<Shape_> nodal_shapes(int C) const {
    const offset_t N = plan_->node_count();
    if (C == 1) return {{N, 1}, {N}};
    return {{N, C}};
  }

  static int components(const ArrayRef& a) { return components_of(a, 1, "u"); }

  ArrayRef nodal(py::handle object, const std::string& name) const {
    ArrayRef a = read_array(object, name, stream_);
    if (a.shape.size() != 1 && a.shape.size() != 2)
      throw py::value_error(name + ": expected a nodal field of shape (N, C) or (N,) with N = " +
                            std::to_string(plan_->node_count()) + ", got " + a.shape_string());
    expect(a, name, dtype_of<Real>(), nodal_shapes(components(a)), memory(), false);
    return a;
  }

  ArrayRef output(py::handle object, const std::string& name, const std::vector<Shape_>& shapes) const {
    ArrayRef a = read_array(object, name, stream_);
    expect(a, name, dtype_of<Real>(), shapes, memory(), true);
    return a;
  }

  /// A coefficient at the points: None, (E, Q) for a scalar, or (E, Q, T) for a symmetric tensor's
  /// T = s(s+1)/2 upper entries (core/operation.hpp's CoefficientShape).
  std::optional<ArrayRef> point_coefficient(py::handle object) const {
    if (object.is_none()) return std::nullopt;
    ArrayRef a = read_array(object, "coefficient", stream_);
    const int T = coefficient_entries(CoefficientShape::symmetric_tensor, plan_->space_dimension());
    expect(a, "coefficient", dtype_of<Real>(), {{E(), Q()}, {E(), Q(), T}}, memory(), false);
    return a;
  }



  Executor executor_;
  std::intptr_t stream_;
  StreamOrder order_;
  std::optional<ExecutorArray<node_index>> owned_connectivity_;
  std::optional<ExecutorArray<Real>> owned_coordinates_;
  std::vector<std::size_t> owned_tags_;
  std::optional<Interpolator<Real>> plan_;
};

}  // namespace feinterp::python
