"""What a sweep gives back (SweepResult) and what it reports after each frequency (Progress)."""
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np


class Progress(NamedTuple):
    """One computed frequency: the done-th of the todo this run computes."""
    done: int
    todo: int
    frequency_hz: float
    iterations: int
    residual: float
    elapsed_s: float


@dataclass(frozen=True, repr=False, eq=False)
class SweepResult:
    """A finished sweep: what its HDF5 file holds (README, "The HDF5 file"), as NumPy arrays.

    F frequencies (increasing), P ports. ``s[f, i, j]`` is S(i+1)(j+1) at ``frequency_hz[f]``,
    to port i's reference impedance at its reference plane. The per-frequency solver statistics
    and times are the HDF5 file's /solver and /timing datasets. An adaptive sweep's fitted
    frequencies (``solved`` False) have S from its rational model, iterations and times 0 and
    residual, density and dense_error NaN.
    """
    frequency_hz: np.ndarray      # [F] Hz
    s: np.ndarray                 # [F, P, P] complex128
    solved: np.ndarray            # [F] bool: solved, or fitted by an adaptive sweep
    port_names: list              # [P]
    reference_impedance_ohm: np.ndarray  # [P]
    reference_plane_mm: np.ndarray       # [P]
    iterations: np.ndarray        # [F] the most any port's excitation needed
    residual: np.ndarray          # [F] the largest final relative residual over the ports
    nnz: np.ndarray               # [F] nonzeros of the matrix the solver saw
    density: np.ndarray           # [F] nnz / N^2
    dense_error: np.ndarray       # [F] against the dense solve; NaN unless check_dense
    seconds_greens: np.ndarray    # [F] seconds per stage
    seconds_fill: np.ndarray
    seconds_sparsify: np.ndarray
    seconds_solve: np.ndarray
    seconds_deembed: np.ndarray
    unknowns: int                 # N, the basis functions
    backend: str                  # cpu or cuda
    config_text: str              # the config's YAML text, as the HDF5 file stores it
    program_version: str
    paths: dict = field(default_factory=dict)  # hdf5, touchstone, layout, current_pictures

    def network(self, name=None):
        """The sweep as a scikit-rf Network: its frequencies, S and the ports' reference
        impedances as z0. Needs scikit-rf (Debian: python3-scikit-rf), imported only here."""
        try:
            import skrf
        except ImportError as error:
            raise ImportError(f"SweepResult.network() needs scikit-rf ({error}; Debian: "
                              "python3-scikit-rf)") from error
        frequency = skrf.Frequency.from_f(self.frequency_hz, unit="hz")
        z0 = np.broadcast_to(self.reference_impedance_ohm, (len(self.frequency_hz),
                                                            len(self.port_names)))
        return skrf.Network(frequency=frequency, s=self.s, z0=z0.astype(complex), name=name)

    def __repr__(self):
        span = (f"{self.frequency_hz[0] * 1e-9:g}-{self.frequency_hz[-1] * 1e-9:g} GHz"
                if len(self.frequency_hz) else "no frequencies")
        return (f"SweepResult({len(self.port_names)} ports {self.port_names}, "
                f"{len(self.frequency_hz)} frequencies {span}, {self.unknowns} unknowns, "
                f"{self.backend})")
