"""Issue 12: what a C core for the agents' draws would save. Checks that the prototype
draws what numpy draws and leaves the generator where numpy would, then times both ways.

  .venv/bin/python benchmarks/cdraws/build.py build_ext --inplace
  .venv/bin/python benchmarks/cdraws/measure.py
"""

from __future__ import annotations

import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _cdraws  # built in this folder by build.py


def main() -> None:
    a = np.random.Generator(np.random.PCG64(7))
    b = np.random.Generator(np.random.PCG64(7))
    for _ in range(200):
        assert a.standard_normal(25).tolist() == _cdraws.normals(b, 25)
        assert a.random() == _cdraws.uniform(b)
    assert a.random() == b.random()
    print("same draws and the same generator state as numpy, 200 rounds")
    rng = np.random.Generator(np.random.PCG64(1))
    names = {"rng": rng, "buf": np.empty(25), "C": _cdraws}
    for stmt in ("rng.standard_normal(out=buf); buf.tolist()", "C.normals(rng, 25)",
                 "rng.random()", "C.uniform(rng)"):
        t = min(timeit.repeat(stmt, globals=names, number=20000, repeat=7)) / 20000
        print(f"{stmt:45s} {t * 1e9:7.0f} ns")


if __name__ == "__main__":
    main()
