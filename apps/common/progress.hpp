// SPDX-License-Identifier: BSD-3-Clause
// Progress: the one progress display of every program (feinterp's load, compute and write stages, the
// sweep's hours of configurations). A stage that ends within a second shows nothing, so short runs
// print only their results. A longer one shows, on stderr:
//
//   on a terminal, one line redrawn 4 times a second:   feinterp: writing out.csv  45%  ~12 s left
//   otherwise (logs, CI), a line at 1 s and every 10 s:  feinterp: writing out.csv: 45% after 10 s, ~12 s left
//   and when it ends:                                    feinterp: writing out.csv: done in 21.9 s
//
// The percentage and the time left need a total (units of work: rows, elements, timed launches) and
// update() calls; a stage without them (loading through Gmsh) shows its elapsed time. The time left
// assumes the units done so far are representative: (elapsed / done) x (total - done).
//
// A watcher thread draws, so update() is cheap (a lock and two stores) and may be called per unit of
// work; the caller's thread never waits for the terminal.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace feinterp::app {

class Progress {
 public:
  /// `program`: "feinterp"; `what`: "writing out.csv"; `total`: units of work, 0 when unknown.
  Progress(std::string program, std::string what, double total = 0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// `done` of the total units are done; `detail` (optional) is shown after the percentage.
  void update(double done, const std::string& detail = {});
  /// A finished step worth a line of its own in a log (the sweep's configurations): printed at once when
  /// stderr is not a terminal, shown as the detail on one.
  void step_done(double done, const std::string& detail);
  /// Ends the stage (idempotent) and returns its duration in seconds.
  double finish();

 private:
  std::string status_locked(double elapsed) const;
  void draw_locked(double elapsed, bool final);
  void watch();

  std::string program_, what_;
  double total_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable changed_;
  double done_ = 0, seconds_ = 0;
  std::string detail_;
  bool finished_ = false, shown_ = false;
  std::size_t last_width_ = 0;
  double last_line_ = 0;  // non-terminal: when the last line was printed
  std::thread watcher_;
};

/// Seconds since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace feinterp::app
