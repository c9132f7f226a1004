// SPDX-License-Identifier: BSD-3-Clause
// The checked-in tables as text, compiled in: embed_tables.cmake generates the definition of
// embedded_table_texts() from tables/*.txt (beside it) at build time, so the text files stay the one
// source of truth. Internal to the CUDA backend: use registry.hpp's embedded_tuning_tables().
#pragma once

#include <vector>

namespace feinterp::tuning::detail {

struct EmbeddedTableText {
  const char* file;  ///< the file name under tuning/tables/, e.g. "nvidia-h100-80gb-hbm3.txt"
  const char* text;  ///< its whole content
};

/// In file-name order; empty when no table is checked in.
const std::vector<EmbeddedTableText>& embedded_table_texts();

}  // namespace feinterp::tuning::detail
