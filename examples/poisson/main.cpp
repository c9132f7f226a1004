// SPDX-License-Identifier: BSD-3-Clause
// poisson: the worked FEM operator of feinterp (issue 13), built against the installed package.
//
// Solves -div(kappa grad u) = f in the unit ball, kappa = 1 + x^2, u = the manufactured solution
// (manufactured.hpp) on its boundary (the nodes of the mesh's physical group "boundary"), with the
// matrix-free operator A u = sum_e sum_q grad(phi) . (w_q |det J| kappa) grad(u) over every block of the
// mesh, its Dirichlet rows and columns the identity's (poisson_operator.hpp: MeshOperator,
// ConstrainedOperator) inside unpreconditioned conjugate gradients (cg.hpp); and projects u onto the
// elements (CG on the mass operator). On tetrahedra and hexahedra of order p = 1, 2, 3 from Gmsh, whose
// boundary nodes lie on the sphere (geometry of order p). Prints the convergence table (L2 rates ~ p + 1,
// H1 ~ p) with the operator's throughput, and fails (exit 1) when an L2 rate at a type's finest pair is
// below p + 1 - 0.3 or a CG solve does not converge. Everything runs on the plan's executor: the GPU when one is
// usable (vector_ops.cu), else the CPU.
//
//   poisson                 CPU-sized: 3 levels per type and order, well under a minute on 2 cores
//   poisson --full          the device size: up to 24k tetrahedra / 96k hexahedra (2.6M DoFs)
//   poisson --help          every option
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/mesh/atomic_file.hpp>

#include "report.hpp"
#include "solve.hpp"

using namespace feinterp;

namespace {

const char* const usage =
    "usage: poisson [options]\n"
    "  --executor cpu|cuda|auto    where the plan and the vectors live (default auto: the GPU if usable;\n"
    "                              cuda:N: device N)\n"
    "  --element tet,hex           element shapes (default both)\n"
    "  --order 1,2,3               orders (default all three)\n"
    "  --levels N                  mesh sizes per shape and order (default 3)\n"
    "  --coarsest E                target elements of the coarsest mesh (default: 1000 for p = 1, 250 for tets\n"
    "                              p = 2, 3, 150 for hexes p = 2, 3; --full 1500 tets, 6000 hexes)\n"
    "  --factor F                  element-count ratio between levels (default 4; 2.5 for hexes p = 3)\n"
    "  --targets E1,E2,...         explicit target element counts instead of the three above\n"
    "  --full                      the device size (meshes up to 24k tetrahedra, 96k hexahedra: the largest\n"
    "                              generate_mesh makes with boundary nodes on the sphere)\n"
    "  --summation atomic|deterministic   how a GPU plan sums into the nodes (default atomic)\n"
    "  --tolerance T               CG relative residual (default 1e-10)\n"
    "  --timing-seconds S          minimum time measuring each of apply, forward, transpose (default 0.05; --full 0.5)\n"
    "  --rate-slack S              fail when an L2 rate at the finest pair is below p + 1 - S (default 0.3)\n"
    "  --no-check                  report the rates without failing on them\n"
    "  --output FILE.csv|FILE.json the table, written whole or not at all\n";

[[noreturn]] void fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "poisson: error: %s\n", message.c_str());
  std::exit(code);
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (std::size_t comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1)
    items.push_back(list.substr(start, comma - start));
  items.push_back(list.substr(start));
  return items;
}

long long parse_integer(const std::string& option, const std::string& text, long long min, long long max) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || value < min || value > max)
    fail(option + " '" + text + "': expected an integer from " + std::to_string(min) + " to " + std::to_string(max));
  return value;
}

double parse_number(const std::string& option, const std::string& text, double min) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !(value >= min) || !(value < 1e300))
    fail(option + " '" + text + "': expected a number of at least " + std::to_string(min));
  return value;
}

struct Options {
  Executor executor = Executor::automatic();
  std::vector<Shape> shapes{Shape::tetrahedron, Shape::hexahedron};
  std::vector<int> orders{1, 2, 3};
  bool full = false;
  int levels = 0;            // 0: the size's default
  long long coarsest = 0;    // 0: the size's default, per shape
  double factor = 0;         // 0: the size's default
  std::vector<long long> targets;
  Summation summation = Summation::atomic;
  double tolerance = 1e-10, timing_seconds = 0, rate_slack = 0.3;
  bool check = true;
  std::string output;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(arg + " needs a value (see --help)");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (arg == "--executor") {
      try {
        o.executor = parse_executor(value());
      } catch (const std::exception& e) {
        fail(e.what());
      }
    } else if (arg == "--element") {
      o.shapes.clear();
      for (const std::string& name : split(value())) {
        Shape shape{};
        try {
          shape = parse_shape(name);
        } catch (const std::exception& e) {
          fail(e.what());
        }
        if (shape != Shape::tetrahedron && shape != Shape::hexahedron)
          fail("--element '" + name + "': expected tet or hex (the example solves in the 3D ball)");
        o.shapes.push_back(shape);
      }
    } else if (arg == "--order") {
      o.orders.clear();
      for (const std::string& p : split(value())) o.orders.push_back(int(parse_integer("--order", p, min_order, max_order)));
    } else if (arg == "--levels") {
      o.levels = int(parse_integer(arg, value(), 1, 12));
    } else if (arg == "--coarsest") {
      o.coarsest = parse_integer(arg, value(), 1, 100000000);
    } else if (arg == "--factor") {
      o.factor = parse_number(arg, value(), 1.1);
    } else if (arg == "--targets") {
      o.targets.clear();
      for (const std::string& t : split(value())) o.targets.push_back(parse_integer("--targets", t, 1, 100000000));
    } else if (arg == "--full") {
      o.full = true;
    } else if (arg == "--summation") {
      const std::string s = value();
      if (s == "atomic") o.summation = Summation::atomic;
      else if (s == "deterministic") o.summation = Summation::deterministic;
      else fail("--summation '" + s + "': expected atomic or deterministic");
    } else if (arg == "--tolerance") {
      o.tolerance = parse_number(arg, value(), 1e-16);
    } else if (arg == "--timing-seconds") {
      o.timing_seconds = parse_number(arg, value(), 0);
    } else if (arg == "--rate-slack") {
      o.rate_slack = parse_number(arg, value(), 0);
    } else if (arg == "--no-check") {
      o.check = false;
    } else if (arg == "--output") {
      o.output = value();
      const auto ends_with = [&](const char* suffix) {
        const std::string s = suffix;
        return o.output.size() > s.size() && o.output.compare(o.output.size() - s.size(), s.size(), s) == 0;
      };
      if (!ends_with(".csv") && !ends_with(".json")) fail("--output '" + o.output + "': expected a name ending in .csv or .json");
    } else {
      fail("unknown option '" + arg + "' (see --help)");
    }
  }
  return o;
}

