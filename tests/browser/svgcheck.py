#!/usr/bin/env python3
"""svgcheck: check the geometry of a scorch flame graph SVG.

usage: svgcheck.py SVG [FOLDED...] [--inverted] [--total N]

Parses the SVG (frames are the children of <g id="frames"> in depth-first
pre-order), and checks: every frame's width is proportional to its count
(from its title), children sit inside their parent one level further out,
siblings do not overlap, children never exceed their parent, and the root
count equals the sum of the counts of the valid lines of the FOLDED files
(the last column). Prints one line per problem; exit 1 when any.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
args = [a for a in sys.argv[1:] if not a.startswith("--")]
inverted = "--inverted" in sys.argv
svg, folded = args[0], args[1:]
root = ET.parse(svg).getroot()
frames_el = [g for g in root.iter(NS + "g") if g.get("id") == "frames"][0]
width = float(root.get("width"))
xpad = float(frames_el.get("data-xpad", "10"))
fh = float(frames_el.get("data-frameheight", "16"))
problems = []
frames = []
title_re = re.compile(r"^(.*) \(([0-9,]+) [^,]*, ([0-9.]+)%")
for el in frames_el:
    t = el.find(NS + "title")
    r = el.find(NS + "rect")
    m = title_re.match(t.text or "")
    if not m:
        problems.append("title without count: %r" % t.text)
        continue
    frames.append({
        "name": m.group(1), "count": float(m.group(2).replace(",", "")),
        "x": float(r.get("x")), "w": float(r.get("width")), "y": float(r.get("y")),
    })
if not frames:
    print("no frames")
    sys.exit(1)
total = frames[0]["count"]
if folded:
    line_re = re.compile(r"^(.*)\s(\d+(?:\.\d*)?)$")
    s = 0.0
    for path in folded:
        with open(path, "rb") as fp:
            for raw in fp:
                line = raw.decode("utf-8", "surrogateescape").rstrip("\n").rstrip("\r")
                m = line_re.match(line)
                if m:
                    s += float(m.group(2))
    if abs(round(s) - total) > 0.5:
        problems.append("root count %g, input total %g" % (total, s))
    total = s  # exact, where titles show rounded counts
scale = (width - 2 * xpad) / total
y0 = frames[0]["y"]
stack = []
for i, f in enumerate(frames):
    expect = f["count"] * scale
    # edges are rounded to 0.1 px as flamegraph.pl rounds them
    if abs(f["w"] - expect) > 0.5 * scale + 0.1 + 1e-6:
        problems.append("frame %d %s: width %.4f for count %g (expected %.4f)"
                        % (i, f["name"], f["w"], f["count"], expect))
    d = round((f["y"] - y0) / fh) if inverted else round((y0 - f["y"]) / fh)
    f["depth"] = d
    f["kids_w"] = 0.0
    f["last_end"] = None
    while stack and stack[-1]["depth"] >= d:
        stack.pop()
    if i > 0:
        if not stack or stack[-1]["depth"] != d - 1:
            problems.append("frame %d %s: not one level below its parent" % (i, f["name"]))
        else:
            p = stack[-1]
            if f["x"] < p["x"] - 0.01 or f["x"] + f["w"] > p["x"] + p["w"] + 0.01:
                problems.append("frame %d %s: outside its parent %s" % (i, f["name"], p["name"]))
            if p["last_end"] is not None and f["x"] < p["last_end"] - 0.01:
                problems.append("frame %d %s: overlaps its left sibling" % (i, f["name"]))
            p["last_end"] = f["x"] + f["w"]
            p["kids_w"] += f["w"]
            if p["kids_w"] > p["w"] + 0.02:
                problems.append("frame %s: children wider than the frame" % p["name"])
    stack.append(f)

for p in problems[:20]:
    print(p)
print("%d frames, %d problems" % (len(frames), len(problems)))
sys.exit(1 if problems else 0)
