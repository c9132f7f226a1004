// What an interpolation computes, and the views through which fields go in and results come out.
#pragma once

#include <cstddef>

#include "../elements/config.hpp"

namespace feinterp {

enum class Operation {
  values,               ///< u_c(xi_q)                        out[(e*Q + q)*C + c]
  reference_gradients,  ///< du_c/dxi_d(xi_q), d < D          out[((e*Q + q)*C + c)*D + d]
  physical_gradients,   ///< du_c/dx_k(x(xi_q)), k < S, and det J (or the measure): out[((e*Q + q)*C + c)*S + k],
                        ///< detj[e*Q + q]; the tangential gradient when S > D (fem/geometry.hpp)
};

inline const char* operation_name(Operation op) {
  switch (op) {
    case Operation::values: return "values";
    case Operation::reference_gradients: return "reference_gradients";
    case Operation::physical_gradients: return "physical_gradients";
  }
  return "unknown";
}

/// Numbers per (point, component) in the result of `op`: 1 for values, the reference dimension d for
/// reference gradients, the space dimension s for physical gradients.
FEINTERP_HD int result_directions(Operation op, int reference_dimension, int space_dimension) {
  switch (op) {
    case Operation::values: return 1;
    case Operation::reference_gradients: return reference_dimension;
    case Operation::physical_gradients: return space_dimension;
  }
  return 0;
}

/// Number of doubles in the result of `op` (not counting det J), for elements of reference dimension d
/// in a space of dimension s.
inline std::size_t output_size(Operation op, offset_t elements, int points, int components, int reference_dimension,
                               int space_dimension) {
  return std::size_t(elements * points * components *
                     result_directions(op, reference_dimension, space_dimension));
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
