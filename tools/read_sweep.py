#!/usr/bin/python3
"""Summarise a planarmom sweep file (HDF5) and check the layout that h5py users rely on.

Usage: read_sweep.py FILE [FILE...]

Layout: /frequency [F] Hz; /s [F, P, P] complex; /currents [F, P, N] complex (each port's MoM
solution, 1 V delta gap, the next frequency's initial guess) where /currents_kept [F] is 1 (a
finished file keeps them only at output.currents, or everywhere with keep_solutions); /ports/{name,
reference_impedance_ohm, reference_plane_mm} [P]; /solver/* and /timing/* [F]; root attributes
program_version, units, config, backend, complete. An adaptive sweep's records are its solves,
and its finished file adds /fit: frequency [K] (every point), s [K, P, P], solved [K], estimate [K]
and model/* (docs/SWEEP.md); load() returns it as "fit" (None without).

Works on finished files and on the .partial file a killed run leaves. Exit status: 0 when every
file has the expected layout, 1 when one does not, 77 when h5py or numpy is missing (install
python3-h5py and python3-numpy, or run tools/install-deps.sh). Meant for Debian's /usr/bin/python3,
which is the Python those packages install into.
"""
import sys

try:
    import h5py
    import numpy as np
except ImportError as error:  # reported by require_h5py(), so that importing this still works
    h5py = None
    _IMPORT_ERROR = error

SKIP = 77  # the exit status CTest's SKIP_RETURN_CODE expects

SOLVER = ("iterations", "residual", "nnz", "density", "dense_error")
TIMING = ("greens_s", "fill_s", "sparsify_s", "solve_s", "deembed_s")
ATTRIBUTES = ("program_version", "units", "config", "backend", "complete")


class LayoutError(Exception):
    """The file is HDF5 but not laid out as a planarmom sweep file."""


def require_h5py():
    if h5py is None:
        print(f"SKIP: {sys.executable} cannot import h5py/numpy ({_IMPORT_ERROR}); "
              "install python3-h5py and python3-numpy", file=sys.stderr)
        sys.exit(SKIP)


def require_yaml():
    """PyYAML, or exit 77 saying why (the tools that read or write configs)."""
    try:
        import yaml
    except ImportError as error:
        print(f"SKIP: {sys.executable} cannot import yaml ({error}); install python3-yaml",
              file=sys.stderr)
        sys.exit(SKIP)
    return yaml


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def load(path):
    """The sweep as a dict of numpy arrays and strings. Raises LayoutError on a layout mismatch.

    A partial file may hold a point half-written when the run was killed: datasets other than
    /frequency one row longer. Only the points with a frequency count, as in the C++ reader.
    """
    with h5py.File(path, "r") as f:
        missing = [name for name in ATTRIBUTES if name not in f.attrs]
        if missing:
            raise LayoutError(f"root attributes missing: {', '.join(missing)}")
        s = f["s"]
        if s.dtype != np.complex128:
            raise LayoutError(f"/s has dtype {s.dtype}, expected complex128 (compound r, i)")
        names = [_text(name) for name in f["ports/name"][()]]
        ports = len(names)
        if s.ndim != 3 or s.shape[1:] != (ports, ports):
            raise LayoutError(f"/s has shape {s.shape}, expected (F, {ports}, {ports})")
        frequency = f["frequency"][()]
        count = len(frequency)
        currents = f["currents"]
        if currents.dtype != np.complex128:
            raise LayoutError(f"/currents has dtype {currents.dtype}, expected complex128")
        if currents.ndim != 3 or currents.shape[1] != ports or currents.shape[2] < 1:
            raise LayoutError(f"/currents has shape {currents.shape}, expected (F, {ports}, N)")

        def rows(path):
            data = f[path]
            if data.ndim == 0 or data.shape[0] < count:
                raise LayoutError(f"/{path} has shape {data.shape}, expected ({count}, ...)")
            return data[:count]

        # Older files have no /currents_kept: every row kept.
        kept = rows("currents_kept") if "currents_kept" in f else np.ones(count, dtype=np.int32)
        return {
            "frequency": frequency,
            "s": rows("s"),
            "currents": rows("currents"),
            "currents_kept": kept.astype(bool),
            "port_names": names,
            "reference_impedance_ohm": f["ports/reference_impedance_ohm"][()],
            "reference_plane_mm": f["ports/reference_plane_mm"][()],
            "solver": {name: rows(f"solver/{name}") for name in SOLVER},
            "timing": {name: rows(f"timing/{name}") for name in TIMING},
            "attributes": {name: f.attrs[name] for name in ATTRIBUTES},
            "fit": _fit(f, ports),
        }


