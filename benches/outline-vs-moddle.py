#!/usr/bin/env python3
"""formgen's `outline --json` against bpmn-moddle on the same file, in interleaved rounds.

Each round runs `formgen outline --json FILE` once and then
`node <bpmn-reference>/outline.mjs FILE` once (both with their output thrown away), so a change in the
machine's speed during the run falls on both alike. It prints the minimum, first quartile and median
wall-clock time of each, and how many times faster formgen is by each of them.

    python3 benches/outline-vs-moddle.py [-n ROUNDS] [--formgen BIN] [--work DIR] FILE.bpmn

bpmn-moddle is `../shared/tools/bpmn-reference/` (or `$FORMGEN_SHARED/tools/bpmn-reference/`), the
maintainers' reference outliner. `../shared` is read-only, so the tool is copied to a work folder and
installed there with `npm ci`; `--work DIR` keeps that copy in DIR and reuses it on the next run.

The synthetic process of the reader bench (19.5 MB) is the usual FILE:

    cargo bench --bench reader -- --write synthetic.bpmn

formgen is run with FORMGEN_LIMIT_BPMN_BYTES=50000000, since that file is over the default BPMN limit.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    env = os.environ.get("FORMGEN_SHARED")
    return Path(env) if env else REPO.parent / "shared"


def install_moddle(work: Path) -> Path:
    """A copy of the reference outliner with its node modules, in `work`; returns its outline.mjs."""
    tool = work / "bpmn-reference"
    script = tool / "outline.mjs"
    if (tool / "node_modules").is_dir() and script.is_file():
        return script
    source = shared_dir() / "tools" / "bpmn-reference"
    if not (source / "outline.mjs").is_file():
        sys.exit(f"outline-vs-moddle: no bpmn-reference at {source} (set FORMGEN_SHARED)")
    if tool.exists():
        shutil.rmtree(tool)
    shutil.copytree(source, tool, ignore=shutil.ignore_patterns("node_modules"))
    for path in [tool, *tool.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)  # ../shared is read-only, the copy must not be
    print(f"installing bpmn-moddle in {tool}", file=sys.stderr)
    subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=tool, check=True)
    return script


def timed(command: list[str], env: dict[str, str]) -> float:
    """Seconds one run of `command` took; exits when it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"outline-vs-moddle: {' '.join(command)} exited {done.returncode}: {done.stderr.decode()}")
    return seconds


def quartiles(times: list[float]) -> tuple[float, float, float]:
    """Minimum, first quartile and median."""
    ordered = sorted(times)
    p25 = statistics.quantiles(ordered, n=4, method="inclusive")[0] if len(ordered) > 1 else ordered[0]
    return ordered[0], p25, statistics.median(ordered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="the BPMN file both read")
    parser.add_argument("-n", "--rounds", type=int, default=12, help="interleaved rounds (default 12)")
    parser.add_argument("--formgen", type=Path, default=REPO / "target/release/formgen", help="the binary")
    parser.add_argument("--work", type=Path, help="keep the installed bpmn-moddle here and reuse it")
    args = parser.parse_args()
    if not args.formgen.is_file():
        sys.exit(f"outline-vs-moddle: no formgen at {args.formgen}: run `cargo build --release` (or give --formgen)")
    if not args.file.is_file():
        sys.exit(f"outline-vs-moddle: no file {args.file}")
    if args.rounds < 1:
        sys.exit("outline-vs-moddle: give at least one round")

    work = args.work or Path(tempfile.mkdtemp(prefix="formgen-moddle."))
    work.mkdir(parents=True, exist_ok=True)
    try:
        moddle = install_moddle(work)
        env = dict(os.environ, FORMGEN_LIMIT_BPMN_BYTES="50000000")
        formgen_cmd = [str(args.formgen), "outline", "--json", str(args.file)]
        moddle_cmd = ["node", str(moddle), str(args.file)]
        ours: list[float] = []
        theirs: list[float] = []
        for round_ in range(1, args.rounds + 1):
            ours.append(timed(formgen_cmd, env))
            theirs.append(timed(moddle_cmd, env))
            print(f"round {round_}: formgen {ours[-1] * 1e3:.1f} ms, bpmn-moddle {theirs[-1] * 1e3:.1f} ms",
                  file=sys.stderr)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)

    size = args.file.stat().st_size
    print(f"{args.file.name}: {size / 1e6:.1f} MB, {args.rounds} interleaved rounds")
    mine, yours = quartiles(ours), quartiles(theirs)
    for name, (lo, p25, med) in (("formgen outline --json", mine), ("bpmn-moddle outline.mjs", yours)):
        print(f"  {name:<24} min {lo * 1e3:9.1f} ms   p25 {p25 * 1e3:9.1f} ms   median {med * 1e3:9.1f} ms")
    ratio = [t / o for o, t in zip(mine, yours)]
    print(f"  formgen is {ratio[0]:.1f}x faster by the minimum, {ratio[1]:.1f}x by the first quartile, "
          f"{ratio[2]:.1f}x by the median")


if __name__ == "__main__":
    main()
