"""CLIP ViT-B/32 figures for bench/render-parity.ts, in PyTorch, the way the published scorer embeds.

The published scorer (scripts/evaluate_html.py of the paper's repository) loads
openai/clip-vit-base-patch32 with transformers, runs CLIPProcessor on each screenshot (resize the
short side to 224, centre crop 224x224) and compares L2-normalised image features by cosine. This does
the same for every render listed in the manifest that render-parity.ts writes (--manifest FILE), from
a checkpoint folder when given, else with CLIP ViT-B/32's shapes and seeded random weights (no
weights can be downloaded here; random weights keep the geometry and the arithmetic, not the
semantics, so they measure how far two renders of one page are apart for such a network, not
absolute rewards). It prints the same comparison as the TypeScript bench.

    PYTHONPATH=DIR python3 bench/render_parity_clip.py MANIFEST [--clip CHECKPOINT] [--seed 0]

(DIR holds torch and transformers; see the stack notes for installing them from the local index.)
"""

import argparse
import json
import statistics

import torch
from PIL import Image
from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel


def model_and_processor(checkpoint, seed):
    if checkpoint:
        return CLIPModel.from_pretrained(checkpoint).eval(), CLIPImageProcessor.from_pretrained(checkpoint)
    torch.manual_seed(seed)
    # openai/clip-vit-base-patch32's shapes: the vision tower and projection are what score images.
    config = CLIPConfig(
        vision_config={"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12, "image_size": 224, "patch_size": 32, "hidden_act": "quick_gelu"},
        text_config={"hidden_act": "quick_gelu"},
        projection_dim=512,
    )
    processor = CLIPImageProcessor(
        do_resize=True, size={"shortest_edge": 224}, resample=3, do_center_crop=True, crop_size={"height": 224, "width": 224},
        do_normalize=True, image_mean=[0.48145466, 0.4578275, 0.40821073], image_std=[0.26862954, 0.26130258, 0.27577711], do_convert_rgb=True,
    )
    return CLIPModel(config).eval(), processor


@torch.no_grad()
def embed(model, processor, files, batch=32):
    out = []
    for i in range(0, len(files), batch):
        images = [Image.open(f).convert("RGB") for f in files[i : i + batch]]
        inputs = processor(images=images, return_tensors="pt")
        features = model.get_image_features(pixel_values=inputs["pixel_values"])
        if not isinstance(features, torch.Tensor):  # newer transformers return an output object
            features = features.pooler_output if getattr(features, "pooler_output", None) is not None else features[0]
        out.append(features / features.norm(dim=-1, keepdim=True))
    return torch.cat(out)


def describe(xs):
    s = sorted(xs)
    return {"mean": sum(s) / len(s), "median": s[len(s) // 2], "min": s[0], "max": s[-1]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("--clip", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    manifest = json.load(open(args.manifest))
    n = manifest["pairs"]
    model, processor = model_and_processor(args.clip, args.seed)
    torch.set_num_threads(2)
    embeddings = {name: embed(model, processor, files) for name, files in manifest["conditions"].items()}
    ref = embeddings[manifest["reference"]]
    ref_rewards = (ref[:n] * ref[n:]).sum(-1)
    label = args.clip or f"CLIP ViT-B/32 shapes, random weights (seed {args.seed})"
    print(f"{n} pairs, {label}; reference {manifest['reference']}: mean reward {ref_rewards.mean():.4f}")
    report = {"pairs": n, "embedder": label, "conditions": {}}
    for name, e in embeddings.items():
        if name == manifest["reference"]:
            continue
        same = describe((e * ref).sum(-1).tolist())
        rewards = (e[:n] * e[n:]).sum(-1)
        moved = describe((rewards - ref_rewards).abs().tolist())
        print(f"{name}: same page's embeddings cosine mean {same['mean']:.4f}, median {same['median']:.4f}, min {same['min']:.4f}; "
              f"rewards move by {moved['mean']:.4f} on average, {moved['median']:.4f} median, {moved['max']:.4f} at most (mean reward {rewards.mean():.4f})")
        report["conditions"][name] = {"embeddingCosine": same, "rewardMove": moved, "meanReward": float(rewards.mean())}
    if args.json:
        json.dump(report, open(args.json, "w"), indent=2)


if __name__ == "__main__":
    main()
