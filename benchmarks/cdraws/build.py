"""Build the issue-12 prototype `_cdraws` in this folder (not part of the package):
`.venv/bin/python benchmarks/cdraws/build.py build_ext --inplace`."""

import os

import numpy as np
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)
LIB = os.path.join(os.path.dirname(np.__file__), "random", "lib")  # numpy's libnpyrandom.a

setup(name="cdraws", script_args=None,
      ext_modules=[Extension("_cdraws", ["_cdraws.c"], include_dirs=[np.get_include()],
                             library_dirs=[LIB], libraries=["npyrandom", "m"])])
