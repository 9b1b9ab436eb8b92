#!/usr/bin/python3
"""Checks the openEMS reference tool's own parts without running an FDTD solve (cheap).

The layout shapes' polygons (areas against closed forms, a path's mitres), the metal's edges and
a feed's width on examples/branch_line_coupler.yaml, its mirror symmetries, the S-parameters
recovered from synthetic port waves on a mismatched line (the de-embedding and renormalisation),
the Touchstone file as scikit-rf reads it, the compare tool's minimum and crossings, and, where
Debian's openEMS is installed, the FDTD mesh (the thirds rule at the metal's edges).
Exit 77 when numpy, matplotlib or yaml is missing (Debian's python3-numpy, -matplotlib, -yaml).
"""
import math
import os
import sys
import tempfile

try:
    import numpy as np
    import yaml
    import matplotlib.path  # noqa: F401  (the layout's point-in-polygon tests)
except ImportError as error:
    print(f"SKIP: {sys.executable} cannot import {error.name}", file=sys.stderr)
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from fullwave import compare, layout, sparams  # noqa: E402
from fullwave.ports import Port  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")


def area(polygon):
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def check_shapes():
    rect = layout.shape_polygons({"x0": 0, "y0": 0, "x1": 2, "y1": 3})
    check(area(rect[0]) == 6, "rectangle area")
    path = layout.shape_polygons({"path": [[0, 0], [10, 0], [10, 10]], "width_mm": 2})[0]
    check(abs(area(path) - (10 * 2 + 10 * 2)) < 1e-9, f"mitred path area {area(path)}")
    expected = [[0, 1], [9, 1], [9, 10], [11, 10], [11, -1], [0, -1]]
    check(np.allclose(path, expected), f"path outline {path.tolist()}")
    ext = layout.shape_polygons({"path": [[0, 0], [10, 0]], "width_mm": 2, "ends": "extended"})[0]
    check(abs(area(ext) - 12 * 2) < 1e-9, "extended path area")
    disc = layout.shape_polygons({"circle": [1, 2], "radius_mm": 5})[0]
    # Chords within SAGITTA_MM of the circle: the area short by about 2/3 sagitta x perimeter.
    check(0 < math.pi * 25 - area(disc) < layout.SAGITTA_MM * 2 * math.pi * 5, f"disc area {area(disc)}")
    ring = layout.shape_polygons({"arc": [0, 0], "radius_mm": 5, "width_mm": 1})
    ring_area = sum(area(p) for p in ring)
    check(len(ring) == 2 and abs(ring_area - math.pi * (5.5**2 - 4.5**2)) < 0.05,
          f"ring area {ring_area}")
    quarter = layout.shape_polygons({"arc": [0, 0], "radius_mm": 5, "width_mm": 1,
                                     "start_deg": 350, "stop_deg": 80})
    check(abs(area(quarter[0]) - math.pi * (5.5**2 - 4.5**2) / 4) < 0.02, "arc across 0 degrees")
    metal = layout.Metal([{"arc": [0, 0], "radius_mm": 5, "width_mm": 1}])
    check(list(metal.contains([[0, 0], [5, 0.01], [0, -5], [0, 5.6]])) == [False, True, True, False],
          "ring contains")
    for bad in ({"gds": "x.gds"}, [{"x0": 1, "y0": 0, "x1": 0, "y1": 1}], [{"blob": 1}]):
        try:
            layout.Metal(bad)
            check(False, f"{bad} accepted")
        except layout.ConfigError:
            pass


def coupler():
    with open(os.path.join(ROOT, "examples", "branch_line_coupler.yaml")) as f:
        config = yaml.safe_load(f)
    metal = layout.Metal(config["layout"])
    return config, metal, [Port(spec, metal, k) for k, spec in enumerate(config["ports"])]


