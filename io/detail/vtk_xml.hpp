// SPDX-License-Identifier: BSD-3-Clause
// The text of a VTK XML attribute (an array's name): what the .vtu and .pvtu writers share.
#pragma once

#include <string>

namespace feinterp::io {

/// `text` with &, <, > and " as entities, and line breaks and tabs as spaces (VTK reads names on one line).
std::string xml_escape(const std::string& text);

}  // namespace feinterp::io
