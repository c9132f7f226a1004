# SPDX-License-Identifier: BSD-3-Clause
"""The fixture the tests of scripts/ share: a temporary directory per test, and files written into it."""
import os
import tempfile
import unittest


class ScratchDirectoryTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.directory.cleanup()

    def write(self, name, text):
        """Writes `text` to `name` in the test's directory; returns its path."""
        path = os.path.join(self.directory.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path
