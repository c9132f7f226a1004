// SPDX-License-Identifier: BSD-3-Clause
// The Python module _feinterp is bound in one file per concept; module.cpp calls each of these once.
// python/ sits above the front door (interpolator/) and mesh/: bindings only, no computation.
#pragma once

#include <pybind11/pybind11.h>

#include <feinterp/interpolator/executor.hpp>

namespace feinterp::python {

namespace py = pybind11;

/// An executor as Python names it: a feinterp.Executor (the kind; cuda on the current device, which is
/// CuPy's and PyTorch's current device too) or a name: 'cpu', 'cuda', 'cuda:N' (device N), 'auto' or
/// 'automatic'. TypeError for anything else (types.cpp).
Executor executor_from(py::handle executor);

void bind_errors(py::module_& m);        // errors.cpp: the exception classes and the C++ -> Python translation
void bind_types(py::module_& m);         // types.cpp: Shape, ElementType, Operation, Precision, Executor, ...
void bind_points(py::module_& m);        // points.cpp: PointSet, element_nodes, quadrature_rule
void bind_mesh(py::module_& m);          // mesh.cpp: Mesh, Block, load_msh, generate_mesh (FEINTERP_MESH only)
void bind_interpolator(py::module_& m);  // interpolator.cpp: the plans Plan64 and Plan32
void bind_mesh_operator(py::module_& m);
void bind_io(py::module_& m);            // io.cpp: write_vtu, write_msh, write_npy, write_csv (FEINTERP_MESH only)  // mesh_operator.cpp: MeshOperator64 and MeshOperator32 over plans

}  // namespace feinterp::python
