// What an interpolation computes, and the views through which fields go in and results come out.
#pragma once

#include <cstddef>

#include "../elements/config.hpp"

namespace feinterp {

enum class Operation {
  values,               ///< u_c(xi_q)                        out[(e*Q + q)*C + c]
  reference_gradients,  ///< du_c/dxi_d(xi_q)                 out[((e*Q + q)*C + c)*D + d]
  physical_gradients,   ///< du_c/dx_d(x(xi_q)), and det J    out[((e*Q + q)*C + c)*D + d], detj[e*Q + q]
};

inline const char* operation_name(Operation op) {
  switch (op) {
    case Operation::values: return "values";
    case Operation::reference_gradients: return "reference_gradients";
    case Operation::physical_gradients: return "physical_gradients";
  }
  return "unknown";
}

/// Number of doubles in the result of `op` (not counting det J).
inline std::size_t output_size(Operation op, offset_t elements, int points, int components, int dimension) {
  const offset_t per_point = op == Operation::values ? components : offset_t(components) * dimension;
  return std::size_t(elements * points * per_point);
}

/// A nodal field, u[node * components + c]; `size` is the number of doubles, checked against the mesh.
struct FieldView {
  const double* data = nullptr;
  std::size_t size = 0;
  int components = 1;
};

/// Where results go; `size` is the number of doubles available, checked against what is written.
struct OutputView {
  double* data = nullptr;
  std::size_t size = 0;
};

}  // namespace feinterp
