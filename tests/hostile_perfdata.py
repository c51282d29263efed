#!/usr/bin/env python3
"""hostile_perfdata.py: crafted perf.data files that are small on disk but
cost a careless reader gigabytes or minutes (t1007-perfdata-hostile.sh).

USAGE: hostile_perfdata.py KIND OUT [N]
       hostile_perfdata.py measure SECONDS CMD...
  features   256 feature sections that all overlap, each claiming 64 or
             256 MB (a sparse file: a few KB on disk)
  ids        N (8192) attrs whose ids sections all are the same 8 MB
  names      N (65536) attrs and an EVENT_DESC of N events that name none
  groups     a GROUP_DESC feature with N (40000) groups of 65536 members
  forks      N (50000) MMAPs in pid 1, then 2000 FORKs of it, then one
             sample in the last child
  descending N (120000) MMAPs in descending address order, then a sample
  pipe       pipe mode ('perf record -o -') with N (500000) samples of a
             64-deep call chain and no FINISHED_ROUND; OUT '-' is stdout
  pipe-slow  the same, one sample per millisecond instead of nanosecond
  pipe-meta  N (4000) HEADER_ATTRs of 8000 new ids and N repeats of a
             64 KB HEADER_FEATURE, then a sample
measure runs CMD with a 4 GiB address-space limit (ulimit -v) and a time
limit (none when HOSTILE_NO_AS_LIMIT is set), then prints "measure: rc=N secs=S maxrss_kb=K" to stderr (rc 124:
killed at the time limit; maxrss from getrusage, so no /usr/bin/time).
Layouts follow the perf.data format (perf's
tools/perf/Documentation/perf.data-file-format.txt): a 104-byte header,
one attr, the data section, the feature table and feature payloads.
"""
import array
import os
import resource
import struct
import subprocess
import sys
import time

ATTR_SIZE = 112                       # PERF_ATTR_SIZE_VER5
S_IP, S_TID, S_TIME, S_CALLCHAIN, S_PERIOD = 1, 2, 4, 32, 256
SAMPLE_TYPE = S_IP | S_TID | S_TIME | S_PERIOD | S_CALLCHAIN
SAMPLE_ID_ALL = 1 << 18
MMAP, COMM, FORK, SAMPLE = 1, 3, 7, 9
HEADER_ATTR, HEADER_FEATURE = 64, 80
FEAT_HOSTNAME = 3
FEAT_GROUP_DESC = 17


def attr():
    """perf_event_attr: cycles, sample_id_all, mmap/comm/task on."""
    flags = (1 << 0) | (1 << 8) | (1 << 9) | (1 << 13) | SAMPLE_ID_ALL
    a = struct.pack('<IIQQQQQ', 0, ATTR_SIZE, 0, 4000, SAMPLE_TYPE, 0, flags)
    return a + bytes(ATTR_SIZE - len(a))


