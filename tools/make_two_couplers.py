#!/usr/bin/python3
"""Write examples/two_couplers.yaml from examples/branch_line_coupler.yaml.

Usage: make_two_couplers.py [--single FILE] [--out FILE] [--check] [--f0-hz F] [--turns N]
                            [--start-hz F] [--stop-hz F] [--points N]

The two-coupler layout (the EM BiCG paper's test circuit) is two copies of the single coupler,
A and B, with A's port "through" joined to B's port "in" by a straight line of the feeds' width
whose length between the two reference planes (the rings' outer edges, where the single-coupler
sweep puts them) is N guided wavelengths at f0 (default one at 3 GHz), by Kirschning-Jansen,
rounded to the mesh grid. Coupler A stays where the single coupler is; B is shifted along +x.
The six remaining ports, in this order: A.in, A.coupled, A.isolated, B.through, B.coupled,
B.isolated. Substrate, metal, mesh, ports' feeds and reference planes and the sparsify and
solver sections are copied from the single coupler's file: every interaction kept (rule exact),
as a thresholded Z is converged on no board measured (docs/VALIDATION.md). The cascade check
sweeps the single coupler with the pair's section, so that the two compare like with like
(tools/cascade_check.py; docs/TWO_COUPLERS.md).

Rerun this after any change to branch_line_coupler.yaml; `--check` only compares what it would
write with the existing file (exit 1 when they differ), so a test can keep the two consistent.
Needs Debian's /usr/bin/python3 with python3-yaml (exit 77, a CTest skip, without it).
"""
import argparse
import math
import os
import re
import sys

import read_sweep  # this folder's sweep-file reader, and the PyYAML check

yaml = read_sweep.require_yaml()  # exits 77, saying why, without PyYAML

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C0 = 299792458.0
TOL = 1e-6  # mm: coordinates are compared to this


class Loader(yaml.SafeLoader):
    """YAML 1.2 floats, as yaml-cpp reads them: 2.0e9 and 1e-7 are numbers, not strings."""


Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                   |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                   |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                   |[-+]?\.(?:inf|Inf|INF)
                   |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


class LayoutError(Exception):
    """The single coupler's file is not laid out as this generator assumes."""


# Hammerstad-Jensen static εeff and Kirschning-Jansen dispersion, as in
# mom/src/microstrip_formulas.cpp (u = W/h).
def eps_eff_hj(u, eps_r):
    u4 = u ** 4
    a = (1 + math.log((u4 + (u / 52) ** 2) / (u4 + 0.432)) / 49
         + math.log(1 + (u / 18.1) ** 3) / 18.7)
    b = 0.564 * ((eps_r - 0.9) / (eps_r + 3)) ** 0.053
    return (eps_r + 1) / 2 + (eps_r - 1) / 2 * (1 + 10 / u) ** (-a * b)


def eps_eff_kj(u, eps_r, f_ghz, h_mm):
    fn = f_ghz * h_mm
    p1 = (0.27488 + (0.6315 + 0.525 / (1 + 0.0157 * fn) ** 20) * u
          - 0.065683 * math.exp(-8.7513 * u))
    p2 = 0.33622 * (1 - math.exp(-0.03442 * eps_r))
    p3 = 0.0363 * math.exp(-4.6 * u) * (1 - math.exp(-((fn / 38.7) ** 4.97)))
    p4 = 1 + 2.751 * (1 - math.exp(-((eps_r / 15.916) ** 8)))
    p = p1 * p2 * ((0.1844 + p3 * p4) * fn) ** 1.5763
    e0 = eps_eff_hj(u, eps_r)
    return eps_r - (eps_r - e0) / (1 + p)


def num(value):
    """A coordinate as the single coupler's file writes it: 97.2, 0.0, 20.0."""
    return repr(round(value + 0.0, 6) + 0.0)


def same(a, b):
    return abs(a - b) < TOL


def layout_comments(text, count):
    """The trailing comments of the /layout items, in order ('' where none): kept for the copies."""
    comments, inside = [], False
    for line in text.splitlines():
        if re.match(r"^layout\s*:", line):
            inside = True
            continue
        if inside:
            if re.match(r"^\s*-\s*\{", line):
                found = re.search(r"\}\s*#\s*(.*)$", line)
                comments.append(found.group(1).strip() if found else "")
            elif re.match(r"^\S", line):
                break
    return comments if len(comments) == count else [""] * count


def port_by_name(ports, name):
    found = [p for p in ports if p.get("name") == name]
    if len(found) != 1:
        raise LayoutError(f"needs exactly one port named '{name}' (ports: "
                          f"{', '.join(str(p.get('name')) for p in ports)})")
    return found[0]


