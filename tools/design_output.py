"""The design scripts' output (tools/design_*.py): print the design's config, or with --check FILE
compare FILE with it from its "# g =" line on (the header names the arguments, which may differ)
and exit 1 naming the script when they differ: how an example is kept its design's output."""
import importlib
import os
import sys

Z0 = 50.0  # ohm, the ports' reference
C0 = 299792458.0  # m/s


def snap(value, grid):
    """value to the nearest multiple of grid, to 9 decimals (the drawings' coordinates)."""
    return round(round(value / grid) * grid, 9)


def planarmom_module():
    """The planarmom Python module, or exit naming the script and how to get the module."""
    try:
        return importlib.import_module("planarmom")
    except ImportError:
        sys.exit(f"{os.path.basename(sys.argv[0])}: the planarmom Python module is missing: run "
                 "tools/run.sh (which builds it and makes it importable) or set "
                 "PYTHONPATH=build/python")


def print_or_check(design_text, a, argv):
    """design_text(a, args) is the config's text; a.check the file to compare, or None."""
    if not a.check:
        sys.stdout.write(design_text(a, argv))
        return
    text = design_text(a, [arg for arg in argv if arg not in ("--check", a.check)])
    with open(a.check, encoding="utf-8") as f:
        have = f.read()
    body = lambda t: t[t.index("# g = "):] if "# g = " in t else t
    if body(have) != body(text):
        script = os.path.basename(sys.argv[0])
        sys.exit(f"{a.check} is not the design's output: run tools/{script} with its arguments "
                 "and replace the file from its '# g =' line on")


def board_arguments(p, eps_r, height_mm, loss_tangent, grid_mm, feed_mm, span_ghz, cell_mm):
    """The board, drawing and sweep arguments every design script takes, with its defaults."""
    p.add_argument("--eps-r", type=float, default=eps_r)
    p.add_argument("--height-mm", type=float, default=height_mm)
    p.add_argument("--loss-tangent", type=float, default=loss_tangent)
    p.add_argument("--grid-mm", type=float, default=grid_mm, help="drawing grid of every dimension")
    p.add_argument("--feed-mm", type=float, default=feed_mm)
    p.add_argument("--span-ghz", type=float, nargs=2, default=span_ghz)
    p.add_argument("--cell-mm", type=float, default=cell_mm)
    p.add_argument("--check", metavar="FILE", help="compare FILE with the design instead")


def sweep_lines(a):
    """The config's mesh, frequencies and solver lines from the board arguments: every entry of Z
    kept, the solves to 1e-9."""
    lo, hi = a.span_ghz
    return [f"mesh: {{cell_mm: {a.cell_mm:g}}}",
            f"frequencies: {{start_hz: {lo:g}e9, stop_hz: {hi:g}e9, points: {a.points}}}",
            "sparsify: {rule: exact}  # every interaction, Z x by FFT, Z's LU preconditions",
            "solver: {tolerance: 1.0e-9}"]
