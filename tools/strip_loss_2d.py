#!/usr/bin/python3
"""Conductor loss of a microstrip by a 2-D quasi-static model: the check that predicted the
MoM's strip loss with the current on one face and on both (docs/VALIDATION.md, "Losses").

A zero-thickness strip of width W at height h over a perfect ground: its charge (hence, for a
quasi-TEM line, its current K(x)) by boundary elements with the ground's image (log kernels,
cosine-graded panels); the ground's current K_g(x) = (1/π) ∫ K h / ((x − x')² + h²); the image's
field on the strip H_i(x) = (1/π) ∫ K h / ((x − x')² + 4h²). The loss per length for a surface
resistance Rs: the ground Rs ∫ K_g²; the strip with all its current on one face Rs ∫ K², on both
faces (K/2 ± H_i) Rs ∫ (K²/2 + 2 H_i²), the integrals cut at a distance Δ from the edges (the
zero-thickness strip's edge current is not square-integrable). α = loss / (2 Z0 I²), in dB/m.

With --thickness-um T it also solves the rectangular strip of that thickness (panels on its
whole perimeter, graded to the corners, whose r^(−1/3) current is square-integrable): the loss
Rs ∮ J² with no cut, the reference the zero-thickness models stand in for.

Usage: strip_loss_2d.py --width-mm W --height-mm H --z0 Z0 [--freq-ghz F] [--sigma S]
                        [--panels N] [--cut-um D ...] [--thickness-um T]
"""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError as error:
    print(f"SKIP: {sys.executable} cannot import numpy ({error}); install python3-numpy",
          file=sys.stderr)
    sys.exit(77)


def log_integral(x, a, b, d):
    """∫_a^b ln √((x − s)² + d²) ds for every x."""
    def primitive(u):
        if d == 0:
            return u * np.log(np.abs(u) + 1e-300) - u
        return 0.5 * u * np.log(u * u + d * d) - u + d * np.arctan(u / d)
    return primitive(x - a) - primitive(x - b)


def strip_current(width, height, panels):
    """Panel edges, centres, widths and the current density for a total current of 1 A."""
    edges = -width / 2 * np.cos(np.linspace(0, np.pi, panels + 1))
    centres, widths = 0.5 * (edges[1:] + edges[:-1]), np.diff(edges)
    a = np.zeros((panels, panels))
    for j in range(panels):
        a[:, j] = (-log_integral(centres, edges[j], edges[j + 1], 0.0)
                   + log_integral(centres, edges[j], edges[j + 1], 2 * height))
    charge = np.linalg.solve(a, np.ones(panels))
    return centres, widths, charge / np.sum(charge * widths)


def graded(a, b, m):
    """m panels on [a, b], graded to both ends."""
    return a + (b - a) * (1 - np.cos(np.linspace(0, np.pi, m + 1))) / 2


def thick_strip(width, height, thickness, panels):
    """(strip, ground) ∫ J² per length for 1 A on the rectangle [−W/2, W/2] × [h, h + t]."""
    side = max(8, int(4 * panels * thickness / width) + 8)
    corners = [((-width / 2, height), (width / 2, height), panels),
               ((width / 2, height), (width / 2, height + thickness), side),
               ((width / 2, height + thickness), (-width / 2, height + thickness), panels),
               ((-width / 2, height + thickness), (-width / 2, height), side)]
    segments = []
    for (xa, za), (xb, zb), m in corners:
        s = graded(0.0, 1.0, m)
        segments += [((xa + (xb - xa) * s[i], za + (zb - za) * s[i]),
                      (xa + (xb - xa) * s[i + 1], za + (zb - za) * s[i + 1])) for i in range(m)]
    mid = np.array([[(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] for a, b in segments])
    length = np.array([math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in segments])
    nodes, weights = np.polynomial.legendre.leggauss(8)
    a = np.zeros((len(segments), len(segments)))
    for j, (p, q) in enumerate(segments):
        pts = np.array([[p[0] + (q[0] - p[0]) * (u + 1) / 2, p[1] + (q[1] - p[1]) * (u + 1) / 2]
                        for u in nodes])
        w = weights * length[j] / 2
        direct = np.hypot(*(mid[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
        image = np.hypot(*(mid[:, None, :] - pts[None, :, :] * [1, -1]).transpose(2, 0, 1))
        a[:, j] = (-np.log(direct) + np.log(image)) @ w
        # The panel on itself: −∫ ln|s| over [−l/2, l/2] in closed form.
        a[j, j] = -(length[j] * math.log(length[j] / 2) - length[j]) + np.log(image[j]) @ w
    charge = np.linalg.solve(a, np.ones(len(segments)))
    j = charge / np.sum(charge * length)
    xg = np.linspace(-40 * height, 40 * height, 8001)
    kg = np.array([np.sum(j * length * mid[:, 1] / ((x - mid[:, 0]) ** 2 + mid[:, 1] ** 2))
                   for x in xg]) / np.pi
    return np.sum(j ** 2 * length), np.sum(kg ** 2) * (xg[1] - xg[0])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--width-mm", type=float, required=True)
    p.add_argument("--height-mm", type=float, required=True)
    p.add_argument("--z0", type=float, required=True, help="the line's Z0, ohm")
    p.add_argument("--freq-ghz", type=float, default=2.4)
    p.add_argument("--sigma", type=float, default=5.8e7, help="conductivity, S/m")
    p.add_argument("--panels", type=int, default=800)
    p.add_argument("--cut-um", type=float, nargs="+", default=[0.2, 1.0, 3.0, 10.0])
    p.add_argument("--thickness-um", type=float, default=0.0)
    args = p.parse_args()
    w, h = args.width_mm * 1e-3, args.height_mm * 1e-3
    rs = math.sqrt(math.pi * args.freq_ghz * 1e9 * 4e-7 * math.pi / args.sigma)
    x, dx, k = strip_current(w, h, args.panels)
    image = np.array([np.sum(k * dx * h / ((xi - x) ** 2 + 4 * h * h)) for xi in x]) / np.pi
    xg = np.linspace(-40 * h, 40 * h, 8001)
    kg = np.array([np.sum(k * dx * h / ((xi - x) ** 2 + h * h)) for xi in xg]) / np.pi
    ground = np.sum(kg ** 2) * (xg[1] - xg[0])
    db = 20 / math.log(10)
    to_alpha = rs / (2 * args.z0) * db
    print(f"W {args.width_mm} mm, h {args.height_mm} mm, Z0 {args.z0} ohm, {args.freq_ghz} GHz, "
          f"Rs {rs:.5f} ohm; ground {to_alpha * ground:.4f} dB/m; current on the top face at "
          f"the centre {0.5 - image[args.panels // 2] / k[args.panels // 2]:.3f}")
    edge = w / 2 - np.abs(x)
    for cut in args.cut_um:
        keep = edge > cut * 1e-6
        one = np.sum(k[keep] ** 2 * dx[keep])
        two = np.sum((0.5 * k[keep] ** 2 + 2 * image[keep] ** 2) * dx[keep])
        print(f"cut {cut:5.1f} um: one face {to_alpha * (one + ground):.4f} dB/m, "
              f"both faces {to_alpha * (two + ground):.4f} dB/m")
    if args.thickness_um > 0:
        strip, ground_t = thick_strip(w, h, args.thickness_um * 1e-6, args.panels // 2)
        print(f"{args.thickness_um} um thick strip: strip {to_alpha * strip:.4f}, ground "
              f"{to_alpha * ground_t:.4f}, total {to_alpha * (strip + ground_t):.4f} dB/m")
    return 0


if __name__ == "__main__":
    sys.exit(main())
