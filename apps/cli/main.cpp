// SPDX-License-Identifier: BSD-3-Clause
// feinterp: interpolate finite-element fields at quadrature points, on the GPU or the CPU.
//
//   feinterp [demo]            polynomial fields on generated meshes of the 15 element types, checked
//   feinterp interpolate M.msh a file's field or a formula, values and gradients, to MSH/CSV
//   feinterp info M.msh        what a mesh file holds
//
// Every failure ends here as one line on stderr, "feinterp: error: ...", and exit status 1 (2 for a
// command line CLI11 cannot parse); nothing escapes main.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>

#include <feinterp/core/printable_text.hpp>

#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/cli/commands.hpp>

namespace {

// Messages quote names and paths from the user's files, which may hold any byte: the library escapes
// them where it builds a message, and this last step escapes whatever else reached here (an option's
// argument, a path in an output error), so that stderr gets one line of printable text.
void print_error(std::string message) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  std::fprintf(stderr, "feinterp: error: %s\n", feinterp::printable_text(message).c_str());
}

int run(int argc, char** argv) {
  using namespace feinterp::app;
  CLI::App app{"feinterp: values and gradients of finite-element fields at quadrature points, on the GPU or the CPU.\n"
               "Without a command, runs the demo."};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", version_text("feinterp"));
  DemoOptions demo;
  InterpolateOptions interpolate;
  InfoOptions info;
  CLI::App* demo_command = app.add_subcommand("demo", "interpolate polynomial fields on generated meshes of the 15 "
                                                      "element types and check them against the exact values");
  add_demo_options(*demo_command, demo);
  CLI::App* interpolate_command =
      app.add_subcommand("interpolate", "interpolate a mesh file's field, or a formula in x, y, z, at quadrature points");
  add_interpolate_options(*interpolate_command, interpolate);
  CLI::App* info_command = app.add_subcommand("info", "list the element blocks, nodes, physical groups and fields of a mesh file");
  add_info_options(*info_command, info);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    print_error(std::string(e.what()) + " (see feinterp --help)");
    return 2;
  }
  if (*interpolate_command) return run_interpolate(interpolate);
  if (*info_command) return run_info(info);
  return run_demo(demo);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
  } catch (const std::exception& e) {
    print_error(e.what());
  } catch (...) {
    print_error("unexpected failure");
  }
  return 1;
}