FIT = ("frequency", "s", "solved", "estimate")


def every_point(sweep):
    """Frequencies, S and a solved mask of every point, in increasing frequency: the records', or
    an adaptive sweep's /fit (as the C++ io::every_point)."""
    fit = sweep["fit"]
    if fit is not None:
        return fit["frequency"], fit["s"], fit["solved"].astype(bool)
    order = np.argsort(sweep["frequency"])
    return sweep["frequency"][order], sweep["s"][order], np.ones(len(order), dtype=bool)


def _fit(f, ports):
    """An adaptive sweep's /fit group as a dict of arrays, or None; LayoutError when malformed."""
    if "fit" not in f:
        return None
    fit = {name: f[f"fit/{name}"][()] for name in FIT}
    count = len(fit["frequency"])
    if fit["s"].shape != (count, ports, ports) or any(len(fit[n]) != count for n in FIT[2:]):
        raise LayoutError(f"/fit does not match its {count} frequencies and {ports} ports")
    fit["tolerance"] = float(f["fit/frequency"].attrs["tolerance"])
    return fit


def summary(path, sweep):
    attributes = sweep["attributes"]
    frequency = sweep["frequency"]
    state = "complete" if attributes["complete"] else "INCOMPLETE (partial file of a stopped run)"
    lines = [f"{path}: {state}; planarmom {_text(attributes['program_version'])}, "
             f"{_text(attributes['backend'])} backend"]
    ports = ", ".join(f"{name} ({z:g} ohm, plane {plane:g} mm)" for name, z, plane in zip(
        sweep["port_names"], sweep["reference_impedance_ohm"], sweep["reference_plane_mm"]))
    lines.append(f"  {len(sweep['port_names'])} ports: {ports}")
    if len(frequency) == 0:
        lines.append("  no frequencies yet")
        return "\n".join(lines)
    lines.append(f"  {len(frequency)} frequencies, {frequency.min() / 1e9:g} to "
                 f"{frequency.max() / 1e9:g} GHz; s: {sweep['s'].dtype} {sweep['s'].shape}; "
                 f"currents: {sweep['currents'].shape}, kept at "
                 f"{int(sweep['currents_kept'].sum())} of them")
    solver, timing = sweep["solver"], sweep["timing"]
    lines.append(f"  max |S| {np.abs(sweep['s']).max():.6g}; iterations up to "
                 f"{solver['iterations'].max()}; residual up to {solver['residual'].max():.3g}; "
                 f"density {solver['density'].min():.3g} to {solver['density'].max():.3g}")
    fit = sweep["fit"]
    if fit is not None:
        lines.append(f"  adaptive: {int(fit['solved'].sum())} of {len(fit['frequency'])} points "
                     f"solved, the others fitted; estimate up to {fit['estimate'].max():.3g} "
                     f"(tolerance {fit['tolerance']:g})")
    total = sum(float(np.sum(timing[name])) for name in TIMING)
    lines.append(f"  time {total:.3g} s: " + ", ".join(
        f"{name[:-2]} {float(np.sum(timing[name])):.3g} s" for name in TIMING))
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 1
    require_h5py()
    status = 0
    for path in argv[1:]:
        try:
            print(summary(path, load(path)))
        except (LayoutError, KeyError, OSError) as error:
            print(f"{path}: not a readable planarmom sweep file: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
