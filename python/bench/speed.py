"""The Python package's speed beside the dgn binary's, side by side in one
run (bench/README.md has the figures and the targets):

- dgnkit.find against `dgn find` (whole process), seeds per second, one
  thread each and every core each;
- two Python threads searching at once against one alone (the GIL is
  released: two threads take about the time of one on two cores);
- dgnkit.layouts: layouts per second into dicts (its loop in Rust);
- dgnkit.xlog: megabytes of xlogfile per second into dicts.

    python python/bench/speed.py DGN_BINARY [--quick]

Run it in a virtual environment with the package installed (pip install
./python: a release build).
"""

import os
import random
import subprocess
import sys
import tempfile
import threading
import time

import dgnkit

QUERY = "bigrm and oracle.depth == 5"


def best(f, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def xlogfile(path, n):
    """bench/README.md's generator of NetHack 3.6 xlogfile lines."""
    random.seed(1)
    places = [(0, d) for d in range(1, 26)] * 4 + [(2, d) for d in range(5, 11)] \
        + [(1, d) for d in range(30, 45)] + [(3, d) for d in range(13, 16)] \
        + [(4, d) for d in range(3, 6)] + [(7, -5)]
    deaths = ["killed by a soldier ant", "killed by a jackal", "quit", "ascended",
              "killed by a gnome lord", "petrified by a cockatrice", "escaped",
              "killed by the Wizard of Yendor", "drowned in a moat by an eel", "killed by a hill orc"]
    with open(path, "w") as f:
        for i in range(n):
            dn, d = random.choice(places)
            print("\t".join([f"version=3.6.{random.randint(1, 6)}", f"points={random.randint(0, 3000000)}",
                  f"deathdnum={dn}", f"deathlev={d}", f"maxlvl={max(d, 1) + 3}", "hp=-1", "maxhp=90",
                  "deaths=1", "deathdate=20190512", "birthdate=20190511", "uid=5", "role=Val", "race=Hum",
                  "gender=Mal", "align=Neu", f"name=player{i % 5000}", f"death={random.choice(deaths)}",
                  "conduct=0xf1c", f"turns={random.randint(10, 90000)}", "achieve=0xc25", "realtime=827046",
                  "starttime=1557600000", "endtime=1557690000", "gender0=Mal", "align0=Neu", "flags=0x4"]), file=f)


def main():
    dgn = sys.argv[1]
    quick = "--quick" in sys.argv
    seeds = 300_000 if quick else 2_000_000
    rows = []

    def cli(*args):
        subprocess.run([dgn, *map(str, args)], check=True, stdout=subprocess.DEVNULL)

    for jobs, label in ((1, "one thread"), (None, "every core")):
        j = ["-j", "1"] if jobs == 1 else []
        t_cli = best(lambda: cli("find", QUERY, "--seeds", f"0..{seeds}", "--count", *j))
        t_py = best(lambda: dgnkit.find(QUERY, seeds=range(0, seeds), count=True, jobs=jobs))
        rows.append((f"find, {label}: dgnkit / dgn (seeds/s)", f"{seeds / t_py:,.0f} / {seeds / t_cli:,.0f}",
                     f"{t_cli / t_py:.2f}", "within 10% (>= 0.90)"))

    one = best(lambda: dgnkit.find(QUERY, seeds=range(0, seeds), count=True))

    def two():
        ts = [threading.Thread(target=dgnkit.find, args=(QUERY,), kwargs={"seeds": range(0, seeds), "count": True})
              for _ in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    both = best(two)
    rows.append(("two threads of find / one thread (time)", f"{both:.2f} s / {one:.2f} s", f"{both / one:.2f}",
                 "< 1.6"))

    n = 20_000 if quick else 100_000
    t = best(lambda: sum(1 for _ in dgnkit.layouts(range(0, n))), runs=2)
    rows.append(("layouts() into dicts, nethack-3.6 (layouts/s)", f"{n / t:,.0f}", "", ">= 20,000"))
    t = best(lambda: sum(1 for _ in dgnkit.layouts(range(0, n // 4), game="nethack-3.7")), runs=2)
    rows.append(("layouts() into dicts, nethack-3.7 (layouts/s)", f"{n / 4 / t:,.0f}", "", ""))

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "x36.xlog")
        xlogfile(path, 30_000 if quick else 300_000)
        size = os.path.getsize(path)
        t_py = best(lambda: sum(1 for _ in dgnkit.xlog(path)), runs=2)
        t_cli = best(lambda: cli("xlog", "--format", "json", path), runs=2)
        rows.append((f"xlog() into dicts, {size / 1e6:.0f} MB (MB/s)", f"{size / t_py / 1e6:.1f}",
                     f"dgn: {size / t_cli / 1e6:.0f}", ">= 50"))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>24}  {'ratio':>10}  target")
    for name, value, ratio, target in rows:
        print(f"{name:<{width}}  {value:>24}  {ratio:>10}  {target}")


if __name__ == "__main__":
    main()
