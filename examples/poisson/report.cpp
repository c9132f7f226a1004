// SPDX-License-Identifier: BSD-3-Clause
#include "report.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>

namespace poisson {

using feinterp::ElementType;

namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  return buffer;
}

const char* short_name(ElementType type) { return type.shape == feinterp::Shape::tetrahedron ? "tet" : "hex"; }

// JSON has no NaN or infinity (printf writes "-nan", which no parser reads): the first row of a type has
// no rate, and a rate over a zero time is infinite; both become null.
std::string json_number(double x, const char* fmt = "%.6g") { return std::isfinite(x) ? format(fmt, x) : "null"; }

}  // namespace

std::vector<Row> with_rates(const std::vector<CaseResult>& results) {
  std::vector<Row> rows;
  for (const CaseResult& r : results) {
    const double none = std::numeric_limits<double>::quiet_NaN();
    Row row{r, none, none, none};
    for (auto previous = rows.rbegin(); previous != rows.rend(); ++previous)
      if (previous->result.type == r.type) {
        const double dh = std::log(previous->result.h / r.h);
        row.l2_rate = std::log(previous->result.l2_error / r.l2_error) / dh;
        row.h1_rate = std::log(previous->result.h1_error / r.h1_error) / dh;
        row.projection_rate = std::log(previous->result.projection_l2_error / r.projection_l2_error) / dh;
        break;
      }
    rows.push_back(row);
  }
  return rows;
}

std::string format_table(const std::vector<Row>& rows) {
  // GDoF/s: CG's operator (fused diffusion with kappa, constrained), the fused one with kappa = 1, and the
  // unfused pair (forward + weighted transpose); fwd %: the forward's share of the unfused pair; CG: DoFs
  // times iterations per second of the whole solve, vector operations included.
  std::string s = "elem p  elements       h      DoFs  CG its    L2 error  rate    H1 error  rate  proj L2  rate  "
                  "GDoF/s   fused unfused  apply ms  fwd %      CG\n";
  for (const Row& row : rows) {
    const CaseResult& r = row.result;
    s += format("%-4s %d %9lld %7.4f %9lld %7d %11.3e %5.2f %11.3e %5.2f %8.2e %5.2f %7.4f %7.4f %7.4f %9.3f %6.1f %7.4f\n",
                short_name(r.type), r.type.order, (long long)r.elements, r.h, (long long)r.dofs, r.cg.iterations,
                r.l2_error, row.l2_rate, r.h1_error, row.h1_rate, r.projection_l2_error, row.projection_rate, r.gdofs(),
                r.fused_gdofs(), r.unfused_gdofs(), r.apply_seconds * 1e3,
                100 * r.forward_seconds / (r.forward_seconds + r.transpose_seconds), r.cg_gdofs());
  }
  return s;
}

std::string format_csv(const std::vector<Row>& rows) {
  std::string s =
      "element,order,elements,h,dofs,dirichlet_nodes,points_per_element,cg_iterations,cg_relative_residual,l2_error,"
      "l2_rate,h1_error,h1_rate,gdof_per_s,unfused_gdof_per_s,apply_s,unfused_s,forward_s,transpose_s,solve_s,"
      "projection_l2_error,projection_l2_rate,projection_cg_iterations,fused_gdof_per_s,fused_s,cg_gdof_per_s\n";
  for (const Row& row : rows) {
    const CaseResult& r = row.result;
    s += format("%s,%d,%lld,%.6g,%lld,%lld,%d,%d,%.3e,%.6e,%.4f,%.6e,%.4f,%.6g,%.6g,%.6e,%.6e,%.6e,%.6e,%.4g,%.6e,%.4f,%d,"
                "%.6g,%.6e,%.6g\n",
                feinterp::shape_name(r.type.shape), r.type.order, (long long)r.elements, r.h, (long long)r.dofs,
                (long long)r.dirichlet, r.points, r.cg.iterations, r.cg.relative_residual, r.l2_error, row.l2_rate,
                r.h1_error, row.h1_rate, r.gdofs(), r.unfused_gdofs(), r.apply_seconds, r.unfused_seconds,
                r.forward_seconds, r.transpose_seconds, r.solve_seconds, r.projection_l2_error, row.projection_rate,
                r.projection_cg.iterations, r.fused_gdofs(), r.fused_seconds, r.cg_gdofs());
  }
  return s;
}

