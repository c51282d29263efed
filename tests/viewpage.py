"""Decoder of a `scorch view` page's data for the tests (the layout is
the comment at the top of src/render/view_data.h): the page's string
table, frames, tree (folded stacks with their self weights) and the
per-sample rows' total weight.
    python3 viewpage.py PAGE names|stacks|summary
names: the string table, a line each; stacks: "frame;frame;... self" of
every node with a self weight (the first column), sorted; summary:
"total N", "rows N" and "frame NAME<TAB>MODULE<TAB>SOURCE" lines."""
import base64
import gzip
import re
import sys


class Page:
    def __init__(self, path):
        page = open(path, encoding="utf-8").read()
        m = re.search(r'id="scv-data"( data-enc="gzip")?>\s*([A-Za-z0-9+/=\s]*?)\s*</script>', page)
        d = base64.b64decode(m.group(2))
        self.gzipped = bool(m.group(1))
        self.data = gzip.decompress(d) if self.gzipped else d
        assert self.data[:4] == b"SCV1", "not the SCV1 encoding"
        self.p = 4
        self.ncols = self.v()
        self.strs = [self.text(self.v()) for _ in range(self.v())]
        self.frames = [self.frame() for _ in range(self.v())]
        self.stacks, self.total = self.tree()
        self.rows = self.sample_rows()

    def v(self):
        x = s = 0
        while True:
            b = self.data[self.p]
            self.p += 1
            x |= (b & 127) << s
            s += 7
            if not b & 128:
                return x

    def text(self, n):
        t = self.data[self.p:self.p + n].decode("utf-8", "surrogateescape")
        self.p += n
        return t

    def frame(self):
        name, mod, flags, rgb, src = (self.v() for _ in range(5))
        line = self.v() if src else 0   # source file + 1, then its line
        return {"name": self.strs[name], "module": self.strs[mod - 1] if mod else "",
                "flags": flags, "rgb": rgb,
                "source": "%s:%d" % (self.strs[src - 1], line) if src else ""}

    def tree(self):
        path, depth, out, total = [], -1, {}, 0
        for _ in range(self.v()):
            up2 = self.v()
            depth = depth + 1 - (up2 >> 1)
            del path[depth:]
            path.append(self.frames[self.v()]["name"])
            if up2 & 1:
                n = [self.v() for _ in range(self.ncols)][0]
                k = ";".join(path)
                out[k] = out.get(k, 0) + n
                total += n
        return out, total

    def sample_rows(self):
        rows = 0
        while self.p < len(self.data):
            tag = self.v()
            if tag == 0:
                break
            n = self.v()
            end = self.p + n
            if tag == 2:
                for _ in range(self.v()):
                    self.v(); self.v(); self.v()
                    rows += self.v()
            self.p = end
        return rows


def main(path, what):
    pg = Page(path)
    if what == "names":
        for s in pg.strs:
            print(s)
    elif what == "stacks":
        for k in sorted(pg.stacks):
            print(k, pg.stacks[k])
    elif what == "summary":
        print("total", pg.total)
        print("rows", pg.rows)
        for f in pg.frames:
            print("frame %s\t%s\t%s" % (f["name"], f["module"], f["source"]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
