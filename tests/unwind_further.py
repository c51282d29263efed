#!/usr/bin/env python3
# tests/unwind_further.py PERF.TXT SCORCH.TXT: compare perf script's and
# scorch script's output of one DWARF recording sample by sample, under
# the one difference scorch makes on purpose (docs/scorch-script.md):
# scorch's chain holds all of perf's frames in perf's order and may have
# more. Allowed besides: perf's stray outermost "[unknown]" frame where
# scorch goes on; perf's outermost frame where the two read the end of
# the stack copy apart (last_differs); a sample at a ret or right after
# an epilogue's pop, where perf 6.1 unwinds with the CFI row of ip - 1
# and skips the caller (ret_leaf, checked with objdump).
# Prints "key value" lines: samples P S, headers_differ, not_a_prefix,
# further, last_differs, ret_leaf; the first two offending samples of
# each kind go to stderr. Used by t4006 and bench/unwind.sh.
import os, re, subprocess, sys
def samples(path):
    out, cur = [], []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line:
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out
p, s = samples(sys.argv[1]), samples(sys.argv[2])
def disasm(path, start, stop):
    return subprocess.run(['objdump', '-d', '--start-address=%#x' % start,
                          '--stop-address=%#x' % stop, path],
                         capture_output=True, text=True).stdout
def leaf_in_epilogue(frame):
    # "ADDR sym+off (DSO)": is the sampled instruction a return, or the
    # one after an epilogue's pop? perf 6.1 unwinds the sampled frame
    # with the CFI row of ip - 1, the row before that pop took its slot,
    # so it reads the return address one slot off
    m = re.match(r'\s*([0-9a-f]+) .*\((/[^)]*)\)$', frame)
    if not m or not os.path.isfile(m.group(2)):
        return False
    a, path = int(m.group(1), 16), m.group(2)
    if re.search(r'^\s*%x:\s+c3\s+ret' % a, disasm(path, a, a + 1), re.M):
        return True
    for back in (1, 2):    # a pop of 1 or 2 bytes ending at a
        if a < back:
            continue
        m2 = re.search(r'^\s*%x:\s+((?:[0-9a-f]{2} )+)\s*pop\s' % (a - back),
                       disasm(path, a - back, a), re.M)
        if m2 and len(m2.group(1).split()) == back:
            return True
    return False
print("samples", len(p), len(s))
headers = sum(a[0] != b[0] for a, b in zip(p, s))
def within(pf, b):
    it = iter(b[1:])       # perf's frames, in order, within scorch's
    return all(any(f == g for g in it) for f in pf)
prefix_bad = further = last_differs = ret_leaf = 0
for a, b in zip(p, s):
    pf = a[1:]
    if pf and ' [unknown] (' in pf[-1] and len(b) - 1 > len(pf):
        pf = pf[:-1]       # perf's stray last frame where scorch goes on
    if within(pf, b):
        if len(b) - 1 > len(pf):
            further += 1
        continue
    if len(pf) > 1 and within(pf[:-1], b):
        last_differs += 1  # where the stack copy ends, the two guess apart
        continue
    if len(b) > 2 and pf and pf[0] == b[1] and b[2] not in pf and leaf_in_epilogue(pf[0]):
        ret_leaf += 1      # perf read the row before a ret or pop: skipped the caller
        if ret_leaf <= 2:
            sys.stderr.write("perf skipped the caller (a ret or after a pop):\n  " + "\n  ".join(a) + "\nscorch:\n  " + "\n  ".join(b) + "\n")
        continue
    prefix_bad += 1
    if prefix_bad <= 2:
        sys.stderr.write("perf:\n  " + "\n  ".join(a) + "\nscorch:\n  " + "\n  ".join(b) + "\n")
print("headers_differ", headers)
print("not_a_prefix", prefix_bad)
print("further", further)
print("last_differs", last_differs)
print("ret_leaf", ret_leaf)
