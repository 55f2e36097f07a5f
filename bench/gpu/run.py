"""The GPU bench in one command, for a machine with Python and PyTorch but no Node (the lent H100s):
brings up Dawn on the GPU from what bench/gpu/prepare.ts gathered (.dev/gpu: Node, dawn.node, Debian's
Vulkan loader and GL dispatch libraries, the bundles, screenshots), runs lib/gpu's parity cases on the
GPU adapter, then the log-prob bench (Qwen2.5-0.5B shape, 16 candidates x 256 tokens after a 1024-token
prefix, random weights), the CLIP bench (ViT-B/32, random weights, 1000 screenshots) and the generation
bench (the same 0.5B weights: time to first token and decode tokens/s beside transformers' generate) each
beside PyTorch on the same GPU, and prints the ratios. Figures also go to WORK/summary.json (and $OUT).

    python3 bench/gpu/run.py                # on the GPU machine (see bench/gpu/README.md)
    python3 bench/gpu/run.py --smoke        # here: the software adapter, small sizes, PyTorch (if any) on the CPU

The first line says what the machine has (GPU and driver, Vulkan ICD, Python, torch with its CUDA,
transformers, numpy) before anything long runs. Each stage is cut at a share of what is left of
--budget (or at --stage-timeout). Without torch, transformers or numpy the PyTorch peers are skipped
(--peers auto) and the output says what to carry; the WebGPU stages still run. Without an NVIDIA
Vulkan driver, Dawn falls back to Mesa's OpenGL ES (software): the figures then say nothing about a
GPU, and the output says so.
"""

