# SPDX-License-Identifier: BSD-3-Clause
# Sphinx for feinterp's documentation (docs/build.sh runs it, with docs/ as the source folder): the
# Markdown guides of docs/ as they are (MyST), the C++ API from Doxygen's XML (Breathe), and the Python
# API by autodoc when the built package imports (FEINTERP_DOCS_PYTHONPATH, e.g. build/python).
import os
import re
import sys

from docutils import nodes
from sphinx import addnodes

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _cmake_version():
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(feinterp\s+VERSION\s+([0-9.]+)", f.read()).group(1)


project = "feinterp"
copyright = "feinterp's authors, BSD-3-Clause"
release = version = _cmake_version()
root_doc = "sphinx/index"
extensions = ["myst_parser", "breathe", "sphinx.ext.autodoc"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# The guides and the design notes; performance/ is data and measurements, read on its own.
exclude_patterns = ["performance/**", "sphinx/_build/**"]
myst_heading_anchors = 4          # the guides link to each other's sections as GitHub does
html_theme = "alabaster"
html_theme_options = {"nosidebar": False}

breathe_projects = {"feinterp": os.environ.get("FEINTERP_DOXYGEN_XML", os.path.join(root, "build-docs", "doxygen", "xml"))}
breathe_default_project = "feinterp"
breathe_domain_by_extension = {"hpp": "cpp"}

# The Python API page, when the built package imports; without it the page is left out rather than
# failing (docs/build.sh says so).
python_path = os.environ.get("FEINTERP_DOCS_PYTHONPATH")
python_api = False
if python_path:
    sys.path.insert(0, python_path)
    try:
        import feinterp  # noqa: F401
        python_api = True
    except ImportError as error:
        print(f"conf.py: no Python API page: feinterp does not import from {python_path}: {error}")
if not python_api:
    exclude_patterns.append("sphinx/python-api.rst")
autodoc_member_order = "bysource"


def _source_link(app, env, node, contnode):
    """The guides link to source files and folders of the repository (../interpolator/executor.hpp,
    ../examples/): they stay as their text, since the HTML has no copy of the sources. A link to
    something that does not exist is left alone, and Sphinx reports it (a warning: an error here)."""
    target = node.get("reftarget", "")
    if "://" in target or not node.get("refdoc"):
        return None
    folder = os.path.dirname(os.path.join(root, "docs", node["refdoc"]))
    path = os.path.normpath(os.path.join(folder, target.split("#")[0]))
    if path.startswith(root + os.sep) and os.path.exists(path):
        return nodes.literal(text=os.path.relpath(path, root)) if contnode.astext() == target else contnode
    return None


def _plain_titles(app, doctree):
    """A link in a heading (design/SANDBOX.md links its headers) becomes its text: Sphinx's table of
    contents takes every reference under a title for one of its own entries, and fails on it."""
    for title in doctree.findall(nodes.title):
        for link in [n for n in title.findall() if isinstance(n, (nodes.reference, addnodes.pending_xref))]:
            link.replace_self(link.children)


def _plain_docstring(app, what, name, obj, options, lines):
    """The package's docstrings are plain text (pydoc's style: aligned code and shapes such as
    (E, Q, C)), not reStructuredText: shown as written, in a literal block."""
    if lines:
        lines[:] = ["::", ""] + ["   " + line for line in lines] + [""]


def setup(app):
    app.connect("missing-reference", _source_link)
    app.connect("doctree-read", _plain_titles, priority=400)
    app.connect("autodoc-process-docstring", _plain_docstring)
