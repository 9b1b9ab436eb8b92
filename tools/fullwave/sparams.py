"""S-parameters from the openEMS runs' port waves, and the layout's mirror symmetries that let one
run stand for another (tools/openems_reference.py).

Each port's voltage and current at its measurement plane are split into the feed line's two waves
(with the line's own ZL and complex propagation constant, as openEMS's probes measure them),
carried to the reference plane, and renormalised to the port's reference impedance: with A and B
the incident and reflected waves of every run, S = B A^-1, as planarmom's de-embedding defines S.
"""
import numpy as np

# Pixel of the symmetry test in mm: off any drawing grid, so that no pixel centre lies on an edge.
SYMMETRY_PIXEL_MM = 0.0371


def mirror_maps(metal, ports, vias=()):
    """The port permutations of the layout's mirror symmetries about its centre lines and of its
    point symmetry about its centre (both mirrors at once: a half turn); a symmetry must also map
    the vias (layout.Via) onto vias of the same diameter.

    Returns a list of dicts {port name: image port name}, the identity first."""
    maps = [{p.name: p.name for p in ports}]
    centre = 0.5 * (metal.lower + metal.upper)
    n = np.ceil((metal.upper - metal.lower) / SYMMETRY_PIXEL_MM / 2).astype(int) + 1
    offsets = [(np.arange(-k, k) + 0.5) * SYMMETRY_PIXEL_MM for k in n]
    gx, gy = np.meshgrid(centre[0] + offsets[0], centre[1] + offsets[1], indexing="ij")
    inside = metal.contains(np.column_stack((gx.ravel(), gy.ravel()))).reshape(gx.shape)
    for axes in ((0,), (1,), (0, 1)):
        if not np.array_equal(inside, np.flip(inside, axis=axes)):
            continue
        if not _vias_symmetric(vias, centre, axes):
            continue
        image = _port_images(ports, centre, axes)
        if image is not None:
            maps.append(image)
    return maps


def _vias_symmetric(vias, centre, axes):
    """Whether the mirrors about the centre lines across `axes` map every via onto a via."""
    for v in vias:
        image = [v.x, v.y]
        for axis in axes:
            image[axis] = 2 * centre[axis] - image[axis]
        if not any(abs(w.x - image[0]) < 1e-6 and abs(w.y - image[1]) < 1e-6
                   and abs(w.diameter - v.diameter) < 1e-9 for w in vias):
            return False
    return True


def _port_images(ports, centre, axes):
    """{port: its image} under the mirrors about the centre lines across `axes`, or None."""
    image = {}
    for p in ports:
        edge, middle, inward = p.point[p.axis], 0.5 * sum(p.strip), p.inward
        for axis in axes:
            if p.axis == axis:
                edge, inward = 2 * centre[axis] - edge, -inward
            else:
                middle = 2 * centre[axis] - middle
        match = [q for q in ports if (q.axis, q.inward) == (p.axis, inward)
                 and abs(q.point[q.axis] - edge) < 1e-6 and abs(0.5 * sum(q.strip) - middle) < 1e-4
                 and (q.impedance, q.reference_plane) == (p.impedance, p.reference_plane)]
        if len(match) != 1:
            return None
        image[p.name] = match[0].name
    return image


def runs_needed(ports, maps, excite):
    """The ports to drive: `excite` names, or with 'auto' one of each orbit of the symmetries."""
    names = [p.name for p in ports]
    if excite == ["all"]:
        return names
    if excite != ["auto"]:
        unknown = [e for e in excite if e not in names]
        if unknown:
            raise ValueError(f"--excite names no port {unknown}; the ports are {names}")
        return excite
    chosen, covered = [], set()
    for name in names:
        if name not in covered:
            chosen.append(name)
            covered |= {m[name] for m in maps}
    return chosen


def _line_estimates(ports, runs, maps):
    """Each port's feed line (ZL, beta) from the record where its wave is strongest.

    A port's probes measure the line well where it is driven and poorly where little reaches
    it (an isolated port): every run and symmetry image of a port offers an estimate, and the
    one with the most energy at the probes is kept."""
    best = {}
    for records in runs.values():
        for m in maps:
            for q in ports:
                energy = float(np.sum(np.abs(records[q.name]["u"]) ** 2))
                name = m[q.name]
                if name not in best or energy > best[name][0]:
                    best[name] = (energy, records[q.name]["zl"], records[q.name]["beta"])
    return {name: (zl, beta) for name, (_, zl, beta) in best.items()}


def _waves(record, line, impedance):
    """Incident and reflected waves at the reference plane, normalised to `impedance`, on a
    feed of line = (ZL, beta)."""
    zl, beta = line
    forward = 0.5 * (record["u"] + zl * record["i"])
    backward = 0.5 * (record["u"] - zl * record["i"])
    phase = np.exp(-1j * beta * record["shift_mm"] * 1e-3)
    forward, backward = forward * phase, backward / phase
    v, i = forward + backward, (forward - backward) / zl
    scale = 1 / np.sqrt(impedance)
    return 0.5 * (v + impedance * i) * scale, 0.5 * (v - impedance * i) * scale


def assemble(ports, runs, maps, partial=False):
    """S [F, P, P] from {driven port: {port: record}}; columns of undriven ports from symmetry.

    partial: with columns neither driven nor given by symmetry, those are NaN and the others
    b / a of their own run, the incident waves at the undriven ports (what their matched feeds
    send back) neglected."""
    names = [p.name for p in ports]
    index = {n: k for k, n in enumerate(names)}
    lines = _line_estimates(ports, runs, maps)
    count = len(names)
    nf = len(next(iter(runs.values()))[names[0]]["u"])
    a = np.full((nf, count, count), np.nan, complex)
    b = np.full((nf, count, count), np.nan, complex)
    for driven, records in runs.items():
        for m in maps:
            column = index[m[driven]]
            for p in ports:
                inc, ref = _waves(records[p.name], lines[m[p.name]], p.impedance)
                a[:, index[m[p.name]], column] = inc
                b[:, index[m[p.name]], column] = ref
    missing = sorted({names[j] for j in range(count) if np.isnan(a[0, :, j]).any()})
    if missing and not partial:
        raise ValueError(f"no run drives {missing}, nor does a symmetry stand for it: excite them")
    if missing:
        known = [j for j in range(count) if names[j] not in missing]
        s = np.full((nf, count, count), np.nan, complex)
        for j in known:
            s[:, :, j] = b[:, :, j] / a[:, j, j][:, None]
        return s
    return np.linalg.solve(np.transpose(a, (0, 2, 1)), np.transpose(b, (0, 2, 1))).transpose(0, 2, 1)


def write_touchstone(path, frequency, s, impedance, comments):
    """A Touchstone 1.1 file (Hz, RI) with the ports' common reference impedance."""
    count = s.shape[1]
    with open(path, "w") as out:
        for line in comments:
            out.write(f"! {line}\n")
        out.write(f"# HZ S RI R {impedance:g}\n")
        for f, matrix in zip(frequency, s):
            # Two ports: S11 S21 S12 S22 on one line; more: each row on its own lines, four a line.
            rows = [matrix.T.ravel()] if count == 2 else matrix
            lines = [row[k:k + 4] for row in rows for k in range(0, len(row), 4)]
            for n, entries in enumerate(lines):
                text = " ".join(f"{e.real:.10e} {e.imag:.10e}" for e in entries)
                out.write(f"{f:.10e} {text}\n" if n == 0 else f"  {text}\n")
