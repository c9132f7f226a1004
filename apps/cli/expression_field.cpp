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

// An expression as a message quotes it: whole up to 80 characters, else its start and its length, so that
// an error stays one readable line whatever was passed.
std::string quoted(const std::string& expression) {
  constexpr std::size_t shown = 80;
  if (expression.size() <= shown) return "'" + expression + "'";
  return "'" + expression.substr(0, shown) + "...' (" + std::to_string(expression.size()) + " characters)";
}

// muparser's own messages ("Unexpected token "foo" found at position 0.") do not say that the
// token is an undefined variable, which is by far the most common cause: say it.
[[noreturn]] void rethrow(const mu::Parser::exception_type& e, const std::string& expression) {
  if ((e.GetCode() == mu::ecUNASSIGNABLE_TOKEN || e.GetCode() == mu::ecUNEXPECTED_VAR) && is_identifier(e.GetToken()))
    throw std::invalid_argument("unknown variable '" + e.GetToken() + "' in expression " + quoted(expression) +
                                " (the variables are x, y and z)");
  std::string message = e.GetMsg();
  if (message.size() > 200) message = message.substr(0, 200) + "...";
  throw std::invalid_argument("bad expression " + quoted(expression) + ": " + message);
}

// muparser's assignment (x = 1) would change a coordinate for the components evaluated after it at the
// same node: an expression is a value of x, y and z, so '=' is refused (==, <=, >= and != are not '=').
void refuse_assignment(const std::string& expression) {
  for (std::size_t i = 0; i < expression.size(); ++i) {
    if (expression[i] != '=') continue;
    const char before = i > 0 ? expression[i - 1] : ' ', after = i + 1 < expression.size() ? expression[i + 1] : ' ';
    if (after == '=') {
      ++i;  // ==
      continue;
    }
    if (before == '<' || before == '>' || before == '!') continue;
    throw std::invalid_argument("assignment in expression " + quoted(expression) +
                                ": expected a value of x, y and z (== compares)");
  }
}

}  // namespace

NodalField expression_field(const std::vector<std::string>& expressions, const std::vector<double>& coordinates,
                            const std::string& name) {
  const std::size_t C = expressions.size(), nodes = coordinates.size() / 3;
  NodalField field{name, int(C), std::vector<double>(nodes * C)};
  double x = 0, y = 0, z = 0;
  std::vector<std::unique_ptr<mu::Parser>> parsers;
  for (const std::string& expression : expressions) {
    refuse_assignment(expression);
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
        throw std::invalid_argument("expression " + quoted(expressions[c]) + " is " + std::to_string(value) + " at " +
                                    where + ": expected a finite value at every node");
      }
      field.values[node * C + c] = value;
    }
  }
  return field;
}

}  // namespace feinterp::app
