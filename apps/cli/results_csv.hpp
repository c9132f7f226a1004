// SPDX-License-Identifier: BSD-3-Clause
// --csv FILE: the results table (results_table.hpp) as CSV, a header line then one line per row.
// Rows are formatted with std::to_chars (the shortest text that reads back to the same double) into a
// small buffer and streamed to the file's temporary (AtomicFile), so memory does not grow with the mesh
// and the file is still written whole or not at all.
#pragma once

#include <string>

#include <feinterp/apps/common/progress.hpp>
#include <feinterp/apps/cli/results_table.hpp>

namespace feinterp::app {

void write_results_csv(const std::string& path, const ResultsTable& table, Progress* progress = nullptr);

}  // namespace feinterp::app
