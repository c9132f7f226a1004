// SPDX-License-Identifier: BSD-3-Clause
// What an interpolation computes, and the views through which fields go in and results come out.
// The operation list is defined here once: a new operation is one value here and one case in each
// backend.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "config.hpp"

namespace feinterp {

enum class Operation {
  values,               ///< u_c(xi_q)                        out[(e*Q + q)*C + c]
  reference_gradients,  ///< du_c/dxi_d(xi_q), d < D          out[((e*Q + q)*C + c)*D + d]
  physical_gradients,   ///< du_c/dx_k(x(xi_q)), k < S, and det J (or the measure): out[((e*Q + q)*C + c)*S + k],
                        ///< detj[e*Q + q]; the tangential gradient when S > D (fem/geometry.hpp)
};

/// Every operation, in the enum's order.
inline constexpr Operation all_operations[] = {Operation::values, Operation::reference_gradients,
                                               Operation::physical_gradients};

inline const char* operation_name(Operation op) {
  switch (op) {
    case Operation::values: return "values";
    case Operation::reference_gradients: return "reference_gradients";
    case Operation::physical_gradients: return "physical_gradients";
  }
  return "unknown";
}

/// The operation named `name` (operation_name's spelling). Throws std::invalid_argument listing the names.
inline Operation parse_operation(const std::string& name) {
  for (Operation op : all_operations)
    if (name == operation_name(op)) return op;
  throw std::invalid_argument("unknown operation '" + name +
                              "': expected values, reference_gradients or physical_gradients");
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

/// Number of values in the result of `op` (not counting det J), for elements of reference dimension d
/// in a space of dimension s.
inline std::size_t output_size(Operation op, offset_t elements, int points, int components, int reference_dimension,
                               int space_dimension) {
  return std::size_t(elements * points * components *
                     result_directions(op, reference_dimension, space_dimension));
}

/// A nodal field, u[node * components + c], of T = double or float; `size` is the number of values,
/// checked against the mesh.
template <class T>
struct BasicFieldView {
  const T* data = nullptr;
  std::size_t size = 0;
  int components = 1;
};

/// Where results go; `size` is the number of values available, checked against what is written.
template <class T>
struct BasicOutputView {
  T* data = nullptr;
  std::size_t size = 0;
};

using FieldView = BasicFieldView<double>;
using OutputView = BasicOutputView<double>;

}  // namespace feinterp
