#!/usr/bin/env python3
"""kernel-perfdata.py: small perf.data files with kernel samples in a
kernel module or in a KASLR-moved kernel, for the module and --vmlinux
tests (t3320-t3339).

USAGE: kernel-perfdata.py module OUT KO BUILDID START IP...
       kernel-perfdata.py vmlinux OUT TEXT [BUILDID] -- IP...
  module   a kernel map "[kernel.kallsyms]_text" at 0xffffffff81000000
           and a module map of KO (the path perf records, e.g.
           /lib/modules/R/kernel/x.ko, or "[x]") at START, 0x10000 long;
           BUILDID (hex, or "-" for none) goes into the BUILD_ID feature
           for KO as a kernel object; one sample (pid 1234) per IP, its
           call chain the IP alone after PERF_CONTEXT_KERNEL.
  vmlinux  a kernel map "[kernel.kallsyms]_text" whose pgoff says _text
           was at TEXT when recording (KASLR), from TEXT, 0x4000000
           long; the kernel's BUILDID when given; samples as above.
The OSRELEASE feature says "6.1.0-scorch-test". Records and the file
layout come from hostile_perfdata.py (perf.data-file-format.txt).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_perfdata as H  # noqa: E402 (beside this file)

MISC_KERNEL = 1
CONTEXT_KERNEL = 0xffffffffffffff80
FEAT_BUILD_ID, FEAT_OSRELEASE = 2, 4
RELEASE = '6.1.0-scorch-test'
PID = 1234


def kmmap(start, length, pgoff, name):
    return H.rec(H.MMAP, struct.pack('<iiQQQ', -1, 0, start, length, pgoff) +
                 H.cstr(name) + H.sample_id(0, 0, 2), misc=MISC_KERNEL)


def ksample(ip, time):
    ips = [CONTEXT_KERNEL, ip]
    return H.rec(H.SAMPLE, struct.pack('<QIIQQQ', ip, PID, PID, time, 1, len(ips)) +
                 struct.pack('<%dQ' % len(ips), *ips), misc=MISC_KERNEL)


def perf_string(s):
    b = s.encode() + b'\0'
    b += bytes(-len(b) % 64)
    return struct.pack('<I', len(b)) + b


def build_id_event(hexid, name):
    bid = bytes.fromhex(hexid)
    fname = name.encode() + b'\0'
    fname += bytes(-len(fname) % 64)
    body = struct.pack('<i', -1) + bid + bytes(20 - len(bid)) + \
        struct.pack('<BBH', len(bid), 0, 0) + fname
    misc = MISC_KERNEL | (1 << 15)   # PERF_RECORD_MISC_BUILD_ID_SIZE
    return struct.pack('<IHH', 0, misc, 8 + len(body)) + body


def write(out, data, build_ids):
    feats = [(FEAT_OSRELEASE, perf_string(RELEASE))]
    if build_ids:
        feats.append((FEAT_BUILD_ID, b''.join(build_id_event(h, n) for h, n in build_ids)))
    feats.sort()
    table_off = 104 + H.ATTR_SIZE + 16 + len(data)
    off = table_off + 16 * len(feats)
    table, payloads = [], []
    for bit, payload in feats:
        table.append((bit, off, len(payload)))
        payloads.append((off, payload))
        off += len(payload)
    H.file_mode(out, data, (table, payloads))


def samples(ips):
    data = H.comm(PID, 'kworker', 3)
    for i, ip in enumerate(ips):
        data += ksample(ip, 10 + i)
    return data


def module(out, ko, hexid, start, ips):
    data = kmmap(0xffffffff81000000, 0x1000000, 0xffffffff81000000,
                 '[kernel.kallsyms]_text')
    data += kmmap(start, 0x10000, 0, ko)
    data += samples(ips)
    write(out, data, [] if hexid == '-' else [(hexid, ko)])


def vmlinux(out, text, hexid, ips):
    data = kmmap(text, 0x4000000, text, '[kernel.kallsyms]_text') + samples(ips)
    write(out, data, [(hexid, '[kernel.kallsyms]')] if hexid else [])


def main(argv):
    num = lambda s: int(s, 0)
    if len(argv) >= 6 and argv[1] == 'module':
        module(argv[2], argv[3], argv[4], num(argv[5]), [num(a) for a in argv[6:]])
    elif len(argv) >= 5 and argv[1] == 'vmlinux' and '--' in argv:
        cut = argv.index('--')
        hexid = argv[4] if cut == 5 else None
        vmlinux(argv[2], num(argv[3]), hexid, [num(a) for a in argv[cut + 1:]])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
