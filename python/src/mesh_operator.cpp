// SPDX-License-Identifier: BSD-3-Clause
// MeshOperator (interpolator/mesh_operator.hpp) as _feinterp.MeshOperator64 and MeshOperator32, built over
// plans of the module (plan.hpp): each block's connectivity is the one its plan owns, the coordinates
// the first plan's, so the plans must share one node numbering and one executor (checked) and one set of
// coordinates (the caller's: feinterp.MeshOperator builds the plans from one array). The operator keeps
// the plans alive. Arrays (every block's points, block after block: P points in all):
//
//   nodal field u, result r       (N, C), or (N,) for C = 1
//   point data                    1D, every block's in its layout (output_size values; offsets per block)
//   coefficient                   (P,) scalar, or (P, T) symmetric tensor, T = s(s+1)/2
//   point coordinates             (P, 3)
#include <feinterp/interpolator/mesh_operator.hpp>

#include <pybind11/stl.h>

#include <feinterp/python/src/bindings.hpp>
#include <feinterp/python/src/plan.hpp>

namespace feinterp::python {

namespace {

template <class Real>
class MeshOperatorBinding {
 public:
  MeshOperatorBinding(const py::list& plans, const std::vector<PointSet>& points)
      : plans_(plans),
        executor_(first(plans).executor_value()),
        stream_(first(plans).cuda_stream()),
        order_(stream_, executor_.device()) {
    if (std::size_t(py::len(plans)) != points.size())
      throw py::value_error("points: " + std::to_string(points.size()) + " point sets for " +
                            std::to_string(py::len(plans)) + " plans; expected one per plan");
    std::vector<OperatorBlock> blocks;
    const Plan<Real>& head = first(plans);
    for (std::size_t b = 0; b < points.size(); ++b) {
      const Plan<Real>& plan = plans[b].cast<const Plan<Real>&>();
      if (plan.front_door().node_count() != head.front_door().node_count())
        throw py::value_error("plans: plan " + std::to_string(b) + " has " + std::to_string(plan.front_door().node_count()) +
                              " nodes, plan 0 " + std::to_string(head.front_door().node_count()) +
                              "; expected one node numbering");
      if (plan.executor_value().kind() != executor_.kind() || plan.executor_value().device() != executor_.device() ||
          plan.cuda_stream() != stream_)
        throw py::value_error("plans: plan " + std::to_string(b) + " computes elsewhere than plan 0 (another executor, "
                              "device or stream); expected one executor");
      blocks.push_back({plan.front_door().block(), points[b]});
    }
    InterpolatorOptions options;
    options.executor = executor_;
    py::gil_scoped_release release;
    op_.emplace(blocks, head.front_door().node_count(), head.coordinates(), options);
  }

  void interpolate(Operation op, py::handle u, py::handle out) {
    const ArrayRef ua = nodal(u, "u");
    const int C = components_of(ua, 1, "u");
    const ArrayRef oa = output(out, "out", {{std::int64_t(op_->output_size(op, C))}});
    expect_disjoint(oa, "out", ua, "u");
    run({&ua, &oa}, {&oa}, [&] { op_->interpolate(op, field_view<Real>(ua, C), output_view<Real>(oa)); });
  }

  void integrate(Operation op, py::handle f, py::handle components, py::handle out, const TransposeOptions& options) {
    const int C = components_argument(components);
    const ArrayRef fa = read_array(f, "f", stream_);
    expect(fa, "f", dtype_of<Real>(), {{std::int64_t(op_->output_size(forward_of(op), C))}}, memory(), false);
    const ArrayRef ra = output(out, "out", nodal_shapes(C));
    expect_disjoint(ra, "out", fa, "f");
    run({&fa, &ra}, {&ra}, [&] { op_->integrate(op, field_view<Real>(fa, C), output_view<Real>(ra), options); });
  }

  void apply_operator(FusedOperator op, py::handle u, py::handle out, py::handle coefficient, bool accumulate) {
    const ArrayRef ua = nodal(u, "u");
    const int C = components_of(ua, 1, "u");
    const ArrayRef ra = output(out, "out", nodal_shapes(C));
    expect_disjoint(ra, "out", ua, "u");
    const std::optional<ArrayRef> ka = point_coefficient(coefficient);
    run({&ua, &ra, ka ? &*ka : nullptr}, {&ra},
        [&] { op_->apply_operator(op, field_view<Real>(ua, C), output_view<Real>(ra), coefficient_view<Real>(ka, 1), accumulate); });
  }

  void operator_diagonal(FusedOperator op, py::handle components, py::handle out, py::handle coefficient) {
    const int C = components_argument(components);
    const ArrayRef da = output(out, "out", nodal_shapes(C));
    const std::optional<ArrayRef> ka = point_coefficient(coefficient);
    run({&da, ka ? &*ka : nullptr}, {&da}, [&] { op_->operator_diagonal(op, C, output_view<Real>(da), coefficient_view<Real>(ka, 1)); });
  }

