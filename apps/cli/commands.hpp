// SPDX-License-Identifier: BSD-3-Clause
// The three subcommands of feinterp. Each registers its options on a CLI11 subcommand and runs from
// the parsed options; results go to stdout (a table, or one JSON object with --json), progress and
// warnings to stderr. Errors are exceptions, turned into one "feinterp: error: ..." line by main.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace feinterp::app {

struct DemoOptions {
  std::vector<std::string> shapes{"line", "triangle", "quadrilateral", "tetrahedron", "hexahedron"};
  std::vector<int> orders{1, 2, 3};
  int components = 1;
  long long size = 5000;  // 15 meshes in ~6 s on 2 busy cores, ~4 s of it Gmsh (20000: 19 s, 10000: 7.5 s)
  int quadrature = -1;  ///< -1: degree 2p
  std::string device = "auto";
  int threads = 0;  ///< cpu: 0 for the default (FEINTERP_NUM_THREADS, OMP_NUM_THREADS, the CPUs available)
  unsigned seed = 1;
  int repeats = 3;
  double tolerance = 1e-9;
  bool json = false;
};
void add_demo_options(CLI::App& command, DemoOptions& options);
int run_demo(const DemoOptions& options);

struct InterpolateOptions {
  std::string mesh;
  std::string field;
  std::vector<std::string> expressions;
  int quadrature = -1;  ///< -1: degree 2p
  std::string points;   ///< "" (quadrature) or "nodes"
  bool values = false, reference_gradients = false, physical_gradients = false;
  std::string device = "auto";
  int threads = 0;  ///< cpu: 0 for the default (FEINTERP_NUM_THREADS, OMP_NUM_THREADS, the CPUs available)
  std::string output, csv;
  int timing = 0;  ///< 0: each quantity computed once; R: a warm-up call, then the fastest of R timed ones
  std::string vtu_compression;  ///< .vtu outputs: zlib or none; "": zlib where feinterp::io has it
  long long chunk_elements = 0;  ///< elements computed and written at a time; 0: ~64 MB of results
  bool all_dimensions = false;    ///< also the lower-dimensional blocks (boundary faces, curves)
  bool skip_unsupported = false;  ///< drop elements of unsupported types instead of failing
  std::string renumber = "none";  ///< none, rcm or hilbert: compute on a renumbered mesh, report in the file's order
  bool json = false;
};
void add_interpolate_options(CLI::App& command, InterpolateOptions& options);
int run_interpolate(const InterpolateOptions& options);

struct InfoOptions {
  std::string mesh;
  bool json = false;
};
void add_info_options(CLI::App& command, InfoOptions& options);
int run_info(const InfoOptions& options);

}  // namespace feinterp::app
