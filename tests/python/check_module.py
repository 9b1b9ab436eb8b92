#!/usr/bin/python3
"""The Python module planarmom (python/, docs/PYTHON.md) as its users drive it.

Usage: check_module.py CASE PLANARMOM WORK_DIR, with build/python on PYTHONPATH. Cases:
  cli      the coupler example at two frequencies swept from Python: the command's S (its HDF5
           file, read with h5py) to 1e-12, its ports, and the statistics of every frequency
  network  SweepResult.network(): scikit-rf's Network has the sweep's frequencies, S and the
           ports' 75 ohm as z0
  dict     a config as a dict (NumPy values in it) gives its file's S (to 1e-9); its relative paths
           start from `folder`; its default output folder goes with the result
  interrupt Ctrl-C stops a sweep after a frequency, leaving the partial file; resume=True
           continues it to the uninterrupted sweep's S (to the solver's tolerance)
  errors   config mistakes raise planarmom.ConfigError with the command's one-line message
Exit 0 when it holds, 1 when not, 77 (skipped) where h5py, scikit-rf or PyYAML is missing.
"""
import gc
import os
import re
import shutil
import signal
import subprocess
import sys

import numpy as np

import planarmom

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
COUPLER = os.path.join(ROOT, "examples", "branch_line_coupler.yaml")
FREQUENCIES = [2.8e9, 3.0e9, 3.2e9]
# The cli case's two: Z's recycled LU is made at the first and preconditions the second, where no
# renewal can be due yet; at a third its renewal is decided by measured times (docs/SOLVERS.md),
# which a loaded machine moved between the two runs (iterations 3 8 3 against 3 8 11, S 7e-10
# apart), and the case asks for the command's S bit for bit.
CLI_FREQUENCIES = [2.8e9, 3.2e9]

# Four 75 ohm ports, so that z0 is not scikit-rf's default 50 (tests/io/check_skrf.py's cross).
CROSS = {
    "substrate": {"eps_r": 3.38, "height_mm": 0.508, "loss_tangent": 0.0027},
    "metal": {"pec": True},
    "layout": [{"x0": 0, "y0": 16.0, "x1": 33.2, "y1": 17.2},
               {"x0": 16.0, "y0": 0, "x1": 17.2, "y1": 33.2}],
    "ports": [{"name": n, "x": x, "y": y, "direction": d, "feed_length_mm": 14,
               "impedance_ohm": 75}
              for n, x, y, d in [("w", 0, 16.6, "+x"), ("e", 33.2, 16.6, "-x"),
                                 ("s", 16.6, 0, "+y"), ("n", 16.6, 33.2, "-y")]],
    "mesh": {"cell_mm": 0.4},
    "frequencies": [2.0e9, 3.0e9, 4.5e9],
    "sparsify": {"rule": "exact"},
    "solver": {"backend": "cpu", "tolerance": 1.0e-10},
}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")


def skip(why):
    print(f"check_module: skipped, {why}")
    sys.exit(77)


def coupler_text(frequencies=FREQUENCIES):
    """The coupler example at `frequencies` on the cpu backend."""
    with open(COUPLER) as f:
        text = f.read()
    text = re.sub(r"\nfrequencies:[^\n]*", f"\nfrequencies: {frequencies}", text)
    return re.sub(r"\nsolver:[^\n]*", "\nsolver: {tolerance: 1.0e-9, backend: cpu}", text)


