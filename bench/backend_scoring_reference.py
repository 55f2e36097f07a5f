"""Unsandboxed peer for bench/backend-scoring.ts.

Scores every task's ground truth as an answer to itself the way the benchmark's
authors do it: one CPython process, exec/eval in-process, a 1 s alarm around
the answer's call. It exists only to be compared against; never use it on
untrusted answers.

Usage: python3 backend_scoring_reference.py TASKS.jsonl [--serve]
Prints one JSON line per task ({"index", "reward"}) and a final
{"summary": ...} line with the time spent scoring (start-up excluded; the
caller measures that from the outside).

With --serve it loads the tasks, prints {"ready": N} and then scores the
slices it is asked for, one "START END" line at a time on stdin, answering
each with {"rewards": [...], "scoring_s": ...}; at end of input it prints the
summary. The bench uses this to take turns with the sandbox in short slices,
so that both meet the same machine (a VM's speed drifts from second to second).
"""

import json
import os
import resource
import shutil
import signal
import sys
import tempfile
import time

BANNED = ("import os", "from os", "import sys", "from sys", "sudo",
          "transformers", "exit(", "quit(", "argparse")


class CallTimeout(BaseException):
    pass


def on_alarm(signum, frame):
    raise CallTimeout()


def extract(answer):
    if "```python" in answer:
        answer = answer.split("```python")[1].split("```")[0]
    if "```" in answer:
        answer = answer.split("```")[1]
    return answer


def run_unlimited(code, expression):
    try:
        namespace = {}
        exec(code, namespace)
        return eval(expression, namespace)
    except Exception:
        return None


def run_limited(code, expression):
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        namespace = {}
        exec(code, namespace)
        return eval(expression, namespace)
    except (Exception, CallTimeout):
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def reward(ground_truth, tests, answer):
    if any(word in answer for word in BANNED):
        return 0.0
    code = extract(answer)
    passed = 0
    for expression in tests.values():
        expected = run_unlimited(ground_truth, expression)
        actual = run_limited(code, expression)
        try:
            if expected is not None and expected == actual:
                passed += 1
        except Exception:
            pass
    return passed / len(tests) if tests else 0.0


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    with open(sys.argv[1], encoding="utf-8") as handle:
        tasks = [json.loads(line) for line in handle if line.strip()]
    # One official ground truth writes sqlite files into the cwd.
    scratch = tempfile.mkdtemp(prefix="colbench-ref-")
    os.chdir(scratch)
    # Our lines go to the real stdout; what ground truths print goes nowhere.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    sys.stdout = open(os.devnull, "w", encoding="utf-8")
    try:
        if "--serve" in sys.argv[2:]:
            serve(tasks, out)
        else:
            score_all(tasks, out)
    finally:
        os.chdir("/")
        shutil.rmtree(scratch, ignore_errors=True)


def score_slice(tasks, start, end):
    return [reward(task["ground_truth"], task["test_cases"], task["ground_truth"])
            for task in tasks[start:end]]


def summary(rewards, elapsed):
    return {"summary": {
        "n": len(rewards),
        "passed_all": sum(1 for r in rewards if r == 1.0),
        "scoring_s": elapsed,
        "cpu_s": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
        "python": sys.version.split()[0],
    }}


def score_all(tasks, out):
    started = time.perf_counter()
    rewards = score_slice(tasks, 0, len(tasks))
    elapsed = time.perf_counter() - started
    for index, value in enumerate(rewards):
        out.write(json.dumps({"index": index, "reward": value}) + "\n")
    out.write(json.dumps(summary(rewards, elapsed)) + "\n")


def serve(tasks, out):
    out.write(json.dumps({"ready": len(tasks)}) + "\n")
    out.flush()
    rewards, elapsed = [], 0.0
    for line in sys.stdin:
        start, end = (int(x) for x in line.split())
        started = time.perf_counter()
        values = score_slice(tasks, start, end)
        spent = time.perf_counter() - started
        elapsed += spent
        rewards.extend(values)
        out.write(json.dumps({"rewards": values, "scoring_s": spent}) + "\n")
        out.flush()
    out.write(json.dumps(summary(rewards, elapsed)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
