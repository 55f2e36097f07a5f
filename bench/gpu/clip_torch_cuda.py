"""PyTorch's side of the GPU CLIP bench: CLIPVisionModelWithProjection on the same weights and the
same float pixels bench/gpu/clip-gpu.ts embedded on WebGPU (clip-pixels.f32, [N, 3, S, S]), in
batches of B, fp32 and fp16, median of R runs over all N images (synchronised), and the largest
difference of its fp32 embeddings from WebGPU's (webgpu-embeddings-f32.f32, the first K images).
Prints one JSON line.

    python3 bench/gpu/clip_torch_cuda.py WEIGHTS_DIR OUT_DIR N [--batch 64] [--runs 3] [--device cuda]
"""

import argparse
import json
import pathlib
import re
import time

import numpy as np
import torch
import transformers
from transformers import CLIPVisionModelWithProjection


def dtype_argument(dtype):
    """transformers 4.56 renamed from_pretrained's torch_dtype to dtype (the old name warns, then goes)."""
    major, minor = (int(x) for x in re.findall(r"\d+", transformers.__version__)[:2])
    return {"dtype": dtype} if (major, minor) >= (4, 56) else {"torch_dtype": dtype}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("weights")
    parser.add_argument("out")
    parser.add_argument("n", type=int)
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--dtypes", default="float32,float16")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    pixels = torch.from_numpy(np.fromfile(out / "clip-pixels.f32", dtype=np.float32).reshape(args.n, 3, args.size, args.size)).to(args.device)

    def sync():
        if args.device.startswith("cuda"):
            torch.cuda.synchronize()

    result = {"device": torch.cuda.get_device_name() if args.device.startswith("cuda") else args.device, "torch": torch.__version__}
    for name in args.dtypes.split(","):
        dtype = getattr(torch, name)
        model = CLIPVisionModelWithProjection.from_pretrained(args.weights, **dtype_argument(dtype)).to(args.device).eval()
        x = pixels.to(dtype)

        def run():
            with torch.inference_mode():
                return torch.cat([model(pixel_values=x[i : i + args.batch]).image_embeds for i in range(0, args.n, args.batch)])

        run()
        sync()
        times = []
        for _ in range(args.runs):
            began = time.perf_counter()
            embeds = run()
            sync()
            times.append((time.perf_counter() - began) * 1000)
        entry = {"ms": sorted(times)[len(times) // 2], "runs": times}
        ours = out / f"webgpu-embeddings-{'f32' if name == 'float32' else 'f16'}.f32"
        if ours.exists():
            theirs = np.fromfile(ours, dtype=np.float32)
            k = theirs.size // embeds.shape[1]
            normed = (embeds[:k].float() / embeds[:k].float().norm(dim=-1, keepdim=True)).cpu().numpy().reshape(-1)
            entry["max_abs_diff_vs_webgpu"] = float(np.abs(normed - theirs).max())
        result[name] = entry
        del model
    print(json.dumps({"clip_torch": result}), flush=True)


if __name__ == "__main__":
    main()
