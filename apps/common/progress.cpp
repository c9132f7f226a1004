// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/common/progress.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace feinterp::app {

namespace {
constexpr double quiet_seconds = 1.0;       // stages shorter than this show nothing
constexpr double log_line_seconds = 10.0;   // not a terminal: a line this often

std::string duration(double seconds) {
  char buffer[32];
  if (seconds < 60)
    std::snprintf(buffer, sizeof buffer, "%.0f s", std::max(seconds, 0.0));
  else
    std::snprintf(buffer, sizeof buffer, "%d:%02d", int(seconds) / 60, int(seconds) % 60);
  return buffer;
}
}  // namespace

Progress::Progress(std::string program, std::string what, double total)
    : program_(std::move(program)),
      what_(std::move(what)),
      total_(total),
      tty_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {
  watcher_ = std::thread([this] { watch(); });
}

Progress::~Progress() { finish(); }

void Progress::update(double done, const std::string& detail) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = done;
  if (!detail.empty()) detail_ = detail;
}

void Progress::step_done(double done, const std::string& detail) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = done;
  detail_ = detail;
  if (!tty_) {
    std::fprintf(stderr, "%s: %s: %s\n", program_.c_str(), what_.c_str(), status_locked(seconds_since(start_)).c_str());
    shown_ = true;
  }
}

std::string Progress::status_locked(double elapsed) const {
  std::string s;
  if (total_ > 0) {
    const double fraction = std::clamp(done_ / total_, 0.0, 1.0);
    char percent[16];
    std::snprintf(percent, sizeof percent, "%d%%", int(std::floor(fraction * 100)));
    s = percent;
    s += tty_ ? "  " : " after " + duration(elapsed) + ", ";
    s += fraction > 0.001 ? "~" + duration(elapsed * (1 - fraction) / fraction) + " left" : "time left unknown";
  } else {
    s = duration(elapsed) + " so far";
  }
  if (!detail_.empty()) s += (tty_ ? "  " : "; ") + detail_;
  return s;
}

void Progress::draw_locked(double elapsed, bool final) {
  if (final) {
    if (!shown_) return;
    std::string text = program_ + ": " + what_ + ": done in " + duration(elapsed);
    if (elapsed < 60) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.1f s", elapsed);
      text = program_ + ": " + what_ + ": done in " + buffer;
    }
    std::fprintf(stderr, tty_ ? "\r\033[K%s\n" : "%s\n", text.c_str());
    std::fflush(stderr);
    return;
  }
  shown_ = true;
  if (tty_) {
    std::string text = program_ + ": " + what_ + "  " + status_locked(elapsed);
    if (text.size() > 150) text.resize(150);
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
  } else {
    std::fprintf(stderr, "%s: %s: %s\n", program_.c_str(), what_.c_str(), status_locked(elapsed).c_str());
    last_line_ = elapsed;
  }
  std::fflush(stderr);
}

void Progress::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (changed_.wait_for(lock, std::chrono::duration<double>(quiet_seconds), [this] { return finished_; })) return;
  draw_locked(seconds_since(start_), false);
  const auto period = std::chrono::milliseconds(tty_ ? 250 : 1000);
  while (!changed_.wait_for(lock, period, [this] { return finished_; })) {
    const double elapsed = seconds_since(start_);
    if (tty_ || elapsed - last_line_ >= log_line_seconds) draw_locked(elapsed, false);
  }
}

double Progress::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return seconds_;
    finished_ = true;
    seconds_ = seconds_since(start_);
  }
  changed_.notify_all();
  watcher_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  draw_locked(seconds_, true);
  return seconds_;
}

}  // namespace feinterp::app
