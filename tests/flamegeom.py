#!/usr/bin/env python3
"""flamegeom: frame geometry of a flame graph, as "title<TAB>x<TAB>y<TAB>width" rows.

usage: flamegeom.py svg FILE.svg
       flamegeom.py model [--reverse] [--inverted] [--flamechart] [--chain]
                          [--width N] [--minwidth N[%]] FOLDED

`svg` reads the frames of a scorch SVG (the <title> text and the <rect>'s x, y and
width). `model` computes them from folded input by flamegraph.pl's rules as
described in ../shared/flamegraph-notes.md (section 1): lines sorted as whole
strings (input order with --flamechart), adjacent lines merged from the root
(flow), x from the running total, frames narrower than minwidth dropped, x and
width printed "%0.1f" with the width the difference of the rounded edges;
--chain (for --colors chain) rewrites each sorted line's stack as the notes say
(after the first ";--;" every frame gets "_[w]"; no ";--;": a last "--"). It
does not use scorch. Titles are printed unescaped; x and width with one decimal;
y as Perl prints a number. Rows are not sorted.
"""
import re
import sys

LINE = re.compile(r"^(.*)\s+?(\d+(?:\.\d*)?)$")


def perl_num(v):
    """A number as Perl prints it (%.15g)."""
    return "%.15g" % v


def commas(s):
    neg = s.startswith("-")
    d = s[1:] if neg else s
    out = ""
    while len(d) > 3:
        out = "," + d[-3:] + out
        d = d[:-3]
    return ("-" if neg else "") + d + out


def perl_split(stack):
    """Perl's split ';': trailing empty fields dropped."""
    parts = stack.split(";")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse(line):
    """(stack, samples, samples2 or None) or None, as flamegraph.pl parses."""
    m = LINE.match(line)
    if not m:
        return None
    stack, samples = m.group(1), m.group(2)
    m2 = LINE.match(stack)
    if m2:
        return m2.group(1), m2.group(2), samples
    return stack, samples, None


def chain_rewrite(stack):
    """--colors chain: waker;--;wakee_[w] (Perl split: trailing empty parts go)."""
    parts = stack.split(";--;")
    while parts and parts[-1] == "":
        parts.pop()
    first = parts.pop(0) if parts else ""
    rest = [p.replace(";", "_[w];") + "_[w]" for p in parts]
    return first + ";--;" + ";--;".join(rest)


def model(path, reverse=False, inverted=False, flamechart=False, chain=False, width=1200,
          minwidth="0.1", fontsize=12.0, frameheight=16):
    with open(path, "rb") as fp:
        lines = [raw.decode("utf-8", "surrogateescape").rstrip("\n") for raw in fp]
    data = []
    for line in lines:
        if reverse:
            p = parse(line)
            if p is None:
                data.append(line)  # stays invalid
                continue
            stack, s1, s2 = p
            rev = ";".join(reversed(perl_split(stack)))
            data.append(rev + " " + s1 + (" " + s2 if s2 is not None else ""))
        else:
            data.append(line)
    if not flamechart:
        data.sort()
    nodes = []  # (func, depth, stime, etime, delta)
    tmp = {}
    last = []
    time = 0.0

    def flow(last, this, v, d):
        same = 0
        while same < len(last) and same < len(this) and last[same] == this[same]:
            same += 1
        for i in range(len(last) - 1, same - 1, -1):
            st, dl = tmp.pop((last[i], i))
            nodes.append((last[i], i, st, v, dl))
        for i in range(same, len(this)):
            dl = None
            if d is not None:
                dl = d if i == len(this) - 1 else 0.0
            tmp[(this[i], i)] = (v, dl)
        return this

    for line in data:
        p = parse(line)
        if p is None:
            continue
        stack, s1, s2 = p
        if chain:
            stack = chain_rewrite(stack)
        delta = None
        if s2 is not None:
            delta = float(s2) - float(s1)
        last = flow(last, [""] + perl_split(stack), time, delta)
        time += float(s2 if s2 is not None else s1)
    flow(last, [], time, None)
    timemax = time
    xpad, ypad1, ypad2 = 10, fontsize * 3, fontsize * 2 + 10
    wpt = (width - 2 * xpad) / timemax
    if minwidth.endswith("%"):
        mintime = timemax * float(minwidth[:-1]) / 100
    else:
        mintime = float(minwidth) / wpt
    kept = []
    for func, depth, st, et, dl in nodes:
        if func == "" and depth == 0:
            et = timemax
        if et - st < mintime:
            continue
        kept.append((func, depth, st, et, dl))
    depthmax = max(n[1] for n in kept)
    height = (depthmax + 1) * frameheight + ypad1 + ypad2
    rows = []
    for func, depth, st, et, dl in kept:
        x1 = xpad + st * wpt
        x2 = xpad + et * wpt
        if inverted:
            y1 = ypad1 + depth * frameheight
        else:
            y1 = height - ypad2 - (depth + 1) * frameheight + 1
        samples = "%.0f" % (et - st)
        if func == "" and depth == 0:
            title = "all (%s samples, 100%%)" % commas(samples)
        else:
            name = re.sub(r"_\[[kwij]\]$", "", func)
            pct = "%.2f" % (100 * float(samples) / timemax)
            if dl is None:
                title = "%s (%s samples, %s%%)" % (name, commas(samples), pct)
            else:
                dp = "%.2f" % (100 * dl / timemax)
                title = "%s (%s samples, %s%%; %s%s%%)" % (
                    name, commas(samples), pct, "+" if dl > 0 else "", dp)
        rx1 = "%.1f" % x1
        rx2 = "%.1f" % x2
        rows.append((title, rx1, perl_num(y1), "%.1f" % (float(rx2) - float(rx1))))
    return rows


def from_svg(path):
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()
    frames = [g for g in root.iter(ns + "g") if g.get("id") == "frames"][0]
    rows = []
    for el in frames:
        t = el.find(ns + "title")
        r = el.find(ns + "rect")
        rows.append((t.text or "", "%.1f" % float(r.get("x")),
                     perl_num(float(r.get("y"))), "%.1f" % float(r.get("width"))))
    return rows


def main(argv):
    if len(argv) < 2 or argv[0] not in ("svg", "model"):
        sys.stderr.write(__doc__)
        return 2
    if argv[0] == "svg":
        rows = from_svg(argv[1])
    else:
        opts = {}
        args = argv[1:]
        while args and args[0].startswith("--"):
            a = args.pop(0)
            if a in ("--reverse", "--inverted", "--flamechart", "--chain"):
                opts[a[2:]] = True
            elif a == "--width":
                opts["width"] = int(args.pop(0))
            elif a == "--minwidth":
                opts["minwidth"] = args.pop(0)
            else:
                sys.stderr.write("unknown option %s\n" % a)
                return 2
        rows = model(args[0], **opts)
    out = sys.stdout.buffer
    for r in rows:
        out.write(("\t".join(r) + "\n").encode("utf-8", "surrogateescape"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
