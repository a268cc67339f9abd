"""The package's symbol table: one meaning per symbol, used by every notebook and by the code's names.

`python tools/check_symbols.py --write` turns this table into the page nbs/symbols.ipynb; `python tools/check_symbols.py`
checks the notebooks against it (tests/test_symbols.py runs it).

Each entry: the forms the notebooks write (comma-separated `$...$`), the meaning, the names in the code, the notebook
that defines it (`where`, a page of nbs/sidebar.yml without `.ipynb`), and regular expressions that find it in the
notebooks' math (`find`). Patterns that contain `\\mathrm`, `\\mathcal`, `\\mathbb` or `\\mathbf` are searched in the
math as written; the others in the math with those typefaces and `\\text{...}` removed, so that the `R` of
`\\mathbb R` is not the matrix R. A Greek letter is also searched as its Unicode character in the prose.
"""

INTRO = r"""Every notebook of this package uses the symbols below, each with one meaning, and the code uses the names in the
third column. A symbol with an index ($x_i$, $\alpha_i$) is an entry of the vector or family it indexes; an accent,
a typeface or a named sub- or superscript ($\bar g$, $\mathcal C$, $I_{up}$, $\epsilon_O$) makes a different
symbol. Summation and loop indices ($i, j, t$) and the dummy argument of a function's definition are not symbols.
The last column is the notebook that defines the symbol: reading the notebooks in the order of the sidebar, one
meets each symbol there or later (`tools/check_symbols.py` checks it, and `tests/test_symbols.py` runs the check).

Where a paper uses another letter, the table says so; the notebooks quote a paper's letter only when they discuss
one of its printed formulas."""

L = r"(?<![\\A-Za-z])"          # not preceded by a letter or a backslash: a symbol, not part of a word or a command
E = r"(?![A-Za-z])"             # not followed by a letter


def S(tex, meaning, code, where, *find):
    return dict(tex=tex, meaning=meaning, code=code, where=where, find=list(find))


