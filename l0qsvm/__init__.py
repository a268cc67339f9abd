__version__ = "0.0.1"
# Hand-written: the public API, re-exported from the generated modules.
from .vech import hvec, unhvec, duplication_matrix, elimination_matrix
from .features import quadratic_features, gram_matrix, term_names, pack_surface, unpack_surface
from .datasets import load_dataset, list_datasets