def plane_x(port):
    """x of an x-directed port's reference plane."""
    sign = {"+x": 1.0, "-x": -1.0}[port["direction"]]
    return float(port["x"]) + sign * float(port.get("reference_plane_mm", 0.0))


def feed_rect(rects, port):
    """The index of the one rectangle that is the port's feed: from the port edge to its
    reference plane, the port point on its end."""
    x, y = float(port["x"]), float(port["y"])
    hits = []
    for k, r in enumerate(rects):
        at_end = same(r["x1"], x) if port["direction"] == "-x" else same(r["x0"], x)
        if at_end and r["y0"] < y < r["y1"]:
            hits.append(k)
    if len(hits) != 1:
        raise LayoutError(f"port '{port['name']}': expected one rectangle ending at its port "
                          f"point ({x}, {y}), found {len(hits)}")
    r = rects[hits[0]]
    other_end = r["x0"] if port["direction"] == "-x" else r["x1"]
    if not same(other_end, plane_x(port)):
        raise LayoutError(f"port '{port['name']}': its feed rectangle should run from the port to "
                          f"its reference plane at x = {num(plane_x(port))}, it ends at "
                          f"x = {num(other_end)}")
    return hits[0]


def overlap(a, b):
    """Positive-area overlap or a shared edge/corner of two rectangles (touching counts)."""
    return not (a["x1"] < b["x0"] - TOL or b["x1"] < a["x0"] - TOL
                or a["y1"] < b["y0"] - TOL or b["y1"] < a["y0"] - TOL)


def rect_line(r, comment):
    text = (f"  - {{x0: {num(r['x0'])}, y0: {num(r['y0'])}, x1: {num(r['x1'])}, "
            f"y1: {num(r['y1'])}}}")
    return f"{text:<50}# {comment}" if comment else text


def port_lines(name, p, x, comment):
    lines = [f"  # {comment}",
             f"  - {{name: {name}, x: {num(x)}, y: {num(float(p['y']))}, "
             f"direction: \"{p['direction']}\", feed_length_mm: {p['feed_length_mm']:g},"]
    extras = [f"reference_plane_mm: {p.get('reference_plane_mm', 0.0):g}",
              f"impedance_ohm: {p.get('impedance_ohm', 50.0):g}}}"]
    lines.append("     " + ", ".join(extras))
    return lines


def flow(value):
    """A small mapping as one flow-style YAML line (the sparsify and solver sections)."""
    return yaml.safe_dump(value, default_flow_style=True, width=1000).strip()


