#!/usr/bin/env python3
"""The FR-4 branch-line coupler of examples/branch_line_coupler_fr4.yaml with other arm lengths,
for the design scan that places its |S11| minimum (tools/gpu-check.sh stage fr4).

Usage: fr4_coupler.py SERIES_MM SHUNT_MM [--density D] [--rule R] [--frequencies YAML]
  SERIES_MM, SHUNT_MM: the series (top, bottom) and shunt (left, right) arms' length centre to
  centre, multiples of 0.4 mm (the drawing grid; meshed as the example, 0.2 x 0.4 mm cells).
  Writes the config to standard output.
"""
import argparse

W_SERIES, W_SHUNT, FEED = 4.8, 3.2, 24.8


def config(series, shunt, density, rule, frequencies):
    xl = FEED + W_SHUNT / 2          # left shunt arm's centre line
    xr = xl + series                 # right shunt arm's
    yb = W_SERIES / 2                # bottom series arm's
    yt = yb + shunt                  # top series arm's
    right = xr + W_SHUNT / 2
    top = yt + W_SERIES / 2
    end = right + FEED
    r = lambda v: round(v, 4)
    rects = [
        (FEED, 0.0, right, W_SERIES), (FEED, yt - W_SERIES / 2, right, top),
        (FEED, 0.0, FEED + W_SHUNT, top), (right - W_SHUNT, 0.0, right, top),
        (0.0, yt - W_SHUNT / 2, FEED, yt + W_SHUNT / 2), (right, yt - W_SHUNT / 2, end, yt + W_SHUNT / 2),
        (right, yb - W_SHUNT / 2, end, yb + W_SHUNT / 2), (0.0, yb - W_SHUNT / 2, FEED, yb + W_SHUNT / 2)]
    ports = [("in", 0.0, yt, "+x"), ("through", end, yt, "-x"), ("coupled", end, yb, "-x"),
             ("isolated", 0.0, yb, "+x")]
    lines = ["substrate: {eps_r: 4.4, height_mm: 1.6, loss_tangent: 0.02}", "metal: {pec: true}",
             "layout:"]
    lines += [f"  - {{x0: {r(a)}, y0: {r(b)}, x1: {r(c)}, y1: {r(d)}}}" for a, b, c, d in rects]
    lines += ["ports:"]
    lines += [f'  - {{name: {n}, x: {r(x)}, y: {r(y)}, direction: "{d}", feed_length_mm: {FEED}, '
              f"reference_plane_mm: {FEED}, impedance_ohm: 50}}" for n, x, y, d in ports]
    lines += ["mesh: {cell_mm: [0.2, 0.4]}", f"frequencies: {frequencies}",
              f"sparsify: {{density: {density}, rule: {rule}}}", "solver: {tolerance: 1.0e-9}"]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("series", type=float)
    p.add_argument("shunt", type=float)
    p.add_argument("--density", default="0.05")
    p.add_argument("--rule", default="mpie")
    p.add_argument("--frequencies", default="{start_hz: 1.6e9, stop_hz: 3.2e9, points: 41}")
    a = p.parse_args()
    print(config(a.series, a.shunt, a.density, a.rule, a.frequencies), end="")


if __name__ == "__main__":
    main()
