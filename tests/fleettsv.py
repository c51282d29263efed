#!/usr/bin/env python3
"""tests/fleettsv.py: an independent reader of `scorch export --format tsv`
rows (the oracle of t7630/t7631), written from ClickHouse's TabSeparated
rules and docs/clickhouse.md, not from scorch's code.

  fleettsv.py fold FILE      folded lines "stack weight", summed by stack
  fleettsv.py hashes FILE    "ok", or the first row whose stack_hash is not
                             the documented FNV-1a of its frames (exit 1)
  fleettsv.py procs FILE     "comm pid weight" summed
  fleettsv.py buckets FILE   "bucket weight" summed
  fleettsv.py json FILE      each row as a JSON list (frames a list)
Output is bytes; sort it with LC_ALL=C.
"""
import json
import sys

ESC = {ord('\\'): b'\\', ord('t'): b'\t', ord('n'): b'\n', ord('r'): b'\r',
       ord('0'): b'\0', ord('b'): b'\b', ord('f'): b'\f', ord("'"): b"'",
       ord('"'): b'"'}


def unescape(s):
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == 0x5c:
            if i + 1 >= len(s) or s[i + 1] not in ESC:
                raise ValueError('bad escape at %d in %r' % (i, s))
            out += ESC[s[i + 1]]
            i += 2
        else:
            out.append(s[i])
            i += 1
    return bytes(out)


def parse_array(s):
    if s[:1] != b'[' or s[-1:] != b']':
        raise ValueError('not an array: %r' % s)
    items, i, body = [], 1, s
    while i < len(body) - 1:
        if body[i] != 0x27:
            raise ValueError('expected a quote at %d in %r' % (i, s))
        j, cur = i + 1, bytearray()
        while body[j] != 0x27:
            if body[j] == 0x5c:
                cur += ESC[body[j + 1]]
                j += 2
            else:
                cur.append(body[j])
                j += 1
        items.append(bytes(cur))
        i = j + 1
        if body[i] == 0x2c:
            i += 1
    return items


def rows(path):
    with open(path, 'rb') as f:
        for line in f:
            if not line.endswith(b'\n'):
                raise ValueError('unterminated row')
            f8 = line[:-1].split(b'\t')
            if len(f8) != 8:
                raise ValueError('%d fields: %r' % (len(f8), line))
            host, bucket, comm, pid, h, frames, samples, weight = f8
            yield (unescape(host), bucket, unescape(comm), int(pid), int(h),
                   parse_array(frames), int(samples), int(weight))


def fnv(frames):
    h = 0xcbf29ce484222325
    for n in frames:
        for c in len(n).to_bytes(4, 'little') + n:
            h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


def summed(pairs):
    d = {}
    for k, v in pairs:
        d[k] = d.get(k, 0) + v
    return d


def main():
    mode, path = sys.argv[1], sys.argv[2]
    out = sys.stdout.buffer
    if mode == 'fold':
        for k, v in summed((b';'.join(r[5]), r[7]) for r in rows(path)).items():
            out.write(k + b' %d\n' % v)
    elif mode == 'hashes':
        for r in rows(path):
            if fnv(r[5]) != r[4]:
                print('row %r: hash %d, want %d' % (r[5], r[4], fnv(r[5])))
                sys.exit(1)
        print('ok')
    elif mode == 'procs':
        for (c, p), v in summed(((r[2], r[3]), r[7]) for r in rows(path)).items():
            out.write(c + b' %d %d\n' % (p, v))
    elif mode == 'buckets':
        for k, v in summed((r[1], r[7]) for r in rows(path)).items():
            out.write(k + b' %d\n' % v)
    elif mode == 'json':
        for r in rows(path):
            print(json.dumps([r[0].decode('latin-1'), r[1].decode(), r[2].decode('latin-1'),
                              r[3], r[4], [x.decode('latin-1') for x in r[5]], r[6], r[7]]))
    else:
        sys.exit('unknown mode ' + mode)


if __name__ == '__main__':
    main()
