"""PyTorch's side of bench/clip.ts: CLIP's vision tower and projection on the CPU, same weights,
same preprocessed pixels (float32 [N, 3, S, S] in a raw file), batches of B, every core. A worker:
it loads once, then answers the bench's commands on stdin, one JSON line each, so the bench can
take turns between engines (the same machine load for both).

    python bench/clip_torch.py WEIGHTS_DIR PIXELS.f32 N SIZE BATCH
    run START COUNT   -> {"seconds": ...}   embeds images [START, START+COUNT) in batches of BATCH
    embed K OUT.f32   -> {}                 writes the normalised embeddings of the first K images
"""

import json
import os
import sys
import time

import numpy as np
import torch
import transformers
from transformers import CLIPVisionModelWithProjection

weights, pixels_file, n, size, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
threads = os.cpu_count() or 1
torch.set_num_threads(threads)
model = CLIPVisionModelWithProjection.from_pretrained(weights, torch_dtype=torch.float32).eval()
pixels = torch.from_numpy(np.fromfile(pixels_file, dtype=np.float32).reshape(n, 3, size, size))

with torch.inference_mode():
    model(pixel_values=pixels[:batch])  # warm-up
print(json.dumps({"threads": threads, "torch": torch.__version__, "transformers": transformers.__version__}), flush=True)

for line in sys.stdin:
    words = line.split()
    with torch.inference_mode():
        if words[0] == "run":
            start, count = int(words[1]), int(words[2])
            began = time.perf_counter()
            for i in range(start, start + count, batch):
                model(pixel_values=pixels[i : min(i + batch, start + count)])
            print(json.dumps({"seconds": time.perf_counter() - began}), flush=True)
        elif words[0] == "embed":
            embeds = model(pixel_values=pixels[: int(words[1])]).image_embeds
            (embeds / embeds.norm(dim=-1, keepdim=True)).numpy().astype(np.float32).tofile(words[2])
            print("{}", flush=True)
