// SPDX-License-Identifier: BSD-3-Clause
// The convergence table: observed rates between consecutive rows of one element type, the rate check
// that makes a wrong discretisation fail, and the table as text, CSV or JSON.
#pragma once

#include <string>
#include <vector>

#include "solve.hpp"

namespace poisson {

struct Row {
  CaseResult result;
  /// log(e_prev / e) / log(h_prev / h), of the solution's errors and the projection's; NaN on a type's
  /// first row
  double l2_rate = 0, h1_rate = 0, projection_rate = 0;
};

/// Rows in the order of `results`; a row's rates are against the previous row of the same type.
std::vector<Row> with_rates(const std::vector<CaseResult>& results);

std::string format_table(const std::vector<Row>& rows);
std::string format_csv(const std::vector<Row>& rows);
std::string format_json(const std::vector<Row>& rows, const std::string& device);

/// One line per failure: a type whose L2 rate (of the solution or of the projection) at its finest pair is
/// below p + 1 - slack, or a CG solve that did not converge. Empty when everything passes.
std::vector<std::string> check_rates(const std::vector<Row>& rows, double slack);

}  // namespace poisson
