"""The design scripts' output (tools/design_*.py): print the design's config, or with --check FILE
compare FILE with it from its "# g =" line on (the header names the arguments, which may differ)
and exit 1 naming the script when they differ: how an example is kept its design's output."""
import os
import sys


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
