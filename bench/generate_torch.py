"""transformers' `generate` timed on the request bench/generate.ts times on the studio's generator:
the same model folder and prompt ids, greedy, exactly N new tokens (the end token does not stop it).
A streamer stamps each token as generate hands it out: time to first token is from the call to the
first new token; decode tokens/s counts the tokens after it. Prints one JSON line (medians of --runs,
after one warm-up run) with the first run's token ids, for the bench to compare.

    python3 bench/generate_torch.py FOLDER --prompt-file PROMPT.json --new 64 [--device cuda] [--dtype float16] [--attn sdpa] [--runs 3]
"""

import argparse
import json
import pathlib
import re
import statistics
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM
from transformers.generation.streamers import BaseStreamer


def dtype_argument(dtype):
    """transformers 4.56 renamed from_pretrained's torch_dtype to dtype."""
    major, minor = (int(x) for x in re.findall(r"\d+", transformers.__version__)[:2])
    return {"dtype": dtype} if (major, minor) >= (4, 56) else {"torch_dtype": dtype}


class Stamps(BaseStreamer):
    """The time each new token arrives (the first put is the prompt itself)."""

    def __init__(self):
        self.times = []
        self.prompt_seen = False

    def put(self, value):
        # .tolist() waits for the device, so the stamp is when the token exists.
        value.tolist()
        if not self.prompt_seen:
            self.prompt_seen = True
            return
        self.times.append(time.perf_counter())

    def end(self):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--prompt-file", required=True)
    parser.add_argument("--new", type=int, default=64)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--dtype", help="compute dtype (default: the checkpoint's, float32 on a CPU)")
    parser.add_argument("--attn", default="sdpa", choices=["eager", "sdpa"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = pathlib.Path(args.folder)
    prompt = json.loads(pathlib.Path(args.prompt_file).read_text())
    config = json.loads((folder / "config.json").read_text())
    default = "float32" if args.device == "cpu" else config.get("torch_dtype") or config.get("dtype") or "float16"
    dtype = getattr(torch, args.dtype or default)
    model = AutoModelForCausalLM.from_pretrained(folder, **dtype_argument(dtype), attn_implementation=args.attn).to(args.device).eval()
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = 0
    ids = torch.tensor([prompt], device=args.device)
    mask = torch.ones_like(ids)

    def once():
        stamps = Stamps()
        if args.device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        with torch.no_grad():
            out = model.generate(ids, attention_mask=mask, do_sample=False, max_new_tokens=args.new, min_new_tokens=args.new, streamer=stamps)
        t = stamps.times
        return {"first_ms": (t[0] - start) * 1000, "decode_ms": (t[-1] - t[0]) * 1000, "ids": out[0, len(prompt):].tolist()}

    once()  # warm-up: kernels compiled, caches allocated
    runs = [once() for _ in range(args.runs)]
    first = statistics.median(r["first_ms"] for r in runs)
    decode = statistics.median(r["decode_ms"] for r in runs)
    print(
        json.dumps(
            {
                "engine": f"transformers {transformers.__version__} generate ({args.attn}, {str(dtype).replace('torch.', '')}, {args.device}; torch {torch.__version__})",
                "first_token_ms": round(first, 3),
                "decode_tokens_per_s": round((args.new - 1) / (decode / 1000), 2) if decode > 0 else None,
                "ids": runs[0]["ids"],
            }
        )
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
