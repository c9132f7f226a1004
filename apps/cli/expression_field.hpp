// SPDX-License-Identifier: BSD-3-Clause
// A nodal field from formulas in x, y, z (muparser syntax: sin(x)*y, x^2, min(x,y), pi, _e ...), one
// component per expression, evaluated at every node of a mesh.
#pragma once

#include <string>
#include <vector>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp::app {

/// The expressions of repeated --expr options, each split at its top-level commas ("x,y" is two
/// components; "min(x,y)" is one: the comma belongs to the call). Throws on an empty expression.
std::vector<std::string> split_expressions(const std::vector<std::string>& arguments);

/// The field u_c(node) = expressions[c](x, y, z) at each node (coordinates[node*3 + k]). Throws
/// std::invalid_argument naming the expression for a syntax error, an unknown variable (only x, y
/// and z exist), or a value that is not finite at some node (naming its coordinates).
NodalField expression_field(const std::vector<std::string>& expressions, const std::vector<double>& coordinates,
                            const std::string& name);

}  // namespace feinterp::app
