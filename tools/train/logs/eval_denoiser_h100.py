import sys, os
sys.path.insert(0, ".")
import render
render.DN_EVAL["ref_spp"] = 2048
import torch, evaluate
render.render("eval")
os.makedirs("/tmp/crops", exist_ok=True)
evaluate.CROPS = "/tmp/crops"
torch.set_num_threads(16)
r, n = evaluate.eval_denoiser()
print("DENOISER 2048-ray H100 references, frames", n)
print(evaluate.table(r, "a-trous (numpy port of the engine's)"))
print(evaluate.per_frame(r))