def check_coupler_geometry():
    config, metal, ports = coupler()
    edges = metal.axis_edges(0, 0.4)
    check(edges == {0.0: {1}, 20.0: {1}, 21.2: {-1}, 35.6: {1}, 36.8: {-1}, 56.8: {-1}},
          f"x edges {edges}")
    check(all(np.allclose(p.strip, (p.point[1] - 0.6, p.point[1] + 0.6), atol=1e-6) for p in ports),
          f"feed strips {[p.strip for p in ports]}")
    maps = sparams.mirror_maps(metal, ports)
    check(len(maps) == 4, f"{len(maps)} symmetries, expected 4 (identity, two mirrors, rotation)")
    check(sparams.runs_needed(ports, maps, ["auto"]) == ["in"], "one run for the coupler")
    shifted = [dict(spec) for spec in config["ports"]]
    for k in (2, 3):  # coupled and isolated, mirror images across x = 28.4
        shifted[k]["reference_plane_mm"] = 10
    asym = [Port(spec, metal, k) for k, spec in enumerate(shifted)]
    maps = sparams.mirror_maps(metal, asym)
    check(len(maps) == 2 and maps[1]["in"] == "through", "moved reference planes keep one mirror")
    check(sparams.runs_needed(asym, maps, ["auto"]) == ["in", "coupled"], "two runs then")
    return metal, ports


def synthetic_records(s, ports, driven, zl, beta, shift_mm):
    """Port waves at measurement planes shift_mm before the reference planes, on lines of zl."""
    k = [p.name for p in ports].index(driven)
    records = {}
    for i, p in enumerate(ports):
        a = 1.0 if i == k else 0.0
        b = s[:, i, k]
        root = math.sqrt(p.impedance)
        v, current = (a + b) * root, (a - b) / root
        forward, backward = 0.5 * (v + zl * current), 0.5 * (v - zl * current)
        phase = np.exp(1j * beta * shift_mm * 1e-3)
        forward, backward = forward * phase, backward / phase
        records[p.name] = dict(u=forward + backward, i=(forward - backward) / zl, beta=beta, zl=zl,
                               shift_mm=shift_mm)
    return records


def check_assembly(metal, ports):
    frequency = np.array([2e9, 3e9])
    rng = np.random.default_rng(7)
    s = 0.3 * (rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4)))
    s = s + np.transpose(s, (0, 2, 1))
    zl, beta = np.array([48 + 1j, 47.5 + 0.8j]), np.array([60 - 0.5j, 90 - 0.8j])
    identity = [{p.name: p.name for p in ports}]
    runs = {p.name: synthetic_records(s, ports, p.name, zl, beta, 20.0) for p in ports}
    got = sparams.assemble(ports, runs, identity)
    check(np.abs(got - s).max() < 1e-12, f"S from all four runs: error {np.abs(got - s).max():.2e}")
    maps = sparams.mirror_maps(metal, ports)
    sym = np.zeros_like(s)
    index = {p.name: k for k, p in enumerate(ports)}
    for m in maps:  # average over the group: a matrix with the coupler's symmetries
        perm = [index[m[p.name]] for p in ports]
        sym += s[:, perm][:, :, perm]
    sym /= len(maps)
    runs = {"in": synthetic_records(sym, ports, "in", zl, beta, 20.0)}
    # The isolated port's own probes measure its line badly (little reaches it): its waves must
    # be split with the line the driven port measured, its symmetric image.
    runs["in"]["isolated"].update(zl=zl * 1.05, beta=beta * 1.02)
    got = sparams.assemble(ports, runs, maps)
    check(np.abs(got - sym).max() < 1e-12, f"S from one run and symmetry: {np.abs(got - sym).max():.2e}")
    try:
        sparams.assemble(ports, runs, identity)
        check(False, "a matrix with undriven columns assembled")
    except ValueError:
        pass
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "x.s4p")
        sparams.write_touchstone(path, frequency, s, 50.0, ["synthetic"])
        try:
            import skrf
        except ImportError:
            print("note: no scikit-rf; the Touchstone file is not read back")
            return
        network = skrf.Network(path)
        check(np.abs(network.s - s).max() < 1e-9, "Touchstone file read back by scikit-rf")
        two = os.path.join(folder, "x.s2p")
        sparams.write_touchstone(two, frequency, s[:, :2, :2], 50.0, [])
        check(np.abs(skrf.Network(two).s - s[:, :2, :2]).max() < 1e-9, "two-port Touchstone order")


