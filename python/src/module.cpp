// SPDX-License-Identifier: BSD-3-Clause
// _feinterp: the compiled half of the `feinterp` package (python/feinterp/__init__.py is the other).
#include <feinterp/python/src/bindings.hpp>

PYBIND11_MODULE(_feinterp, m) {
  using namespace feinterp::python;
  m.doc() = "feinterp's front door: finite-element fields interpolated at points, on the CPU and NVIDIA GPUs";
  bind_errors(m);
  bind_types(m);
  bind_points(m);
#if FEINTERP_PYTHON_MESH
  bind_mesh(m);
  bind_io(m);
#endif
  bind_interpolator(m);
  bind_mesh_operator(m);
  m.attr("__version__") = FEINTERP_VERSION;
  m.attr("has_mesh") = bool(FEINTERP_PYTHON_MESH);
  m.attr("has_cuda") = bool(FEINTERP_PYTHON_CUDA);
}
