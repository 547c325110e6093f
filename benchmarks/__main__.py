"""Run every benchmark module (or the ones named) and print their figures.

python -m benchmarks                 # all of them
python -m benchmarks engine rating   # just these
python -m benchmarks api -- --full   # arguments after -- go to each module's main()
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def _modules() -> list[str]:
    here = Path(__file__).parent
    return sorted(
        info.name.removeprefix("bench_")
        for info in pkgutil.iter_modules([str(here)])
        if info.name.startswith("bench_")
    )


def main(argv: list[str]) -> int:
    names, _, extra = (
        (argv[: argv.index("--")], None, argv[argv.index("--") + 1 :])
        if ("--" in argv)
        else (argv, None, [])
    )
    available = _modules()
    unknown = [n for n in names if n not in available]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; have: {', '.join(available)}")
        return 2
    failed = []
    for name in names or available:
        started = time.perf_counter()
        print(f"# {name}", flush=True)
        try:
            module = importlib.import_module(f"benchmarks.bench_{name}")
            module.main(extra)
        except Exception as exc:  # one broken benchmark must not hide the others' figures
            print(f"# {name} failed: {exc!r}", flush=True)
            failed.append(name)
        print(f"# {name} took {time.perf_counter() - started:.1f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
