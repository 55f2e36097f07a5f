"""The GPU bench in one command, for a machine with Python and PyTorch but no Node (the lent H100s):
brings up Dawn on the GPU from what bench/gpu/prepare.ts gathered (.dev/gpu: Node, dawn.node, Debian's
Vulkan loader and GL dispatch libraries, the bundles, screenshots), runs lib/gpu's parity cases on the
GPU adapter, then the log-prob bench (Qwen2.5-0.5B shape, 16 candidates x 256 tokens after a 1024-token
prefix, random weights) and the CLIP bench (ViT-B/32, random weights, 1000 screenshots) each beside
PyTorch on the same GPU, and prints the ratios. Figures also go to WORK/summary.json (and $OUT).

    python3 bench/gpu/run.py                # on the GPU machine (see bench/gpu/README.md)
    python3 bench/gpu/run.py --smoke        # here: the software adapter, small sizes, PyTorch on the CPU

Without an NVIDIA Vulkan driver, Dawn falls back to Mesa's OpenGL ES (software): the figures then say
nothing about a GPU, and the output says so.
"""

import argparse
import json
import lzma
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
NVIDIA_ICDS = [
    "/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json",
    "/usr/share/vulkan/icd.d/nvidia_icd.json",
    "/etc/vulkan/icd.d/nvidia_icd.json",
    "/usr/share/vulkan/icd.d/nvidia_icd.x86_64.json",
]
# deb -> a library it provides (installed only where the library is missing).
DEB_LIBRARIES = {
    "libvulkan1": "libvulkan.so.1",
    "libglvnd0": "libGLdispatch.so.0",
    "libglx0": "libGLX.so.0",
    "libegl1": "libEGL.so.1",
    "libgl1": "libGL.so.1",
    "libopengl0": "libOpenGL.so.0",
    "libgles2": "libGLESv2.so.2",
}

started = time.monotonic()


def say(text):
    print(f"[{time.monotonic() - started:6.1f} s] {text}", flush=True)


def unxz(source, target, mode=0o644):
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(source) as f, open(f"{target}.part", "wb") as out:
        shutil.copyfileobj(f, out, 1 << 22)
    os.chmod(f"{target}.part", mode)
    os.replace(f"{target}.part", target)


def installed_libraries():
    try:
        listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        listing = ""
    return {line.split()[0] for line in listing.splitlines()[1:] if line.strip()}


def install_debs(debs_dir, work, env):
    """Debian's Vulkan loader and glvnd, only those missing: into / as root (then ldconfig), else a private root on LD_LIBRARY_PATH."""
    have = installed_libraries()
    missing = [deb for deb, lib in DEB_LIBRARIES.items() if lib not in have]
    if not missing:
        say("Vulkan loader and GL dispatch libraries: already installed")
        return
    files = {f.name.split("_")[0]: f for f in debs_dir.glob("*.deb")}
    absent = [d for d in missing if d not in files]
    if absent:
        raise SystemExit(f"{debs_dir}: no .deb for {', '.join(absent)} (run `npx tsx bench/gpu/prepare.ts` where apt works)")
    root = pathlib.Path("/") if os.geteuid() == 0 else work / "sysroot"
    for deb in missing:
        subprocess.run(["dpkg", "-x", str(files[deb]), str(root)], check=True)
    if root == pathlib.Path("/"):
        subprocess.run(["ldconfig"], check=True)
    else:
        libs = [str(root / "usr/lib/x86_64-linux-gnu"), str(root / "lib/x86_64-linux-gnu")]
        env["LD_LIBRARY_PATH"] = ":".join(libs + [p for p in [env.get("LD_LIBRARY_PATH")] if p])
    say(f"installed {' '.join(missing)} into {root}")


