#!/usr/bin/python3
"""Quasi-static εeff and Z0 of a zero-thickness microstrip (or stripline) in a layered dielectric:
an independent reference for the MoM's layered-media lines (solder mask, buried strips).

Geometry: a perfect ground at y = 0, dielectric layers stacked upward (eps_r:thickness_mm, bottom
first), a strip of width W on top of layer --strip-on (0-based), open air above the top layer, or
with --top-ground a second ground on top of the stack (stripline).

Method: ∇·(ε∇φ) = 0 on the cross-section, half of it (x >= 0, Neumann at x = 0), strip at φ = 1,
ground at φ = 0. Five-point finite differences on a tensor-product graded grid: each cell has
one ε, dielectric interfaces lie on grid lines, and an edge's coefficient takes the ε of the two
cells beside it, weighted by their widths. This is exactly the P1 finite-element energy on the
grid's right triangles, so C = 2 ε0 φᵀKφ (from the stored energy; the discrete charge on the strip
is the same number) is an upper bound that falls monotonically on the nested grids.
  Grid: along x and along y separately, ξ(d) = 3 (d/L)^(1/3) for d <= L, 3 + ln(d/L) beyond, d the
distance from the strip edge's coordinate, L = min(W/2, strip height); every segment between
breakpoints (x = 0, W/2, box; y = 0, each interface, box) is cut uniformly in ξ into
ceil(Δξ/s0)·2^k steps (so steps <= s = s0/2^k and the levels nest). Cells near the edge therefore grow like d^(2/3) (the r^(1/2) edge singularity costs
no order: the energy converges as s²), and beyond L geometrically with ratio e^s up to the box
at 2000·max(W, stack height), where φ = 0 (open case).
  Box: the error of the finite box is measured, not assumed: at one level the box's walls are also
made Neumann, which bounds C from below as the Dirichlet walls bound it from above; the spread
(≈1e-7 here) is added to the error.
  Refinement: levels k = 0..K (nested grids), Richardson on C and C0 with order 2,
R_k = C_k + (C_k − C_{k−1})/3; the estimated error of εeff = R(C)/R(C0) and Z0 = 1/(c0 √(R(C)R(C0)))
is the change between the last two extrapolated values plus the box's spread. The observed order
log2 of the ratio of successive changes is printed; it approaches 2.

Validation (Hammerstad-Jensen's statics for bare lines, Cohn's exact stripline, a centred
stripline of unequal halves) and the --table numbers: docs/VALIDATION.md, "A microstrip under a
cover"; tests/mom/test_periodic_line.cpp holds the table as its reference.

Usage: quasi_static_line.py --width-mm W --layer EPS:T [--layer EPS:T ...] [--strip-on I]
                            [--top-ground] [--levels K] [--s0 S]
       quasi_static_line.py --table
Exit status 77 when numpy or scipy is missing.
"""
import argparse
import math
import sys
import time

try:
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    from scipy.special import ellipk
except ImportError as error:
    print(f"SKIP: {sys.executable} cannot import numpy/scipy ({error})", file=sys.stderr)
    sys.exit(77)

EPS0 = 8.8541878128e-12
C0_LIGHT = 299792458.0
ETA0 = 376.730313668
BOX_FACTOR = 2000.0  # box half-size / max(W, stack height)


def xi_of(d, L):
    """Grading coordinate of a distance d >= 0 from the edge's coordinate."""
    d = np.abs(d) / L
    return np.where(d <= 1.0, 3.0 * np.cbrt(d), 3.0 + np.log(np.maximum(d, 1.0)))


def d_of(xi, L):
    """Inverse of xi_of."""
    return L * np.where(xi <= 3.0, (xi / 3.0) ** 3, np.exp(np.maximum(xi, 3.0) - 3.0))


def graded_axis(breaks, centre, L, s0, level):
    """Nodes on sorted breakpoints: each segment cut uniformly in ξ (signed about centre), with
    ceil(Δξ/s0)·2^level intervals, so the levels are nested."""
    sxi = lambda x: np.sign(x - centre) * xi_of(x - centre, L)
    nodes = [np.array([breaks[0]])]
    for a, b in zip(breaks[:-1], breaks[1:]):
        xa, xb = sxi(a), sxi(b)
        n = max(1, math.ceil(abs(xb - xa) / s0 - 1e-9)) * 2 ** level
        t = np.linspace(xa, xb, n + 1)[1:]
        x = centre + np.sign(t) * d_of(np.abs(t), L)
        x[-1] = b
        nodes.append(x)
    return np.concatenate(nodes)


