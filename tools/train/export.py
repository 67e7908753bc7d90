#!/usr/bin/env python3
"""assets/*.npz -> assets/*.onnx (opset 13, free dims H and W), then the check that matters:
the exported file run through the project's own ONNX loader and kernels (mlrun) matches
PyTorch on a held-out input (fp32, relative L2 < 1e-4). Writes that input and PyTorch's output
to tests/data/models/ for the ctest (tests/models/trained_models.cmake) that repeats the check.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch

import models
from common import ASSETS, DATA, HELDOUT_PATHS, MLRUN, ROOT, load_channel, log, srgb_encode

TEST_DATA = os.path.join(ROOT, "tests", "data", "models")


def held_out_inputs():
    """Small crops of held-out frames (awkward sizes; the denoiser's must be multiples of 4)."""
    p = HELDOUT_PATHS[0]
    lo = srgb_encode(load_channel(os.path.join(DATA, "eval_up", p, "lo"), "color", 0))
    up = {"color": lo[None, :, 100:137, 150:203]}
    d = os.path.join(DATA, "eval_dn", p, "noisy")
    crop = (slice(None), slice(120, 168), slice(200, 260))
    dn = {"color": srgb_encode(load_channel(d, "color", 0))[crop][None],
          "albedo": load_channel(d, "albedo", 0)[crop][None],
          "normal": load_channel(d, "normal", 0)[crop][None],
          "depth": load_channel(d, "depth", 0)[crop][None]}
    return {"upscaler_x2": up, "denoiser": {k: np.ascontiguousarray(v) for k, v in dn.items()}}


def check_with_mlrun(onnx_path, inputs, want, mlrun):
    with tempfile.TemporaryDirectory() as tmp:
        args = [mlrun, onnx_path, "--output-dir", tmp]
        for name, arr in inputs.items():
            f = os.path.join(tmp, name + ".npy")
            np.save(f, arr.astype(np.float32))
            args += ["--input", f"{name}={f}"]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"export.py: mlrun failed on {onnx_path}:\n{r.stdout}{r.stderr}")
        got = np.load(os.path.join(tmp, "output.npy"))
    if got.shape != want.shape:
        sys.exit(f"export.py: mlrun output shape {got.shape}, PyTorch {want.shape}")
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mlrun", default=MLRUN)
    ap.add_argument("--no-check", action="store_true", help="export only (no mlrun)")
    a = ap.parse_args()
    inputs = held_out_inputs()
    os.makedirs(TEST_DATA, exist_ok=True)
    ok = True
    for stem, kind, build in (("upscaler_x2", "upscaler", models.build_upscaler), ("denoiser", "denoiser", models.build_denoiser)):
        model = models.load_npz(build(), os.path.join(ASSETS, stem + ".npz")).eval()
        path = os.path.join(ASSETS, stem + ".onnx")
        models.export_onnx(model, path, kind)
        onnx.checker.check_model(onnx.load(path))
        ops = sorted({n.op_type for n in onnx.load(path).graph.node})
        log(f"assets/{stem}.onnx: {os.path.getsize(path) // 1024} KiB, ops {', '.join(ops)}")
        x = inputs[stem]
        with torch.no_grad():
            want = model(*[torch.from_numpy(v) for v in x.values()]).numpy()
        for name, v in x.items():
            np.save(os.path.join(TEST_DATA, f"{stem}_{name}.npy"), v.astype(np.float32))
        np.save(os.path.join(TEST_DATA, f"{stem}_output.npy"), want)
        if not a.no_check:
            rel = check_with_mlrun(path, x, want, a.mlrun)
            good = rel < 1e-4
            ok &= good
            log(f"{stem}: mlrun (fp32) vs PyTorch on a held-out {list(want.shape)} output: relative L2 {rel:.2e} "
                f"({'ok' if good else 'FAILS'} < 1e-4)")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
