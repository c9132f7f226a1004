// SPDX-License-Identifier: BSD-3-Clause
// The Python module _feinterp is bound in one file per concept; module.cpp calls each of these once.
// python/ sits above the front door (interpolator/) and mesh/: bindings only, no computation.
#pragma once

#include <pybind11/pybind11.h>

namespace feinterp::python {

namespace py = pybind11;

void bind_errors(py::module_& m);        // errors.cpp: the exception classes and the C++ -> Python translation
void bind_types(py::module_& m);         // types.cpp: Shape, ElementType, Operation, Precision, Executor, ...
void bind_points(py::module_& m);        // points.cpp: PointSet, element_nodes, quadrature_rule
void bind_mesh(py::module_& m);          // mesh.cpp: Mesh, Block, load_msh, generate_mesh (FEINTERP_MESH only)
void bind_interpolator(py::module_& m);  // interpolator.cpp: the plans Plan64 and Plan32

}  // namespace feinterp::python
