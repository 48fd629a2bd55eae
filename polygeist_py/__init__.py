"""polygeist-py: raise C and CUDA to structured MLIR, run CUDA on CPUs, compile to native code.

Entry points: the ``pgcc`` command (polygeist_py.driver) and the Python API (polygeist_py.api).
"""

__version__ = "0.1.0"