// The target element counts of one shape and order: explicit, or coarsest * factor^k for k < levels.
// Rates between two independent unstructured meshes carry a few percent of noise in the error constant,
// so the levels are 4x apart in element count (h ratio 1.59). The CPU size keeps each solve to a few
// seconds on 2 cores (the high orders, hexahedra most, start coarser); the device size goes up to the
// largest ball that generate_mesh makes unrefined (25k coarse tetrahedra: 24k tetrahedra, 96k
// hexahedra), beyond which the boundary is the coarse polyhedron and the rates are limited by geometry.
std::vector<offset_t> targets_for(const Options& o, ElementType type) {
  if (!o.targets.empty()) return {o.targets.begin(), o.targets.end()};
  const bool hex = type.shape == Shape::hexahedron;
  // CPU size, [tet, hex][p - 1]: hexahedra p = 3 step by 2.5 (4x would take 20 s more), and start at
  // 150: a coarser ball of cubic hexahedra has tangled elements.
  static const double cpu_coarsest[2][3] = {{1000, 250, 250}, {1000, 150, 150}};
  static const double cpu_factor[2][3] = {{4, 4, 4}, {4, 4, 2.5}};
  const int levels = o.levels ? o.levels : 3;
  const double factor = o.factor ? o.factor : o.full ? 4 : cpu_factor[hex][type.order - 1];
  const double coarsest = o.coarsest ? double(o.coarsest) : o.full ? (hex ? 6000 : 1500) : cpu_coarsest[hex][type.order - 1];
  std::vector<offset_t> targets;
  double target = coarsest;
  for (int k = 0; k < levels; ++k, target *= factor) targets.push_back(offset_t(target + 0.5));
  return targets;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  try {
    const Executor executor = resolve_executor(options.executor);
    const std::string device = describe_executor(executor);
    std::printf("poisson: -div((1 + x^2) grad u) = f in the unit ball, u = sin(2x) e^y cos(1.5z), on %s\n",
                device.c_str());
    std::fflush(stdout);

    poisson::CaseOptions case_options;
    case_options.executor = executor;
    case_options.summation = options.summation;
    case_options.cg.relative_tolerance = options.tolerance;
    case_options.timing_seconds = options.timing_seconds > 0 ? options.timing_seconds : options.full ? 0.5 : 0.05;
    std::vector<poisson::CaseResult> results;
    for (Shape shape : options.shapes)
      for (int p : options.orders)
        for (offset_t target : targets_for(options, ElementType{shape, p})) {
          case_options.type = ElementType{shape, p};
          case_options.target_elements = target;
          results.push_back(poisson::solve_case(case_options));
          const std::vector<poisson::Row> rows = poisson::with_rates(results);
          const std::string table = poisson::format_table(rows);
          // The header once, then each row as it is done (a long run shows its progress).
          std::fputs(results.size() == 1 ? table.c_str() : table.substr(table.rfind('\n', table.size() - 2) + 1).c_str(),
                     stdout);
          std::fflush(stdout);
        }

    const std::vector<poisson::Row> rows = poisson::with_rates(results);
    if (!options.output.empty()) {
      const bool json = options.output.size() >= 5 && options.output.compare(options.output.size() - 5, 5, ".json") == 0;
      write_file_atomically(options.output, json ? poisson::format_json(rows, device) : poisson::format_csv(rows));
      std::printf("poisson: wrote %s\n", options.output.c_str());
    }
    const std::vector<std::string> failures = poisson::check_rates(rows, options.rate_slack);
    for (const std::string& f : failures) std::fprintf(stderr, "poisson: %s: %s\n", options.check ? "error" : "warning", f.c_str());
    if (options.check && !failures.empty()) return 1;
    std::printf("poisson: %s\n", failures.empty() ? "all rates as expected" : "rates not checked (--no-check)");
  } catch (const std::exception& e) {
    fail(e.what(), 1);
  }
  return 0;
}
