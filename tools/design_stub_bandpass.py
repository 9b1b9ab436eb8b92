#!/usr/bin/python3
"""Design a band-pass filter of short-circuited quarter-wave stubs in microstrip (vias to ground)
and print its planarmom config.

Usage: design_stub_bandpass.py [--f0-ghz F] [--bandwidth B] [--ripple-db R] [--order N]
                               [--via-mm D] [--eps-r E] [--height-mm H] [--loss-tangent T]
                               [--grid-mm G] [--feed-mm L] [--span-ghz A B] [--points P]
                               [--cell-mm C] [--check FILE]

The textbook design (Pozar, Microwave Engineering, 8.8; Matthaei, Young and Jones 10.2): N shunt
stubs, each a quarter wave at f0 shorted to ground, joined by quarter-wave lines of Z0; stub n's
impedance Z0n = pi Z0 B / (4 g_n), B the fractional bandwidth and g_n the Chebyshev prototype's
elements. Each shunt stub is drawn as two stubs of 2 Z0n, one on each side of the through line
(a symmetric layout, and twice the width's impedance: lines of a drawable width), each ended by
a via of diameter D centred on it. Widths from Hammerstad-Jensen (to an even number of grid
steps), lengths from Kirschning-Jansen's eps_eff at f0 of the drawn width (the functions the
MoM's line checks are compared with, through the planarmom Python module). Two textbook rules, no
correction from the MoM:
  - a stub's quarter wave runs from its junction's reference plane, the through line's edge, to
    its short, shortened by the via's own inductance (Goldfarb and Pucel, IEEE MGWL 1(6), 1991):
    beta l = pi/2 - atan(omega L / Z_stub);
  - the joining lines' quarter waves run between the stubs' centre lines.
The ports' reference planes are at the first and last stubs' centre lines. With --check FILE it
prints nothing and exits 1 unless FILE, from its "# g =" line on, is the design's config.
"""
import argparse
import math
import sys

from design_output import (C0, Z0, board_arguments, planarmom_module, print_or_check, snap,
                           sweep_lines)

planarmom = planarmom_module()
MU0 = 4e-7 * math.pi


def chebyshev_g(order, ripple_db):
    """The low-pass prototype's g_1..g_N of an equal-ripple response (Matthaei 4.05-2)."""
    beta = math.log(1 / math.tanh(ripple_db / 17.37))
    gamma = math.sinh(beta / (2 * order))
    a = [math.sin((2 * k - 1) * math.pi / (2 * order)) for k in range(1, order + 1)]
    b = [gamma ** 2 + math.sin(k * math.pi / order) ** 2 for k in range(1, order + 1)]
    g = [2 * a[0] / gamma]
    for k in range(2, order + 1):
        g.append(4 * a[k - 2] * a[k - 1] / (b[k - 2] * g[-1]))
    return g


def goldfarb_pucel_h(h_mm, r_mm):
    """A via's inductance (H) by Goldfarb and Pucel's closed form."""
    h, r = h_mm * 1e-3, r_mm * 1e-3
    s = math.hypot(r, h)
    return MU0 / (2 * math.pi) * (h * math.log((h + s) / r) + 1.5 * (r - s))


