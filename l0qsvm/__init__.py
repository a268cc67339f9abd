__version__ = "0.0.1"
# Hand-written: the public API, re-exported from the generated modules.
