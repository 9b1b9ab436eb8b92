"""planarmom: S-parameters of planar microstrip circuits by the method of moments.

The sweep of `planarmom sweep CONFIG.yaml`, from Python (docs/PYTHON.md)::

    import planarmom
    result = planarmom.sweep("examples/branch_line_coupler.yaml", backend="cpu", out_dir="out")
    s11 = result.s[:, 0, 0]           # at result.frequency_hz
    coupler = result.network()        # a skrf.Network (scikit-rf)

A config can also be a dict of the YAML file's structure (planarmom.config_yaml shows its text).
The closed forms the MoM is checked against (microstrip_width_hj, microstrip_kj,
coupled_microstrip_kj) are here too, for design scripts.
"""
from ._core import ConfigError, config_yaml, coupled_microstrip_kj, microstrip_kj, microstrip_width_hj
from ._result import Progress, SweepResult
from ._sweep import sweep

__all__ = ["ConfigError", "Progress", "SweepResult", "config_yaml", "coupled_microstrip_kj",
           "microstrip_kj", "microstrip_width_hj", "sweep"]
