#!/usr/bin/python3
"""Design an equal-split Wilkinson power divider in microstrip and print its planarmom config.

Usage: design_wilkinson.py [--f0-ghz F] [--eps-r E] [--height-mm H] [--loss-tangent T]
                           [--arm-offset-mm D] [--gap-mm G] [--grid-mm G] [--feed-mm L]
                           [--span-ghz A B] [--points P] [--cell-mm C] [--check FILE]

The textbook design (Pozar, Microwave Engineering, 7.3; Wilkinson 1960): two quarter-wave arms of
sqrt(2) Z0 = 70.7 ohm from the input to the outputs, a 2 Z0 = 100 ohm resistor between the
outputs. Widths from Hammerstad-Jensen (to an even number of grid steps), the arms' quarter
wave from Kirschning-Jansen's eps_eff at f0 of the drawn width (the functions the MoM's line
checks are compared with, through the planarmom Python module). Drawn on the grid: the input
feed along x meets a split bar across it; each arm runs from the bar along x at +-D and turns
back to the centre line, where the two arms' ends face each other across the resistor's strip
(the resistor on its middle grid line, `lumped:`); each output leaves its arm's end along x and
turns away from the other (+-y) to its port. Two textbook rules, no correction from the MoM:
  - an arm's quarter wave is its centre line between the reference planes of its junctions, the
    edges of the lines it joins (the input's edge on the split bar, the output's on the arm's
    end), not their centres;
  - the outputs' right-angle bends are mitred by Douville and James' rule (IEEE Trans. MTT 26,
    1978): the fraction m = 0.52 + 0.65 exp(-1.35 W/h) of the corner's diagonal cut away.
The ports' reference planes are at the junctions (input) and where the outputs' bends end; the
feeds are short and calibrated (docs/CONFIG.md, /deembedding). With --check FILE it prints
nothing and exits 1 unless FILE, from its "# g =" line on, is the design's config.
"""
import argparse
import math
import sys

from design_output import (C0, Z0, board_arguments, planarmom_module, print_or_check, snap,
                           sweep_lines)

planarmom = planarmom_module()