def write(work, name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def case_cli(exe, work):
    try:
        import h5py
    except ImportError as error:
        skip(f"{error} (install python3-h5py)")
    config = write(work, "coupler.yaml", coupler_text(CLI_FREQUENCIES))
    run = subprocess.run([exe, "-q", "sweep", config, "--out-dir", os.path.join(work, "cli")],
                         capture_output=True, text=True)
    check(run.returncode == 0, f"the command's sweep: {run.stderr.strip()}")
    with h5py.File(os.path.join(work, "cli", "coupler.h5"), "r") as f:
        cli_s = f["s"][()]  # h5py reads the compound (r, i) as complex128
        cli_f = f["frequency"][()]
        cli_iterations = f["solver/iterations"][()]
    steps = []
    result = planarmom.sweep(config, out_dir=os.path.join(work, "py"), progress=steps.append)
    print(f"check_module: {result}")
    check(np.array_equal(result.frequency_hz, CLI_FREQUENCIES)
          and np.array_equal(cli_f, CLI_FREQUENCIES),
          f"frequencies {result.frequency_hz} and the command's {cli_f}")
    check(result.s.dtype == np.complex128 and result.s.shape == (2, 4, 4),
          f"S of {result.s.dtype} {result.s.shape}")
    error = np.max(np.abs(result.s - cli_s))
    print(f"check_module: largest |S_python - S_command| {error:.3g}")
    check(error <= 1e-12, f"S differs from the command's by {error:.3g}")
    check(result.port_names == ["in", "through", "coupled", "isolated"],
          f"port names {result.port_names}")
    check(np.array_equal(result.reference_impedance_ohm, [50.0] * 4)
          and np.array_equal(result.reference_plane_mm, [20.0] * 4),
          f"ports {result.reference_impedance_ohm} ohm at {result.reference_plane_mm} mm")
    check(result.backend == "cpu" and result.unknowns == 4308,
          f"backend {result.backend}, {result.unknowns} unknowns")
    check(np.array_equal(result.iterations, cli_iterations) and np.all(result.iterations > 0),
          f"iterations {result.iterations} against the command's {cli_iterations}")
    check(np.all((result.residual > 0) & (result.residual <= 1e-9)), f"residual {result.residual}")
    n = result.unknowns
    check(np.all(result.nnz == n * n) and np.allclose(result.density, 1.0),
          f"every entry kept: nnz {result.nnz}, density {result.density}")
    check(np.all(np.isnan(result.dense_error)), f"dense_error {result.dense_error} not NaN")
    for stage in ("greens", "fill", "sparsify", "solve", "deembed"):
        times = getattr(result, "seconds_" + stage)
        check(times.shape == (2,) and np.all(times >= 0), f"seconds_{stage} {times}")
    check(result.config_text == coupler_text(CLI_FREQUENCIES), "config_text is not the file's text")
    for key, name in [("hdf5", "coupler.h5"), ("touchstone", "coupler.s4p"),
                      ("layout", "coupler.svg")]:
        path = result.paths[key]
        check(path == os.path.join(work, "py", name) and os.path.isfile(path),
              f"paths[{key}] {path}")
    check([(p.done, p.todo, p.frequency_hz) for p in steps] ==
          [(k + 1, 2, f) for k, f in enumerate(CLI_FREQUENCIES)],
          f"progress reports {steps}")


def case_network(work):
    try:
        import skrf
    except ImportError as error:
        skip(f"{error} (install python3-scikit-rf)")
    result = planarmom.sweep(CROSS)
    network = result.network(name="cross")
    check(isinstance(network, skrf.Network) and network.name == "cross", f"{network!r}")
    check(np.array_equal(network.f, CROSS["frequencies"]), f"frequencies {network.f}")
    check(np.array_equal(network.s, result.s), "S differs from the result's")
    check(network.z0.shape == (3, 4) and np.all(network.z0 == 75.0),
          f"z0 {network.z0} against the ports' 75 ohm")
    # The Touchstone file the sweep wrote reads back as the same network.
    touchstone = skrf.Network(result.paths["touchstone"])
    check(np.max(np.abs(touchstone.s - network.s)) <= 1e-12
          and np.array_equal(touchstone.z0, network.z0), "the Touchstone file's network differs")
    print(f"check_module: {network}, |S31| at 3 GHz {abs(network.s[1, 2, 0]):.4f}")


def case_adaptive(work):
    """An adaptive sweep's result holds every frequency: the solved ones with their statistics,
    the fitted ones with S from the model and NaN residuals."""
    config = dict(CROSS, frequencies={"start_hz": 2.0e9, "stop_hz": 4.5e9, "points": 26,
                                      "adaptive": True})
    result = planarmom.sweep(config)
    solved = result.solved
    check(result.frequency_hz.shape == (26,) and result.s.shape == (26, 4, 4)
          and solved.dtype == bool, f"shapes {result.frequency_hz.shape} {result.s.shape}")
    check(solved[0] and solved[-1] and 0 < np.count_nonzero(~solved) < 26,
          f"solved {np.count_nonzero(solved)} of 26, the ends among them")
    check(np.all(result.iterations[solved] > 0) and np.all(result.iterations[~solved] == 0)
          and np.all(np.isnan(result.residual[~solved])), "statistics of fitted frequencies")
    check(np.all(np.diff(result.frequency_hz) > 0), "frequencies not increasing")
    whole = planarmom.sweep(dict(config, frequencies=dict(config["frequencies"], adaptive=False)))
    worst = np.max(np.abs(whole.s - result.s))
    check(worst <= 1e-3 and np.all(whole.solved), f"adaptive against every frequency: {worst}")
    print(f"check_module: adaptive, {np.count_nonzero(solved)} of 26 solved, |dS| {worst:.2e}")


def case_dict(work):
    try:
        import yaml
    except ImportError as error:
        skip(f"{error} (install python3-yaml)")
    config = write(work, "cross.yaml", yaml.safe_dump(CROSS))
    from_file = planarmom.sweep(config, out_dir=os.path.join(work, "file"))
    as_dict = dict(CROSS, frequencies=np.array(CROSS["frequencies"]),  # NumPy values, as scans
                   mesh={"cell_mm": np.float64(0.4), "max_unknowns": np.int64(5000)})
    from_dict = planarmom.sweep(as_dict)
    # The LU preconditioner's renewals follow measured times (recycled_lu.hpp), so two sweeps of
    # one config agree to the solver's tolerance (1e-10), not bit for bit; another config (a cell,
    # a port, a frequency) moves S by far more than 1e-9.
    error = np.max(np.abs(from_dict.s - from_file.s))
    check(error <= 1e-9 and np.array_equal(from_dict.frequency_hz, from_file.frequency_hz),
          f"the dict's S differs from the file's by {error:.3g}")
    check(from_dict.config_text == planarmom.config_yaml(as_dict),
          "the dict's config_text is not config_yaml(dict)")
    # The default output folder is temporary: it goes when the result does.
    folder = os.path.dirname(from_dict.paths["hdf5"])
    check(os.path.basename(from_dict.paths["hdf5"]) == "sweep.h5" and os.path.isdir(folder),
          f"a dict's outputs {from_dict.paths}")
    del from_dict
    gc.collect()
    check(not os.path.exists(folder), f"{folder} is left after the result went")
    # Relative paths start from `folder` (or the current directory).
    gds = dict(as_dict, layout={"gds": "coupler.gds", "cell": "COUPLER", "layer": 5})
    for folder, expected in [(work, os.path.join(work, "coupler.gds")), (None, "coupler.gds")]:
        try:
            planarmom.sweep(gds, folder=folder, name="gds")
            check(False, "a missing GDSII file raised nothing")
        except planarmom.ConfigError as error:
            check(str(error).startswith(os.path.join(folder or "", "gds.yaml") + ":")
                  and f"{expected}" in str(error) and error.line > 0,
                  f"folder {folder}: {error}")


def case_interrupt(work):
    out = os.path.join(work, "out")

    def interrupt(progress):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C after the first frequency
    try:
        planarmom.sweep(CROSS, out_dir=out, progress=interrupt)
        check(False, "Ctrl-C did not stop the sweep")
    except KeyboardInterrupt:
        check(sorted(os.listdir(out)) == ["sweep.h5.partial", "sweep.svg"],
              f"the interrupted sweep left {os.listdir(out)}")
    steps = []
    resumed = planarmom.sweep(CROSS, out_dir=out, resume=True, progress=steps.append)
    check([(p.done, p.todo, p.frequency_hz) for p in steps] ==
          [(1, 2, 3.0e9), (2, 2, 4.5e9)], f"the resumed sweep computed {steps}")
    whole = planarmom.sweep(CROSS)
    # Z's LU preconditioner is made where the resumed run starts: S to the solver's tolerance.
    error = np.max(np.abs(resumed.s - whole.s))
    print(f"check_module: resumed against uninterrupted, largest |dS| {error:.3g}")
    check(np.array_equal(resumed.frequency_hz, whole.frequency_hz) and error <= 1e-9,
          f"the resumed sweep's S differs by {error:.3g}")


def cli_error(exe, config):
    """The command's one-line message for a config."""
    run = subprocess.run([exe, "sweep", config], capture_output=True, text=True)
    lines = run.stderr.strip().splitlines()
    check(run.returncode == 1 and len(lines) == 1 and lines[0].startswith("[error] "),
          f"the command's error: {run.stderr!r}")
    return lines[-1].removeprefix("[error] ") if lines else ""


def case_errors(exe, work):
    try:
        import yaml
    except ImportError as error:
        skip(f"{error} (install python3-yaml)")
    typo = coupler_text().replace("solver: {tolerance", "solver: {method: bicgg, tolerance")
    unknown = coupler_text().replace("mesh: {", "mesh: {cells_mm: 1, ")
    syntax = coupler_text().replace("metal: {pec: true}", "metal: {pec: true")
    for name, text in [("typo", typo), ("unknown", unknown), ("syntax", syntax)]:
        config = write(work, name + ".yaml", text)
        expected = cli_error(exe, config)
        try:
            planarmom.sweep(config)
            check(False, f"{name}: no exception")
        except planarmom.ConfigError as error:
            print(f"check_module: {name}: {error}")
            check(isinstance(error, ValueError) and str(error) == expected,
                  f"{name}: {error!r}, the command says {expected!r}")
            check(error.file == config and f"{config}:{error.line}: " in expected,
                  f"{name}: file {error.file} line {error.line}")
    # A dict's mistake: the same message, naming the dict.
    expected = cli_error(exe, os.path.join(work, "typo.yaml"))
    try:
        planarmom.sweep(yaml.safe_load(typo), folder=work, name="typo")
        check(False, "dict: no exception")
    except planarmom.ConfigError as error:
        check(re.sub(r":\d+:", ":", str(error)) == re.sub(r":\d+:", ":", expected),
              f"dict: {error}, the file's {expected}")
    # What no YAML holds, and options the command would refuse.
    for what, call, kind, message in [
            ("a set", lambda: planarmom.sweep(dict(CROSS, mesh={"cell_mm": {0.4}})), TypeError,
             "/mesh/cell_mm: cannot be written as YAML: {0.4} of type set"),
            ("a backend", lambda: planarmom.sweep(CROSS, backend="gpu"), ValueError,
             "backend must be one of auto, cpu, cuda, got 'gpu'"),
            ("a log level", lambda: planarmom.sweep(CROSS, log="loud"), ValueError,
             "log must be quiet, normal or verbose, got 'loud'"),
            ("a missing file", lambda: planarmom.sweep(os.path.join(work, "none.yaml")),
             planarmom.ConfigError, os.path.join(work, "none.yaml") + ": cannot be opened")]:
        try:
            call()
            check(False, f"{what}: no exception")
        except kind as error:
            check(str(error) == message, f"{what}: {error!r}, expected {message!r}")


def case_formulas():
    """The closed forms through the module: the C++ functions, so their published values."""
    # Hammerstad-Jensen's 50 ohm on RO4003 (0.508 mm, 3.38) is 1.1765 mm wide (the coupler's
    # design, examples/branch_line_coupler.yaml); Kirschning-Jansen's line of that width is then
    # 50 ohm at low frequency.
    u = planarmom.microstrip_width_hj(50.0, 3.38)
    check(abs(u * 0.508 - 1.1765) < 5e-4, f"50 ohm width {u * 0.508} mm")
    eps_eff, z0 = planarmom.microstrip_kj(u, 3.38, 0.0, 0.508)
    check(abs(z0 - 50.0) < 1e-6 and 2.5 < eps_eff < 3.38, f"KJ at 0 Hz: {eps_eff}, {z0}")
    # Far apart, a coupled pair's modes are the single line's (to KJ's own residue); close, the
    # even mode's impedance is above and the odd mode's below it.
    ee, eo, ze, zo = planarmom.coupled_microstrip_kj(u, 20.0, 3.38, 3.0, 0.508)
    single_eps, single_z0 = planarmom.microstrip_kj(u, 3.38, 3.0, 0.508)
    check(abs(ee - single_eps) < 0.01 * single_eps and abs(eo - single_eps) < 0.01 * single_eps
          and abs(ze - single_z0) < 0.02 * single_z0 and abs(zo - single_z0) < 0.02 * single_z0,
          f"far apart: {ee}, {eo}, {ze}, {zo} against {single_eps}, {single_z0}")
    ee, eo, ze, zo = planarmom.coupled_microstrip_kj(u, 0.4, 3.38, 3.0, 0.508)
    check(ze > single_z0 > zo and ee > eo, f"0.2 mm apart: {ee}, {eo}, {ze}, {zo}")


def main():
    case, exe, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)  # each run from nothing
    os.makedirs(work)
    os.environ["PLANARMOM_CACHE_DIR"] = os.path.join(work, "cache")  # the user's stays untouched
    {"cli": lambda: case_cli(exe, work), "network": lambda: case_network(work),
     "dict": lambda: case_dict(work), "interrupt": lambda: case_interrupt(work),
     "errors": lambda: case_errors(exe, work), "formulas": case_formulas,
     "adaptive": lambda: case_adaptive(work)}[case]()
    print(f"check_module {case}: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
