"""PyTorch's time for the request bench/webgpu-logprobs.ts times on WebGPU: the same random weights
and tokens (written by `npx tsx bench/webgpu-logprobs.ts --full --save DIR`), 16 candidates x 256
tokens after a 1024-token prefix, run as PyTorch eager runs it: the 16 full sequences in one batch,
full logits, log-softmax, gather of each candidate token's log-prob. Prints the median time, tokens/s,
and the largest difference from the WebGPU scorer's log-probs (webgpu-logprobs.json).

    python3 bench/webgpu_logprobs_torch.py DIR/qwen2.5-0.5b [--device cuda] [--attn eager|sdpa] [--runs 5] [--dtype float32]
"""

import argparse
import json
import pathlib
import re
import time

import torch
import transformers
from transformers import AutoModelForCausalLM


def dtype_argument(dtype):
    """transformers 4.56 renamed from_pretrained's torch_dtype to dtype (the old name warns, then goes)."""
    major, minor = (int(x) for x in re.findall(r"\d+", transformers.__version__)[:2])
    return {"dtype": dtype} if (major, minor) >= (4, 56) else {"torch_dtype": dtype}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--attn", default="eager", choices=["eager", "sdpa"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dtype", help="compute in this dtype instead of the checkpoint's (e.g. float32 on a CPU, whose float16 is slow)")
    args = parser.parse_args()
    folder = pathlib.Path(args.folder)
    request = json.loads((folder / "request.json").read_text())
    config = json.loads((folder / "config.json").read_text())
    dtype = getattr(torch, args.dtype or config.get("torch_dtype", "float16"))
    model = AutoModelForCausalLM.from_pretrained(folder, **dtype_argument(dtype), attn_implementation=args.attn).to(args.device).eval()
    prefix = request["prefix"]
    candidates = request["candidates"]
    ids = torch.tensor([prefix + c for c in candidates], device=args.device)
    targets = torch.tensor(candidates, device=args.device)
    start = len(prefix) - 1

    def run():
        with torch.no_grad():
            logits = model(ids).logits[:, start : start + targets.shape[1]].float()
            return torch.log_softmax(logits, dim=-1).gather(2, targets[..., None])[..., 0]

    def sync():
        if args.device.startswith("cuda"):
            torch.cuda.synchronize()

    run()
    sync()
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        out = run()
        sync()
        times.append(time.perf_counter() - t)
    ms = sorted(times)[len(times) // 2] * 1000
    scored = targets.numel()
    line = f"pytorch {torch.__version__} {args.device} {args.attn} {dtype}: {ms:.1f} ms (median of {args.runs}), {scored * 1000 / ms:,.0f} scored tok/s"
    result = {"pytorch_ms": ms, "device": args.device, "attn": args.attn, "scored_tok_s": scored * 1000 / ms, "torch": torch.__version__}
    theirs = folder / "webgpu-logprobs.json"
    if theirs.exists():
        webgpu = torch.tensor(json.loads(theirs.read_text()), device=args.device)
        result["max_abs_diff_vs_webgpu"] = (webgpu - out).abs().max().item()
        line += f"; largest |webgpu - pytorch| log-prob difference {result['max_abs_diff_vs_webgpu']:.2e}"
    print(line)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
