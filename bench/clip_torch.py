"""PyTorch's side of bench/clip.ts: CLIP's vision tower and projection on the CPU, same weights,
same preprocessed pixels (float32 [N, 3, S, S] in a raw file), batches of B, every core. A worker:
it loads once, then answers the bench's commands on stdin, one JSON line each, so the bench can
take turns between engines (the same machine load for both).

    python bench/clip_torch.py WEIGHTS_DIR PIXELS.f32 N SIZE BATCH [PNG_DIR]
    run START COUNT   -> {"seconds": ...}   embeds images [START, START+COUNT) in batches of BATCH
    embed K OUT.f32   -> {}                 writes the normalised embeddings of the first K images
    e2e START COUNT   -> {"seconds": ...}   end to end from PNG_DIR/N.png's bytes (held in memory):
                                            Pillow decode + CLIPImageProcessor (Pillow backend) + the model
    e2e-embed K OUT.f32 -> {}               the same for the first K PNGs, normalised embeddings written
"""

import io
import json
import os
import sys
import time

import numpy as np
import torch
import transformers
from PIL import Image
from transformers import CLIPVisionModelWithProjection

try:  # transformers 5 names the Pillow backend; 4.x's CLIPImageProcessor is it
    from transformers import CLIPImageProcessorPil as Processor
except ImportError:
    from transformers import CLIPImageProcessor as Processor

weights, pixels_file, n, size, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
threads = os.cpu_count() or 1
torch.set_num_threads(threads)
model = CLIPVisionModelWithProjection.from_pretrained(weights, torch_dtype=torch.float32).eval()
pixels = torch.from_numpy(np.fromfile(pixels_file, dtype=np.float32).reshape(n, 3, size, size))
# CLIP ViT-B/32's preprocessing defaults (shortest edge 224, bicubic, centre crop 224, CLIP's mean/std).
processor = Processor()
png_dir = sys.argv[6] if len(sys.argv) > 6 else None
pngs = [open(os.path.join(png_dir, f"{i}.png"), "rb").read() for i in range(n)] if png_dir else []


def end_to_end(start, count):
    out = []
    for i in range(start, start + count, batch):
        images = [Image.open(io.BytesIO(b)).convert("RGB") for b in pngs[i : min(i + batch, start + count)]]
        out.append(model(pixel_values=processor(images=images, return_tensors="pt").pixel_values).image_embeds)
    return torch.cat(out)


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
        elif words[0] == "e2e":
            start, count = int(words[1]), int(words[2])
            began = time.perf_counter()
            end_to_end(start, count)
            print(json.dumps({"seconds": time.perf_counter() - began}), flush=True)
        elif words[0] == "e2e-embed":
            embeds = end_to_end(0, int(words[1]))
            (embeds / embeds.norm(dim=-1, keepdim=True)).numpy().astype(np.float32).tofile(words[2])
            print("{}", flush=True)
        elif words[0] == "embed":
            embeds = model(pixel_values=pixels[: int(words[1])]).image_embeds
            (embeds / embeds.norm(dim=-1, keepdim=True)).numpy().astype(np.float32).tofile(words[2])
            print("{}", flush=True)
