#!/usr/bin/env python3
"""3D forward propagation: FWI Studio's propagator against Deepwave's and Devito's on the same grid.

Run through scripts/bench-peers.sh --dims 3 (a throwaway venv with the peers; they are benchmark references only).
The problem: a layered n x n x n model (1500 -> 3000 m/s with depth) at 10 m, a PML of `pml` cells on every face,
spatial order `order`, `steps` steps of 1 ms (stable for all three codes: nobody sub-steps), one 10 Hz Ricker source
2 cells deep in the middle, a line of n receivers along x 2 cells deep. With --shots S, S such shots (sources
spread along x) per timed call where a code can batch them.

What is timed (cell-updates per second = padded cells x steps / seconds):
- FWI Studio: `fwi --json bench --dims 3` on the same padded grid (its forward kernel over `steps` steps, states
  allocated and touched before the timer; the fastest of `repeats`): the propagator alone, one shot. FWI Studio
  runs shots one after the other, each on all threads, so S shots take S times one shot: its rate is the same
  for any S.
- Deepwave: one `deepwave.scalar` call (its set-up, padding and PML included; tensors made before the timer),
  all S shots in one batch.
- Devito: `Operator.apply` of the forward (JIT-compiled before the timer; damping-mask absorbing layer of its
  examples, not a C-PML), S applies in a row (the operator models one shot).
The rounds alternate the three codes and each figure is the best round, so a busy machine hurts all codes alike.
With --device cuda: FWI Studio's `fwi bench --dims 3 --backend cuda` against Deepwave on CUDA tensors (timed to
torch.cuda.synchronize()); Devito is not run there (bench_peers.py says why).
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

from bench_peers import devito_damping, machine_name, ricker, synchronizer


def layered_model(n):
    return (np.linspace(1500.0, 3000.0, n)[:, None, None] * np.ones((1, n, n))).astype(np.float32)


class FwiStudio:
    name = "FWI Studio"

    def __init__(self, fwi, a):
        self.fwi, self.a = fwi, a

    def rate(self):
        a = self.a
        out = subprocess.run([self.fwi, "--json", "bench", "--dims", "3", "--nz", str(a.n), "--ny", str(a.n),
                              "--nx", str(a.n), "--pml", str(a.pml), "--steps", str(a.steps), "--orders",
                              str(a.order), "--repeats", "1", "--backend", a.device], capture_output=True, text=True,
                             check=True).stdout
        result = json.loads(out.strip().splitlines()[-1])
        self.roofline = result["roofline_cell_updates_per_s"]
        return result["orders"][0]["forward_cell_updates_per_s"]


class Deepwave:
    name = "Deepwave"

    def __init__(self, a):
        import torch
        import deepwave
        self.torch, self.deepwave, self.a = torch, deepwave, a
        torch.set_num_threads(a.threads)
        n = a.n
        self.v = torch.from_numpy(layered_model(n))
        s = a.shots
        self.src = torch.zeros(s, 1, 3, dtype=torch.long)
        self.src[:, 0, 0] = 2
        self.src[:, 0, 1] = n // 2
        self.src[:, 0, 2] = torch.tensor([n // 2] if s == 1 else [(i + 1) * n // (s + 1) for i in range(s)])
        self.rec = torch.zeros(s, n, 3, dtype=torch.long)
        self.rec[:, :, 0] = 2
        self.rec[:, :, 1] = n // 2
        self.rec[:, :, 2] = torch.arange(n)
        self.amp = torch.from_numpy(np.repeat(ricker(10.0, 0.001, a.steps)[None, None, :], s, axis=0).copy())
        device = torch.device(a.device)
        self.v, self.src, self.rec, self.amp = (t.to(device) for t in (self.v, self.src, self.rec, self.amp))
        self.synchronize = synchronizer(torch, device)

    def rate(self):
        a = self.a
        self.synchronize()
        t0 = time.perf_counter()
        with self.torch.no_grad():
            self.deepwave.scalar(self.v, 10.0, 0.001, source_amplitudes=self.amp, source_locations=self.src,
                                 receiver_locations=self.rec, accuracy=a.order, pml_width=a.pml, pml_freq=10.0)
        self.synchronize()
        return padded_cells(a) * a.steps * a.shots / (time.perf_counter() - t0)


class Devito:
    name = "Devito"

    def __init__(self, a):
        os.environ.setdefault("DEVITO_LANGUAGE", "openmp")
        os.environ.setdefault("DEVITO_LOGGING", "ERROR")
        import devito as dv
        self.a = a
        nb, n = a.pml, a.n
        shape = (n + 2 * nb,) * 3  # Devito's axes here: (x, y, z)
        grid = dv.Grid(shape=shape, extent=tuple(10.0 * (s - 1) for s in shape), dtype=np.float32)
        v = np.pad(layered_model(n).transpose(2, 1, 0), nb, mode="edge")
        m = dv.Function(name="m", grid=grid, space_order=a.order)
        m.data[:] = 1e6 / v ** 2  # time in ms, space in m
        d = dv.Function(name="damp", grid=grid, space_order=0)
        d.data[:] = devito_damping(shape, nb)  # --pml 0: no layer, the same operator (damp read, zero)
        self.u = dv.TimeFunction(name="u", grid=grid, time_order=2, space_order=a.order)
        src = dv.SparseTimeFunction(name="src", grid=grid, npoint=1, nt=a.steps + 1)
        centre, depth = 10.0 * (nb + n // 2), 10.0 * (nb + 2)
        src.coordinates.data[:] = [[centre, centre, depth]]
        src.data[:-1, 0] = ricker(0.010, 1.0, a.steps)
        rec = dv.SparseTimeFunction(name="rec", grid=grid, npoint=n, nt=a.steps + 1)
        rec.coordinates.data[:, 0] = 10.0 * (nb + np.arange(n))
        rec.coordinates.data[:, 1] = centre
        rec.coordinates.data[:, 2] = depth
        pde = m * self.u.dt2 - self.u.laplace + d * self.u.dt
        stencil = dv.Eq(self.u.forward, dv.solve(pde, self.u.forward))
        inject = src.inject(field=self.u.forward, expr=src * grid.stepping_dim.spacing ** 2 / m)
        self.op = dv.Operator([stencil] + inject + rec.interpolate(expr=self.u), name="forward3d")

    def rate(self):
        t0 = time.perf_counter()
        for _ in range(self.a.shots):
            self.u.data[:] = 0
            self.op.apply(dt=1.0, time_M=self.a.steps - 1)
        return padded_cells(self.a) * self.a.steps * self.a.shots / (time.perf_counter() - t0)


def padded_cells(a):
    return (a.n + 2 * a.pml) ** 3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fwi", required=True, help="path of the fwi executable")
    p.add_argument("--n", type=int, default=256, help="model cells per axis")
    p.add_argument("--pml", type=int, default=20)
    p.add_argument("--order", type=int, default=8)
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--shots", type=int, default=1, help="shots per timed call (Deepwave batches them)")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cuda: FWI Studio's CUDA backend against Deepwave on the GPU (Devito is not run there)")
    p.add_argument("--markdown", help="also write the table to this file")
    a = p.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(a.threads)

    codes = [FwiStudio(a.fwi, a), Deepwave(a)] + ([Devito(a)] if a.device == "cpu" else [])
    best = {c.name: 0.0 for c in codes}
    for r in range(a.rounds + 1):  # round 0 warms every code up and is not counted
        for c in codes:
            rate = c.rate()
            if r > 0:
                best[c.name] = max(best[c.name], rate)
        print(f"round {r}/{a.rounds} done", file=sys.stderr)

    ours = codes[0]
    roofline = (f"; FWI Studio's last triad roofline {ours.roofline / 1e6:.0f} M cell-updates/s" if a.device == "cpu"
                else "")
    lines = [f"Machine: {machine_name(a.device)}, {os.cpu_count()} cores, {a.threads} threads; {a.n}^3 + {a.pml} PML "
             f"cells ({padded_cells(a) / 1e6:.1f} M cells), order {a.order}, {a.steps} steps, {a.shots} shot(s); best "
             f"of {a.rounds} alternating rounds after a warm-up round{roofline}.", "",
             "| 3D forward | " + " | ".join(c.name for c in codes) + " | " +
             " | ".join(f"{ours.name} / {c.name}" for c in codes[1:]) + " |",
             "|---|" + "---|" * (2 * len(codes) - 1),
             "| M cell-updates/s | " + " | ".join(f"{best[c.name] / 1e6:.0f}" for c in codes) + " | " +
             " | ".join(f"{best[ours.name] / best[c.name]:.2f}x" for c in codes[1:]) + " |"]
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
