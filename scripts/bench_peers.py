#!/usr/bin/env python3
"""Side-by-side timing of FWI Studio against Deepwave and Devito on the same problem.

Run through scripts/bench-peers.sh, which makes a throwaway venv with the peers (they are benchmark references only,
never dependencies of the product). The problem: a layered nz x nx model (1500 -> 3000 m/s with depth) at 10 m, a PML
of `pml` cells on every side, spatial order `order`, `steps` steps of 1 ms (stable for all three codes, so nobody
sub-steps), one 10 Hz Ricker source per shot 2 cells deep, a receiver in every column 2 cells deep.

What is timed:
- FWI Studio: the whole command as it reports it (`seconds` of `fwi --json forward P`, `command_seconds` of
  `fwi --json gradient P --schedule all`): reading the project (HDF5, deflate), the backend's start and set-up (on
  a GPU, the driver and its context), the performance model's calibration (reused from the calibration cache after the first run on a
  machine), propagation, snapshot memory, gradient. Only the process start is not in it. (Until 2026-11-27 the
  gradient's figure was its `seconds`, which leaves out reading the project and the set-up.)
- Deepwave: `deepwave.scalar` (forward) and that plus `loss.backward()` (gradient); tensors made before the timer.
- Devito: `Operator.apply` of the forward (with `save=steps` for the gradient, Devito's store-all, in a buffer made
  per gradient as its examples' solver does) and of the adjoint with the gradient update; operators built and
  JIT-compiled before the timer (and cached by Devito; the first round is a warm-up for every code).
Every code runs with its own OpenMP defaults (FWI Studio's passive waiting after a brief spin; libgomp's default
for the others). The rounds alternate the three codes and each figure is the minimum over rounds, so a busy machine hurts all codes
alike. "kernels" is the time FWI Studio's kernels alone need for the same cell-updates (`fwi bench` on the same
padded grid: forward; forward with snapshot plus adjoint with gradient), the floor a whole run is measured against. Devito's absorbing layer is its examples' damping mask, not a C-PML; Deepwave and FWI Studio use C-PML.

With --device cuda the same problem runs on the GPU: FWI Studio with `--backend cuda`, Deepwave on CUDA tensors (the
timer stops after torch.cuda.synchronize()). Devito is left out there: its GPU code is OpenACC, which needs NVIDIA's
HPC SDK compiler (nvc), or CUDA through the commercial DevitoPRO.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np


def ricker(freq, dt, nt):
    t = np.arange(nt) * dt - 1.5 / freq
    a = (np.pi * freq * t) ** 2
    return ((1 - 2 * a) * np.exp(-a)).astype(np.float32)


def layered_model(nz, nx):
    return (np.linspace(1500.0, 3000.0, nz)[:, None] * np.ones((1, nx))).astype(np.float32)


def source_columns(a):
    """The shots' source columns: one in the middle, or several spread across the model."""
    return np.linspace(0.05 * a.nx, 0.95 * a.nx, a.shots).astype(np.int64) if a.shots > 1 else np.array([a.nx // 2])


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def synchronizer(torch, device):
    """What a timer calls before reading the clock: a CUDA call returns before its kernels finish."""
    return torch.cuda.synchronize if device.type == "cuda" else (lambda: None)


def devito_damping(shape, nb):
    """The damping mask of Devito's examples (examples/seismic/model.py) on a grid of any rank: zero inside,
    rising across a layer of `nb` cells on every face; zero everywhere without a layer."""
    damp = np.zeros(shape, dtype=np.float32)
    if nb > 0:
        pos = np.arange(nb, 0, -1) / nb
        ramp = 1.5 * np.log(1.0 / 0.001) / nb * (pos - np.sin(2 * np.pi * pos) / (2 * np.pi)) / 10.0
        for axis in range(len(shape)):
            prof = np.zeros(shape[axis], dtype=np.float32)
            prof[:nb] = ramp
            prof[-nb:] = ramp[::-1]
            damp += prof.reshape([-1 if i == axis else 1 for i in range(len(shape))])
    return damp


def machine_name(device):
    """The CPU, and the GPU in front of it where the codes run on one."""
    if device == "cpu":
        return cpu_name()
    import torch
    return f"{torch.cuda.get_device_name(0)} (host: {cpu_name()})"


class FwiStudio:
    name = "FWI Studio"

    def __init__(self, fwi, workdir, a):
        self.fwi, self.project = fwi, os.path.join(workdir, "bench.fwi")
        self.backend = ["--backend", a.device]
        np.save(os.path.join(workdir, "model.npy"), layered_model(a.nz, a.nx))
        run([fwi, "new", self.project, "--model", os.path.join(workdir, "model.npy"), "--dx", "10", "--dz", "10",
             "--shots", str(a.shots), "--receivers", str(a.nx), "--freq", "10", "--dt", "0.001", "--nt", str(a.steps),
             "--order", str(a.order), "--pml", str(a.pml), "--receiver-z", "20", "--source-z", "20"])
        run([fwi, "forward", self.project, "--store-observed"] + self.backend)

    def kernel_seconds(self, a):
        """The kernels alone for this run (`fwi bench` on the same grid): forward, and forward with snapshots
        plus adjoint with the gradient, over `steps` steps of the padded grid."""
        b = json.loads(run([self.fwi, "--json", "bench", "--nz", str(a.nz), "--nx", str(a.nx), "--pml", str(a.pml),
                            "--steps", str(min(a.steps, 200)), "--orders", str(a.order)] + self.backend))["orders"][0]
        updates = float(b["cells_per_step"]) * a.steps * a.shots
        return (updates / b["forward_cell_updates_per_s"],
                updates / b["forward_snapshot_cell_updates_per_s"] + updates / b["adjoint_cell_updates_per_s"])

    def forward(self):
        return json.loads(run([self.fwi, "--json", "forward", self.project] + self.backend))["seconds"]

    def gradient(self):
        return json.loads(run([self.fwi, "--json", "gradient", self.project, "--schedule", "all"] + self.backend))[
            "command_seconds"]


class Deepwave:
    name = "Deepwave"

    def __init__(self, a):
        import torch
        import deepwave
        self.torch, self.deepwave, self.a = torch, deepwave, a
        torch.set_num_threads(a.threads)
        self.device = torch.device(a.device)
        self.v = torch.from_numpy(layered_model(a.nz, a.nx))
        ns = a.shots
        xs = source_columns(a)
        self.src_loc = torch.zeros(ns, 1, 2, dtype=torch.long)
        self.src_loc[:, 0, 0] = 2
        self.src_loc[:, 0, 1] = torch.from_numpy(xs)
        self.rec_loc = torch.zeros(ns, a.nx, 2, dtype=torch.long)
        self.rec_loc[:, :, 0] = 2
        self.rec_loc[:, :, 1] = torch.arange(a.nx)
        self.amp = torch.from_numpy(np.tile(ricker(10.0, 0.001, a.steps), (ns, 1, 1)))
        self.v, self.src_loc, self.rec_loc, self.amp = (t.to(self.device) for t in
                                                        (self.v, self.src_loc, self.rec_loc, self.amp))
        self._synchronize = synchronizer(torch, self.device)

    def _run(self, v):
        return self.deepwave.scalar(v, 10.0, 0.001, source_amplitudes=self.amp, source_locations=self.src_loc,
                                    receiver_locations=self.rec_loc, accuracy=self.a.order, pml_width=self.a.pml,
                                    pml_freq=10.0)[-1]

    def forward(self):
        self._synchronize()
        t0 = time.perf_counter()
        with self.torch.no_grad():
            self._run(self.v)
        self._synchronize()
        return time.perf_counter() - t0

    def gradient(self):
        v = self.v.clone().requires_grad_()
        self._synchronize()
        t0 = time.perf_counter()
        d = self._run(v)
        (0.5 * (d ** 2).sum()).backward()
        self._synchronize()
        return time.perf_counter() - t0


class Devito:
    name = "Devito"

    def __init__(self, a):
        os.environ.setdefault("DEVITO_LANGUAGE", "openmp")
        os.environ.setdefault("DEVITO_LOGGING", "ERROR")
        import devito as dv
        self.dv, self.a = dv, a
        nb, nz, nx = a.pml, a.nz, a.nx
        shape = (nx + 2 * nb, nz + 2 * nb)
        grid = dv.Grid(shape=shape, extent=tuple(10.0 * (s - 1) for s in shape), dtype=np.float32)
        self.grid = grid
        v = np.pad(layered_model(nz, nx).T, nb, mode="edge")
        self.m = dv.Function(name="m", grid=grid, space_order=a.order)
        self.m.data[:] = 1.0 / v ** 2
        self.damp = dv.Function(name="damp", grid=grid, space_order=0)
        self.damp.data[:] = devito_damping(shape, nb)
        steps, dt = a.steps, 1.0  # time in ms, space in m: velocities scaled to m/ms
        self.m.data[:] *= 1e6
        self.dt, self.steps = dt, steps
        rec_x = 10.0 * (nb + np.arange(nx))
        depth = 10.0 * (nb + 2)
        self.src_xz = [(10.0 * (nb + x), depth) for x in source_columns(a)]
        self.src = dv.SparseTimeFunction(name="src", grid=grid, npoint=1, nt=steps + 1)
        self.src.data[:-1, 0] = ricker(0.010, 1.0, steps)  # 10 Hz in 1/ms
        self.rec = dv.SparseTimeFunction(name="rec", grid=grid, npoint=nx, nt=steps + 1)
        self.rec.coordinates.data[:, 0] = rec_x
        self.rec.coordinates.data[:, 1] = depth
        self.fwd_plain = self._forward_operator(save=False)
        self.fwd_saved = self._forward_operator(save=True)
        self.adj = self._adjoint_operator()

    def _forward_operator(self, save):
        dv = self.dv
        u = dv.TimeFunction(name="u", grid=self.grid, time_order=2, space_order=self.a.order,
                            save=self.steps + 1 if save else None)
        pde = self.m * u.dt2 - u.laplace + self.damp * u.dt
        stencil = dv.Eq(u.forward, dv.solve(pde, u.forward))
        inject = self.src.inject(field=u.forward, expr=self.src * self.grid.stepping_dim.spacing ** 2 / self.m)
        record = self.rec.interpolate(expr=u)
        op = dv.Operator([stencil] + inject + record, name="forward_saved" if save else "forward")
        return op, u

    def _adjoint_operator(self):
        dv = self.dv
        u = self.fwd_saved[1]
        v = dv.TimeFunction(name="v", grid=self.grid, time_order=2, space_order=self.a.order)
        grad = dv.Function(name="grad", grid=self.grid)
        pde = self.m * v.dt2 - v.laplace + self.damp * v.dt.T
        stencil = dv.Eq(v.backward, dv.solve(pde, v.backward))
        residual = dv.SparseTimeFunction(name="residual", grid=self.grid, npoint=self.a.nx, nt=self.steps + 1,
                                         coordinates=self.rec.coordinates.data)
        inject = residual.inject(field=v.backward, expr=residual * self.grid.stepping_dim.spacing ** 2 / self.m)
        update = dv.Eq(grad, grad - u * v.dt2)
        self.residual, self.grad, self.v = residual, grad, v
        return dv.Operator([stencil] + inject + [update], name="adjoint")

    def forward(self):
        """One shot after another through the one-shot operator (Devito's examples loop over shots the same way)."""
        op, u = self.fwd_plain
        u.data[:] = 0
        t0 = time.perf_counter()
        for i, xz in enumerate(self.src_xz):
            if i > 0:
                u.data[:] = 0  # three time levels of the grid: a few MB
            self.src.coordinates.data[:] = [xz]
            op.apply(dt=self.dt, time_M=self.steps - 1)
        return time.perf_counter() - t0

    def gradient(self):
        op, u = self.fwd_saved
        self.grad.data[:] = 0
        t0 = time.perf_counter()
        # A fresh wavefield buffer per gradient, as Devito's own AcousticWaveSolver.forward(save=True) makes one
        # per call (and as FWI Studio maps its snapshot memory per run): its allocation is part of the run. The
        # shots reuse it, as FWI Studio's shots reuse its snapshot memory: each shot's forward overwrites every
        # saved step but the first two (the initial conditions, zeroed here; time_m is 1).
        u_run = self.dv.TimeFunction(name="u", grid=self.grid, time_order=2, space_order=self.a.order,
                                     save=self.steps + 1)
        for i, xz in enumerate(self.src_xz):
            if i > 0:
                u_run.data[0:2] = 0
            self.v.data[:] = 0
            self.src.coordinates.data[:] = [xz]
            op.apply(u=u_run, dt=self.dt, time_M=self.steps - 1)
            self.residual.data[:] = self.rec.data
            self.adj.apply(u=u_run, dt=self.dt, time_M=self.steps - 1)
        seconds = time.perf_counter() - t0
        del u_run
        self.dv.clear_cache()  # Devito's symbol cache would otherwise keep every round's buffer alive
        return seconds


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
    return r.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fwi", required=True, help="path of the fwi executable")
    p.add_argument("--nz", type=int, default=1000)
    p.add_argument("--nx", type=int, default=1000)
    p.add_argument("--pml", type=int, default=20)
    p.add_argument("--order", type=int, default=8)
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--shots", type=int, default=1)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cuda: FWI Studio's CUDA backend against Deepwave on the GPU (Devito is not run there)")
    p.add_argument("--markdown", help="also write the table to this file")
    a = p.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(a.threads)

    with tempfile.TemporaryDirectory() as workdir:
        codes = [FwiStudio(a.fwi, workdir, a), Deepwave(a)] + ([Devito(a)] if a.device == "cpu" else [])
        best = {(c.name, k): float("inf") for c in codes for k in ("forward", "gradient")}
        kernel = [float("inf"), float("inf")]
        for r in range(a.rounds + 1):  # round 0 warms every code up and is not counted
            for c in codes:
                for kind in ("forward", "gradient"):
                    s = getattr(c, kind)()
                    if r > 0:
                        best[(c.name, kind)] = min(best[(c.name, kind)], s)
            if r > 0:
                kernel = [min(k, s) for k, s in zip(kernel, codes[0].kernel_seconds(a))]
            print(f"round {r}/{a.rounds} done", file=sys.stderr)

    ours = codes[0].name
    lines = [f"Machine: {machine_name(a.device)}, {os.cpu_count()} cores, {a.threads} threads; "
             f"{a.nz} x {a.nx} + {a.pml} PML cells, order {a.order}, {a.steps} steps, {a.shots} shot(s); "
             f"minimum of {a.rounds} alternating rounds after a warm-up round.", "",
             f"| run | {ours} kernels | " + " | ".join(c.name for c in codes) + f" | {ours} / its kernels | " +
             " | ".join(f"{c.name} / {ours}" for c in codes[1:]) + " |",
             "|---|---|" + "---|" * (2 * len(codes))]
    for i, kind in enumerate(("forward", "gradient")):
        row = [f"{kernel[i]:.3f} s"] + [f"{best[(c.name, kind)]:.3f} s" for c in codes]
        row.append(f"{best[(ours, kind)] / kernel[i]:.2f}x")
        row += [f"{best[(c.name, kind)] / best[(ours, kind)]:.2f}x" for c in codes[1:]]
        lines.append(f"| {kind}, whole run | " + " | ".join(row) + " |")
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
