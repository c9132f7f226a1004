// load_msh: an MSH file into a Mesh, through the Gmsh SDK, hardened against Gmsh 4.8.4's hazards:
//
//  1. gmsh::open on a nonexistent file is silent (empty model), and a file that is not a mesh is run
//     as a .geo script (`System "cmd";` runs a command, `Exit;` ends the process). So the file is
//     checked first (exists, regular, non-empty, MSH 2.x/4.x $MeshFormat header: detail/msh_header.hpp).
//  2. Gmsh runs "<file>.opt" if it exists beside the file it opens. Decision: such option files are
//     IGNORED, never read: Gmsh is given a symbolic link "input.msh" in a fresh private (0700)
//     directory, so the side file it looks for is "<private dir>/input.msh.opt", which cannot exist.
//     A warning through LoadOptions::warn says that "<file>.opt" was ignored. The link also fixes the
//     extension Gmsh dispatches on, so a mesh named "x.dat" is read as MSH too.
//  3. After an exception inside gmsh::open, an internal lock stays taken and every later open silently
//     does nothing until finalize + initialize. gmsh::merge has no such lock: the file is merged into a
//     fresh, empty model.
//  4. Errors: Gmsh 4.8.4 throws std::string (newer versions std::runtime_error) and reports some reader
//     errors only in its log; both become MeshError, and the session's gmsh::clear leaves no model.
//  5. Then what Gmsh returned is checked: no elements, unknown nodes, non-finite coordinates,
//     unsupported or mixed element types (detail/extract.cpp).
// The file could change between the header check and Gmsh's read; a caller that loads files from an
// untrusted writer should copy them somewhere private first.
#include <gmsh.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>

#include "detail/extract.hpp"
#include "detail/msh_header.hpp"
#include "error.hpp"
#include "gmsh_session.hpp"
#include "mesh.hpp"

namespace feinterp {

namespace {

// A private directory holding a link to the input file; removed with everything in it.
class PrivateLink {
 public:
  PrivateLink(const std::string& target, const std::string& context) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/feinterp-load-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!::mkdtemp(buffer.data()))
      throw MeshError(context + ": cannot create a private temporary directory in " + pattern + ": " +
                      std::strerror(errno));
    dir_ = buffer.data();
    link_ = dir_ + "/input.msh";
    char resolved[PATH_MAX];
    if (!::realpath(target.c_str(), resolved) || ::symlink(resolved, link_.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      ::rmdir(dir_.c_str());
      throw MeshError(context + ": cannot link the file into " + dir_ + ": " + why);
    }
  }
  ~PrivateLink() {
    ::unlink(link_.c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& path() const { return link_; }

 private:
  std::string dir_, link_;
};

}  // namespace

Mesh load_msh(const std::string& path, const LoadOptions& options) {
  const std::string context = "cannot load mesh '" + path + "'";
  detail::read_msh_header(path);  // throws unless the file exists and starts like an MSH file

  struct stat st {};
  if (options.warn && ::stat((path + ".opt").c_str(), &st) == 0)
    options.warn("mesh '" + path + "': option file '" + path + ".opt' ignored (feinterp never lets Gmsh run it)");

  const PrivateLink link(path, context);
  GmshSession session;
  Mesh mesh;
  gmsh_call(context, [&] {
    gmsh::model::add("feinterp-load");
    gmsh::merge(link.path());
    const std::vector<std::string> errors = session.errors();
    if (!errors.empty()) {
      std::string all;
      for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + e;
      throw MeshError(context + ": Gmsh could not read the file: " + all);
    }
    mesh = detail::extract_current_model(options, context);
  });
  return mesh;
}

}  // namespace feinterp
