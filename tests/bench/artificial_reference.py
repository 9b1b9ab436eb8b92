#!/usr/bin/env python3
"""Independent computation of the artificial matrices pinned in test_artificial.cpp.

A plain-Python MT19937-64 (checked against the C++ standard's value for the 10000th output of
a default-constructed std::mt19937_64) and the construction written down in
bench/include/planarmom/bench/artificial.hpp, sharing no code with the C++ generator. Prints
the entries of the tiny cases as hexadecimal floats and the FNV-1a 64 checksums of the larger
ones, the numbers the C++ test pins. Usage: artificial_reference.py (no arguments)."""
import math
import struct

MASK = (1 << 64) - 1


class MT19937_64:
    def __init__(self, seed):
        self.mt = [seed & MASK]
        for i in range(1, 312):
            prev = self.mt[-1]
            self.mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & MASK)
        self.index = 312

    def _twist(self):
        upper, lower = MASK ^ ((1 << 31) - 1), (1 << 31) - 1
        for i in range(312):
            x = (self.mt[i] & upper) | (self.mt[(i + 1) % 312] & lower)
            xa = x >> 1
            if x & 1:
                xa ^= 0xB5026F5AA96619E9
            self.mt[i] = self.mt[(i + 156) % 312] ^ xa
        self.index = 0

    def __call__(self):
        if self.index >= 312:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & MASK


def unit(rng):
    return float((rng() >> 10) - (1 << 53)) * 2.0 ** -53


def offsets(n, diagonals):
    s = max(2, math.isqrt(n - 1) + 1 if n > 1 else 1)  # ceil(sqrt(n))
    out = [0]
    for k in range(1, (diagonals - 1) // 2 + 1):
        o = 1 if k == 1 else (k - 1) * s
        if o >= n:
            break
        out += [o, -o]
    return sorted(out)


def matrix(n, diagonals, dominant, seed, complex_values):
    rng = MT19937_64(seed)
    row_ptr, cols, values = [0], [], []
    for i in range(n):
        diag_at, off_sum = None, 0.0
        for o in offsets(n, diagonals):
            j = i + o
            if j < 0 or j >= n:
                continue
            cols.append(j)
            if o == 0:
                diag_at = len(values)
                values.append(None)
            else:
                v = (unit(rng), unit(rng)) if complex_values else (unit(rng), 0.0)
                values.append(v)
                off_sum += abs(v[0]) + abs(v[1])
        values[diag_at] = ((2.0 if dominant else 0.5) * max(off_sum, 1.0), 0.0)
        row_ptr.append(len(cols))
    return row_ptr, cols, values


def fnv1a(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


def checksum(row_ptr, cols, values, complex_values):
    data = b"".join(struct.pack("<i", v) for v in row_ptr + cols)
    for re, im in values:
        data += struct.pack("<d", re) + (struct.pack("<d", im) if complex_values else b"")
    return fnv1a(data)


def main():
    rng = MT19937_64(5489)
    for _ in range(9999):
        rng()
    assert rng() == 9981545732273789042, "MT19937-64 does not match the C++ standard"
    for n, d, dominant, seed, cplx in [(4, 3, True, 1, False), (3, 3, True, 7, True)]:
        row_ptr, cols, values = matrix(n, d, dominant, seed, cplx)
        print(f"n={n} diagonals={d} dominant={dominant} seed={seed} complex={cplx}")
        print("  row_ptr", row_ptr, "cols", cols)
        for re, im in values:
            print("  ", re.hex(), im.hex() if cplx else "")
    for n, d, dominant, seed, cplx in [(100, 5, True, 1, False), (100, 5, True, 1, True),
                                       (37, 7, False, 12345, False), (37, 7, False, 12345, True)]:
        print(f"checksum n={n} diagonals={d} dominant={dominant} seed={seed} complex={cplx}: "
              f"0x{checksum(*matrix(n, d, dominant, seed, cplx), cplx):016x}")


if __name__ == "__main__":
    main()