def generate(single_path, f0_hz, turns, start_hz, stop_hz, points):
    with open(single_path, encoding="utf-8") as f:
        text = f.read()
    cfg = yaml.load(text, Loader=Loader)
    rects = [{k: float(r[k]) for k in ("x0", "y0", "x1", "y1")} for r in cfg["layout"]]
    comments = layout_comments(text, len(rects))
    ports = cfg["ports"]
    names = ("in", "through", "coupled", "isolated")
    port = {n: port_by_name(ports, n) for n in names}
    p_in, p_thr = port["in"], port["through"]
    if p_thr["direction"] != "-x" or p_in["direction"] != "+x" or not same(
            float(p_thr["y"]), float(p_in["y"])):
        raise LayoutError("a straight line along x joins 'through' to the next coupler's 'in' "
                          "only when 'through' points -x, 'in' points +x, at one y")
    if "cell_mm" not in cfg["mesh"]:
        raise LayoutError("/mesh needs cell_mm: the line length is rounded to the grid")
    # One side, or [dx, dy]: the joining line runs along x, so its length is rounded to dx.
    sides = cfg["mesh"]["cell_mm"]
    cell = float(sides[0] if isinstance(sides, list) else sides)
    mesh_text = " x ".join(f"{float(v):g}" for v in sides) if isinstance(sides, list) else f"{cell:g}"
    sub = cfg["substrate"]
    eps_r, h = float(sub["eps_r"]), float(sub["height_mm"])

    feed = {n: feed_rect(rects, port[n]) for n in names}
    r_thr, r_in = rects[feed["through"]], rects[feed["in"]]
    if not (same(r_thr["y0"], r_in["y0"]) and same(r_thr["y1"], r_in["y1"])):
        raise LayoutError("the 'through' and 'in' feeds are not the same strip across")
    width = r_thr["y1"] - r_thr["y0"]
    feed_len, feed_ref = float(p_in["feed_length_mm"]), float(p_in.get("reference_plane_mm", 0.0))
    eps_eff = eps_eff_kj(width / h, eps_r, f0_hz * 1e-9, h)
    wavelength = C0 / (f0_hz * math.sqrt(eps_eff)) * 1e3  # mm
    exact = turns * wavelength
    length = round(exact / cell) * cell
    cost_deg = 360.0 * turns * (length - exact) / exact
    x_a = plane_x(p_thr)             # A's 'through' reference plane: where the line starts
    dx = x_a + length - plane_x(p_in)  # shift of B: its 'in' plane lands at the line's end
    line = {"x0": x_a, "y0": r_thr["y0"], "x1": x_a + length, "y1": r_thr["y1"]}
    if length <= 0:
        raise LayoutError("the line would have no length")

    body = [k for k in range(len(rects)) if k not in feed.values()]
    a_rects = [k for k in range(len(rects)) if k != feed["through"]]
    b_rects = [k for k in range(len(rects)) if k != feed["in"]]
    shifted = lambda r: {"x0": r["x0"] + dx, "y0": r["y0"], "x1": r["x1"] + dx, "y1": r["y1"]}
    for ka in a_rects:
        for kb in b_rects:
            if overlap(rects[ka], shifted(rects[kb])):
                raise LayoutError(f"the couplers would touch: the {length:g} mm line is too short "
                                  f"for these feeds (rectangle {ka} of A meets {kb} of B)")
    a_x0 = min(rects[k]["x0"] for k in body)
    a_x1 = max(rects[k]["x1"] for k in body)

    feed_label = {"in": "A.in feed (port 1 of 6)", "coupled": "A.coupled feed (port 2 of 6)",
                  "isolated": "A.isolated feed (port 3 of 6)"}
    b_feed_label = {"through": "B.through feed (port 4 of 6)", "coupled": "B.coupled feed (port 5 of 6)",
                    "isolated": "B.isolated feed (port 6 of 6)"}
    out = []
    single_name = os.path.basename(single_path)
    out += [
        "# GENERATED by tools/make_two_couplers.py from examples/" + single_name + ": edit that",
        "# file (or the script) and rerun `/usr/bin/python3 tools/make_two_couplers.py`, not this one.",
        "#",
        "# Two branch-line couplers joined by a 360° line (the EM BiCG paper's test layout), swept",
        f"# {start_hz * 1e-9:g}-{stop_hz * 1e-9:g} GHz (`planarmom sweep examples/two_couplers.yaml`).",
        "# Each coupler is THE SAME COUPLER AS " + single_name + ": the same substrate,",
        f"# strip widths, arm lengths, {mesh_text} mm mesh and {feed_len:g} mm feeds with reference planes "
        f"{feed_ref:g} mm in; its",
        "# rectangles are written out below, A's where the single coupler is, B's shifted by",
        f"# +{num(dx)} mm in x.",
        "#",
        "# Connection: coupler A's port 2 ('through', top right) is joined to coupler B's port 1",
        "# ('in', top left) by one straight strip of the feeds' width. Its length between the two",
        "# reference planes the single-coupler sweep uses (A's and B's ring outer edges,",
        f"# x = {num(x_a)} and {num(x_a + length)}) is one guided wavelength at {f0_hz * 1e-9:g} GHz:",
        f"#   Kirschning-Jansen εeff({width:g} mm on h {h:g} mm, εr {eps_r:g}, {f0_hz * 1e-9:g} GHz)"
        f" = {eps_eff:.4f},",
        f"#   λg = c / (f √εeff) = {wavelength:.3f} mm; rounded to the {cell:g} mm grid along x: "
        f"{num(length)} mm ({round(length / cell)} cells),",
        f"#   which is {cost_deg:+.2f}° of electrical length at {f0_hz * 1e-9:g} GHz "
        f"({360 * turns + cost_deg:.2f}° instead of {360 * turns:g}°).",
        "# The feeds the two rings no longer need there (A's port 2 feed, B's port 1 feed) are part",
        "# of that line: the single coupler's feeds run from the port to its reference plane.",
        "#",
        "# Ports, in order (each as its port of the single coupler: feed, reference plane, impedance):",
        "#   1 A.in        coupler A's port 1 'in' (drives)",
        "#   2 A.coupled   coupler A's port 3 'coupled'",
        "#   3 A.isolated  coupler A's port 4 'isolated'",
        "#   4 B.through   coupler B's port 2 'through'",
        "#   5 B.coupled   coupler B's port 3 'coupled'",
        "#   6 B.isolated  coupler B's port 4 'isolated'",
        "# With ideal couplers and line, port 1 drives -3 dB into A.coupled and -6 dB each into",
        "# B.through and B.coupled. tools/cascade_check.py compares this layout's sweep with the",
        "# network-theory cascade of the single coupler's sweep and an ideal 360° line",
        "# (docs/TWO_COUPLERS.md).",
        "#",
        f"# Geometry in mm: coupler A's ring spans x = {num(a_x0)}-{num(a_x1)}, B's "
        f"x = {num(a_x0 + dx)}-{num(a_x1 + dx)}.",
        "substrate: " + flow(cfg["substrate"]),
        "metal: " + flow(cfg["metal"]),
        "layout:",
    ]
    for k in a_rects:
        name = next((n for n in names if feed[n] == k), None)
        out.append(rect_line(rects[k], feed_label[name] if name else "A: " + comments[k]
                             if comments[k] else "A"))
    out.append(rect_line(line, f"A.through to B.in: the {num(length)} mm line, "
                               f"y = {num((line['y0'] + line['y1']) / 2)}"))
    for k in b_rects:
        name = next((n for n in names if feed[n] == k), None)
        # the single coupler's comments give A's x coordinates: dropped for B
        comment = re.sub(r",?\s*\bx = [-0-9.]+", "", comments[k]).strip()
        out.append(rect_line(shifted(rects[k]), b_feed_label[name] if name else
                             ("B: " + comment if comment else "B")))
    out.append("ports:  # at the outer end of each feed, pointing into the circuit")
    out += port_lines("A.in", port["in"], float(port["in"]["x"]), "1: coupler A's 'in'")
    out += port_lines("A.coupled", port["coupled"], float(port["coupled"]["x"]),
                      "2: coupler A's 'coupled'")
    out += port_lines("A.isolated", port["isolated"], float(port["isolated"]["x"]),
                      "3: coupler A's 'isolated'")
    out += port_lines("B.through", port["through"], float(port["through"]["x"]) + dx,
                      "4: coupler B's 'through'")
    out += port_lines("B.coupled", port["coupled"], float(port["coupled"]["x"]) + dx,
                      "5: coupler B's 'coupled'")
    out += port_lines("B.isolated", port["isolated"], float(port["isolated"]["x"]) + dx,
                      "6: coupler B's 'isolated'")
    out.append("mesh: " + flow(cfg["mesh"]))
    out.append(f"frequencies: {{start_hz: {start_hz:.4g}, stop_hz: {stop_hz:.4g}, points: {points}}}"
               .replace("e+09", "e9"))
    if "sparsify" in cfg:
        out.append(f"sparsify: {flow(cfg['sparsify'])}  # as in {single_name}")
    if "solver" in cfg:
        out.append(f"solver: {flow(cfg['solver'])}  # as in {single_name}")
    out.append("# output: by default two_couplers.h5, .s6p, .png and .svg beside this file")
    return "\n".join(out) + "\n", {
        "eps_eff": eps_eff, "wavelength_mm": wavelength, "length_mm": length,
        "cost_deg": cost_deg, "shift_mm": dx}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--single", default=os.path.join(ROOT, "examples", "branch_line_coupler.yaml"))
    parser.add_argument("--out", default=os.path.join(ROOT, "examples", "two_couplers.yaml"))
    parser.add_argument("--check", action="store_true",
                        help="compare with the existing --out file instead of writing it")
    parser.add_argument("--f0-hz", type=float, default=3.0e9, help="where the line is N λg long")
    parser.add_argument("--turns", type=int, default=1, help="N: the line's length in λg at f0")
    parser.add_argument("--start-hz", type=float, default=2.5e9)
    parser.add_argument("--stop-hz", type=float, default=3.5e9)
    parser.add_argument("--points", type=int, default=26)
    args = parser.parse_args(argv[1:])
    try:
        text, info = generate(args.single, args.f0_hz, args.turns, args.start_hz, args.stop_hz,
                              args.points)
    except (LayoutError, KeyError, TypeError, ValueError) as error:
        print(f"{args.single}: cannot make the two-coupler layout: {error}", file=sys.stderr)
        return 1
    summary = (f"εeff {info['eps_eff']:.4f}, λg {info['wavelength_mm']:.3f} mm, line "
               f"{info['length_mm']:g} mm ({info['cost_deg']:+.2f}°), B shifted "
               f"{info['shift_mm']:g} mm")
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                current = f.read()
        except OSError as error:
            print(f"{args.out}: {error}", file=sys.stderr)
            return 1
        if current != text:
            print(f"{args.out} is out of date with {args.single}: rerun "
                  f"/usr/bin/python3 tools/make_two_couplers.py", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date ({summary})")
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