std::string format_json(const std::vector<Row>& rows, const std::string& device) {
  // "schema": the name and version of this layout (the README's "JSON output"); the version goes up when a
  // key is removed, renamed or changes its meaning or unit.
  std::string s = "{\n  \"schema\": \"feinterp.poisson/1\",\n  \"device\": \"" + device + "\",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CaseResult& r = rows[i].result;
    s += format("    {\"element\": \"%s\", \"order\": %d, \"elements\": %lld, \"h\": %s, \"dofs\": %lld, "
                "\"dirichlet_nodes\": %lld, \"points_per_element\": %d, \"cg_iterations\": %d, "
                "\"cg_relative_residual\": %s, \"cg_converged\": %s, ",
                feinterp::shape_name(r.type.shape), r.type.order, (long long)r.elements, json_number(r.h).c_str(),
                (long long)r.dofs, (long long)r.dirichlet, r.points, r.cg.iterations,
                json_number(r.cg.relative_residual, "%.3e").c_str(), r.cg.converged ? "true" : "false");
    s += format("\"l2_error\": %s, \"l2_rate\": %s, \"h1_error\": %s, \"h1_rate\": %s, ",
                json_number(r.l2_error, "%.6e").c_str(), json_number(rows[i].l2_rate).c_str(),
                json_number(r.h1_error, "%.6e").c_str(), json_number(rows[i].h1_rate).c_str());
    s += format("\"projection_l2_error\": %s, \"projection_l2_rate\": %s, \"projection_cg_iterations\": %d, "
                "\"fused_gdof_per_s\": %s, \"fused_s\": %s, \"cg_gdof_per_s\": %s, ",
                json_number(r.projection_l2_error, "%.6e").c_str(), json_number(rows[i].projection_rate).c_str(),
                r.projection_cg.iterations, json_number(r.fused_gdofs()).c_str(),
                json_number(r.fused_seconds, "%.6e").c_str(), json_number(r.cg_gdofs()).c_str());
    s += format("\"gdof_per_s\": %s, \"unfused_gdof_per_s\": %s, \"apply_s\": %s, \"unfused_s\": %s, "
                "\"forward_s\": %s, \"transpose_s\": %s, \"solve_s\": %s}%s\n",
                json_number(r.gdofs()).c_str(), json_number(r.unfused_gdofs()).c_str(),
                json_number(r.apply_seconds, "%.6e").c_str(), json_number(r.unfused_seconds, "%.6e").c_str(),
                json_number(r.forward_seconds, "%.6e").c_str(), json_number(r.transpose_seconds, "%.6e").c_str(),
                json_number(r.solve_seconds, "%.4g").c_str(), i + 1 < rows.size() ? "," : "");
  }
  return s + "  ]\n}\n";
}

std::vector<std::string> check_rates(const std::vector<Row>& rows, double slack) {
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CaseResult& r = rows[i].result;
    for (const CgResult* cg : {&r.cg, &r.projection_cg})
      if (!cg->converged)
        failures.push_back(format("%s p%d, %lld elements: CG did not converge on the %s (relative residual %.2e after %d "
                                  "iterations)",
                                  short_name(r.type), r.type.order, (long long)r.elements,
                                  cg == &r.cg ? "Dirichlet problem" : "mass projection", cg->relative_residual,
                                  cg->iterations));
    bool finest = true;  // the last row of its type: its rate is the finest pair's
    for (std::size_t j = i + 1; j < rows.size(); ++j) finest &= !(rows[j].result.type == r.type);
    if (!finest || !std::isfinite(rows[i].l2_rate) || !std::isfinite(rows[i].projection_rate)) continue;
    const double expected = r.type.order + 1;
    if (!(rows[i].l2_rate >= expected - slack))
      failures.push_back(format("%s p%d: observed L2 rate %.2f at the finest pair, expected at least %.2f (p + 1 - %.2g)",
                                short_name(r.type), r.type.order, rows[i].l2_rate, expected - slack, slack));
    if (!(rows[i].projection_rate >= expected - slack))
      failures.push_back(format("%s p%d: observed L2 rate of the projection %.2f at the finest pair, expected at least "
                                "%.2f (p + 1 - %.2g)",
                                short_name(r.type), r.type.order, rows[i].projection_rate, expected - slack, slack));
  }
  return failures;
}

}  // namespace poisson