def design_text(a, args):
    g = a.grid_mm
    z_arm = math.sqrt(2) * Z0
    w0 = snap(planarmom.microstrip_width_hj(Z0, a.eps_r) * a.height_mm, 2 * g)
    w1 = snap(planarmom.microstrip_width_hj(z_arm, a.eps_r) * a.height_mm, 2 * g)
    eps1, z1 = planarmom.microstrip_kj(w1 / a.height_mm, a.eps_r, a.f0_ghz, a.height_mm)
    eps0, z0 = planarmom.microstrip_kj(w0 / a.height_mm, a.eps_r, a.f0_ghz, a.height_mm)
    quarter = C0 / (a.f0_ghz * 1e9 * math.sqrt(eps1)) / 4 * 1e3  # mm
    d, gap = a.arm_offset_mm, a.gap_mm
    # The arm's centre line between its junctions' edges: up the split bar from the input's
    # edge, along x between the two corners' centres, down its end to the output's edge.
    along = snap(quarter - (d - w0 / 2) - (d - (gap / 2 + w0)), g)
    arm = (d - w0 / 2) + along + (d - (gap / 2 + w0))
    mitre = 0.52 + 0.65 * math.exp(-1.35 * w0 / a.height_mm)
    cut = snap(2 * mitre * w0, g)  # along each side of the output's outer corner
    xj = a.feed_mm                   # the split bar's left edge
    xe = xj + w1 / 2 + along - w1 / 2  # the arm's end's left edge
    xo = xe + w1                     # its right edge, where the output leaves
    xv = xo + w1                     # the output's turn: one arm width away from the arm's end
    y_out = gap / 2 + w0             # the output leaves the arm's end between gap/2 and this
    y_port = y_out + a.feed_mm + (cut - w0 if cut > w0 else 0)
    r6 = lambda v: f"{round(v, 6):g}"
    out = [f"# An equal-split Wilkinson divider on εr {a.eps_r:g}, h {a.height_mm:g} mm, "
           f"tanδ {a.loss_tangent:g}, centred on {a.f0_ghz:g} GHz,",
           f"# designed by tools/design_wilkinson.py {' '.join(args)}".rstrip(),
           f"# g = {g:g} mm grid; Z0 {Z0:g} ohm: W {w0:g} mm ({z0:.2f} ohm, eps_eff {eps0:.4f}); "
           f"arms sqrt(2) Z0: W {w1:g} mm ({z1:.2f} ohm, eps_eff {eps1:.4f}) (Kirschning-Jansen "
           "at f0)",
           f"# arm: quarter wave {quarter:.3f} mm between its junctions' edges, drawn {arm:g} mm "
           f"({along:g} mm along x between its corners, offset +-{d:g} mm)",
           f"# outputs' bends mitred: m = {mitre:.3f} of the diagonal, {cut:g} mm along each "
           f"side; resistor {2 * Z0:g} ohm across a {gap:g} mm strip",
           f"substrate: {{eps_r: {a.eps_r:g}, height_mm: {a.height_mm:g}, "
           f"loss_tangent: {a.loss_tangent:g}}}",
           "metal: {pec: true}",
           "layout:",
           f"  - {{x0: 0, y0: {r6(-w0 / 2)}, x1: {r6(xj)}, y1: {r6(w0 / 2)}}}  # input feed",
           f"  - {{x0: {r6(xj)}, y0: {r6(-d - w1 / 2)}, x1: {r6(xj + w1)}, y1: {r6(d + w1 / 2)}}}"
           "  # the split bar"]
    for sign, name in ((1, "upper"), (-1, "lower")):
        ys = lambda lo, hi: (r6(min(sign * lo, sign * hi)), r6(max(sign * lo, sign * hi)))
        y0, y1 = ys(d - w1 / 2, d + w1 / 2)
        out.append(f"  - {{x0: {r6(xj + w1)}, y0: {y0}, x1: {r6(xe)}, y1: {y1}}}  # {name} arm")
        y0, y1 = ys(gap / 2, d + w1 / 2)
        out.append(f"  - {{x0: {r6(xe)}, y0: {y0}, x1: {r6(xo)}, y1: {y1}}}  # its end")
        # The output: along x from the arm's end, turning away at xv (outer corner mitred).
        corner_x = xv + w0
        points = [(xo, gap / 2), (corner_x - cut, gap / 2), (corner_x, gap / 2 + cut),
                  (corner_x, y_port), (xv, y_port), (xv, y_out), (xo, y_out)]
        if sign < 0:
            points = [(x, -y) for x, y in reversed(points)]
        text = ", ".join(f"[{r6(x)}, {r6(y)}]" for x, y in points)
        out.append(f"  - {{polygon: [{text}]}}  # {name} output, its bend mitred")
    out.append(f"  - {{x0: {r6(xe)}, y0: {r6(-gap / 2)}, x1: {r6(xo)}, y1: {r6(gap / 2)}}}"
               "  # the resistor's strip")
    feed_out = y_port - (gap / 2 + cut)
    out.append("ports:  # reference planes at the input's junction and the outputs' bends' ends")
    out.append(f"  - {{name: in, x: 0, y: 0, direction: \"+x\", feed_length_mm: {a.feed_mm:g}, "
               f"reference_plane_mm: {a.feed_mm:g}}}")
    for k, sign in ((2, 1), (3, -1)):
        out.append(f"  - {{name: out{k - 1}, x: {r6(xv + w0 / 2)}, y: {r6(sign * y_port)}, "
                   f"direction: \"{'-y' if sign > 0 else '+y'}\", feed_length_mm: {r6(feed_out)}, "
                   f"reference_plane_mm: {r6(feed_out)}}}")
    out.append("lumped:")
    out.append(f"  - {{name: R, x: {r6((xe + xo) / 2)}, y: 0, axis: y, r_ohm: {2 * Z0:g}}}")
    out += sweep_lines(a)
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--f0-ghz", type=float, default=2.4)
    p.add_argument("--arm-offset-mm", type=float, default=5.2,
                   help="the arms' centre lines from the input's axis")
    p.add_argument("--gap-mm", type=float, default=0.8,
                   help="the resistor's strip between the arms")
    p.add_argument("--points", type=int, default=101)
    board_arguments(p, eps_r=4.4, height_mm=1.6, loss_tangent=0.02, grid_mm=0.4, feed_mm=10.0,
                    span_ghz=(1.6, 3.2), cell_mm=0.4)
    a = p.parse_args()
    print_or_check(design_text, a, sys.argv[1:])


if __name__ == "__main__":
    main()
