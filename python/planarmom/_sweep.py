"""planarmom.sweep: a config (file or dict) read, meshed and swept, as `planarmom sweep` does."""
import collections.abc
import os
import shutil
import tempfile
import weakref

from . import _core
from ._result import Progress, SweepResult

BACKENDS = ("auto", "cpu", "cuda")


def sweep(config, *, folder=None, name="sweep", backend=None, out_dir=None, resume=False,
          line_cache=True, log="quiet", log_file=None, progress=None):
    """Sweeps a layout's S-parameters over frequency; a SweepResult.

    config: a YAML config file's path (examples/*.yaml), or a dict of the same structure.
    folder: a dict's folder: where its relative paths (a GDSII file, outputs) start; the current
        directory by default. Not for a file, whose relative paths start from its own folder.
    name: a dict's name: its output files are NAME.h5, NAME.sNp, NAME.svg, and messages call it
        FOLDER/NAME.yaml (their line numbers count in planarmom.config_yaml(config)).
    backend: auto, cpu or cuda, overriding the config's solver.backend (`--backend`).
    out_dir: the folder of the output files, under their own names (`--out-dir`). A file's
        default is the config's own (output: section, else beside the file); a dict's is a
        temporary folder that is deleted when the result is.
    resume: continue a killed sweep from its partial HDF5 file (`--resume`; a dict needs out_dir).
    line_cache: False solves the feed line checks even where the cache holds them and stores
        nothing (`--no-line-cache`).
    log: the library's log on stderr: quiet (warnings and errors), normal (what the command
        logs) or verbose (debug too); log_file also receives everything (`--log-file`).
    progress: called with a Progress after each frequency. Ctrl-C stops the sweep there
        (KeyboardInterrupt), leaving the partial HDF5 file that resume continues.

    Raises planarmom.ConfigError (a ValueError) for a mistake in the config, with the message
    the command prints ("FILE:LINE: what"), and RuntimeError for files it cannot write.
    """
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    is_dict = isinstance(config, collections.abc.Mapping)
    if not is_dict and folder is not None:
        raise ValueError("folder is for dict configs: a config file's relative paths start "
                         "from the file's own folder")
    if is_dict and out_dir is None and resume:
        raise ValueError("resume needs the out_dir of the run it continues")
    _core.init_logging(log, None if log_file is None else os.fspath(log_file))
    temporary = None
    if is_dict and out_dir is None:
        out_dir = temporary = tempfile.mkdtemp(prefix="planarmom-")
    report = None
    if progress is not None:
        def report(*values):
            progress(Progress(*values))
    try:
        if is_dict:
            named = os.path.join("" if folder is None else os.fspath(folder), name + ".yaml")
            job = _core.load_sweep_text(_core.config_yaml(config), named)
        else:
            job = _core.load_sweep(os.fspath(config))
        data = _core.run_sweep(job, backend or "", "" if out_dir is None else os.fspath(out_dir),
                               resume, line_cache, report)
    except BaseException:
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
        raise
    result = SweepResult(**data)
    if temporary:
        weakref.finalize(result, shutil.rmtree, temporary, ignore_errors=True)
    return result
