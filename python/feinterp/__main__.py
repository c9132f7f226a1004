# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m feinterp demo [options]: the command's demo (feinterp demo), from Python."""
import sys

from .demo import main

sys.exit(main(sys.argv[1:]))
