# SPDX-License-Identifier: BSD-3-Clause
"""The wheel's build step: setuptools asks for one extension, feinterp._feinterp, and this file has CMake
build it and install the CMake component `python` (the module, the pure-Python files and the shared
libraries the module loads), which becomes the wheel's package folder feinterp/.

Environment:
  FEINTERP_CMAKE_BUILD_DIR    an existing configured build folder to reuse (FEINTERP_PYTHON=ON): only
                              the module target is brought up to date there, so a built folder compiles
                              nothing; relative paths are taken from this file's folder
  FEINTERP_CUDA_ARCHITECTURES CUDA architectures for a fresh build, as scripts/setup.sh takes them
  FEINTERP_CMAKE_ARGS         further arguments for a fresh build's configure step (-DFEINTERP_CUDA=OFF, ...)
Without FEINTERP_CMAKE_BUILD_DIR the build is configured afresh in setuptools' build folder: Release,
Ninja when present, no tests or programs; CUDA when nvcc is found, with scripts/setup.sh's
architectures (90-virtual where no GPU is visible, FEINTERP_CUDA_ARCHITECTURES otherwise).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """CMakeLists.txt's project(VERSION): the one place the version is written."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(feinterp\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(feinterp VERSION x.y.z)")
    return match.group(1)


def reused_build_dir():
    path = os.environ.get("FEINTERP_CMAKE_BUILD_DIR")
    return os.path.join(ROOT, path) if path else None


def cmake_cache(build_dir):
    entries = {}
    path = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                match = re.match(r"([A-Za-z0-9_]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if match:
                    entries[match.group(1)] = match.group(2)
    return entries


def numpy_requirement():
    """pybind11 before 2.12 reads NumPy 1's structures, and its modules crash on NumPy 2's arrays
    (cmake/python.cmake): a module built with one (Debian 12 has 2.10) needs numpy<2."""
    include_dirs = ["/usr/include", "/usr/local/include"]
    build_dir = reused_build_dir()
    if build_dir:
        pybind11_dir = cmake_cache(build_dir).get("pybind11_DIR", "")
        include_dirs.insert(0, os.path.join(pybind11_dir, "..", "..", "..", "include"))  # <prefix>/share|lib/cmake/pybind11
    for include in include_dirs:
        header = os.path.join(include, "pybind11", "detail", "common.h")
        if os.path.exists(header):
            with open(header, encoding="utf-8") as f:
                text = f.read()
            major = int(re.search(r"#define PYBIND11_VERSION_MAJOR (\d+)", text).group(1))
            minor = int(re.search(r"#define PYBIND11_VERSION_MINOR (\d+)", text).group(1))
            return "numpy" if (major, minor) >= (2, 12) else "numpy<2"
    return "numpy"


def run(command, **kwargs):
    print("setup.py:", " ".join(shlex.quote(str(c)) for c in command), flush=True)
    subprocess.run(command, check=True, **kwargs)


class CMakeBuild(build_ext):
    """Builds the one extension with CMake; what `cmake --install --component python` puts in the
    package folder is copied into the wheel's feinterp/."""

    def build_extension(self, ext):
        if self.inplace:
            raise RuntimeError("feinterp has no editable install: build with CMake and use PYTHONPATH=build/python")
        build_dir = reused_build_dir()
        if build_dir:
            cache = cmake_cache(build_dir)
            if cache.get("FEINTERP_PYTHON") != "ON":
                raise RuntimeError(f"FEINTERP_CMAKE_BUILD_DIR={build_dir}: not a configured build with FEINTERP_PYTHON=ON")
        else:
            build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            self.configure(build_dir)
        run(["cmake", "--build", build_dir, "--target", "feinterp_python"])

        package = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        with tempfile.TemporaryDirectory() as prefix:
            # --strip: the installed module and libraries without their symbol tables (strip's default,
            # which keeps the dynamic symbols they are linked by); a Release build has no debug info.
            run(["cmake", "--install", build_dir, "--component", "python", "--prefix", prefix, "--strip"])
            self.copy_package(prefix, package)

    def configure(self, build_dir):
        command = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DFEINTERP_PYTHON=ON",
                   "-DFEINTERP_TESTS=OFF", "-DFEINTERP_APPS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja") and not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            command += ["-G", "Ninja"]
        # As scripts/setup.sh: the given architectures, else 90-virtual where no GPU is visible (PTX that
        # the driver compiles on a GPU's first load; cmake/cuda_architectures.cmake says why).
        if os.environ.get("FEINTERP_CUDA_ARCHITECTURES"):
            command.append(f"-DCMAKE_CUDA_ARCHITECTURES={os.environ['FEINTERP_CUDA_ARCHITECTURES']}")
        else:
            command.append("-DFEINTERP_DEFAULT_CUDA_ARCHITECTURES=90-virtual")
        command += shlex.split(os.environ.get("FEINTERP_CMAKE_ARGS", ""))
        env = dict(os.environ)
        if os.path.isdir("/usr/local/cuda/bin"):
            env["PATH"] = "/usr/local/cuda/bin" + os.pathsep + env.get("PATH", "")
        run(command, env=env)

    def copy_package(self, prefix, package):
        """The installed package folder and, inside it, the shared libraries under their sonames (a wheel
        holds no symbolic links), with the module's RPATH reduced to $ORIGIN."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        modules = [os.path.join(d, f) for d, _, files in os.walk(prefix) for f in files if f.startswith("_feinterp.")]
        if len(modules) != 1:
            raise RuntimeError(f"cmake --install put {len(modules)} _feinterp modules under {prefix}: {modules}")
        if not modules[0].endswith(suffix):
            raise RuntimeError(f"the build's module {os.path.basename(modules[0])} is not for this Python "
                               f"({sys.executable} loads *{suffix}): build with this Python")
        installed = os.path.dirname(modules[0])
        os.makedirs(package, exist_ok=True)
        for name in os.listdir(installed):
            shutil.copy2(os.path.join(installed, name), os.path.join(package, name))
        libraries = [os.path.join(d, f) for d, _, files in os.walk(prefix) for f in files
                     if f.startswith("libfeinterp_") and ".so" in f and not d.startswith(installed)]
        targets = {os.path.realpath(l) for l in libraries if os.path.islink(l)}
        for library in libraries:
            if os.path.islink(library) or os.path.realpath(library) not in targets:
                shutil.copyfile(os.path.realpath(library), os.path.join(package, os.path.basename(library)))
        module = os.path.join(package, os.path.basename(modules[0]))
        script = os.path.join(self.build_temp, "rpath.cmake")
        os.makedirs(self.build_temp, exist_ok=True)
        with open(script, "w", encoding="utf-8") as f:
            f.write('file(RPATH_SET FILE "${FILE}" NEW_RPATH "$ORIGIN")\n')
        run(["cmake", f"-DFILE={module}", "-P", script])


class NoSdist(sdist):
    def run(self):
        raise RuntimeError("feinterp has no source distribution: build the wheel from a clone of the repository")


os.makedirs(os.path.join(ROOT, "build-wheel"), exist_ok=True)
setup(
    version=project_version(),
    install_requires=[numpy_requirement()],
    ext_modules=[Extension("feinterp._feinterp", sources=[])],
    packages=[],
    cmdclass={"build_ext": CMakeBuild, "sdist": NoSdist},
    zip_safe=False,
    # setuptools' own build folder: not ./build, which is CMake's (scripts/setup.sh).
    options={"build": {"build_base": os.path.join("build-wheel", "setuptools")},
             "egg_info": {"egg_base": "build-wheel"}},
)