def design_text(a, args):
    g = a.grid_mm
    f0 = a.f0_ghz * 1e9
    w0 = snap(planarmom.microstrip_width_hj(Z0, a.eps_r) * a.height_mm, 2 * g)
    eps0, z0 = planarmom.microstrip_kj(w0 / a.height_mm, a.eps_r, a.f0_ghz, a.height_mm)
    joining = snap(C0 / (f0 * math.sqrt(eps0)) / 4 * 1e3, g)  # between stub centre lines
    l_via = goldfarb_pucel_h(a.height_mm, a.via_mm / 2)
    gs = chebyshev_g(a.order, a.ripple_db)
    stubs = []
    for n, gn in enumerate(gs):
        z_stub = 2 * math.pi * Z0 * a.bandwidth / (4 * gn)  # each of the pair: twice Z0n
        w = snap(planarmom.microstrip_width_hj(z_stub, a.eps_r) * a.height_mm, 2 * g)
        eps, z = planarmom.microstrip_kj(w / a.height_mm, a.eps_r, a.f0_ghz, a.height_mm)
        beta = 2 * math.pi * f0 * math.sqrt(eps) / C0
        theta = math.pi / 2 - math.atan(2 * math.pi * f0 * l_via / z)
        length = snap(theta / beta * 1e3, g)  # the through line's edge to the via's centre
        stubs.append((n + 1, gn, z_stub, w, z, eps, length))
    r6 = lambda v: f"{round(v, 6):g}"
    first = a.feed_mm + stubs[0][3] / 2  # the first stub's centre line
    centres = [first + k * joining for k in range(a.order)]
    right = centres[-1] + stubs[-1][3] / 2 + a.feed_mm
    out = [f"# A band-pass filter of {a.order} short-circuited quarter-wave stubs (vias) on "
           f"εr {a.eps_r:g}, h {a.height_mm:g} mm, tanδ {a.loss_tangent:g},",
           f"# centred on {a.f0_ghz:g} GHz, fractional bandwidth {a.bandwidth:g} "
           f"({a.f0_ghz * (1 - a.bandwidth / 2):g}-{a.f0_ghz * (1 + a.bandwidth / 2):g} GHz), "
           f"Chebyshev {a.ripple_db:g} dB;",
           f"# designed by tools/design_stub_bandpass.py {' '.join(args)}".rstrip(),
           f"# g = {g:g} mm grid; Z0 {Z0:g} ohm: W {w0:g} mm ({z0:.2f} ohm, eps_eff {eps0:.4f}); "
           f"joining lines {joining:g} mm (a quarter wave at f0, stub centre to stub centre)",
           f"# vias {a.via_mm:g} mm: Goldfarb-Pucel L {l_via * 1e9:.4f} nH"]
    for n, gn, z_stub, w, z, eps, length in stubs:
        out.append(f"# stub {n}: g {gn:.4f}, a pair of 2 Z0{n} = {z_stub:.2f} ohm: W {w:g} mm "
                   f"({z:.2f} ohm, eps_eff {eps:.4f}), {length:g} mm from the through line's "
                   "edge to the via's centre")
    out += [f"substrate: {{eps_r: {a.eps_r:g}, height_mm: {a.height_mm:g}, "
            f"loss_tangent: {a.loss_tangent:g}}}",
            "metal: {pec: true}",
            "layout:",
            f"  - {{x0: 0, y0: {r6(-w0 / 2)}, x1: {r6(right)}, y1: {r6(w0 / 2)}}}  # through line"]
    vias = []
    for (n, _, _, w, _, _, length), xc in zip(stubs, centres):
        end = w0 / 2 + length + a.via_mm / 2  # the stub's far edge: the via's edge
        for sign, side in ((1, "upper"), (-1, "lower")):
            y0, y1 = sorted((sign * w0 / 2, sign * end))
            out.append(f"  - {{x0: {r6(xc - w / 2)}, y0: {r6(y0)}, x1: {r6(xc + w / 2)}, "
                       f"y1: {r6(y1)}}}  # stub {n}, {side}")
            vias.append((f"V{n}{side[0]}", xc, sign * (w0 / 2 + length)))
    plane = r6(first)
    out += ["ports:  # reference planes at the first and last stubs' centre lines",
            f"  - {{name: in, x: 0, y: 0, direction: \"+x\", feed_length_mm: {a.feed_mm:g}, "
            f"reference_plane_mm: {plane}}}",
            f"  - {{name: out, x: {r6(right)}, y: 0, direction: \"-x\", feed_length_mm: "
            f"{a.feed_mm:g}, reference_plane_mm: {plane}}}",
            "vias:"]
    for name, x, y in vias:
        out.append(f"  - {{name: {name}, x: {r6(x)}, y: {r6(y)}, diameter_mm: {a.via_mm:g}}}")
    out += sweep_lines(a)
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--f0-ghz", type=float, default=3.0)
    p.add_argument("--bandwidth", type=float, default=0.5, help="fractional bandwidth")
    p.add_argument("--ripple-db", type=float, default=0.1)
    p.add_argument("--order", type=int, default=3)
    p.add_argument("--via-mm", type=float, default=0.4,
                   help="the vias' diameter (its radius on the grid: the stub ends at its edge)")
    p.add_argument("--points", type=int, default=101)
    board_arguments(p, eps_r=3.38, height_mm=0.508, loss_tangent=0.0027, grid_mm=0.2,
                    feed_mm=10.0, span_ghz=(1.0, 5.0), cell_mm=0.2)
    a = p.parse_args()
    print_or_check(design_text, a, sys.argv[1:])


if __name__ == "__main__":
    main()
