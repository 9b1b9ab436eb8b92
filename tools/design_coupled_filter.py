#!/usr/bin/python3
"""Design an edge-coupled (parallel-coupled half-wave) microstrip band-pass filter and print its
planarmom config.

Usage: design_coupled_filter.py [--f0-ghz F] [--fbw FBW] [--order N] [--ripple-db R]
                                [--eps-r E] [--height-mm H] [--loss-tangent T] [--grid-mm G]
                                [--feed-mm L] [--span-ghz A B] [--cell-mm C] [--check FILE]

The textbook design (Matthaei, Young and Jones 1964; Pozar, Microwave Engineering, 8.8): a
Chebyshev low-pass prototype of order N (g-values from the ripple), N + 1 coupled sections whose
admittance inverters are J01 Z0 = sqrt(pi FBW / (2 g0 g1)), J(j,j+1) Z0 = pi FBW / (2 sqrt(gj
gj+1)), J(N,N+1) Z0 = sqrt(pi FBW / (2 gN gN+1)); each section's even and odd impedances
Z0(1 +- JZ0 + (JZ0)^2). Widths and gaps from Kirschning-Jansen's coupled lines at f0 (the
functions the MoM's coupled-line check uses, through the planarmom Python module), each section a
quarter of the mean guided wavelength, 2 pi / (beta_e + beta_o), less the open end's extension
(Hammerstad and Bekkadal) of its strips. Dimensions round to the drawing grid; the design's
impedances and lengths after rounding are printed beside the targets. With --check FILE it
prints nothing and exits 1 unless FILE, from its "# g =" line on, is the design's config (how
the example is kept the design's output).
"""
import argparse
import math
import sys

from design_output import board_arguments, planarmom_module, print_or_check

planarmom = planarmom_module()

C_MM_GHZ = 299.792458  # speed of light, mm GHz


def chebyshev_g(order, ripple_db):
    """The low-pass prototype's g0..gN+1 (Matthaei, Young and Jones, 4.05-2)."""
    beta = math.log(1 / math.tanh(ripple_db / 17.37))
    gamma = math.sinh(beta / (2 * order))
    a = [math.sin((2 * k - 1) * math.pi / (2 * order)) for k in range(1, order + 1)]
    b = [gamma ** 2 + math.sin(k * math.pi / order) ** 2 for k in range(1, order + 1)]
    g = [1.0, 2 * a[0] / gamma]
    for k in range(2, order + 1):
        g.append(4 * a[k - 2] * a[k - 1] / (b[k - 2] * g[k - 1]))
    g.append(1.0 if order % 2 else 1 / math.tanh(beta / 4) ** 2)
    return g


def coupled(u, g, a):
    return planarmom.coupled_microstrip_kj(u, g, a.eps_r, a.f0_ghz, a.height_mm)


def solve_width_gap(z0e, z0o, a):
    """W/h and S/h whose Kirschning-Jansen even and odd impedances are z0e and z0o (Newton)."""
    u, g = 2.0, 0.5
    for _ in range(100):
        e0, o0 = coupled(u, g, a)[2:]
        eu, ou = coupled(u * 1.000001, g, a)[2:]
        eg, og = coupled(u, g * 1.000001, a)[2:]
        j = [[(eu - e0) / (u * 1e-6), (eg - e0) / (g * 1e-6)],
             [(ou - o0) / (u * 1e-6), (og - o0) / (g * 1e-6)]]
        det = j[0][0] * j[1][1] - j[0][1] * j[1][0]
        fe, fo = e0 - z0e, o0 - z0o
        du = (j[1][1] * fe - j[0][1] * fo) / det
        dg = (-j[1][0] * fe + j[0][0] * fo) / det
        u, g = max(0.5 * u, u - du), max(0.5 * g, g - dg)
        if abs(du) < 1e-12 * u and abs(dg) < 1e-12 * g:
            break
    return u, g


def open_end_mm(width_mm, a):
    """Hammerstad and Bekkadal's open-end extension of a strip of this width."""
    u = width_mm / a.height_mm
    eps_eff = planarmom.microstrip_kj(u, a.eps_r, a.f0_ghz, a.height_mm)[0]
    return a.height_mm * 0.412 * (eps_eff + 0.3) * (u + 0.264) / ((eps_eff - 0.258) * (u + 0.8))


def snap(value, grid):
    return round(value / grid) * grid


def sections(a):
    g = chebyshev_g(a.order, a.ripple_db)
    out = []
    for j in range(a.order + 1):
        if j in (0, a.order):
            k = j if j == 0 else a.order
            jz = math.sqrt(math.pi * a.fbw / (2 * g[k] * g[k + 1]))
        else:
            jz = math.pi * a.fbw / (2 * math.sqrt(g[j] * g[j + 1]))
        z0e, z0o = 50 * (1 + jz + jz * jz), 50 * (1 - jz + jz * jz)
        u, s = solve_width_gap(z0e, z0o, a)
        w, gap = snap(u * a.height_mm, a.grid_mm), snap(s * a.height_mm, a.grid_mm)
        ee, eo, ze, zo = coupled(w / a.height_mm, gap / a.height_mm, a)
        quarter = C_MM_GHZ / a.f0_ghz / (2 * (math.sqrt(ee) + math.sqrt(eo)))
        length = snap(quarter - open_end_mm(w, a), a.grid_mm)
        out.append(dict(jz=jz, z0e=z0e, z0o=z0o, w_exact=u * a.height_mm, s_exact=s * a.height_mm,
                        w=w, s=gap, z0e_drawn=ze, z0o_drawn=zo, quarter=quarter, length=length))
    return g, out