GROUPS = [
    ("Data and labels", [
        S(r"$m$", r"number of training points (the S-KLR paper's $N$)", "`m`, `len(X)`", "index", L + r"m(?![A-Za-z(])"),
        S(r"$n$", r"number of input features", "`n`, `n_features_in_`", "index", L + "n" + E),
        S(r"$x$, $x_i$, $X$", r"a point of $\mathbb R^n$; training point $i$; the $m\times n$ data matrix, row $i$ is $x_i^\top$",
          "`X`, `X[i]`", "index", L + "[xX]" + E),
        S(r"$y_i$, $y$", r"the label of $x_i$, in $\{-1, +1\}$; the vector of labels", "`y`", "index", L + "y" + E),
        S(r"$Y$", r"$\mathrm{diag}(y)$ (the L0-QSVM paper's $D$)", "`y[:, None] * ...`", "04_subproblems", L + "Y" + E),
        S(r"$m_\pm$, $I_\pm$", r"number of training points with label $\pm1$; their indices", "`(y > 0).sum()`", "05_sklr",
          r"m_\{?\\pm", r"I_\{?\\pm"),
        S(r"$\mathcal Y$", r"the set of class labels; $\lvert\mathcal Y\rvert$ classes", "`classes_`", "04d_multiclass",
          r"\\mathcal\s*\{?Y"),
        S(r"$S$", r"number of surfaces of a classifier: 1 for two classes, $\lvert\mathcal Y\rvert$ with one-vs-rest",
          "`n_surfaces`, `len(z_)`", "04d_multiclass", L + "S" + E),
        S(r"$y^{(s)}$, $f_s$", r"the $\pm1$ targets of surface $s$; its decision function", "`Y[s]`, `decision_function`",
          "04d_multiclass", r"y\^\{?\(s\)", r"f_\{?s\}?" + E),
    ]),
    ("The quadratic surface", [
        S(r"$f(x)$", r"the decision function, whose sign is the class: $\tfrac12x^\top Wx + b^\top x + c$ for a quadratic "
          r"surface, $\sum_j\alpha_jy_jK(x_j, x) + c$ for a kernel model", "`decision_function`", "index",
          L + r"f(?![A-Za-z_])"),
        S(r"$W$, $\mathbb S_n$", r"the symmetric $n\times n$ matrix of the quadratic terms; the set of symmetric $n\times n$ matrices",
          "`W`, `W_`", "index", L + "W" + E, r"\\mathbb\s*\{?S"),
        S(r"$b$", r"the vector of the linear terms, in $\mathbb R^n$", "`b`, `b_`", "index", L + "b" + E),
        S(r"$c$", r"the intercept, never penalised; in every dual it is the multiplier of $y^\top\alpha = 0$",
          "`c`, `c_`, `intercept_`, `SMOResult.bias`", "index", L + r"c(?![A-Za-z_])"),
        S(r"$\mathrm{hvec}$", r"the $\tfrac{n(n+1)}2$ entries of a matrix on and below the diagonal, column by column",
          "`hvec`", "index", r"\\mathrm\s*\{hvec\}"),
        S(r"$\mathrm{vec}$, $\mathrm{hvec}^{-1}$", r"the $n^2$ entries of a matrix, column by column; the inverse of "
          r"$\mathrm{hvec}$ on $\mathbb S_n$", '`A.ravel(order="F")`, `unhvec`', "00_vech",
          r"\\mathrm\s*\{vec\}", r"\\mathrm\s*\{hvec\}\s*\^"),
        S(r"$A$", r"a square matrix, in statements about any matrix", "`A`", "00_vech", L + "A" + E),
        S(r"$h(i, j)$", r"the position of $A_{ij}$ ($i\ge j$) in $\mathrm{hvec}(A)$", "`hvec_indices`", "00_vech", L + r"h\("),
        S(r"$e_i$, $E_{ij}$", r"the $i$-th unit vector; the symmetric unit matrix $e_ie_j^\top + e_je_i^\top$ ($e_ie_i^\top$ if $i = j$)",
          "", "00_vech", L + r"e_\{?[a-z0-9]\}?(?![a-z0-9])", L + "E_"),
        S(r"$D_n$, $L_n$", r"the duplication matrix, $D_n\mathrm{hvec}(A) = \mathrm{vec}(A)$ on $\mathbb S_n$; the elimination "
          r"matrix, $L_n\mathrm{vec}(A) = \mathrm{hvec}(A)$", "`duplication_matrix`, `elimination_matrix`", "00_vech",
          L + r"D_\{?n", L + r"L_\{?n"),
        S(r"$w$", r"$\mathrm{hvec}(W)$, the quadratic part of $z$", "`z[:-n]`", "01_features", L + "w" + E),
        S(r"$n_{\rm aff}$", r"the dimension of the affine hull of the training points ($G$ is definite iff it is $n$)", "",
          "01_features", r"n_\{\\rm\s*aff\}"),
        S(r"$z$, $d$", r"the penalised parameters $z = [\mathrm{hvec}(W); b]$; their number, $d = \tfrac{n(n+1)}2 + n$",
          "`z`, `z_`, `pack_surface`, `n_params`", "index", L + "z" + E, L + "d" + E),
        S(r"$k$", r"the sparsity level: at most $k$ nonzero entries in $z$ (in the k-sparse rule of $\ell_{1/2}$-KLR: exactly $k$ "
          r"nonzero $\tilde\alpha_j$)", "`k`", "index", L + "k" + E),
        S(r"$r_i$", r"the features of $x_i$, with $z^\top r_i + c = f(x_i)$", "`quadratic_features(X)[i]`", "index",
          L + r"r_\{?i"),
        S(r"$s_i$, $r(x)$, $R$", r"the quadratic part of $r_i = [s_i; x_i]$, $s_i = \tfrac12D_n^\top(x_i\otimes x_i)$; the features "
          r"of any point $x$; the $m\times d$ matrix whose row $i$ is $r_i^\top$ (the paper's $A$)", "`quadratic_features`",
          "01_features", L + r"s_\{?i", L + "R" + E, L + r"r\s*\("),
        S(r"$J_i$", r"the $n\times d$ matrix with $J_iz = Wx_i + b$ (the paper's $H_i$)", "`gram_literal` (tests)",
          "01_features", L + "J_"),
        S(r"$G$", r"the Gram matrix of the regulariser: $\tfrac12z^\top Gz = \sum_i\lVert Wx_i + b\rVert^2$", "`gram_matrix`",
          "index", L + "G" + E),
        S(r"$\Sigma$, $\mu$", r"the second and first moments, $X^\top X$ and $X^\top\mathbf 1$, that $G$ is built from",
          "`second_moments`", "01_features", r"\\Sigma" + E, r"\\mu(?![A-Za-z_])"),
        S(r"$\mathbf 1$", r"the vector of ones", "", "01_features", r"\\mathbf\s*\{?1"),
        S(r"$\varpi_i$, $\varpi$, $G_\varpi$", r"the weight of training point $i$ (an integer weight counts the point that many "
          r"times, in the loss and in the regulariser); the vector of weights; $G$ of the weighted sum, "
          r"$\tfrac12z^\top G_\varpi z = \sum_i\varpi_i\lVert Wx_i + b\rVert^2$", "`sample_weight`", "01_features",
          r"\\varpi" + E),
    ]),
    ("Models and the convex subproblems", [
        S(r"$\mathcal C$, $C$, $C_i$", r"the weight of the loss (written $C$ in the SMO and S-KLR notebooks; $C_i$ when it "
          r"differs per training point: the upper bound of $\alpha_i$)", "`C`", "index", r"\\mathcal\s*\{?C", L + "C" + E),
        S(r"$\ell(t)$", r"the loss of a margin violation $t = 1 - y_if(x_i)$: hinge $\max(t, 0)$ or squared $t^2$ (the paper's "
          r"$\mathrm H$)", '`loss="hinge"`, `"squared"`', "04_subproblems", r"\\ell\s*\("),
        S(r"$\xi_i$", r"the slack of training point $i$: $\max(0, 1 - y_if(x_i))$ (hinge) or $1 - y_if(x_i)$ (squared)", "`xi`",
          "04_subproblems", r"\\xi" + E),
        S(r"$F(z, c)$", r"the primal objective $\tfrac12z^\top Gz + \mathcal C\sum_i\ell(1 - y_i(z^\top r_i + c))$",
          "`primal_objective`, `objective`", "04_subproblems", L + "F" + E),
        S(r"$F^\star$, $F^\star(\mathcal S)$", r"an optimal value of $F$; the optimal value with $z$ restricted to the support $\mathcal S$",
          "`support_fit(...).UB`", "04_subproblems", r"F\^\{?\\star"),
        S(r"$\lambda$", r"the sparsity weight of a sparse model, larger for a sparser model: $\lambda\lVert w\rVert_1$ in "
          r"$\ell_1$-QSVM (the paper's $\mathcal C_1$), $-\lambda\sum_i\alpha_i$ in the dual of S-KLR, "
          r"$\lambda\sum_j\lvert\tilde\alpha_j\rvert^{1/2}$ in $\ell_{1/2}$-KLR", "`lam`", "index",
          r"\\lambda" + E),
        S(r"$\rho$, $u$", r"the weight of the penalty $\tfrac\rho2\lVert z - u\rVert^2$ of Algorithm 1; the $k$-sparse point it "
          r"pulls $z$ towards", "`rho`, `u`", "04_subproblems", r"\\rho" + E, L + "u" + E),
        S(r"$\alpha$, $\alpha_i$", r"the dual variables, one per training point (the multipliers of the margin constraints)",
          "`alpha`, `alpha_`", "04_subproblems", r"\\alpha" + E),
        S(r"$\bar\alpha$, $\bar\alpha_i$", r"the multipliers of $\xi_i\ge0$", "", "04_subproblems", r"\\bar\s*\{?\\alpha"),
        S(r"$c_{\rm lo}$, $c_{\rm hi}$", r"the ends of the interval of optimal intercepts when no multiplier is free",
          "", "04_subproblems", r"c_\{\\rm\s*(lo|hi)\}"),
        S(r"$Q$, $p$", r"the quadratic and the linear term of a dual, $\tfrac12\alpha^\top Q\alpha + p^\top\alpha$",
          "`Q`, `p`, `LowRankQ`, `KernelQ`", "04_subproblems", L + "Q" + E, L + "p" + E),
        S(r"$D_\alpha$", r"the dual of the hinge $z$-subproblem of Algorithm 1 (the QSVM dual at $\rho = 0$), a minimisation over $\alpha$",
          "`hinge_dual_cvxopt`, `solve_hinge_subproblem`", "04_subproblems", r"D_\{?\\alpha"),
        S(r"$\mathcal S$", r"a support: the indices of the entries of $z$ allowed to be nonzero (of the $\ell_1$ polish, of a "
          r"candidate of the swap search)", "`S`, `support`", "04c_qsvm", r"\\mathcal\s*\{?S"),
        S(r"$U$, $\kappa_j$", r"the eigenvectors and the eigenvalues of $G$: $G = U\,\mathrm{diag}(\kappa)\,U^\top$",
          "`SpectralGram.U`, `SpectralGram.eigvals`", "04_subproblems", L + "U" + E, r"\\kappa" + E),
        S(r"$\tilde R$", r"the rotated features $RU$", "`SpectralGram.RU`", "04_subproblems", r"\\tilde\s*\{?R"),
        S(r"$N_G$, $N$", r"the Jacobi scaling $\mathrm{diag}(G)^{-1/2}$; the balanced scaling of the terms, the diagonal with "
          r"$N_{jj} = (G_{jj} + \mathcal C\lVert R_{:j}\rVert^2)^{1/2}$", "`SpectralGram.scale`", "04_subproblems", L + r"N(?![A-Za-z])"),
        S(r"$G_{\rm sq}$, $R_{\rm c}$, $y_{\rm c}$", r"the matrix $G + 2\mathcal CR_{\rm c}^\top R_{\rm c}$ of the squared loss with $c$ "
          r"eliminated; the centred $R$ and $y$", "`SquaredSystem`", "04c_qsvm", r"G_\{\\rm sq", r"R_\{\\rm c"),
        S(r"$\hat R$, $\hat G$, $\hat p$, $\hat z$", r"the primal of the interior point: its rows $y_i(r_{i\mathcal S}, 1)$, quadratic term "
          r"($G_{\mathcal S\mathcal S}$, $+\rho I$ in a z-step, $G_{\rm sq}$ for the squared loss), linear term, variables $(z_{\mathcal S}, c)$",
          "`solve_hinge_ip`", "06_penalty", r"\\hat\s*\{?[RGpz]"),
        S(r"$\mathrm{UB}$, $\mathrm{LB}$", r"an upper and a lower bound on an optimal value (a feasible point's value, a dual value)",
          "`HingeIP.UB`, `HingeIP.LB`, `SwapBounds.lb`", "06a_swap", r"\\mathrm\s*\{[UL]B\}"),
        S(r"$\varsigma$, $\Omega$", r"the interior point's margin surpluses $\hat R\hat z + \xi - \mathbf 1$; the positive diagonal of its "
          r"reduced Newton system (with its parts $\Omega_1$, $\Omega_2$)", "", "internals/04b_hinge_solvers", r"\\varsigma" + E, r"\\Omega" + E),
        S(r"$\Delta$", r"the change of a quantity in one step: $\Delta\alpha_i$, $\Delta\hat z$, $\Delta\lambda$", "", "02_smo_basics",
          r"\\Delta" + E),
        S(r"$\Pi$, $z_\pm$", r"the split of $\ell_1$-QSVM: $z = \Pi z_\pm$ with $z_\pm = [w^+; w^-; b]$", "", "04c_qsvm", r"\\Pi(?![A-Za-z])"),
        S(r"$\Gamma$, $\bar z$, $\Theta$", r"ADMM's diagonal weights, the copy of $z$ that carries the $\ell_1$ term, the scaled multiplier",
          "`L1ADMM`", "04c_qsvm", r"\\Gamma(?![A-Za-z])", r"\\Theta(?![A-Za-z])"),
    ]),
    ("SMO", [
        S(r"$\Phi(\alpha)$, $\nabla\Phi$", r"the objective of a dual that SMO minimises, $\tfrac12\alpha^\top Q\alpha + p^\top\alpha$ "
          r"$[+\sum_i\psi(\alpha_i)]$; its gradient", "`grad` (`02_smo_basics`); `G`, LIBSVM's name, in the compiled code of `03_smo`",
          "04_subproblems", r"\\Phi(?![A-Za-z_]|\^\{?\\star)"),
        S(r"$I_{up}(\alpha)$, $I_{low}(\alpha)$", r"the indices $t$ whose $y_t\alpha_t$ may still move up, down",
          "`up_low`; the status bits `UP`, `LOW`", "02_smo_basics", r"I_\{?(up|low)"),
        S(r"$m(\alpha)$, $M(\alpha)$", r"the largest score $-y_t\nabla_t\Phi$ over $I_{up}$ and the smallest over $I_{low}$ "
          r"(always with $(\alpha)$); $m(\alpha) - M(\alpha)$ is the violation", "`kkt_gap`, `max_violation`, `Gmax`, `-Gmax2`",
          "02_smo_basics", L + r"[mM]\(\s*\\alpha"),
        S(r"$\varepsilon$", r"the tolerance of SMO on $m(\alpha) - M(\alpha)$", "`tol`", "02_smo_basics", r"\\varepsilon" + E),
        S(r"$\chi^{lo}_i$, $\chi^{hi}_i$, $\chi_\theta$, $\chi$", r"multipliers of constraints on the variables themselves: the "
          r"lower and upper bound of $\alpha_i$; $\theta\ge0$ in S-KLR; $z_{\mathcal L^c} = 0$ in the Lu-Zhang conditions "
          r"(the paper's $\omega$)", "", "02_smo_basics", r"\\chi" + E),
        S(r"$e_{ij}$", r"the direction $y_ie_i - y_je_j$ of a step on the pair $(i, j)$", "`pair_direction`", "02_smo_basics",
          L + r"e_\{[a-z][a-z]\}"),
        S(r"$\Phi_{ij}(t)$", r"$\Phi(\alpha + te_{ij})$, the objective along the line of the pair", "", "02_smo_basics",
          r"\\Phi_"),
        S(r"$a_{ij}$, $\bar a_{ij}$", r"the curvature $e_{ij}^\top Qe_{ij} = Q_{ii} + Q_{jj} - 2y_iy_jQ_{ij}$ [$+\,\psi''(\alpha_i) "
          r"+ \psi''(\alpha_j)$]; the same, or $\tau$ if it is not positive", "`a`", "02_smo_basics",
          L + r"a_\{?[a-z][a-z]", r"\\bar\s*\{?a" + E),
        S(r"$v_{ij}$", r"the slope $-\Phi_{ij}'(0) = -y_i\nabla_i\Phi + y_j\nabla_j\Phi$, positive when the pair violates the "
          r"optimality conditions", "`v`", "02_smo_basics", L + r"v_\{?[a-z][a-z]"),
        S(r"$t^\star$, $t_{\max}$, $T_i$", r"the step along $e_{ij}$; how far the box lets it go; how far $\alpha_i$ alone may move",
          "`t`, `tmax`, `_box_room`", "02_smo_basics", r"t\^\{?\\star", r"t_\{?\\max", L + r"T_\{?[ij]\}?(?![A-Za-z0-9])"),
        S(r"$\tau$", r"$10^{-12}$, in place of a curvature that is not positive", "`TAU`", "02_smo_basics", r"\\tau" + E),
        S(r"$K$, $K_{ij}$, $K(x, x')$", r"a kernel, and its matrix $K_{ij} = K(x_i, x_j)$", "`KernelQ`, `kernel`",
          "02_smo_basics", L + "K" + E),
        S(r"$\gamma$", r"the width of the RBF kernel $e^{-\gamma\lVert x - x'\rVert^2}$ (the scale of the poly and sigmoid kernels)",
          "`gamma`", "03_smo", r"\\gamma" + E),
        S(r"$\mathrm{lo}_i$, $\mathrm{hi}_i$", r"the bounds of $\alpha_i$: $[0, C_i]$ for the QP, $[\eta, C - \eta]$ for S-KLR",
          "`lo`, `hi`", "03_smo", r"\\mathrm\s*\{(lo|hi)\}"),
        S(r"$\psi$", r"the separable convex term $\sum_i\psi(\alpha_i)$ of a dual: zero for the QP, $C\,H(\alpha_i/C)$ for S-KLR",
          r"`entropy`; `E` and `h` hold $\psi'(\alpha_t)$ and $\psi''(\alpha_t)$", "03_smo", r"\\psi" + E),
        S(r"$\bar g$", r"the part of $Q\alpha$ that comes from variables at a bound (LIBSVM's `G_bar`)", "`G_bar`", "03_smo",
          r"\\bar\s*\{?g"),
        S(r"$\bar m$, $\pi$", r"the number of active variables, in positions $0,\dots,\bar m - 1$ (LIBSVM's `active_size`); the "
          r"solver order: position $t$ holds variable $\pi(t)$", "`S.ctl[0].active`, `Q.perm`", "03_smo", r"\\bar\s*\{?m",
          r"\\pi" + E),
        S(r"$V$", r"a factor of a low-rank $Q = VV^\top$", "`hinge_dual_matrix(..., factor=True)`, `LowRankQ`", "04_subproblems", L + "V" + E),
        S(r"$\Phi^\star(\lambda)$", r"the optimal value of the S-KLR dual at $\lambda$", "`SMOResult.obj`", "05_sklr",
          r"\\Phi\^\{?\\star"),
        S(r"$\tilde\alpha$", r"the representer coefficients of a kernel model: $f(x) = \sum_j\tilde\alpha_jK(x_j, x) + c$ "
          r"($\tilde\alpha = \alpha\circ y$ at the optimum)", "`coef`", "05_sklr", r"\\tilde\s*\{?\\alpha"),
        S(r"$\eta$, $\bar 0$, $\bar C$", r"the box gap of S-KLR; the bounds $\eta$ and $C - \eta$ of its dual (22)",
          "`box_gap`, `box`, `box_`", "03_smo", r"\\eta" + E, r"\\bar\s*\{?0", r"\\bar\s*\{?C"),
        S(r"$H(\delta)$, $\delta$", r"the entropy $\delta\log\delta + (1-\delta)\log(1-\delta)$ of $\delta\in[0, 1]$ (Keerthi "
          r"et al.'s and the S-KLR paper's $G$)", "`entropy_H`", "03_smo", L + r"H(?![A-Za-z_])", r"\\delta" + E),
    ]),
    ("Sparse kernel logistic regression", [
        S(r"$\sigma(t)$", r"the logistic function $1/(1 + e^{-t})$: $\Pr(y = +1\mid x) = \sigma(f(x))$", "`sigmoid`", "05_sklr",
          r"\\sigma(?![A-Za-z_])"),
        S(r"$g(\zeta)$, $\zeta_i$", r"the logistic loss $\log(1 + e^\zeta)$; its argument at training point $i$ (the paper's $\xi_i$)",
          "`nll`", "05_sklr", L + r"g(?![A-Za-z_])", r"\\zeta" + E),
        S(r"$\varphi(x)$, $\omega$", r"a feature map of the kernel, $K(x, x') = \varphi(x)\cdot\varphi(x')$; the weight vector of "
          r"the kernel model, $f(x) = \omega\cdot\varphi(x) + c$", "", "05_sklr", r"\\varphi" + E, r"\\omega" + E),
        S(r"$\theta$, $\nu$", r"the shift of every loss argument in the S-KLR primal (8) (the paper's $\rho$); its reward "
          r"$-\nu\theta$", "`theta`, `nu`, `nu_`", "05_sklr", r"\\theta" + E, r"\\nu" + E),
        S(r"$\bar\lambda$, $\lambda_{P1}$", r"the $\lambda$ from which every $\alpha_i = \bar C$ (two classes of one size); the bound "
          r"of Proposition 1", "`lambda_all_upper`, `lambda_bound`", "05_sklr", r"\\bar\s*\{?\\lambda", r"\\lambda_\{?P"),
        S(r"$Q^+_i$, $B_i$", r"$\sum_j\max(Q_{ij}, 0)$; the sums $\sum_j(\bar C - \alpha_j(0))y_jK_{ji}$ of the paper's printed bound",
          "`positive_row_sums`, `lambda_bound_printed`", "05_sklr", r"Q\^\{?\+", L + "B_"),
    ]),
    ("The import vector machine and ℓ1/2-KLR", [
        S(r"$\mathcal I$", r"the import set of the IVM: the training points allowed a non-zero $\tilde\alpha_j$", "`imports`, `imports_`",
          "05c_sparse_kernel_peers", r"\\mathcal\s*\{?I(?![A-Za-z])"),
        S(r"$P_{\mathcal I}(\tilde\alpha, c)$", r"the KLR primal with $\tilde\alpha_j = 0$ off $\mathcal I$: "
          r"$\tfrac12\tilde\alpha_{\mathcal I}^\top K_{\mathcal I\mathcal I}\tilde\alpha_{\mathcal I} + C\sum_ig(-y_if(x_i))$", "`ivm_objective`",
          "05c_sparse_kernel_peers", r"P_\{?\\mathcal"),
        S(r"$\lambda_{\mathrm{tb}}$", r"the weight of the regulariser of the IVM toolbox (Roscher et al.), $2/(Cm)$ for two classes",
          "`lam_tb`", "05c_sparse_kernel_peers", r"\\lambda_\{?\\mathrm\s*\{tb"),
        S(r"$\vartheta$, $\hat K$", r"the parameters $(\tilde\alpha_{\mathcal I}, c)$ of a kernel model, coefficients first; "
          r"$[K_{:\mathcal I}\ \mathbf 1]$, so that $f = \hat K\vartheta$ on the training points", "`theta`, `B`", "05c_sparse_kernel_peers",
          r"\\vartheta" + E, r"\\hat\s*\{?K"),
        S(r"$\varrho_i$, $\mathcal W$", r"the derivative $-y_i\sigma(-y_if(x_i))$ of point $i$'s loss in $f(x_i)$; the Newton (IRLS) "
          r"weights $\mathrm{diag}(\sigma(f(x_i))(1 - \sigma(f(x_i))))$", "`IRLS.r`, `IRLS.w`", "05c_sparse_kernel_peers",
          r"\\varrho" + E, r"\\mathcal\s*\{?W"),
        S(r"$\mathcal H$, $\mathbf v_l$", r"the Hessian of $P_{\mathcal I}$ in $\vartheta$; its new column when point $l$ joins $\mathcal I$",
          "`IRLS.hessian`, `U`", "05c_sparse_kernel_peers", r"\\mathcal\s*\{?H", r"\\mathbf\s*\{?v"),
        S(r"$P_{1/2}(\tilde\alpha, c)$, $P_0$", r"the $\ell_{1/2}$-KLR objective $P_0 + \lambda\sum_j\lvert\tilde\alpha_j\rvert^{1/2}$; its mean "
          r"loss $\tfrac1m\sum_ig(-y_if(x_i))$", "`l12_objective`", "05c_sparse_kernel_peers", L + r"P_\{?[01]"),
        S(r"$L_g$, $\mu_s$", r"a Lipschitz constant of the gradient of $P_0$; the step of the half-thresholding iteration",
          "`lipschitz_bound`, `step`", "05c_sparse_kernel_peers", L + r"L_\{?g", r"\\mu_\{?s"),
        S(r"$\tilde\alpha^+$, $\mathcal T$", r"the gradient step $\tilde\alpha - \mu_s\nabla_{\tilde\alpha}P_0$; the half-thresholding operator "
          r"(Xu et al.'s $H$), $\mathcal T_{\lambda\mu_s}$ at the level $\lambda\mu_s$", "`z`, `half_threshold`", "05c_sparse_kernel_peers",
          r"\\tilde\s*\{?\\alpha\}?\^\{?\+", r"\\mathcal\s*\{?T"),
    ]),
    ("Algorithm 1, the penalty decomposition", [
        S(r"$q_\rho(z, c, u)$", r"the penalty function $F(z, c) + \tfrac\rho2\lVert z - u\rVert^2$ of Algorithm 1", '`history["q"]`',
          "04_subproblems", L + r"q_\{?\\rho"),
        S(r"$\rho^{(0)}$, $\rho^{(j)}$, $\beta$", r"the first penalty weight; the weight of outer iteration $j$; the factor it grows by",
          "`rho0`, `rho`, `beta`", "06_penalty", r"\\beta" + E),
        S(r"$\epsilon_I$, $\epsilon_O$", r"the tolerances of the inner criterion (2) and of the outer criterion (3)",
          "`eps_inner`, `eps_outer`", "06_penalty", r"\\epsilon_"),
        S(r"$\Upsilon$, $z^{\rm feas}$", r"the restart threshold of step 12; the feasible point it restarts from",
          "`upsilon`, `z_feas`", "06_penalty", r"\\Upsilon"),
        S(r"$\mathcal J$, $\mathcal L$", r"the $k$ indices the $u$-step keeps; the support of the returned point", "`support`",
          "06_penalty", r"\\mathcal\s*\{?[JL]"),
    ]),
    ("The swap search", [
        S(r"$\mathcal A$, $\mathcal B$", r"the current support of the swap search; a support one term away from it",
          "`support`, `A`", "06a_swap", r"\\mathcal\s*\{?[AB](?![A-Za-z])"),
        S(r"$\hat v$, $\Psi_{\mathcal S}(\hat v)$", r"the linear term of the restricted dual, $R^\top Y\alpha$ (hinge) or "
          r"$2\mathcal CR_{\rm c}^\top y_{\rm c}$ (squared); the quadratic form $\hat v_{\mathcal S}^\top\hat G_{\mathcal S\mathcal S}^{-1}"
          r"\hat v_{\mathcal S}$", "`v`", "06a_swap", r"\\hat\s*\{?v", r"\\Psi(?![A-Za-z])"),
        S(r"$\Xi$, $z^{\mathcal A}$", r"$\hat G_{\mathcal A\mathcal A}^{-1}$; the $z_{\mathcal A}$ that $\alpha$ implies, "
          r"$\Xi\hat v_{\mathcal A}$", "`SwapBounds.P`, `w`", "06a_swap", r"\\Xi(?![A-Za-z])", r"z\^\{?\\mathcal\s*\{?A"),
        S(r"$\hat g$, $\hat T$, $\hat s_j$", r"the gradient of the Lagrangian $\hat G_{:\mathcal A}z^{\mathcal A} - \hat v$; "
          r"$\hat G_{:\mathcal A}\Xi$; the Schur complement of term $j$", "`g`, `T`, `s`", "06a_swap", r"\\hat\s*\{?[gTs](?![A-Za-z])"),
        S(r"$\mathrm{LB}_{ij}$, $F_{\rm thr}$", r"the lower bound on $F^\star(\mathcal A - i + j)$; the value a swap must go below",
          "`SwapBounds.lb`, `thr`", "06a_swap", r"\\mathrm\s*\{LB\}_", r"F_\{\\rm\s*thr"),
    ]),
]

