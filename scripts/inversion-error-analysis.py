#!/usr/bin/env python3
"""The model-error analysis of docs/inversion.md for a Marmousi-II project made by scripts/inversion-demo.sh.

Prints the relative model error on the project's grid, where the squared error sits by depth, the error against
the native 20 m Marmousi-II (the result interpolated linearly onto 20 m), and the errors of the true model
blurred by Gaussians, for scale. Not part of the build or the tests: it needs python3-numpy
(apt-get install python3-numpy) and h5dump (hdf5-tools, installed by scripts/setup-debian.sh).

Usage: scripts/inversion-error-analysis.py PROJECT.fwi [DATA_DIR]   (DATA_DIR: resources/models/marmousi2 by default)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np


def read_model(project, name):
    """One model of the project as float64 (nz, nx), through h5dump's raw little-endian output."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, name + ".bin")
        subprocess.run(["h5dump", "-d", "/models/" + name, "-b", "LE", "-o", raw, project],
                       check=True, capture_output=True)
        shape = subprocess.run(["h5dump", "-H", "-d", "/models/" + name, project], check=True,
                               capture_output=True, text=True).stdout
        dims = shape[shape.index("( ") + 2:shape.index(" )")].split(", ")
        return np.fromfile(raw, "<f4").reshape(int(dims[0]), int(dims[1])).astype(float)


def read_native(data_dir, name):
    """A 500 x 174 Marmousi-II file (x-major, 20 m) as (nz, nx)."""
    return np.fromfile(os.path.join(data_dir, name), "<f4").reshape(500, 174).T.astype(float)


def upsample(a, nz, nx, ratio):
    """Linear interpolation of a coarse (z, x) grid onto `ratio` times finer nodes (edge values beyond)."""
    zc = np.minimum(np.arange(nz) / ratio, a.shape[0] - 1)
    xc = np.minimum(np.arange(nx) / ratio, a.shape[1] - 1)
    z0, x0 = np.floor(zc).astype(int), np.floor(xc).astype(int)
    z1, x1 = np.minimum(z0 + 1, a.shape[0] - 1), np.minimum(x0 + 1, a.shape[1] - 1)
    wz, wx = (zc - z0)[:, None], (xc - x0)[None, :]
    return ((1 - wz) * ((1 - wx) * a[z0][:, x0] + wx * a[z0][:, x1]) +
            wz * ((1 - wx) * a[z1][:, x0] + wx * a[z1][:, x1]))


def blur(a, sigma_cells):
    """Gaussian blur through the FFT, edges padded with their own values."""
    nz, nx = a.shape
    p = np.pad(a, ((nz, nz), (nx, nx)), mode="edge")
    kz, kx = np.fft.fftfreq(p.shape[0]), np.fft.fftfreq(p.shape[1])
    g = np.exp(-2 * (np.pi * sigma_cells) ** 2 * (kz[:, None] ** 2 + kx[None, :] ** 2))
    return np.real(np.fft.ifft2(np.fft.fft2(p) * g))[nz:2 * nz, nx:2 * nx]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    project = sys.argv[1]
    data_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..",
                                                                   "resources", "models", "marmousi2")
    result, start, true = (read_model(project, n) for n in ("current", "initial", "true"))
    norm = np.linalg.norm(true)
    e0, e = np.linalg.norm(start - true) / norm, np.linalg.norm(result - true) / norm
    print(f"on the project's grid: start {e0:.4f}, result {e:.4f}, reduction {100 * (1 - e / e0):.1f}%")

    nz = true.shape[0]
    band = max(nz // 8, 1)
    print("squared error by depth band (cells), share of the total: start -> result")
    s0, s1 = np.sum((start - true) ** 2), np.sum((result - true) ** 2)
    for z in range(0, nz, band):
        b = slice(z, z + band)
        print(f"  rows {z:3d}-{min(z + band, nz) - 1:3d}: {100 * np.sum((start[b] - true[b]) ** 2) / s0:5.1f}% -> "
              f"{100 * np.sum((result[b] - true[b]) ** 2) / s1:5.1f}%")

    native_true = read_native(data_dir, "marmousi_II_marine.vp")
    native_start = read_native(data_dir, "marmousi_II_smooth2.vp")
    ratio = round((native_true.shape[0] - 1) / (nz - 1))
    up = lambda a: upsample(a, native_true.shape[0], native_true.shape[1], ratio)
    nn = np.linalg.norm(native_true)
    n0 = np.linalg.norm(native_start - native_true) / nn
    n1 = np.linalg.norm(up(result) - native_true) / nn
    floor = np.linalg.norm(up(true) - native_true) / nn
    print(f"against the native 20 m model: start {n0:.4f}, result {n1:.4f}, reduction {100 * (1 - n1 / n0):.1f}%; "
          f"the project's true model itself is {floor:.4f} away")

    for cells in (1, 1.5, 2):
        b = np.linalg.norm(blur(true, cells) - true) / norm
        print(f"true model blurred by sigma {cells} cells: {b:.4f} ({100 * (1 - b / e0):.0f}% below the start)")


if __name__ == "__main__":
    main()
