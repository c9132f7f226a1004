// SPDX-License-Identifier: BSD-3-Clause
// GmshSession: the one way into the Gmsh SDK. Gmsh keeps all its state (models, views, options,
// the "current model") in process-wide globals and none of its calls is thread-safe, so every use
// of Gmsh in feinterp — and in feinterp's tests — holds one GmshSession for its whole duration:
//
//   * one process-wide mutex (recursive: a session may be opened inside another on the same thread)
//     serialises all Gmsh calls;
//   * Gmsh is initialised once, on first use, silently (General.Terminal = 0, no argv forwarded,
//     no user configuration files read);
//   * while the outermost session is open, LC_NUMERIC is "C" (Gmsh's ASCII readers and writers go
//     through strtod/printf, which would read "1,5" under a comma-decimal locale); on closing, the
//     caller's C and C++ locales are restored;
//   * on closing, the outermost session calls gmsh::clear(): no model or view outlives it.
//
// Side effects of gmsh::initialize (Gmsh 4.8.4) and what is done about them:
//   * it sets the process locale: restored, as above;
//   * it appends Gmsh's directory to PATH and PYTHONPATH: both are restored to their previous value
//     (or unset again) right after initialisation — setenv is itself not thread-safe, so the first
//     session should be opened before other threads read the environment;
//   * it raises the soft stack limit (RLIMIT_STACK, to 16 MiB when lower): left raised, because
//     Gmsh's meshers recurse deeply on the calling thread and rely on it; it only allows growth.
// Gmsh options set by one operation persist in Gmsh's globals, so every operation sets all the
// options it relies on itself.
#pragma once

#include <sys/types.h>

#include <clocale>
#include <functional>
#include <locale>
#include <string>
#include <vector>

namespace feinterp {

class GmshSession {
 public:
  GmshSession();
  ~GmshSession();
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

  /// Error messages Gmsh logged since this session opened (Gmsh 4.8 reports some reader errors only
  /// through its log, not by throwing).
  std::vector<std::string> errors() const;
  /// Warning messages Gmsh logged since this session opened.
  std::vector<std::string> warnings() const;

 private:
  bool outermost_ = false;
  std::string c_locale_;
  std::locale cpp_locale_;
};

/// Runs f() and turns whatever Gmsh throws (std::string in 4.8.4, std::runtime_error in newer
/// versions, anything else) into a MeshError "<context>: Gmsh: <message>".
template <class F>
void gmsh_call(const std::string& context, F&& f);

namespace detail {
[[noreturn]] void rethrow_gmsh_error(const std::string& context);

/// fork() for a child that uses Gmsh (the sandboxed reader, mesh/load.cpp): Gmsh's mutex is held
/// across the fork, so that no other thread is inside Gmsh when the child's copy of its state is made,
/// and Gmsh is initialised first, so that the child inherits it ready. Runs child() in the child, which
/// must end with _exit; returns the child's pid (or -1) in the caller. In the child, a GmshSession
/// works as in any process.
pid_t fork_for_gmsh(const std::function<void()>& child);
}

template <class F>
void gmsh_call(const std::string& context, F&& f) {
  try {
    f();
  } catch (...) {
    detail::rethrow_gmsh_error(context);
  }
}

}  // namespace feinterp
