# SPDX-License-Identifier: BSD-3-Clause
# FEINTERP_PYTHON: the Python package `feinterp` (python/), on by default for the top-level project when
# what it needs is found:
# Python 3 with its headers (Debian python3-dev), NumPy (python3-numpy) and pybind11 (pybind11-dev, found
# by its CMake package: -Dpybind11_DIR=.../lib/cmake/pybind11 for unpacked headers). When one is
# missing the option defaults to OFF and the configure step says which; asking for ON then stops it.
#
# The Python: -DPython3_EXECUTABLE=... when given, else Debian's /usr/bin/python3 first, because a
# python3 earlier in PATH (pyenv, a venv) may lack NumPy, and the module must be built for the Python
# that will import it.

# A build tree whose tests/apps cached the path of python3 under the same name holds a FILEPATH entry:
# dropped, so that the option takes its place.
get_property(_feinterp_python_type CACHE FEINTERP_PYTHON PROPERTY TYPE)
if(_feinterp_python_type STREQUAL "FILEPATH")
  unset(FEINTERP_PYTHON CACHE)
endif()

set(FEINTERP_PYTHON_REASON "")
# As the programs: a FEM code that pulls feinterp in (add_subdirectory, FetchContent) gets the libraries.
if(NOT PROJECT_IS_TOP_LEVEL AND NOT DEFINED FEINTERP_PYTHON)
  set(FEINTERP_PYTHON_REASON "not the top-level project (-DFEINTERP_PYTHON=ON builds it)")
elseif(NOT DEFINED FEINTERP_PYTHON OR FEINTERP_PYTHON)
  if(NOT DEFINED Python3_EXECUTABLE)
    find_program(FEINTERP_SYSTEM_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
    mark_as_advanced(FEINTERP_SYSTEM_PYTHON3)
    if(FEINTERP_SYSTEM_PYTHON3)
      set(Python3_EXECUTABLE ${FEINTERP_SYSTEM_PYTHON3})
    endif()
  endif()
  find_package(Python3 3.8 QUIET COMPONENTS Interpreter Development.Module)
  if(NOT Python3_FOUND)
    set(FEINTERP_PYTHON_REASON "no Python 3 with its headers (install the Debian package python3-dev)")
  else()
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy; print(numpy.__version__)"
                    RESULT_VARIABLE _feinterp_numpy_status OUTPUT_VARIABLE _feinterp_numpy_version
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT _feinterp_numpy_status EQUAL 0)
      set(FEINTERP_PYTHON_REASON "${Python3_EXECUTABLE} has no NumPy (install the Debian package python3-numpy)")
    else()
      find_package(pybind11 2.6 CONFIG QUIET)
      if(NOT pybind11_FOUND)
        set(FEINTERP_PYTHON_REASON "pybind11 not found (install the Debian package pybind11-dev, or pass -Dpybind11_DIR)")
      elseif(_feinterp_numpy_version VERSION_GREATER_EQUAL 2 AND pybind11_VERSION VERSION_LESS 2.12)
        # pybind11 before 2.12 reads NumPy 1's array and dtype structures: with NumPy 2 its module
        # segfaulted on import of every array (seen on the GPU machine: NumPy 2.5, Debian 12's pybind11 2.10.3).
        set(FEINTERP_PYTHON_REASON "NumPy ${_feinterp_numpy_version} needs pybind11 2.12 or newer, found ${pybind11_VERSION} (pass -Dpybind11_DIR to a newer one, e.g. Debian 13's pybind11-dev)")
      endif()
    endif()
  endif()
endif()

if(FEINTERP_PYTHON_REASON STREQUAL "")
  set(_feinterp_python_default ON)
else()
  set(_feinterp_python_default OFF)
endif()
option(FEINTERP_PYTHON "Build the Python package feinterp (needs Python 3 headers, NumPy, pybind11)" ${_feinterp_python_default})
if(FEINTERP_PYTHON AND NOT FEINTERP_PYTHON_REASON STREQUAL "")
  message(FATAL_ERROR "FEINTERP_PYTHON is ON but ${FEINTERP_PYTHON_REASON}")
endif()
set(FEINTERP_PYTHON_REASON_SUFFIX "")
if(NOT FEINTERP_PYTHON AND NOT FEINTERP_PYTHON_REASON STREQUAL "")
  set(FEINTERP_PYTHON_REASON_SUFFIX ": ${FEINTERP_PYTHON_REASON}")  # said by the configure summary
endif()

# Where `cmake --install` puts the package, relative to the prefix. Debian's Python reads
# /usr/lib/python3/dist-packages for the prefix /usr; for any other prefix, add this folder to PYTHONPATH.
# Not ${CMAKE_INSTALL_LIBDIR}: for the prefix /usr that is lib/x86_64-linux-gnu, which Python never reads.
set(FEINTERP_PYTHON_INSTALL_DIR "lib/python3/dist-packages" CACHE STRING
    "Where cmake --install puts the Python package feinterp (relative to the prefix, or absolute)")