def check_compare():
    f = np.linspace(2e9, 4e9, 101)
    y = 5 * ((f - 3.013e9) / 1e8) ** 2 - 30
    check(abs(compare.minimum(f, y) - 3.013e9) < 1e3, f"parabola minimum {compare.minimum(f, y)}")
    c = compare.crossings(f, -abs(f - 3e9) / 1e8, -3.0)
    check(len(c) == 2 and abs(c[0][0] - 2.7e9) < 1 and c[0][1] == 1 and c[1][1] == -1,
          f"crossings {c}")
    # A null between samples (s linear through 2.7437 GHz, a small quadratic part, a floor of
    # 1e-4 at right angles to the slope): the complex fit finds it to its grid, where the
    # sampled minimum is 20 MHz off and a parabola in dB is no fit.
    slope = 0.3 + 0.2j
    x = (f - 2.7437e9) / 1e9
    s = x * slope + 0.05 * x**2 + 1e-4j * slope / abs(slope)
    got, depth = compare.null(f, s)
    check(abs(got - 2.7437e9) < 2e5 and abs(depth - (-80)) < 0.5, f"null {got} Hz, {depth} dB")


def check_mesh(metal, ports):
    try:
        from fullwave import mesh
    except ImportError:
        print("note: no CSXCAD (Debian's python3-openems): the FDTD mesh is not checked")
        return
    box = mesh.Box(metal, {p.side for p in ports}, 0.508, 3.38, 4e9, 0.4, 12.5, 12.8)
    x = box.lines[0]
    for edge, sides in {20.0: 1, 21.2: -1}.items():
        inside = edge + sides * 0.4 / 3
        outside = edge - sides * 0.8 / 3
        check(np.abs(x - inside).min() < 1e-6 and np.abs(x - outside).min() < 1e-6,
              f"thirds rule at x = {edge}")
    check(max(np.diff(l).max() for l in box.lines) <= box.coarse + 1e-9, "coarse cell limit")
    check(box.boundaries == ["PML_8", "PML_8", "MUR", "MUR", "PEC", "MUR"], f"{box.boundaries}")


def check_layers():
    """examples/broadside_coupler.yaml: metal on interfaces 1 and 2 (z 0.5 and 0.7 mm), each
    port's strip on its own layer, the box's extent and edges over both."""
    with open(os.path.join(ROOT, "examples", "broadside_coupler.yaml")) as f:
        config = yaml.safe_load(f)
    stack = layout.stack(config)
    metal = layout.Layers(config["layout"], stack)
    check(sorted(metal.by_interface) == [1, 2], f"interfaces {sorted(metal.by_interface)}")
    check(abs(metal.z(1) - 0.5) < 1e-12 and abs(metal.z(2) - 0.7) < 1e-12,
          f"heights {metal.z(1)}, {metal.z(2)}")
    check(np.allclose(metal.lower, [0, 0]) and np.allclose(metal.upper, [33.3, 10.5]),
          f"extent {metal.lower} {metal.upper}")
    ports = {}
    for k, spec in enumerate(config["ports"]):
        interface, own = metal.of(spec)
        ports[spec["name"]] = Port(spec, own, k, bounds=metal, z=metal.z(interface))
    check(np.allclose(ports["p1"].strip, (0.0, 0.6)) and ports["p1"].z == 0.5, "p1's strip")
    check(np.allclose(ports["p3"].strip, (9.9, 10.5)) and ports["p3"].z == 0.7, "p3's strip")
    edges = metal.axis_edges(0, 0.1)
    check(9.9 in edges and 23.4 in edges and 33.3 in edges, f"x edges {sorted(edges)}")
    try:
        metal.of({"name": "q", "layer": 3})
        check(False, "a port on a layer without metal was taken")
    except layout.ConfigError:
        pass


def main():
    check_shapes()
    check_layers()
    metal, ports = check_coupler_geometry()
    check_assembly(metal, ports)
    check_compare()
    check_mesh(metal, ports)
    if failures:
        print(f"{len(failures)} checks failed")
        return 1
    print("openEMS reference tool: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
