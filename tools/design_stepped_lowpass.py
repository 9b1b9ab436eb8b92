#!/usr/bin/python3
"""Design a stepped-impedance microstrip low-pass filter and print its planarmom config.

Usage: design_stepped_lowpass.py [--fc-ghz F] [--order N] [--eps-r E] [--height-mm H]
                                 [--loss-tangent T] [--high-mm W] [--low-mm W] [--grid-mm G]
                                 [--feed-mm L] [--span-ghz A B] [--points P] [--cell-mm C]
                                 [--check FILE]

The textbook design (Pozar, Microwave Engineering, 8.6; Matthaei, Young and Jones 1964): a
maximally flat low-pass prototype of order N, g_k = 2 sin((2k - 1) pi / (2N)), its shunt
capacitors as sections of the low impedance Zl and its series inductors as sections of the high
impedance Zh, starting with a capacitor: at the cutoff fc each section is beta l = g Zl / Z0
(capacitor) or g Z0 / Zh (inductor) long, beta from Kirschning-Jansen's eps_eff at fc of the
drawn width and Zl, Zh its impedance there (the functions the MoM's line checks are compared
with, through the planarmom Python module). The feeds are 50 ohm lines (Hammerstad-Jensen's
width, to an even number of grid steps), `--feed-mm` long, with their reference planes at the filter's ends; short feeds are
calibrated (docs/CONFIG.md, /deembedding). No correction for the steps: their fringing
capacitance and the wide sections' own inductance shift the cutoff, which the MoM includes and
the design does not. With --check FILE it prints nothing and exits 1 unless FILE, from its
"# g =" line on, is the design's config (how the example is kept the design's output).
"""
import argparse
import math
import sys

from design_output import (C0, Z0, board_arguments, planarmom_module, print_or_check, snap,
                           sweep_lines)

planarmom = planarmom_module()


def line(width_mm, a):
    """(eps_eff, Z0) of the drawn width at fc, Kirschning-Jansen."""
    return planarmom.microstrip_kj(width_mm / a.height_mm, a.eps_r, a.fc_ghz, a.height_mm)


def sections(a):
    g = [2 * math.sin((2 * k - 1) * math.pi / (2 * a.order)) for k in range(1, a.order + 1)]
    eps_h, zh = line(a.high_mm, a)
    eps_l, zl = line(a.low_mm, a)
    k0 = 2 * math.pi * a.fc_ghz * 1e9 / C0 * 1e-3  # rad/mm
    secs = []
    for k, gk in enumerate(g):
        capacitor = k % 2 == 0
        turn = gk * zl / Z0 if capacitor else gk * Z0 / zh
        width, eps = (a.low_mm, eps_l) if capacitor else (a.high_mm, eps_h)
        exact = turn / (k0 * math.sqrt(eps))
        secs.append({"g": gk, "c": capacitor, "w": width, "turn": turn, "exact": exact,
                     "length": snap(exact, a.grid_mm)})
    return g, (zh, eps_h), (zl, eps_l), secs


def design_text(a, args):
    g, (zh, eps_h), (zl, eps_l), secs = sections(a)
    # Every width a whole number of grid steps on either side of the common centre line.
    feed_w = snap(planarmom.microstrip_width_hj(Z0, a.eps_r) * a.height_mm, 2 * a.grid_mm)
    if any(abs(snap(w, 2 * a.grid_mm) - w) > 1e-9 for w in (a.high_mm, a.low_mm)):
        sys.exit("design_stepped_lowpass.py: --high-mm and --low-mm must be even multiples of "
                 "--grid-mm (the sections share one centre line on the grid)")
    half = max(s["w"] for s in secs) / 2
    out = [f"# A stepped-impedance low-pass filter on εr {a.eps_r:g}, h {a.height_mm:g} mm: order "
           f"{a.order} maximally flat, cutoff {a.fc_ghz:g} GHz,",
           f"# designed by tools/design_stepped_lowpass.py {' '.join(args)}".rstrip(),
           "# g = " + ", ".join(f"{v:.4f}" for v in g),
           f"# high impedance: W {a.high_mm:g} mm, Z {zh:.2f} ohm, eps_eff {eps_h:.4f}; low: W "
           f"{a.low_mm:g} mm, Z {zl:.2f} ohm, eps_eff {eps_l:.4f} (Kirschning-Jansen at fc)",
           "# section: element, beta l at fc, exact length -> drawn length"]
    for k, s in enumerate(secs):
        out.append(f"#   {k + 1}: {'C' if s['c'] else 'L'} {s['g']:.4f}, "
                   f"{math.degrees(s['turn']):.2f} deg, {s['exact']:.3f} mm -> {s['length']:g} mm")
    out.append(f"substrate: {{eps_r: {a.eps_r:g}, height_mm: {a.height_mm:g}, "
               f"loss_tangent: {a.loss_tangent:g}}}")
    out.append("metal: {pec: true}")
    out.append("layout:")
    r6 = lambda v: f"{round(v, 6):g}"
    x = a.feed_mm
    out.append(f"  - {{x0: 0, y0: {r6(half - feed_w / 2)}, x1: {r6(x)}, y1: {r6(half + feed_w / 2)}}}"
               "  # input feed (50 ohm)")
    for k, s in enumerate(secs):
        out.append(f"  - {{x0: {r6(x)}, y0: {r6(half - s['w'] / 2)}, x1: {r6(x + s['length'])}, "
                   f"y1: {r6(half + s['w'] / 2)}}}  # section {k + 1} ({'C' if s['c'] else 'L'})")
        x += s["length"]
    out.append(f"  - {{x0: {r6(x)}, y0: {r6(half - feed_w / 2)}, x1: {r6(x + a.feed_mm)}, "
               f"y1: {r6(half + feed_w / 2)}}}  # output feed (50 ohm)")
    out.append("ports:  # reference planes at the filter's ends")
    out.append(f"  - {{name: in, x: 0, y: {r6(half)}, direction: \"+x\", feed_length_mm: "
               f"{a.feed_mm:g}, reference_plane_mm: {a.feed_mm:g}}}")
    out.append(f"  - {{name: out, x: {r6(x + a.feed_mm)}, y: {r6(half)}, direction: \"-x\", "
               f"feed_length_mm: {a.feed_mm:g}, reference_plane_mm: {a.feed_mm:g}}}")
    out += sweep_lines(a)
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fc-ghz", type=float, default=2.5)
    p.add_argument("--order", type=int, default=6)
    p.add_argument("--high-mm", type=float, default=0.8, help="width of the high-impedance line")
    p.add_argument("--low-mm", type=float, default=8.8, help="width of the low-impedance line")
    p.add_argument("--points", type=int, default=101)
    board_arguments(p, eps_r=4.4, height_mm=1.6, loss_tangent=0.02, grid_mm=0.2, feed_mm=5.0,
                    span_ghz=(0.1, 5.0), cell_mm=0.2)
    a = p.parse_args()
    print_or_check(design_text, a, sys.argv[1:])


if __name__ == "__main__":
    main()