def rec(rtype, body, misc=0):
    body += bytes(-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def sample_id(pid, tid, time):
    """sample_id_all trailer for SAMPLE_TYPE: tid, time."""
    return struct.pack('<IIQ', pid, tid, time)


def cstr(s):
    b = s.encode() + b'\0'
    return b + bytes(-len(b) % 8)


def mmap(pid, addr, length, name, time):
    return rec(MMAP, struct.pack('<IIQQQ', pid, pid, addr, length, 0) +
               cstr(name) + sample_id(pid, pid, time), misc=2)


def comm(pid, name, time):
    return rec(COMM, struct.pack('<II', pid, pid) + cstr(name) +
               sample_id(pid, pid, time))


def fork(pid, ppid, time):
    return rec(FORK, struct.pack('<IIIIQ', pid, ppid, pid, ppid, time) +
               sample_id(pid, pid, time))


def sample(pid, ip, time, chain=()):
    ips = [0xfffffffffffffe00] + list(chain or [ip])   # PERF_CONTEXT_USER
    return rec(SAMPLE, struct.pack('<QIIQQQ', ip, pid, pid, time, 1, len(ips)) +
               struct.pack('<%dQ' % len(ips), *ips), misc=2)


def file_mode(out, data, feats=None, sparse_end=0, nattrs=1, ids=(0, 0),
              tail=b''):
    """Header, nattrs attrs (all with the ids section ids), data, tail;
    feats: [(bit, offset, size)] with payloads [(offset, bytes)] written
    where they say."""
    feats = feats or ([], [])
    table, payloads = feats
    attrs_off = 104
    data_off = attrs_off + nattrs * (ATTR_SIZE + 16)
    bitmap = bytearray(32)
    for bit, _, _ in table:
        bitmap[bit // 8] |= 1 << (bit % 8)
    hdr = (b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, ATTR_SIZE + 16,
                                     attrs_off, nattrs * (ATTR_SIZE + 16),
                                     data_off, len(data), 0, 0) + bytes(bitmap))
    with open(out, 'wb') as f:
        f.write(hdr + (attr() + struct.pack('<QQ', *ids)) * nattrs + data)
        for _, off, size in sorted(table):
            f.write(struct.pack('<QQ', off, size))
        for off, payload in payloads:
            f.seek(off)
            f.write(payload)
        f.write(tail)
        if sparse_end:
            f.truncate(sparse_end)


def base_records():
    return comm(1, 'hostile', 1) + mmap(1, 0x400000, 0x1000, '/hostile/a.out', 2)


def features(out, _n):
    data = base_records() + sample(1, 0x400100, 3)
    table_off = 104 + ATTR_SIZE + 16 + len(data)
    pay = table_off + 256 * 16
    table = [(bit, pay, (64 if bit % 2 else 256) << 20) for bit in range(256)]
    file_mode(out, data, (table, []), sparse_end=pay + (256 << 20))


def ids(out, n):
    n = n or 8192
    data = base_records() + sample(1, 0x400100, 3)
    ids_off = 104 + n * (ATTR_SIZE + 16) + len(data)
    tail = struct.pack('<Q', 1) * (1 << 20)
    file_mode(out, data, nattrs=n, ids=(ids_off, len(tail)), tail=tail)


def names(out, n):
    n = n or 65536
    data = base_records() + sample(1, 0x400100, 3)
    pay = 104 + n * (ATTR_SIZE + 16) + len(data) + 16
    ev = attr() + struct.pack('<I', 1) + struct.pack('<I4s', 4, b'ev\0\0') + \
        struct.pack('<Q', 7)
    payload = struct.pack('<II', n, ATTR_SIZE) + ev * n
    file_mode(out, data, ([(12, pay, len(payload))], [(pay, payload)]),
              nattrs=n)


def groups(out, n):
    n = n or 40000
    data = base_records() + sample(1, 0x400100, 3)
    table_off = 104 + ATTR_SIZE + 16 + len(data)
    pay = table_off + 16
    group = struct.pack('<I4sII', 4, b'grp\0', 0, 65536)
    payload = struct.pack('<I', n) + group * n
    file_mode(out, data, ([(FEAT_GROUP_DESC, pay, len(payload))], [(pay, payload)]))


def forks(out, n):
    n = n or 50000
    parts = [comm(1, 'hostile', 1)]
    parts += [mmap(1, 0x10000000 + i * 0x2000, 0x1000, '/hostile/lib.so', 2)
              for i in range(n)]
    parts += [fork(2 + k, 1, 3) for k in range(2000)]
    parts.append(sample(2001, 0x10000000 + (n // 2) * 0x2000 + 0x10, 4))
    file_mode(out, b''.join(parts))


def descending(out, n):
    n = n or 120000
    parts = [comm(1, 'hostile', 1)]
    parts += [mmap(1, 0x10000000 + i * 0x2000, 0x1000, '/hostile/lib.so', 2)
              for i in reversed(range(n))]
    parts.append(sample(1, 0x10000010, 4))
    file_mode(out, b''.join(parts))


def pipe(out, n, step=1):
    n = n or 500000
    f = sys.stdout.buffer if out == '-' else open(out, 'wb')
    f.write(b'PERFILE2' + struct.pack('<Q', 16))
    f.write(rec(HEADER_ATTR, attr()))
    f.write(base_records())
    chain = [0x400100 + 8 * i for i in range(64)]
    one = bytearray(sample(1, 0x400100, 0, chain))
    batch = 1000
    buf = one * batch
    time_at = 8 + 8 + 8      # header, ip, pid/tid
    for first in range(0, n, batch):
        k = min(batch, n - first)
        for i in range(k):
            struct.pack_into('<Q', buf, i * len(one) + time_at,
                             10 + (first + i) * step)
        f.write(buf if k == batch else buf[:k * len(one)])
    f.flush()


def pipe_header():
    """A pipe-mode header and the one attr (HEADER_ATTR record)."""
    return b'PERFILE2' + struct.pack('<Q', 16) + rec(HEADER_ATTR, attr())


def feed(generate, outpath, cmd):
    """generate(out) writes a stream: into OUTPATH when CMD is empty,
    else into CMD's stdin with CMD's stdout in OUTPATH; then prints
    "peak-RSS-KB exit-status" of CMD (getrusage of the child)."""
    if not cmd:
        with open(outpath, 'wb') as o:
            generate(o)
        return
    with open(outpath, 'wb') as o:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=o,
                             stderr=subprocess.DEVNULL)
        generate(p.stdin)
        p.stdin.close()
        rc = p.wait()
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)


def measure(seconds, cmd):
    def limit():
        if not os.environ.get('HOSTILE_NO_AS_LIMIT'):   # ASan reserves more
            resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    start = time.monotonic()
    child = subprocess.Popen(cmd, preexec_fn=limit)
    try:
        rc = child.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        rc = 124
    secs = time.monotonic() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stderr.write('measure: rc=%d secs=%.2f maxrss_kb=%d\n' % (rc, secs, rss))
    return 0


def pipe_meta(out, n):
    """N (4000) HEADER_ATTRs of 8000 new ids each and N HEADER_FEATUREs
    repeating a 64 KB hostname, then one sample."""
    n = n or 4000
    f = sys.stdout.buffer if out == '-' else open(out, 'wb')
    f.write(b'PERFILE2' + struct.pack('<Q', 16))
    host = struct.pack('<I', 65000) + b'h' * 64999 + b'\0'
    feature = rec(HEADER_FEATURE, struct.pack('<Q', FEAT_HOSTNAME) + host)
    for k in range(n):
        ids = array.array('Q', range(1 + k * 8000, 1 + (k + 1) * 8000))
        f.write(rec(HEADER_ATTR, attr() + ids.tobytes()))
        f.write(feature)
    f.write(base_records() + sample(1, 0x400100, 3))
    f.flush()


def pipe_slow(out, n):
    pipe(out, n, 1000000)


KINDS = {'features': features, 'groups': groups, 'ids': ids, 'names': names, 'forks': forks,
         'descending': descending, 'pipe': pipe, 'pipe-slow': pipe_slow,
         'pipe-meta': pipe_meta}

if __name__ == '__main__':
    if len(sys.argv) > 3 and sys.argv[1] == 'measure':
        sys.exit(measure(float(sys.argv[2]), sys.argv[3:]))
    if len(sys.argv) < 3 or sys.argv[1] not in KINDS:
        sys.exit(__doc__)
    KINDS[sys.argv[1]](sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