def build_grid(width, layers, strip_on, top_ground, s0, level):
    """x nodes, y nodes, per-row-of-cells ε (air above the stack), strip row index, box size."""
    tops = np.cumsum([t for _, t in layers])
    ys, xe = tops[strip_on], width / 2
    L = min(xe, ys)
    box = BOX_FACTOR * max(width, tops[-1])
    ybreaks = [0.0, *tops] if top_ground else [0.0, *tops, box]
    x = graded_axis([0.0, xe, box], xe, L, s0, level)
    y = graded_axis(sorted(set(ybreaks)), ys, L, s0, level)
    mid = 0.5 * (y[:-1] + y[1:])
    eps_rows = np.ones(len(mid))
    for (er, _), lo, hi in zip(layers, np.concatenate([[0.0], tops[:-1]]), tops):
        eps_rows[(mid > lo) & (mid < hi)] = er
    js = int(np.argmin(np.abs(y - ys)))
    return x, y, eps_rows, js


def edge_weights(x, y, eps_rows):
    """Edge coefficients of the 5-point stencil (= P1 stiffness on right triangles).
    Horizontal edge (i,j)-(i+1,j): (ε_{j−1} dy_{j−1} + ε_j dy_j) / (2 dx_i);
    vertical edge (i,j)-(i,j+1): ε_j (dx_{i−1} + dx_i) / (2 dy_j)."""
    dx, dy = np.diff(x), np.diff(y)
    ey = np.concatenate([[0.0], eps_rows * dy, [0.0]])      # ε·dy per row, padded
    wh = np.outer(1.0 / (2 * dx), ey[:-1] + ey[1:])          # shape (nx−1, ny)
    hx = np.concatenate([[0.0], dx, [0.0]])
    wv = np.outer(hx[:-1] + hx[1:], eps_rows / (2 * dy))     # shape (nx, ny−1)
    return wh, wv


def solve_capacitance(x, y, eps_rows, js, xe, open_top, neumann_box=False):
    """C per unit length (F/m) of the full line from the energy of the half-domain solution."""
    nx, ny = len(x), len(y)
    wh, wv = edge_weights(x, y, eps_rows)
    idx = np.arange(nx * ny).reshape(nx, ny)
    fixed = np.zeros((nx, ny), bool)
    value = np.zeros((nx, ny))
    fixed[:, 0] = True                                      # ground
    if not open_top or not neumann_box:
        fixed[:, -1] = True                                 # top ground or box lid
    if not neumann_box:
        fixed[-1, :] = True                                 # box side
    strip = x <= xe * (1 + 1e-12)
    fixed[strip, js], value[strip, js] = True, 1.0
    a = np.concatenate([idx[:-1, :].ravel(), idx[:, :-1].ravel()])
    b = np.concatenate([idx[1:, :].ravel(), idx[:, 1:].ravel()])
    w = np.concatenate([wh.ravel(), wv.ravel()])
    n = nx * ny
    K = sp.coo_matrix((np.concatenate([-w, -w, w, w]),
                       (np.concatenate([a, b, a, b]), np.concatenate([b, a, a, b]))),
                      shape=(n, n)).tocsr()
    free = ~fixed.ravel()
    phi = value.ravel().copy()
    rhs = -K[free][:, ~free] @ phi[~free]
    phi[free] = spla.spsolve(K[free][:, free].tocsc(), rhs, permc_spec="MMD_AT_PLUS_A")
    energy = np.sum(w * (phi[a] - phi[b]) ** 2)             # φᵀKφ of the half domain
    return 2.0 * EPS0 * energy, int(free.sum())


def line_params(C, C0):
    return C / C0, 1.0 / (C0_LIGHT * math.sqrt(C * C0))


