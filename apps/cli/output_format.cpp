// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/output_format.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

namespace feinterp::app {

OutputFormat output_format(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (extension == ".msh") return OutputFormat::msh;
  if (extension == ".vtu") return OutputFormat::vtu;
  if (extension == ".npy") return OutputFormat::npy;
  if (extension == ".npz") return OutputFormat::npz;
  if (extension == ".csv") return OutputFormat::csv;
  throw std::invalid_argument("--output '" + path + "': " +
                              (extension.empty() ? std::string("no extension") : "unknown extension '" + extension + "'") +
                              "; expected .msh (Gmsh), .vtu (ParaView, VTK), .npy or .npz (NumPy) or .csv (nothing was written)");
}

}  // namespace feinterp::app