import argparse
import importlib.metadata
import importlib.util
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
ICD_DIRS = ["/usr/local/nvidia/share/vulkan/icd.d", "/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
# Each stage's share of what is left of the budget when it starts (what an earlier one leaves flows on).
STAGE_SHARES = {"parity": 3, "logprobs webgpu": 3, "logprobs pytorch eager": 1, "logprobs pytorch sdpa": 1, "clip webgpu": 3, "clip pytorch": 1, "generate": 2}
PEER_MODULES = ["torch", "transformers", "numpy"]
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


def carried(carry, name):
    """A carried file, compressed (NAME.xz, the GPU machine's carry) or as it is (the smoke carry's links)."""
    for candidate in [carry / f"{name}.xz", carry / name]:
        if candidate.exists():
            return candidate
    return None


def lay_out(carry, work):
    """Node, webgpu (index.js, package.json, dist/linux-x64/dawn.node) and the bundles under WORK, as Node resolves them."""
    how = "npx tsx bench/gpu/prepare.ts" + (" --smoke" if carry.name.endswith("-smoke") else "")
    shown = carry.relative_to(REPO) if carry.is_relative_to(REPO) else carry
    for need in ["node", "webgpu/dawn.node", "webgpu/index.js", "bundle/parity.mjs"]:
        if not carried(carry, need):
            raise SystemExit(f"{carry / need}(.xz) is missing: run `{how}` on a machine with Node and carry {shown}")
    node = work / "node"
    webgpu = work / "node_modules" / "webgpu"
    for name, target, mode in [("node", node, 0o755), ("webgpu/dawn.node", webgpu / "dist" / "linux-x64" / "dawn.node", 0o644)]:
        source = carried(carry, name)
        if source.suffix == ".xz":
            unxz(source, target, mode)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, f"{target}.part")
            os.chmod(f"{target}.part", mode)
            os.replace(f"{target}.part", target)
    for name in ["index.js", "package.json"]:
        shutil.copyfile(carry / "webgpu" / name, webgpu / name)
    for bundle in (carry / "bundle").glob("*.mjs"):
        shutil.copyfile(bundle, work / bundle.name)
    version = subprocess.run([str(node), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    say(f"Node {version} and dawn.node laid out in {work}")
    return node


def module_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def machine_report():
    """What this machine has, for the first line: found without running anything long (torch is imported, a few seconds)."""
    info = {"python": sys.version.split()[0]}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        rows = [line.split(", ") for line in smi.stdout.splitlines() if line.strip()]
        info["gpu"] = [{"name": r[0].strip(), "driver": r[1].strip() if len(r) > 1 else "?"} for r in rows] if smi.returncode == 0 else []
        if smi.returncode != 0:
            info["gpu_note"] = f"nvidia-smi exited {smi.returncode}: {(smi.stderr or smi.stdout).strip()[:200]}"
    except FileNotFoundError:
        info["gpu"], info["gpu_note"] = [], "no nvidia-smi"
    except subprocess.TimeoutExpired:
        info["gpu"], info["gpu_note"] = [], "nvidia-smi did not answer in 20 s"
    icds = []
    for d in ICD_DIRS:
        if os.path.isdir(d):
            icds += sorted(str(pathlib.Path(d) / f) for f in os.listdir(d) if f.endswith(".json"))
    info["vulkan_icds"] = icds
    info["nvidia_icd"] = next((p for p in NVIDIA_ICDS if os.path.exists(p)), None)
    for name in ["transformers", "numpy"]:
        info[name] = module_version(name) if importlib.util.find_spec(name) else None
    info["torch"] = None
    if importlib.util.find_spec("torch"):
        try:
            import torch

            cuda = torch.cuda.is_available()
            info["torch"] = {"version": torch.__version__, "cuda_build": torch.version.cuda, "cuda": cuda, "device": torch.cuda.get_device_name() if cuda else None}
        except Exception as error:  # a broken install is what the line is for
            info["torch"] = {"error": f"{type(error).__name__}: {error}"[:300]}
    return info


def machine_line(m):
    gpu = "; ".join(f"{g['name']} (driver {g['driver']})" for g in m["gpu"]) or f"none ({m.get('gpu_note', 'nvidia-smi lists none')})"
    icd = ", ".join(m["vulkan_icds"]) or "none (Dawn takes Mesa's OpenGL ES: software)"
    t = m["torch"]
    if t is None:
        torch_text = "torch absent"
    elif "error" in t:
        torch_text = f"torch broken ({t['error']})"
    else:
        torch_text = f"torch {t['version']} (" + (f"CUDA {t['cuda_build']}, device {t['device']}" if t["cuda"] else f"no CUDA device{'; CUDA ' + t['cuda_build'] + ' build' if t['cuda_build'] else '; CPU build'}") + ")"
    return f"machine: GPU {gpu}; Vulkan ICD {icd}; Python {m['python']}; {torch_text}; transformers {m['transformers'] or 'absent'}; numpy {m['numpy'] or 'absent'}"


def peers_plan(mode, machine, smoke):
    """Whether the PyTorch peers run; why not, in a line and with what to carry."""
    if mode == "skip":
        return False, "PyTorch peers: skipped (--peers skip)", None
    t = machine["torch"]
    missing = [n for n in PEER_MODULES if (machine[n] is None if n != "torch" else t is None or "error" in t)]
    if missing:
        major_minor = ".".join(machine["python"].split(".")[:2])
        short = f"PyTorch peers: {'skipped: missing' if mode == 'auto' else 'required but missing'} {', '.join(missing)}"
        why = (
            f"{short} "
            f"({'the WebGPU stages run; no ratio is computed' if mode == 'auto' else 'nothing is run; --peers auto runs the WebGPU stages alone'}). "
            f"To carry them: torch must be the machine's own (a CUDA build is ~2.5 GB; the device tool carries 64 MiB in all); "
            f"transformers and numpy can be carried: `python3 -m pip install --target .dev/gpu/pydeps --python-version {major_minor} --only-binary=:all: --platform manylinux2014_x86_64 "
            f"'transformers>=4.40' safetensors tokenizers huggingface_hub numpy` where pip reaches an index, then carry .dev/gpu (run.py puts .dev/gpu/pydeps on the path)"
        )
        return False, short, why
    if not smoke and machine["gpu"] and not t["cuda"] and mode == "auto":
        return False, f"PyTorch peers: skipped: torch {t['version']} sees no CUDA device beside {machine['gpu'][0]['name']}", "its CPU times would make no ratio (--peers require runs them anyway)"
    return True, None, None


def stage_cap(name, planned, budget, stage_timeout):
    """Seconds a stage may take: its share of what is left of the budget among the stages still to run, or --stage-timeout; never past the budget."""
    remaining = budget - (time.monotonic() - started)
    if stage_timeout:
        return max(0.0, min(stage_timeout, remaining))
    rest = planned[planned.index(name):] if name in planned else [name]
    return max(0.0, remaining * STAGE_SHARES[name] / sum(STAGE_SHARES[n] for n in rest))


def run_stage(name, command, env, timeout, results):
    """Runs one stage, echoing its output; keeps its last JSON line. A failure is recorded, the bench goes on."""
    if timeout < 1:
        results["stages"][name] = {"status": "no time left", "seconds": 0, "cap": round(timeout, 1)}
        say(f"{name}: not run: the budget is spent (--budget)")
        return None
    say(f"== {name} (cap {timeout:.0f} s): {' '.join(str(c) for c in command)}")
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
    results["stages"][name] = {"status": status, "seconds": round(seconds, 1), "cap": round(timeout, 1)}
    say(f"{name}: {'ok' if status == 0 else f'FAILED ({status})'} in {seconds:.1f} s")
    return last_json if status == 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--carry", help="what prepare.ts gathered (default .dev/gpu; with --smoke, .dev/gpu-smoke where it exists)")
    parser.add_argument("--work", default="/tmp/colbench-gpu", help="scratch folder: Node, weights, pixels")
    parser.add_argument("--smoke", action="store_true", help="small sizes (software adapter, CPU PyTorch): checks the machinery, not the speed")
    parser.add_argument("--budget", type=float, default=450, help="seconds for the whole run; each stage gets a share of what is left (default 450)")
    parser.add_argument("--stage-timeout", type=float, help="seconds any one stage may take (still within --budget), instead of its share")
    parser.add_argument("--peers", choices=["auto", "skip", "require"], default="auto", help="the PyTorch peers: run them where torch, transformers and numpy are (auto), never, or fail without them")
    parser.add_argument("--only", default="parity,logprobs,clip,generate")
    parser.add_argument("--software", action="store_true", help="use Dawn on OpenGL ES even where a Vulkan driver is")
    args = parser.parse_args()
    default_carry = REPO / ".dev" / ("gpu-smoke" if args.smoke and (REPO / ".dev" / "gpu-smoke").exists() else "gpu")
    carry = pathlib.Path(args.carry or default_carry).resolve()
    work = pathlib.Path(args.work)
    stages = set(args.only.split(","))
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    # Carried Python packages (transformers, numpy, ...), for this process and the peers.
    pydeps = carry / "pydeps"
    if pydeps.is_dir():
        sys.path.insert(0, str(pydeps))
        env["PYTHONPATH"] = os.pathsep.join([str(pydeps)] + [p for p in [env.get("PYTHONPATH")] if p])

    machine = machine_report()
    print(machine_line(machine), flush=True)
    peers, why_not, advice = peers_plan(args.peers, machine, args.smoke)
    if why_not:
        say(advice if advice and advice.startswith(why_not) else f"{why_not}{'; ' + advice if advice else ''}")
    if args.peers == "require" and not peers:
        sys.exit(2)
    work.mkdir(parents=True, exist_ok=True)

    icd = machine["nvidia_icd"]
    if args.software:
        env["COLBENCH_WEBGPU_API"] = "opengles"
    elif icd:
        env.setdefault("VK_DRIVER_FILES", icd)
        env.setdefault("VK_ICD_FILENAMES", icd)
        say(f"NVIDIA Vulkan driver: {icd}")
        install_debs(carry / "debs", work, env)
    else:
        say("no NVIDIA Vulkan driver found: Dawn falls back to Mesa's OpenGL ES (software adapter; no GPU figures)")
    node = lay_out(carry, work)

    t = machine["torch"] or {}
    cuda = bool(t.get("cuda"))
    device = "cuda" if cuda else "cpu"
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "smoke": args.smoke, "machine": machine, "machine_line": machine_line(machine), "torch_device": device, "peers": "run" if peers else why_not, "budget": args.budget, "stages": {}}
    if cuda:
        results["gpu"] = t["device"]

    planned = [n for n in STAGE_SHARES if n.split()[0] in stages and (peers or "pytorch" not in n)]

    def cap(name):
        return stage_cap(name, planned, args.budget, args.stage_timeout)

    def drop(*names):
        for n in names:
            if n in planned:
                planned.remove(n)

    if "parity" in stages:
        got = run_stage("parity", [node, work / "parity.mjs", "--root", REPO], env, cap("parity"), results)
        drop("parity")
        if got:
            results["parity"] = got["parity"]

    if "logprobs" in stages:
        shape = "tiny" if args.smoke else "qwen2.5-0.5b"
        wg = work / "wg"
        command = [node, work / "webgpu-logprobs.mjs", "--shape", shape, "--save", wg, "--runs", "1" if args.smoke else "3"]
        # The smoke's request is small enough for the CPU reference the bench runs beside it to take seconds.
        command += ["--prefix", "128", "--candidates", "4", "--length", "32"] if args.smoke else ["--full"]
        got = run_stage("logprobs webgpu", command, env, cap("logprobs webgpu"), results)
        drop("logprobs webgpu")
        if got:
            results["logprobs"] = {"webgpu": got.get(shape), "adapter": got.get("adapter")}
        else:
            drop("logprobs pytorch eager", "logprobs pytorch sdpa")
        if got and peers:
            for attn in ["eager", "sdpa"]:
                peer = [sys.executable, REPO / "bench" / "webgpu_logprobs_torch.py", wg / shape, "--device", device, "--attn", attn, "--runs", "1" if args.smoke else "5"]
                name = f"logprobs pytorch {attn}"
                theirs = run_stage(name, peer + ([] if cuda else ["--dtype", "float32"]), env, cap(name), results)
                drop(name)
                if theirs:
                    results["logprobs"][f"pytorch_{attn}"] = theirs

    if "clip" in stages:
        images, batch = (4, 4) if args.smoke else (1000, 64)
        weights, out = work / ("clip-tiny" if args.smoke else "clip-b32"), work / "clip"
        crops = carry / "crops.u8.gz"
        if not crops.exists() and not args.smoke:
            raise SystemExit(f"{crops} is missing: run `npx tsx bench/gpu/prepare.ts` on a machine with Node and Chromium")
        command = [node, work / "clip-gpu.mjs", "--crops", crops if crops.exists() else f"synthetic:{images}", "--weights", weights, "--out", out, "--images", images, "--batch", batch]
        got = run_stage("clip webgpu", command + (["--runs", "1", "--formats", "f32", "--model", "tiny"] if args.smoke else []), env, cap("clip webgpu"), results)
        drop("clip webgpu")
        if got:
            results["clip"] = {"webgpu": got["clip"]}
        if got and peers:
            peer = [sys.executable, REPO / "bench" / "gpu" / "clip_torch_cuda.py", weights, out, images, "--batch", batch, "--device", device]
            theirs = run_stage("clip pytorch", peer + (["--runs", "1", "--dtypes", "float32"] if args.smoke else []), env, cap("clip pytorch"), results)
            if theirs:
                results["clip"]["pytorch"] = theirs["clip_torch"]

    if "generate" in stages:
        # The generator (prefill, KV cache, decode) beside transformers' generate, which the bench runs
        # itself as a child process: the Qwen2.5-0.5B shape's random weights the log-prob stage saved
        # (written here by a one-token log-prob request when that stage did not run); the committed
        # tiny Llama in the smoke test.
        if args.smoke:
            folder = REPO / "lib" / "gpu" / "fixtures" / "llama-tiny"
        else:
            folder = work / "wg" / "qwen2.5-0.5b"
            if not (folder / "model.safetensors").exists():
                save = [node, work / "webgpu-logprobs.mjs", "--shape", "qwen2.5-0.5b", "--save", work / "wg", "--runs", "1", "--prefix", "1", "--candidates", "1", "--length", "1"]
                subprocess.run([str(c) for c in save], env=env, timeout=max(1.0, cap("generate") / 2), check=False)
        command = [node, work / "generate.mjs", "--root", REPO, "--model", folder, "--devices", "webgpu", "--python", sys.executable, "--peer", "auto" if peers else "skip"]
        command += ["--prompt", "32", "--new", "16", "--runs", "1"] if args.smoke else ["--prompt", "128", "--new", "64", "--runs", "3", "--torch-device", device] + ([] if cuda else ["--torch-dtype", "float32"])
        got = run_stage("generate", command, env, cap("generate"), results)
        drop("generate")
        if got:
            results["generate"] = got

    report(results)
    (work / "summary.json").write_text(json.dumps(results, indent=1))
    if os.environ.get("OUT"):
        shutil.copyfile(work / "summary.json", pathlib.Path(os.environ["OUT"]) / "gpu-summary.json")
    failed = [n for n, s in results["stages"].items() if s["status"] != 0]
    say(f"done in {time.monotonic() - started:.0f} s of a {args.budget:.0f} s budget" + (f"; failed: {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


def report(r):
    print("\n== summary", flush=True)
    adapter = (r.get("parity") or {}).get("adapter") or (r.get("logprobs") or {}).get("adapter") or ((r.get("clip") or {}).get("webgpu") or {}).get("adapter") or ((r.get("generate") or {}).get("webgpu") or {}).get("engine") or "?"
    software = "software" in adapter or "llvmpipe" in adapter.lower()
    print(r["machine_line"])
    print(f"date {r['date']}; adapter {adapter}; PyTorch on {r.get('gpu', r['torch_device'])}" if r["peers"] == "run" else f"date {r['date']}; adapter {adapter}; {r['peers']}")
    if software:
        print("NOTE: a software adapter: these figures check the machinery and say nothing about a GPU")
    if r.get("parity"):
        p = r["parity"]
        print(f"parity: {p['cases'] - len(p['failed'])}/{p['cases']} cases within their limits" + (f"; failed: {', '.join(p['failed'])}" if p["failed"] else ""))
    lw = ((r.get("logprobs") or {}).get("webgpu") or {})
    if "max_abs_diff" in lw:
        print(f"log-probs max |webgpu - cpu reference| {lw['max_abs_diff']:.2e}")
    lp = r.get("logprobs")
    if lp and lp.get("webgpu"):
        ours = lp["webgpu"]["webgpu_ms"]
        line = f"log-probs: webgpu {ours:.1f} ms"
        for attn, goal in [("eager", "goal <= 1"), ("sdpa", "stretch <= 1")]:
            theirs = lp.get(f"pytorch_{attn}")
            if theirs and "max_abs_diff_vs_webgpu" in theirs:
                print(f"log-probs max |webgpu - pytorch {attn}| {theirs['max_abs_diff_vs_webgpu']:.2e}")
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
    g = r.get("generate")
    if g and g.get("webgpu"):
        w, t = g["webgpu"], g.get("transformers") or {}
        line = f"generate ({g['prompt']}-token prompt, {g['new']} new): webgpu first token {w['first_token_ms']:.1f} ms, decode {w['decode_tokens_per_s'] or 0:.1f} tok/s"
        if "first_token_ms" in t:
            line += f"; transformers first token {t['first_token_ms']:.1f} ms, decode {t['decode_tokens_per_s'] or 0:.1f} tok/s ({t['engine']})"
        print(line)
        if "first_token_ratio" in w:
            print(f"ratio generate webgpu / transformers: first token {w['first_token_ratio']:.2f}x the time, decode {w['decode_ratio'] or 0:.2f}x the speed; {w['tokens']}")
    for name, s in r["stages"].items():
        if s["status"] != 0:
            print(f"FAILED stage {name}: {s['status']}")


if __name__ == "__main__":
    main()
