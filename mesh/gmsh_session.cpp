// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/gmsh_session.hpp>

#include <gmsh.h>

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <mutex>
#include <new>

#include <feinterp/mesh/error.hpp>

namespace feinterp {

namespace {

// A pointer, so that a forked child can replace it: the copy it inherits is locked by a thread that
// does not exist in the child (detail::fork_for_gmsh).
std::recursive_mutex*& gmsh_mutex_pointer() {
  static auto* mutex = new std::recursive_mutex;
  return mutex;
}
std::recursive_mutex& gmsh_mutex() { return *gmsh_mutex_pointer(); }

// Guarded by gmsh_mutex().
bool gmsh_initialized = false;
int session_depth = 0;

struct SavedVariable {
  const char* name;
  bool present = false;
  std::string value;
  explicit SavedVariable(const char* n) : name(n) {
    if (const char* v = std::getenv(n)) {
      present = true;
      value = v;
    }
  }
  void restore() const {
    if (present)
      setenv(name, value.c_str(), 1);
    else
      unsetenv(name);
  }
};

void initialize_gmsh() {
  const SavedVariable path("PATH"), python_path("PYTHONPATH");
  // readConfigFiles = false: a user's ~/.gmshrc or gmsh-options must not change how we read files.
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::option::setNumber("General.Verbosity", 2);  // errors and warnings reach the logger only
  path.restore();
  python_path.restore();
  gmsh_initialized = true;
}

}  // namespace

GmshSession::GmshSession() {
  gmsh_mutex().lock();
  if (session_depth++ > 0) return;
  outermost_ = true;
  try {
    cpp_locale_ = std::locale();
    const char* c = std::setlocale(LC_ALL, nullptr);
    c_locale_ = c ? c : "C";
    if (!gmsh_initialized) initialize_gmsh();
    std::setlocale(LC_NUMERIC, "C");
    gmsh::logger::start();
  } catch (...) {
    --session_depth;
    gmsh_mutex().unlock();
    detail::rethrow_gmsh_error("initialising Gmsh");
  }
}

GmshSession::~GmshSession() {
  if (outermost_) {
    try {
      gmsh::logger::stop();
      gmsh::clear();
    } catch (...) {
      // Nothing sensible to do in a destructor; the next session's clear() tries again.
    }
    std::locale::global(cpp_locale_);  // also sets the C locale when cpp_locale_ has a name...
    std::setlocale(LC_ALL, c_locale_.c_str());  // ...so the C locale is restored second
  }
  --session_depth;
  gmsh_mutex().unlock();
}

namespace {
std::vector<std::string> log_lines(const char* prefix) {
  std::vector<std::string> log, out;
  try {
    gmsh::logger::get(log);
  } catch (...) {
    return out;
  }
  const std::string p(prefix);
  for (const std::string& line : log)
    if (line.compare(0, p.size(), p) == 0) out.push_back(line);
  return out;
}
}  // namespace

std::vector<std::string> GmshSession::errors() const { return log_lines("Error"); }
std::vector<std::string> GmshSession::warnings() const { return log_lines("Warning"); }

namespace detail {

pid_t fork_for_gmsh(const std::function<void()>& child) {
  GmshSession session;  // Gmsh initialised, no other thread inside it, numeric locale "C"
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only this thread exists here. The mutex it inherited is held on behalf of the parent's thread
    // (a recursive mutex records its owner's thread id, which differs in the child), so the child gets
    // a fresh one (the old one is deliberately leaked) and no open session: its own GmshSession then
    // works as usual. `session` is never destroyed here: child() ends with _exit.
    gmsh_mutex_pointer() = new std::recursive_mutex;
    session_depth = 0;
    child();
    ::_exit(127);
  }
  return pid;
}

void rethrow_gmsh_error(const std::string& context) {
  try {
    throw;
  } catch (const MeshError&) {
    throw;
  } catch (const std::bad_alloc&) {  // out of memory is not a Gmsh error: the caller decides
    throw;
  } catch (const std::string& message) {  // Gmsh 4.8
    throw MeshError(context + ": Gmsh: " + message);
  } catch (const char* message) {
    throw MeshError(context + ": Gmsh: " + std::string(message ? message : ""));
  } catch (const std::exception& e) {  // Gmsh >= 4.9 throws std::runtime_error
    throw MeshError(context + ": Gmsh: " + e.what());
  } catch (...) {
    throw MeshError(context + ": Gmsh failed with an unknown exception");
  }
}
}  // namespace detail

}  // namespace feinterp
