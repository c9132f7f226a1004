// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/common/build_info.hpp>

#include <cstdio>
#include <cstring>

#include <feinterp_revision.h>  // generated at build time (cmake/write_revision.cmake)

#ifndef FEINTERP_VERSION
#error "FEINTERP_VERSION is defined by apps/CMakeLists.txt"
#endif

namespace feinterp::app {

const char* version() { return FEINTERP_VERSION; }
const char* git_revision() { return FEINTERP_GIT_REVISION; }
const char* build_options() { return FEINTERP_BUILD_OPTIONS; }

std::string version_text(const std::string& program) {
  return program + " " + version() + " (git " + git_revision() + ")\nbuild: " + build_options();
}

bool asked_for_version(int argc, char** argv, const std::string& program) {
  if (argc != 2 || std::strcmp(argv[1], "--version") != 0) return false;
  std::printf("%s\n", version_text(program).c_str());
  return true;
}

}  // namespace feinterp::app