def analyse(width, layers, strip_on, top_ground, levels, s0, verbose):
    """Refinement sequence, Richardson extrapolation and error estimate: (εeff, Z0, dε, dZ)."""
    air = [(1.0, t) for _, t in layers]
    rows, rich = [], []
    for k in range(levels + 1):
        t0 = time.time()
        x, y, er, js = build_grid(width, layers, strip_on, top_ground, s0, k)
        _, _, er0, _ = build_grid(width, air, strip_on, top_ground, s0, k)
        C, nfree = solve_capacitance(x, y, er, js, width / 2, not top_ground)
        C0, _ = solve_capacitance(x, y, er0, js, width / 2, not top_ground)
        hmin = min(np.diff(x).min(), np.diff(y).min())
        rows.append((C, C0))
        if k:
            rich.append(tuple(c + (c - p) / 3 for c, p in zip(rows[-1], rows[-2])))
        ee, z = line_params(C, C0)
        if verbose:
            line = (f"  {k:2d} {s0 / 2**k:8.5f} {hmin * 1e6:10.3g} {nfree:9d} {ee:10.6f}"
                    f" {z:10.5f} {time.time() - t0:7.2f}")
            if k >= 2:
                dC = [rows[-2][i] - rows[-3][i] for i in (0, 1)]
                dN = [rows[-1][i] - rows[-2][i] for i in (0, 1)]
                p = [math.log2(o / nw) if o * nw > 0 else float("nan") for o, nw in zip(dC, dN)]
                line += f"   {p[0]:5.2f} {p[1]:5.2f}"
            if rich:
                re_, rz = line_params(*rich[-1])
                line += f"   {re_:10.6f} {rz:10.5f}"
            print(line)
    # box: Dirichlet walls bound C above, Neumann walls below (at level min(2, levels)).
    kb = min(2, levels)
    x, y, er, js = build_grid(width, layers, strip_on, top_ground, s0, kb)
    _, _, er0, _ = build_grid(width, air, strip_on, top_ground, s0, kb)
    CN, _ = solve_capacitance(x, y, er, js, width / 2, not top_ground, neumann_box=True)
    C0N, _ = solve_capacitance(x, y, er0, js, width / 2, not top_ground, neumann_box=True)
    CD, C0D = rows[kb]
    eps, z = line_params(*rich[-1])
    eps_p, z_p = line_params(*rich[-2]) if len(rich) > 1 else line_params(*rows[-1])
    box_rel = (CD - CN) / CD + (C0D - C0N) / C0D
    d_eps = abs(eps - eps_p) + eps * box_rel
    d_z = abs(z - z_p) + z * box_rel / 2
    if verbose:
        print(f"  box {BOX_FACTOR:g}·max(W, stack): Dirichlet − Neumann walls, relative: "
              f"C {(CD - CN) / CD:.1e}, C0 {(C0D - C0N) / C0D:.1e}")
    return eps, z, d_eps, d_z


def hammerstad_jensen(width, h, er):
    """Zero-thickness microstrip statics (Hammerstad & Jensen 1980): εeff, Z0."""
    u = width / h
    a = 1 + math.log((u**4 + (u / 52) ** 2) / (u**4 + 0.432)) / 49 + math.log(1 + (u / 18.1) ** 3) / 18.7
    b = 0.564 * ((er - 0.9) / (er + 3)) ** 0.053
    eeff = (er + 1) / 2 + (er - 1) / 2 * (1 + 10 / u) ** (-a * b)
    f = 6 + (2 * math.pi - 6) * math.exp(-((30.666 / u) ** 0.7528))
    z01 = ETA0 / (2 * math.pi) * math.log(f / u + math.sqrt(1 + 4 / u**2))
    return eeff, z01 / math.sqrt(eeff)


def cohn_stripline(width, b, er):
    """Exact Z0 of a centred zero-thickness strip between grounds spaced b (Cohn 1954)."""
    k = 1 / math.cosh(math.pi * width / (2 * b))
    kp = math.tanh(math.pi * width / (2 * b))
    return ETA0 / (4 * math.sqrt(er)) * ellipk(k**2) / ellipk(kp**2)


def references(width, layers, strip_on, top_ground):
    """Closed forms where they apply: a single-layer microstrip; a centred stripline, each half
    homogeneous (the field is the air field, so εeff = (ε_below + ε_above)/2 exactly)."""
    below = {er for er, _ in layers[:strip_on + 1]}
    above = {er for er, _ in layers[strip_on + 1:]}
    tops = np.cumsum([t for _, t in layers])
    if not top_ground and len(layers) == 1:
        return "Hammerstad-Jensen", hammerstad_jensen(width, layers[0][1], layers[0][0])
    if (top_ground and len(below) == len(above) == 1
            and abs(2 * tops[strip_on] - tops[-1]) < 1e-12 * tops[-1]):
        er = (below.pop() + above.pop()) / 2
        return "Cohn (exact)", (er, cohn_stripline(width, tops[-1], er))
    return None, None


TABLE = [
    ("RO4003 bare", 1.2, [(3.38, 0.508)], 0),
    ("RO4003 + solder mask", 1.2, [(3.38, 0.508), (3.8, 0.05)], 0),
    ("RO4003 buried", 1.2, [(3.38, 0.508), (3.38, 0.508)], 0),
    ("FR-4 bare", 3.0, [(4.4, 1.6)], 0),
    ("FR-4 + solder mask", 3.0, [(4.4, 1.6), (3.8, 0.05)], 0),
    ("FR-4 buried", 3.0, [(4.4, 1.6), (4.4, 0.8)], 0),
]