# Old notations that must not come back: (pattern searched in the notebooks' math, what to write instead)
RETIRED = [
    (r"\\nabla_?\{?[a-z]?\}?\s*f" + E, r"the gradient of a dual is $\nabla\Phi$ ($f$ is the decision function)"),
    (L + r"f\(\s*\\alpha", r"the objective of a dual is $\Phi(\alpha)$ ($f$ is the decision function)"),
    (L + r"G\(\s*\\delta|" + L + r"G\(\s*\\alpha_i\s*/", r"the entropy is $H$ ($G$ is the Gram matrix)"),
    (L + r"b_\{?i[jt]", r"the slope of a pair is $v_{ij}$ ($b$ is the linear term of the surface)"),
    (L + r"q_\{?i[jt]", r"the curvature of a pair is $a_{ij}$ ($q_\rho$ is the penalty function)"),
    (r"\\gamma\s*\\le\s*\\alpha|C\s*-\s*\\gamma|\\bar\s*\{?0\}?\s*=\s*\\gamma|\\gamma\s*=\s*10\^",
     r"the box gap is $\eta$ ($\gamma$ is the width of the kernel)"),
    (r"\\Lambda|\\lambda_j|\\lambda_\{?\\max", r"the eigenvalues of $G$ are $\kappa_j$ ($\lambda$ is the sparsity weight)"),
    (L + r"H_i|" + L + r"M_i", r"$J_i$ is the matrix of $Wx_i + b$ ($H$ is the entropy, $M(\alpha)$ a bound of SMO)"),
    (r"\\mathrm\s*\{?H\}?\s*(\\[bB]igl?)?\s*\(", r"the loss is $\ell(t)$ ($H$ is the entropy)"),
    (r"n_\{?\\pm", r"class sizes are $m_\pm$ ($n$ is the number of features)"),
    (r"\\beta\s*y_|\\beta\s*\\ge\s*0|\\nu\s*\+\s*\\beta", r"the multiplier of $y^\top\alpha = 0$ is the intercept $c$, the one "
     r"of $\theta\ge0$ is $\chi_\theta$ ($\beta$ is the growth factor of Algorithm 1)"),
    (r"\\varphi\s*\(\s*\\alpha|\\varphi\s*\\equiv|\\varphi'|\\varphi\s*=", r"the separable term of a dual is $\psi$ "
     r"($\varphi$ is the feature map of a kernel)"),
    (L + r"u_i\s*-\s*\\alpha|" + L + r"l_i", r"the box of SMO is $[\mathrm{lo}_i, \mathrm{hi}_i]$ ($u$ is the sparse point of Algorithm 1)"),
    (r"\\mu\^\{?[0C]", r"the multipliers of the bounds are $\chi^{lo}_i$, $\chi^{hi}_i$ ($\mu$ is the first moment)"),
    (L + r"K\s*=\s*G\s*\+", r"write $G + \rho I$ ($K$ is a kernel)"),
    (r"\\phi\s*\(\s*t|\\phi'|\\phi''", r"the objective along a pair's line is $\Phi_{ij}(t)$"),
]
