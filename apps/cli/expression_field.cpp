// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/expression_field.hpp>

#include <muParser.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace feinterp::app {

std::vector<std::string> split_expressions(const std::vector<std::string>& arguments) {
  std::vector<std::string> expressions;
  for (const std::string& argument : arguments) {
    int depth = 0;
    std::string current;
    for (const char c : argument) {
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == ',' && depth == 0) {
        expressions.push_back(current);
        current.clear();
      } else {
        current += c;
      }
    }
    expressions.push_back(current);
  }
  for (const std::string& e : expressions) {
    bool blank = true;
    for (const char c : e) blank = blank && std::isspace(static_cast<unsigned char>(c));
    if (blank) throw std::invalid_argument("empty expression in --expr (expected e.g. --expr 'sin(x)*y')");
  }
  return expressions;
}

namespace {

bool is_identifier(const std::string& token) {
  return !token.empty() && (std::isalpha(static_cast<unsigned char>(token[0])) || token[0] == '_');
}

// muparser's own messages ("Unexpected token "foo" found at position 0.") do not say that the
// token is an undefined variable, which is by far the most common cause: say it.
[[noreturn]] void rethrow(const mu::Parser::exception_type& e, const std::string& expression) {
  if ((e.GetCode() == mu::ecUNASSIGNABLE_TOKEN || e.GetCode() == mu::ecUNEXPECTED_VAR) && is_identifier(e.GetToken()))
    throw std::invalid_argument("unknown variable '" + e.GetToken() + "' in expression '" + expression +
                                "' (the variables are x, y and z)");
  throw std::invalid_argument("bad expression '" + expression + "': " + e.GetMsg());
}

}  // namespace

NodalField expression_field(const std::vector<std::string>& expressions, const std::vector<double>& coordinates,
                            const std::string& name) {
  const std::size_t C = expressions.size(), nodes = coordinates.size() / 3;
  NodalField field{name, int(C), std::vector<double>(nodes * C)};
  double x = 0, y = 0, z = 0;
  std::vector<std::unique_ptr<mu::Parser>> parsers;
  for (const std::string& expression : expressions) {
    auto parser = std::make_unique<mu::Parser>();
    try {
      parser->DefineVar("x", &x);
      parser->DefineVar("y", &y);
      parser->DefineVar("z", &z);
      parser->SetExpr(expression);
      parser->Eval();  // parses now, so that syntax errors surface before the loop over nodes
    } catch (const mu::Parser::exception_type& e) {
      rethrow(e, expression);
    }
    parsers.push_back(std::move(parser));
  }
  for (std::size_t node = 0; node < nodes; ++node) {
    x = coordinates[3 * node];
    y = coordinates[3 * node + 1];
    z = coordinates[3 * node + 2];
    for (std::size_t c = 0; c < C; ++c) {
      double value = 0;
      try {
        value = parsers[c]->Eval();
      } catch (const mu::Parser::exception_type& e) {
        rethrow(e, expressions[c]);
      }
      if (!std::isfinite(value)) {
        char where[128];
        std::snprintf(where, sizeof where, "the node at (x, y, z) = (%g, %g, %g)", x, y, z);
        throw std::invalid_argument("expression '" + expressions[c] + "' is " + std::to_string(value) + " at " +
                                    where + ": expected a finite value at every node");
      }
      field.values[node * C + c] = value;
    }
  }
  return field;
}

}  // namespace feinterp::app
