// SPDX-License-Identifier: BSD-3-Clause
// What every program says to --version: which feinterp it is (version, git revision of its sources)
// and how it was built (CUDA and its architectures, mesh, shared or static, build type, compiler), so
// that a result or a bug report can be traced to a build. The facts come from CMake
// (cmake/version.cmake); this is the one place that reads them.
#pragma once

#include <string>

namespace feinterp::app {

const char* version();        ///< "0.1.0"
const char* git_revision();   ///< the abbreviated commit hash, "…-dirty", or "unknown" outside a git checkout
const char* build_options();  ///< "cuda=ON (CUDA 13.0.88, architectures 80-real,90, static runtime), mesh=ON, ..."

/// "PROGRAM 0.1.0 (git <revision>)\nbuild: ...": the text --version prints.
std::string version_text(const std::string& program);

/// For the programs that parse their arguments by hand: prints version_text and returns true when the
/// only argument is --version.
bool asked_for_version(int argc, char** argv, const std::string& program);

}  // namespace feinterp::app