  void point_coordinates(py::handle out) {
    const ArrayRef xa = output(out, "out", {{point_count(), 3}});
    run({&xa}, {&xa}, [&] { op_->point_coordinates(output_view<Real>(xa)); });
  }

  void check() const {
    py::gil_scoped_release release;
    op_->check();
  }

  const MeshOperator<Real>& front_door() const { return *op_; }
  std::int64_t point_count() const { return std::int64_t(op_->detj_size()); }

 private:
  static const Plan<Real>& first(const py::list& plans) {
    if (py::len(plans) == 0) throw py::value_error("plans: none; expected at least one");
    return plans[0].cast<const Plan<Real>&>();
  }
  Memory memory() const { return executor_.kind() == ExecutorKind::cuda ? Memory::device : Memory::host; }
  int space_dimension() const { return op_->plan(0).space_dimension(); }

  std::vector<std::vector<std::int64_t>> nodal_shapes(int C) const {
    const std::int64_t N = op_->node_count();
    if (C == 1) return {{N, 1}, {N}};
    return {{N, C}};
  }
  ArrayRef nodal(py::handle object, const std::string& name) const {
    ArrayRef a = read_array(object, name, stream_);
    if (a.shape.size() != 1 && a.shape.size() != 2)
      throw py::value_error(name + ": expected a nodal field of shape (N, C) or (N,) with N = " +
                            std::to_string(op_->node_count()) + ", got " + a.shape_string());
    expect(a, name, dtype_of<Real>(), nodal_shapes(components_of(a, 1, name)), memory(), false);
    return a;
  }
  ArrayRef output(py::handle object, const std::string& name, const std::vector<std::vector<std::int64_t>>& shapes) const {
    ArrayRef a = read_array(object, name, stream_);
    expect(a, name, dtype_of<Real>(), shapes, memory(), true);
    return a;
  }
  std::optional<ArrayRef> point_coefficient(py::handle object) const {
    if (object.is_none()) return std::nullopt;
    ArrayRef a = read_array(object, "coefficient", stream_);
    const int T = coefficient_entries(CoefficientShape::symmetric_tensor, space_dimension());
    expect(a, "coefficient", dtype_of<Real>(), {{point_count()}, {point_count(), T}}, memory(), false);
    return a;
  }

  // The operator's stream waits for `inputs`' streams, runs `call` without the GIL, and `outputs`' streams
  // wait for it.
  template <class Call>
  void run(std::initializer_list<const ArrayRef*> inputs, std::initializer_list<const ArrayRef*> outputs, Call&& call) {
    order_.plan_waits_for(array_streams(inputs));
    {
      py::gil_scoped_release release;
      call();
    }
    order_.wait_for_plan(array_streams(outputs));
  }

  py::list plans_;  // keeps the plans, and so their arrays, alive
  Executor executor_;
  std::intptr_t stream_;
  StreamOrder order_;
  std::optional<MeshOperator<Real>> op_;
};

template <class Real>
void bind_mesh_operator(py::module_& m, const char* name) {
  using M = MeshOperatorBinding<Real>;
  py::class_<M>(m, name, "A MeshOperator over plans (feinterp.MeshOperator wraps it; see its documentation).")
      .def(py::init<const py::list&, const std::vector<PointSet>&>(), py::arg("plans"), py::arg("points"))
      .def("interpolate", &M::interpolate, py::arg("op"), py::arg("u"), py::arg("out"))
      .def("integrate", &M::integrate, py::arg("op"), py::arg("f"), py::arg("components"), py::arg("out"),
           py::arg("options"))
      .def("apply_operator", &M::apply_operator, py::arg("op"), py::arg("u"), py::arg("out"), py::arg("coefficient"),
           py::arg("accumulate"))
      .def("operator_diagonal", &M::operator_diagonal, py::arg("op"), py::arg("components"), py::arg("out"),
           py::arg("coefficient"))
      .def("point_coordinates", &M::point_coordinates, py::arg("out"))
      .def("check", &M::check)
      .def_property_readonly("block_count", [](const M& m) { return m.front_door().block_count(); })
      .def_property_readonly("run_count", [](const M& m) { return m.front_door().run_count(); })
      .def_property_readonly("node_count", [](const M& m) { return m.front_door().node_count(); })
      .def_property_readonly("point_count", &M::point_count)
      .def("output_size", [](const M& m, Operation op, py::handle C) {
        return m.front_door().output_size(op, components_argument(C));
      }, py::arg("op"), py::arg("components"))
      .def("output_offset", [](const M& m, std::size_t b, Operation op, py::handle C) {
        return m.front_door().output_offset(b, op, components_argument(C));
      }, py::arg("block"), py::arg("op"), py::arg("components"))
      .def("point_offset", [](const M& m, std::size_t b) { return m.front_door().detj_offset(b); }, py::arg("block"));
}

}  // namespace

void bind_mesh_operator(py::module_& m) {
  bind_mesh_operator<double>(m, "MeshOperator64");
  bind_mesh_operator<float>(m, "MeshOperator32");
}

}  // namespace feinterp::python