def self_test():
    """Levels 0..3 (seconds): a centred stripline against Cohn's exact Z0 (1e-4) with εeff = εr
    (1e-9), and a bare RO4003 line's Z0·√εeff against Hammerstad-Jensen's Z01 (their 0.03 %)."""
    failures = []
    cases = [("stripline", 1.2e-3, [(3.38, 0.5e-3), (3.38, 0.5e-3)], True, (1e-9, 1e-4)),
             ("RO4003 microstrip", 1.2e-3, [(3.38, 0.508e-3)], False, (None, 3e-4))]
    for name, width, layers, top, (tol_e, tol_z) in cases:
        e, z, _, _ = analyse(width, layers, 0, top, 3, 0.8, False)
        _, (e_ref, z_ref) = references(width, layers, 0, top)
        if tol_e is None:  # Hammerstad-Jensen's Z01 is the accurate one
            de, dz = 0.0, abs(z * math.sqrt(e) / (z_ref * math.sqrt(e_ref)) - 1)
        else:
            de, dz = abs(e / e_ref - 1), abs(z / z_ref - 1)
        ok = dz <= tol_z and (tol_e is None or de <= tol_e)
        print(f"{name}: eps_eff {e:.6f} (reference {e_ref:.6f}), Z0 {z:.5f} Ω (reference "
              f"{z_ref:.5f}), relative {dz:.1e}: {'ok' if ok else 'FAILED'}")
        if not ok:
            failures.append(name)
    return 1 if failures else 0


def parse_layer(text):
    er, t = text.split(":")
    return float(er), float(t) * 1e-3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--width-mm", type=float)
    ap.add_argument("--layer", type=parse_layer, action="append", default=[],
                    help="eps_r:thickness_mm, bottom layer first (repeat)")
    ap.add_argument("--strip-on", type=int, default=0, help="the strip lies on top of this layer")
    ap.add_argument("--top-ground", action="store_true", help="a ground on top of the stack")
    ap.add_argument("--levels", type=int, default=5, help="refinement levels beyond level 0")
    ap.add_argument("--s0", type=float, default=0.8, help="level-0 step in the grading coordinate")
    ap.add_argument("--table", action="store_true", help="the documentation's six cases")
    ap.add_argument("--self-test", action="store_true",
                    help="coarse grids against the closed forms; exit 1 unless within bounds")
    args = ap.parse_args()
    if args.levels < 1:
        ap.error("--levels must be at least 1")
    if args.self_test:
        sys.exit(self_test())
    if args.table:
        t0 = time.time()
        print(f"# {'case':22s} {'W/mm':>5s} {'eps_eff':>9s} {'± ':>8s} {'Z0/Ω':>9s} {'± ':>8s}")
        for name, w, layers, on in TABLE:
            e, z, de, dz = analyse(w * 1e-3, [(er, t * 1e-3) for er, t in layers], on, False,
                                   args.levels, args.s0, False)
            print(f"  {name:22s} {w:5.2f} {e:9.5f} {de:8.1e} {z:9.4f} {dz:8.1e}", flush=True)
        print(f"# levels 0..{args.levels}, s0 {args.s0}; {time.time() - t0:.0f} s")
        return
    if args.width_mm is None or not args.layer:
        ap.error("--width-mm and at least one --layer are required (or --table)")
    if not 0 <= args.strip_on < len(args.layer):
        ap.error("--strip-on must name a layer")
    if args.top_ground and args.strip_on == len(args.layer) - 1:
        ap.error("with --top-ground the strip must lie below the top layer")
    width = args.width_mm * 1e-3
    stack = " | ".join(f"εr {er:g}, {t * 1e3:g} mm" for er, t in args.layer)
    print(f"W {args.width_mm:g} mm on top of layer {args.strip_on}; layers (bottom up): {stack}; "
          f"{'ground' if args.top_ground else 'air'} above")
    print("   k        s    hmin/µm  unknowns    eps_eff       Z0/Ω  time/s   p(C) p(C0)"
          "   Richardson: eps_eff     Z0/Ω")
    e, z, de, dz = analyse(width, args.layer, args.strip_on, args.top_ground, args.levels,
                           args.s0, True)
    print(f"eps_eff = {e:.6f} ± {de:.1e}   Z0 = {z:.5f} ± {dz:.1e} Ω")
    name, ref = references(width, args.layer, args.strip_on, args.top_ground)
    if name:
        print(f"{name}: eps_eff {ref[0]:.6f} ({(e / ref[0] - 1) * 100:+.5f} %), "
              f"Z0 {ref[1]:.5f} Ω ({(z / ref[1] - 1) * 100:+.5f} %)")


if __name__ == "__main__":
    main()
