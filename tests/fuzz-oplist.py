#!/usr/bin/env python3
"""Mutation fuzzing of "roofline classify": takes the shipped op lists, mangles
them (CSV metacharacters, bad numbers, stray bytes, cuts) and checks that the
program never crashes, never trips a sanitizer, exits 0 or 1, and writes
nothing to stdout when it exits 1. Not part of "make check"; run it against a
sanitizer build:

    ./configure --enable-sanitizers && make
    python3 tests/fuzz-oplist.py --runs 2000 ./roofline
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile

TOKENS = [b',', b'"', b'\n', b'\r\n', b'\r', b'#', b'x', b'0', b'-1', b'nan', b'1e999',
          b'\xff', b'\x00', b'99999999999999999999', b'conv2d', b'matmul', b'attention',
          b'kernel', b'3x3x3', b'""', b' ', b'\xef\xbb\xbf']


def mutate(data, rng):
    d = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(len(d) + 1)
        op = rng.random()
        if op < 0.4:
            d[pos:pos] = rng.choice(TOKENS)
        elif op < 0.7 and len(d) > 1:
            del d[pos:pos + rng.randint(1, 20)]
        else:
            d[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
    return bytes(d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('--runs', type=int, default=1000)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seeds = [open(f, 'rb').read() for f in sorted(glob.glob(os.path.join(top, 'examples', '*.csv')))]
    env = dict(os.environ, ROOFLINE_HWDB=os.path.join(top, 'hwdb'),
               ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='halt_on_error=1')
    rng = random.Random(args.seed)
    problems = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'fuzz.csv')
        for i in range(args.runs):
            data = mutate(rng.choice(seeds), rng)
            with open(path, 'wb') as f:
                f.write(data)
            fmt = rng.choice(['table', 'csv', 'json', 'md'])
            r = subprocess.run([args.binary, 'classify', '-f', fmt, path], env=env,
                               capture_output=True)
            bad = (r.returncode not in (0, 1) or b'Sanitizer' in r.stderr
                   or b'runtime error' in r.stderr or (r.returncode == 1 and r.stdout))
            if bad:
                problems += 1
                keep = 'fuzz-failure-%d.csv' % problems
                with open(keep, 'wb') as f:
                    f.write(data)
                print('run %d (-f %s): exit %d, input kept in %s\n%s' %
                      (i, fmt, r.returncode, keep, r.stderr[-800:].decode('utf8', 'replace')))
    print('%d runs, %d problems' % (args.runs, problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
