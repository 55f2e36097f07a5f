"""PyTorch's side of bench/clip.ts: CLIP's vision tower and projection on the CPU, same weights,
same preprocessed pixels (float32 [N, 3, S, S] in a raw file), batches of B, every core.

    python bench/clip_torch.py WEIGHTS_DIR PIXELS.f32 N SIZE BATCH OUT.f32

Prints one JSON line: images, seconds (the timed pass, after one warm-up batch), threads, versions.
Writes the normalised embeddings of the first 16 images to OUT.f32 for the bench to compare.
"""

import json
import os
import sys
import time

import numpy as np
import torch
import transformers
from transformers import CLIPVisionModelWithProjection

weights, pixels_file, n, size, batch, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
threads = os.cpu_count() or 1
torch.set_num_threads(threads)
model = CLIPVisionModelWithProjection.from_pretrained(weights, torch_dtype=torch.float32).eval()
pixels = torch.from_numpy(np.fromfile(pixels_file, dtype=np.float32).reshape(n, 3, size, size))

with torch.inference_mode():
    model(pixel_values=pixels[:batch])  # warm-up
    start = time.perf_counter()
    first = None
    for i in range(0, n, batch):
        embeds = model(pixel_values=pixels[i : i + batch]).image_embeds
        if first is None:
            first = []
        if len(first) < 16:
            first.extend((embeds / embeds.norm(dim=-1, keepdim=True))[: 16 - len(first)])
    seconds = time.perf_counter() - start

np.stack([e.numpy() for e in first]).astype(np.float32).tofile(out)
print(json.dumps({"images": n, "seconds": seconds, "threads": threads, "torch": torch.__version__, "transformers": transformers.__version__}))
