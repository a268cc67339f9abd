__version__ = "0.0.1"
# Hand-written: the public API, re-exported from the generated modules.
from .vech import hvec, unhvec, duplication_matrix, elimination_matrix
from .features import quadratic_features, gram_matrix, term_names, pack_surface, unpack_surface
from .datasets import load_dataset, list_datasets, fetch_dataset
from .smo import smo_solve, klr_dual_solve, SMOResult, LowRankQ, KernelQ, max_violation, dual_bias
from .estimators import QSVM, L1QSVM, L0QSVM
from .cv import L0QSVMCV, L1QSVMCV, plot_cv_path
from .subproblems import QuadraticFit, qsvm_primal_cvxopt
from .qsvm import fit_qsvm, fit_l1qsvm, fit_lsqsvm
from .penalty import penalty_decomposition, lu_zhang_certificate
from .swap import swap_refine, fit_l0qsvm
from .plotting import plot_decision_surface, plot_coefficients, plot_history, plot_accuracy_vs_k
from .sklr import lambda_bound, lambda_grid, paper_start
from .sklr_estimator import SparseKLR, KLR, fit_path, BoxGapWarning
from .kernel_peers import IVM, L12KLR
from .experiments import (run_protocol, summarize, compare_with_paper, format_table, paper_table, paper_data,
                          paper_datasets, parallel_backend, MODELS, ModelSpec, register_model,
                          ResultFileWarning)
from .sklr_comparison import run_comparison, summarize_comparison, comparison_tables, plot_comparison