def config(a, g, secs):
    feed_w = snap(planarmom.microstrip_width_hj(50, a.eps_r) * a.height_mm, a.grid_mm)
    lines = []
    x, yc = a.feed_mm, 0.0  # section 0's lower strip continues the input feed's centre line
    rects = [(0, yc - feed_w / 2, x, yc + feed_w / 2, "input feed (50 ohm)")]
    for j, s in enumerate(secs):
        lo, hi = yc, yc + s["w"] + s["s"]
        name_lo = "input line's coupled end" if j == 0 else f"resonator {j}, second half"
        name_hi = "output line's coupled end" if j == a.order else f"resonator {j + 1}, first half"
        rects.append((x, lo - s["w"] / 2, x + s["length"], lo + s["w"] / 2, f"section {j}: {name_lo}"))
        rects.append((x, hi - s["w"] / 2, x + s["length"], hi + s["w"] / 2, f"section {j}: {name_hi}"))
        x, yc = x + s["length"], hi
    rects.append((x, yc - feed_w / 2, x + a.feed_mm, yc + feed_w / 2, "output feed (50 ohm)"))
    y0 = min(r[1] for r in rects)
    r6 = lambda v: f"{round(v - 0, 6):g}"
    for x0, ya, x1, yb, what in rects:
        lines.append(f"  - {{x0: {r6(x0)}, y0: {r6(ya - y0)}, x1: {r6(x1)}, y1: {r6(yb - y0)}}}  # {what}")
    x_end = x + a.feed_mm
    return feed_w, y0, yc, x_end, lines


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--f0-ghz", type=float, default=5.0)
    p.add_argument("--fbw", type=float, default=0.06, help="fractional bandwidth (ripple band)")
    p.add_argument("--order", type=int, default=3)
    p.add_argument("--ripple-db", type=float, default=0.5)
    board_arguments(p, eps_r=3.38, height_mm=0.508, loss_tangent=0.0027, grid_mm=0.1,
                    feed_mm=20.0, span_ghz=None, cell_mm=0.1)
    a = p.parse_args()
    print_or_check(design_text, a, sys.argv[1:])


def design_text(a, args):
    """The design's config as text, its header naming the arguments."""
    out = []
    g, secs = sections(a)
    _, y0, yc, x_end, lines = config(a, g, secs)
    span = a.span_ghz or (a.f0_ghz * 0.8, a.f0_ghz * 1.2)
    out.append(f"# An edge-coupled band-pass filter on εr {a.eps_r:g}, h {a.height_mm:g} mm: order {a.order}"
               f" Chebyshev, {a.ripple_db:g} dB ripple, centre {a.f0_ghz:g} GHz, {100 * a.fbw:g}% bandwidth,")
    out.append(f"# designed by tools/design_coupled_filter.py {' '.join(args)}".rstrip())
    out.append("# g = " + ", ".join(f"{v:.4f}" for v in g))
    out.append("# section: J Z0, target Z0e/Z0o (W, S exact) -> drawn W, S (their Z0e/Z0o), quarter"
          " wave, drawn length (less the open end)")
    for j, s in enumerate(secs):
        out.append(f"#   {j}: {s['jz']:.4f}, {s['z0e']:.2f}/{s['z0o']:.2f} ohm ({s['w_exact']:.3f},"
               f" {s['s_exact']:.3f} mm) -> {s['w']:.3g}, {s['s']:.3g} mm ({s['z0e_drawn']:.2f}/"
               f"{s['z0o_drawn']:.2f} ohm), {s['quarter']:.3f} mm, {s['length']:.4g} mm")
    out.append(f"substrate: {{eps_r: {a.eps_r:g}, height_mm: {a.height_mm:g}, loss_tangent: {a.loss_tangent:g}}}")
    out.append("metal: {pec: true}")
    out.append("layout:")
    out.extend(lines)
    feed_len = a.feed_mm - 4
    out.append("ports:  # reference planes at the filter's ends")
    out.append(f"  - {{name: in, x: 0, y: {-y0:g}, direction: \"+x\", feed_length_mm: {feed_len:g}, "
               f"reference_plane_mm: {a.feed_mm:g}}}")
    out.append(f"  - {{name: out, x: {x_end:g}, y: {yc - y0:g}, direction: \"-x\", feed_length_mm: "
               f"{feed_len:g}, reference_plane_mm: {a.feed_mm:g}}}")
    out.append(f"mesh: {{cell_mm: {a.cell_mm:g}}}")
    out.append(f"frequencies: {{start_hz: {span[0] * 1e9:.4g}, stop_hz: {span[1] * 1e9:.4g}, points: 101}}")
    out.append("sparsify: {rule: exact}")
    out.append("solver: {tolerance: 1.0e-9}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