def lay_out(carry, work):
    """Node, webgpu (index.js, package.json, dist/linux-x64/dawn.node) and the bundles under WORK, as Node resolves them."""
    for need in ["node.xz", "webgpu/dawn.node.xz", "bundle/parity.mjs"]:
        if not (carry / need).exists():
            raise SystemExit(f"{carry / need} is missing: run `npx tsx bench/gpu/prepare.ts` on a machine with Node and carry {carry.relative_to(REPO) if carry.is_relative_to(REPO) else carry}")
    node = work / "node"
    unxz(carry / "node.xz", node, 0o755)
    webgpu = work / "node_modules" / "webgpu"
    unxz(carry / "webgpu" / "dawn.node.xz", webgpu / "dist" / "linux-x64" / "dawn.node")
    for name in ["index.js", "package.json"]:
        shutil.copyfile(carry / "webgpu" / name, webgpu / name)
    for bundle in (carry / "bundle").glob("*.mjs"):
        shutil.copyfile(bundle, work / bundle.name)
    version = subprocess.run([str(node), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    say(f"Node {version} and dawn.node laid out in {work}")
    return node


def run_stage(name, command, env, timeout, results):
    """Runs one stage, echoing its output; keeps its last JSON line. A failure is recorded, the bench goes on."""
    say(f"== {name}: {' '.join(str(c) for c in command)}")
    began = time.monotonic()
    last_json = None
    child = subprocess.Popen([str(c) for c in command], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # A stage that hangs (a lost device, a driver stuck) is killed at its deadline; the rest goes on.
    timer = threading.Timer(timeout, child.kill)
    timer.start()
    for line in child.stdout:
        line = line.rstrip("\n")
        if line.startswith("{"):
            try:
                last_json = json.loads(line)
            except json.JSONDecodeError:
                pass
        if not line.startswith("Warning: maxDynamic"):
            print(f"  {line}", flush=True)
    child.wait()
    timer.cancel()
    status = child.returncode
    seconds = time.monotonic() - began
    if seconds >= timeout:
        status = "timeout"
    results["stages"][name] = {"status": status, "seconds": round(seconds, 1)}
    say(f"{name}: {'ok' if status == 0 else f'FAILED ({status})'} in {seconds:.1f} s")
    return last_json if status == 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--carry", default=str(REPO / ".dev" / "gpu"), help="what prepare.ts gathered (default .dev/gpu)")
    parser.add_argument("--work", default="/tmp/colbench-gpu", help="scratch folder: Node, weights, pixels")
    parser.add_argument("--smoke", action="store_true", help="small sizes (software adapter, CPU PyTorch): checks the machinery, not the speed")
    parser.add_argument("--budget", type=float, default=450, help="seconds for the whole run; later stages are cut short to stay inside it")
    parser.add_argument("--only", default="parity,logprobs,clip")
    parser.add_argument("--software", action="store_true", help="use Dawn's OpenGL ES backend even where a Vulkan driver is")
    args = parser.parse_args()
    carry = pathlib.Path(args.carry).resolve()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    stages = set(args.only.split(","))

    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    icd = next((p for p in NVIDIA_ICDS if os.path.exists(p)), None)
    if args.software:
        env["COLBENCH_WEBGPU_BACKEND"] = "opengles"
    elif icd:
        env.setdefault("VK_DRIVER_FILES", icd)
        env.setdefault("VK_ICD_FILENAMES", icd)
        say(f"NVIDIA Vulkan driver: {icd}")
        install_debs(carry / "debs", work, env)
    else:
        say("no NVIDIA Vulkan driver found: Dawn falls back to Mesa's OpenGL ES (software adapter; no GPU figures)")
    node = lay_out(carry, work)

    try:
        import torch

        cuda = torch.cuda.is_available()
        say(f"PyTorch {torch.__version__}, {'CUDA: ' + torch.cuda.get_device_name() if cuda else 'no CUDA (CPU)'}")
    except ImportError:
        cuda = False
        say("PyTorch: absent (the PyTorch peers will fail)")
    device = "cuda" if cuda else "cpu"
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "smoke": args.smoke, "torch_device": device, "stages": {}}
    if cuda:
        results["gpu"] = torch.cuda.get_device_name()

    def left(wanted):
        return max(5, min(wanted, args.budget - (time.monotonic() - started)))

    if "parity" in stages:
        got = run_stage("parity", [node, work / "parity.mjs", "--root", REPO], env, left(150), results)
        if got:
            results["parity"] = got["parity"]

    if "logprobs" in stages:
        shape = "tiny" if args.smoke else "qwen2.5-0.5b"
        wg = work / "wg"
        command = [node, work / "webgpu-logprobs.mjs", "--shape", shape, "--save", wg, "--runs", "1" if args.smoke else "3"]
        got = run_stage("logprobs webgpu", command + ([] if args.smoke else ["--full"]), env, left(240), results)
        if got:
            results["logprobs"] = {"webgpu": got.get(shape), "adapter": got.get("adapter")}
            for attn in ["eager", "sdpa"]:
                peer = [sys.executable, REPO / "bench" / "webgpu_logprobs_torch.py", wg / shape, "--device", device, "--attn", attn, "--runs", "1" if args.smoke else "5"]
                theirs = run_stage(f"logprobs pytorch {attn}", peer + ([] if cuda else ["--dtype", "float32"]), env, left(120), results)
                if theirs:
                    results["logprobs"][f"pytorch_{attn}"] = theirs

    if "clip" in stages:
        images, batch = (4, 4) if args.smoke else (1000, 64)
        weights, out = work / "clip-b32", work / "clip"
        command = [node, work / "clip-gpu.mjs", "--crops", carry / "crops.u8.gz", "--weights", weights, "--out", out, "--images", images, "--batch", batch]
        got = run_stage("clip webgpu", command + (["--runs", "1", "--formats", "f32"] if args.smoke else []), env, left(180), results)
        if got:
            results["clip"] = {"webgpu": got["clip"]}
            peer = [sys.executable, REPO / "bench" / "gpu" / "clip_torch_cuda.py", weights, out, images, "--batch", batch, "--device", device]
            theirs = run_stage("clip pytorch", peer + (["--runs", "1", "--dtypes", "float32"] if args.smoke else []), env, left(120), results)
            if theirs:
                results["clip"]["pytorch"] = theirs["clip_torch"]

    report(results)
    (work / "summary.json").write_text(json.dumps(results, indent=1))
    if os.environ.get("OUT"):
        shutil.copyfile(work / "summary.json", pathlib.Path(os.environ["OUT"]) / "gpu-summary.json")
    failed = [n for n, s in results["stages"].items() if s["status"] != 0]
    sys.exit(1 if failed else 0)


def report(r):
    print("\n== summary", flush=True)
    adapter = (r.get("parity") or {}).get("adapter") or (r.get("logprobs") or {}).get("adapter") or ((r.get("clip") or {}).get("webgpu") or {}).get("adapter") or "?"
    software = "software" in adapter or "llvmpipe" in adapter.lower()
    print(f"date {r['date']}; adapter {adapter}; PyTorch on {r.get('gpu', r['torch_device'])}")
    if software:
        print("NOTE: a software adapter: these figures check the machinery and say nothing about a GPU")
    if r.get("parity"):
        p = r["parity"]
        print(f"parity: {p['cases'] - len(p['failed'])}/{p['cases']} cases within their limits" + (f"; failed: {', '.join(p['failed'])}" if p["failed"] else ""))
    lp = r.get("logprobs")
    if lp and lp.get("webgpu"):
        ours = lp["webgpu"]["webgpu_ms"]
        line = f"log-probs: webgpu {ours:.1f} ms"
        for attn, goal in [("eager", "goal <= 1"), ("sdpa", "stretch <= 1")]:
            theirs = lp.get(f"pytorch_{attn}")
            if theirs:
                line += f"; pytorch {attn} {theirs['pytorch_ms']:.1f} ms"
                print(f"ratio log-probs webgpu / pytorch {attn}: {ours / theirs['pytorch_ms']:.2f} ({goal})")
        print(line)
    clip = r.get("clip")
    if clip and clip.get("webgpu"):
        w = clip["webgpu"]
        t = clip.get("pytorch") or {}
        for ours, theirs, goal in [("f32", "float32", "goal <= 1"), ("f16", "float32", "f16 weights"), ("f32", "float16", "vs fp16"), ("f16", "float16", "vs fp16")]:
            if ours in w and theirs in t:
                print(f"ratio clip webgpu {ours} / pytorch {theirs}, {w['images']} images: {w[ours]['ms'] / t[theirs]['ms']:.2f} ({w[ours]['ms']:.1f} ms vs {t[theirs]['ms']:.1f} ms; {goal})")
        if "float32" in t and "max_abs_diff_vs_webgpu" in t["float32"]:
            print(f"clip max |webgpu f32 - pytorch fp32| {t['float32']['max_abs_diff_vs_webgpu']:.2e}")
    for name, s in r["stages"].items():
        if s["status"] != 0:
            print(f"FAILED stage {name}: {s['status']}")


if __name__ == "__main__":
    main()
