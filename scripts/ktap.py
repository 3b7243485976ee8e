#!/usr/bin/env python3
"""KTAP glue for 'make test': every check of the project prints KTAP, and
the kernel's own parser, 'kunit.py parse --json', reads every stream.

  ktap.py split GUEST_LOG OUTDIR
      write each '### SECTION NAME' ... '### SECTION end' block of a guest
      log to OUTDIR/NAME.ktap, turning the kselftest runner's nesting
      ('# '-prefixed subtests, plan at the end) into KTAP nesting
  ktap.py report --kunit KUNIT_PY [--json-dir DIR] NAME=FILE...
      parse each stream with KUNIT_PY, print one line per suite and a last
      line 'N passed, N failed, N skipped' (test cases, not files); exits 1
      if any case failed or any stream did not parse
"""
import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

SECTION = re.compile(r'^### SECTION (\S+)\s*$')
VERSION = re.compile(r'^(K?TAP version \d+)\s*$')
PLAN = re.compile(r'^1\.\.\d+')
RESULT = re.compile(r'^(ok|not ok) \d+')


def sections(lines: List[str]) -> Iterator[Tuple[str, List[str]]]:
    """The (name, lines) of each section of a guest log."""
    name = None
    body: List[str] = []
    for line in lines:
        m = SECTION.match(line)
        if m:
            if name is not None:
                yield name, body
            name = None if m.group(1) == 'end' else m.group(1)
            body = []
        elif name is not None:
            body.append(line)
    if name is not None:
        yield name, body


def nest(lines: List[str]) -> List[str]:
    """The kselftest runner's TAP as KTAP that kunit.py nests.

    run_vmtests.sh prefixes each test's own output with '# ' and prints its
    plan last; kunit.py nests by KTAP headers, ignores indentation, and needs
    the plan right after the version line.
    """
    out = ['    ' + line[2:] if line.startswith('# ') else line for line in lines]
    version = next((i for i, line in enumerate(out) if VERSION.match(line)), None)
    if version is None:
        return out
    plans = [i for i, line in enumerate(out) if PLAN.match(line)]
    results = [i for i, line in enumerate(out) if RESULT.match(line)]
    if plans and results and plans[-1] > results[0]:
        plan = out.pop(plans[-1])
        out.insert(version + 1, plan)
    return out


def split(log: Path, outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    text = log.read_text(errors='backslashreplace').splitlines()
    for name, body in sections(text):
        (outdir / f'{name}.ktap').write_text('\n'.join(nest(body)) + '\n')


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: List[str] = field(default_factory=list)

    def add(self, other: 'Counts') -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.failures += other.failures


STATUS = {'PASS': 'passed', 'SKIP': 'skipped'}


def count(group: Dict, path: str, suites: Dict[str, Counts]) -> None:
    """Add the leaf test cases of a kunit.py JSON group to its suite."""
    for sub in group.get('sub_groups', []):
        count(sub, f"{path}.{sub['name']}", suites)
    # one line per suite of a stream: 'stream.suite'
    counts = suites.setdefault('.'.join(path.split('.')[:2]), Counts())
    for case in group.get('test_cases', []):
        attr = STATUS.get(case['status'], 'failed')
        setattr(counts, attr, getattr(counts, attr) + 1)
        if attr == 'failed':
            counts.failures.append(f"{path}.{case['name']} ({case['status']})")


def parse(kunit: Path, name: str, ktap: Path, json_out: Path) -> Dict[str, Counts]:
    """Parse one stream; a stream that kunit.py cannot read is a failure."""
    suites: Dict[str, Counts] = {}
    run = subprocess.run([sys.executable, str(kunit), 'parse', f'--json={json_out.resolve()}',
                          str(ktap.resolve())], capture_output=True, text=True,
                         check=False)
    if json_out.exists():
        count(json.loads(json_out.read_text()), name, suites)
    total = sum(c.passed + c.failed + c.skipped for c in suites.values())
    if run.returncode and not any(c.failed for c in suites.values()):
        suites.setdefault(name, Counts()).failed += 1
        suites[name].failures.append(f'{name}: kunit.py parse exited {run.returncode}')
    elif total == 0:
        suites.setdefault(name, Counts()).failed += 1
        suites[name].failures.append(f'{name}: no test case in {ktap}')
    return suites


def report(kunit: Path, json_dir: Path, streams: List[str]) -> int:
    json_dir = json_dir.resolve()
    json_dir.mkdir(parents=True, exist_ok=True)
    total = Counts()
    for stream in streams:
        name, _, path = stream.partition('=')
        if not path:
            raise SystemExit(f'ktap.py: stream {stream!r} is not NAME=FILE')
        ktap = Path(path)
        if not ktap.exists():
            suites = {name: Counts(failed=1, failures=[f'{name}: {ktap} missing'])}
        else:
            suites = parse(kunit, name, ktap, json_dir / f'{name}.json')
        for suite, c in sorted(suites.items()):
            if c.passed + c.failed + c.skipped:
                print(f'   {suite}: {c.passed} passed, {c.failed} failed, {c.skipped} skipped')
            for failure in c.failures:
                print(f'     not ok: {failure}')
            total.add(c)
    print(f'{total.passed} passed, {total.failed} failed, {total.skipped} skipped')
    return 1 if total.failed else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    sp = sub.add_parser('split')
    sp.add_argument('log', type=Path)
    sp.add_argument('outdir', type=Path)
    rp = sub.add_parser('report')
    rp.add_argument('--kunit', type=Path, required=True)
    rp.add_argument('--json-dir', type=Path, default=Path('.'))
    rp.add_argument('streams', nargs='+')
    args = ap.parse_args()
    if args.cmd == 'split':
        split(args.log, args.outdir)
        return 0
    return report(args.kunit, args.json_dir, args.streams)


if __name__ == '__main__':
    sys.exit(main())
