// scorch view: the single-file profile explorer. Written for scorch.
// The profile arrives base64 in #scv-data (format: src/render/view_data.h)
// and is decoded once into typed arrays: a call tree in preorder, so a
// node's subtree is the index range [i, end[i]) and x[i] is its absolute
// start in weight units. Every view draws on a canvas of the viewport's
// size only, walking the tree and skipping any subtree narrower than a
// pixel or below the visible rows, so neither the depth nor the number
// of nodes sets the canvas size. Names are only ever drawn with
// fillText or set as textContent: never parsed as markup.
"use strict";
(function () {
	var doc = document;
	var RH = 18; // row height, CSS px

	// ---- decoding ----
	function b64bytes(s) {
		if (typeof Uint8Array.fromBase64 === "function")
			return Uint8Array.fromBase64(s);
		var bin = atob(s), n = bin.length, u = new Uint8Array(n);
		for (var i = 0; i < n; i++)
			u[i] = bin.charCodeAt(i);
		return u;
	}

	function decode(u) {
		var p = 4;
		function v() {
			var x = 0, m = 1, b;
			do {
				b = u[p++];
				x += (b & 127) * m;
				m *= 128;
			} while (b & 128);
			return x;
		}
		if (u.length < 5 || u[0] !== 83 || u[1] !== 67 || u[2] !== 86 || u[3] !== 49)
			throw new Error("not scorch view data");
		var ncols = v(), ns = v(), strs = new Array(ns);
		var td = new TextDecoder("utf-8");
		for (var i = 0; i < ns; i++) {
			var len = v(), ascii = true;
			for (var k = p; k < p + len && ascii; k++)
				ascii = u[k] < 128;
			strs[i] = ascii && len < 4096 ? String.fromCharCode.apply(null, u.subarray(p, p + len))
				: td.decode(u.subarray(p, p + len));
			p += len;
		}
		var nf = v(), fname = new Array(nf + 1), fmod = new Array(nf + 1);
		var fflags = new Uint8Array(nf + 1);
		for (i = 0; i < nf; i++) {
			fname[i] = strs[v()];
			var m = v();
			fmod[i] = m ? strs[m - 1] : "";
			fflags[i] = v();
		}
		fname[nf] = "all";
		fmod[nf] = "";
		var nn = v(), n = nn + 1;
		var parent = new Int32Array(n), depth = new Int32Array(n);
		var frame = new Uint32Array(n), self = [];
		for (var c = 0; c < ncols; c++)
			self.push(new Float64Array(n));
		var path = [0], d = 0;
		parent[0] = -1;
		frame[0] = nf;
		for (i = 1; i < n; i++) {
			var up2 = v();
			d = d + 1 - Math.floor(up2 / 2);
			parent[i] = path[d - 1];
			path[d] = i;
			depth[i] = d;
			frame[i] = v();
			if (up2 & 1)
				for (c = 0; c < ncols; c++)
					self[c][i] = v();
		}
		return { ncols: ncols, nframes: nf, fname: fname, fmod: fmod, fflags: fflags,
			tree: shape({ n: n, parent: parent, depth: depth, frame: frame, self: self }) };
	}

	// totals, subtree ends, absolute x (per column), deepest depth
	function shape(t) {
		var n = t.n, parent = t.parent, end = new Int32Array(n), i, c;
		t.total = [];
		t.x = [];
		for (c = 0; c < t.self.length; c++) {
			var tot = new Float64Array(t.self[c]);
			for (i = n - 1; i > 0; i--)
				tot[parent[i]] += tot[i];
			// absolute start: after the earlier siblings, from the parent's
			var x = new Float64Array(n), next = new Float64Array(n);
			for (i = 1; i < n; i++) {
				x[i] = next[parent[i]];
				next[parent[i]] += tot[i];
				next[i] = x[i];
			}
			t.total.push(tot);
			t.x.push(x);
		}
		var maxd = 0;
		for (i = n - 1; i >= 0; i--) {
			if (end[i] < i + 1)
				end[i] = i + 1;
			if (i > 0 && end[parent[i]] < end[i])
				end[parent[i]] = end[i];
			if (t.depth[i] > maxd)
				maxd = t.depth[i];
		}
		t.end = end;
		t.maxDepth = maxd;
		return t;
	}

	// ---- trees built from paths (sandwich views) ----
	function TreeBuilder(nroot) {
		this.kids = [new Map()];
		this.frame = [nroot];
		this.self = [0];
	}
	TreeBuilder.prototype.add = function (frames, w) {
		var cur = 0;
		for (var i = 0; i < frames.length; i++) {
			var f = frames[i], k = this.kids[cur], nx = k.get(f);
			if (nx === undefined) {
				nx = this.frame.length;
				k.set(f, nx);
				this.kids.push(new Map());
				this.frame.push(f);
				this.self.push(0);
			}
			cur = nx;
		}
		this.self[cur] += w;
	};
	TreeBuilder.prototype.build = function (nameOf) {
		var n = this.frame.length, parent = new Int32Array(n), depth = new Int32Array(n);
		var frame = new Uint32Array(n), self = new Float64Array(n), at = 0;
		var stack = [[0, -1, 0]], kids = this.kids;
		while (stack.length) {
			var top = stack.pop(), id = top[0];
			var me = at++;
			parent[me] = top[1];
			depth[me] = top[2];
			frame[me] = this.frame[id];
			self[me] = this.self[id];
			var ch = Array.from(kids[id].values());
			var fr = this.frame;
			ch.sort(function (a, b) {
				var x = nameOf(fr[a]), y = nameOf(fr[b]);
				return x < y ? 1 : x > y ? -1 : 0; // reversed: popped in order
			});
			for (var j = 0; j < ch.length; j++)
				stack.push([ch[j], me, top[2] + 1]);
		}
		return shape({ n: n, parent: parent, depth: depth, frame: frame, self: [self] });
	};

	// ---- the data: base64, gzip'd when data-enc says so ----
	var el = doc.getElementById("scv-data");
	var t0 = performance.now();
	function bytesOf() {
		var u = b64bytes(el.textContent.replace(/\s+/g, ""));
		if (el.getAttribute("data-enc") !== "gzip")
			return Promise.resolve(u);
		var s = new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"));
		return new Response(s).arrayBuffer().then(function (b) { return new Uint8Array(b); });
	}
	bytesOf().then(start, function (e) {
		doc.getElementById("title").textContent = "cannot read the profile: " + e;
		throw e;
	});

	function start(bytes) {
	var D = decode(bytes);
	var decodeMs = performance.now() - t0;
	var T = D.tree, diff = D.ncols === 2;
	var unit = doc.body.getAttribute("data-unit") || "samples";

	// ---- state (mirrored in the URL hash) ----
	var S = { view: "flame", zoom: 0, search: "", icase: false, fn: -1, col: diff ? 1 : 0 };
	var match = null, matchList = [], matchAt = -1;

	function col() { return S.col; }
	function W(i) { return T.total[S.col][i]; }
	function total() { return T.total[S.col][0]; }

	// ---- colours ----
	function hash(s) {
		var h = 2166136261;
		for (var i = 0; i < s.length; i++) {
			h ^= s.charCodeAt(i);
			h = Math.imul(h, 16777619);
		}
		return h >>> 0;
	}
	var colCache = new Map();
	function hot(f) {
		var c = colCache.get(f);
		if (c)
			return c;
		var h = hash(D.fname[f]), fl = D.fflags[f];
		var r = 205 + (h % 50), g = ((h >>> 8) % 180) + 20, b = (h >>> 16) % 55;
		if (fl & 1) { r = 230; g = 140 + (h % 60); b = 40; } // kernel
		if (fl & 4) { r = 60 + (h % 40); g = 190 + (h % 50); b = 60; } // JIT
		if (fl & 2) { r = 80; g = 200; b = 200 + (h % 50); } // inline
		c = "rgb(" + r + "," + g + "," + b + ")";
		colCache.set(f, c);
		return c;
	}
	function diffColor(i) {
		var a = T.total[0][i] / (T.total[0][0] || 1), b = T.total[1][i] / (T.total[1][0] || 1);
		if (S.col === 0) { var s = a; a = b; b = s; }
		var d = b - a, m = Math.max(a, b) || 1, k = Math.min(1, Math.abs(d) / m);
		var v = Math.round(255 - 200 * k);
		return d > 0 ? "rgb(255," + v + "," + v + ")" : d < 0 ? "rgb(" + v + "," + v + ",255)" : "rgb(235,235,235)";
	}

	// ---- a canvas flame/icicle view over any tree ----
	function FlameView(box, getTree, inverted, getZoom, onZoom) {
		this.box = box;
		this.getTree = getTree;
		this.inverted = inverted;
		this.getZoom = getZoom;
		this.onZoom = onZoom;
		this.spacer = doc.createElement("div");
		this.spacer.className = "spacer";
		this.canvas = doc.createElement("canvas");
		this.spacer.appendChild(this.canvas);
		box.appendChild(this.spacer);
		this.ctx = this.canvas.getContext("2d");
		var me = this;
		box.addEventListener("scroll", function () { me.draw(); });
		this.canvas.addEventListener("mousemove", function (e) { me.hover(e); });
		this.canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
		this.canvas.addEventListener("click", function (e) {
			var i = me.at(e);
			if (i >= 0)
				me.onZoom(i);
		});
		this.placed = false;
	}
	// the spacer's height: every row, at least the viewport (a flame
	// graph's root row sits at its bottom)
	FlameView.prototype.height = function () {
		return Math.max((this.getTree().maxDepth + 1) * RH, this.box.clientHeight);
	};
	FlameView.prototype.rowY = function (d) {
		var y = this.inverted ? d * RH : this.height() - (d + 1) * RH;
		return y - this.box.scrollTop;
	};
	FlameView.prototype.range = function () {
		var t = this.getTree(), z = this.getZoom(), c = t.total.length > 1 ? S.col : 0;
		return { x0: t.x[c][z], w: t.total[c][z] || 1, c: c, z: z };
	};
	FlameView.prototype.draw = function () {
		var t = this.getTree();
		if (!t || this.box.offsetParent === null)
			return;
		var cw = this.box.clientWidth, ch = this.box.clientHeight;
		var H = this.height();
		this.spacer.style.height = H + "px";
		if (!this.placed && !this.inverted) {
			this.box.scrollTop = H;
			this.placed = true;
		}
		var dpr = window.devicePixelRatio || 1;
		var cv = this.canvas;
		if (cv.width !== Math.round(cw * dpr) || cv.height !== Math.round(ch * dpr)) {
			cv.width = Math.round(cw * dpr);
			cv.height = Math.round(ch * dpr);
			cv.style.width = cw + "px";
			cv.style.height = ch + "px";
		}
		cv.style.top = "0px";
		var ctx = this.ctx;
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, cw, ch);
		ctx.font = "12px ui-monospace, Menlo, Consolas, monospace";
		ctx.textBaseline = "middle";
		var charW = ctx.measureText("m").width || 7;
		var r = this.range(), c = r.c, xs = t.x[c], tot = t.total[c];
		var scale = cw / r.w, end = t.end, depth = t.depth, frame = t.frame;
		var sTop = this.box.scrollTop;
		var dLo, dHi;
		if (this.inverted) {
			dLo = Math.floor(sTop / RH);
			dHi = Math.ceil((sTop + ch) / RH);
		} else {
			dLo = Math.floor((H - sTop - ch) / RH) - 1;
			dHi = Math.ceil((H - sTop) / RH);
		}
		var onZoomPath = new Set();
		for (var a = r.z; a >= 0; a = t.parent[a])
			onZoomPath.add(a);
		var isMain = t === T, drawn = 0;
		var fg = getComputedStyle(doc.body).getPropertyValue("--frame-text") || "#000";
		for (var i = 0; i < t.n;) {
			var w = tot[i] * scale, x = (xs[i] - r.x0) * scale;
			if (w < 0.5 || x >= cw || x + w <= 0 || depth[i] > dHi) {
				i = end[i];
				continue;
			}
			if (depth[i] >= dLo) {
				var y = this.rowY(depth[i]), x1 = Math.max(x, 0), x2 = Math.min(x + w, cw);
				var f = frame[i];
				var fill = i === 0 && isMain ? "#c8c8c8" : isMain && diff ? diffColor(i) : hot(f);
				if (isMain && match && match[f])
					fill = "#e040e0";
				if (onZoomPath.has(i) && i !== r.z)
					ctx.globalAlpha = 0.55;
				ctx.fillStyle = fill;
				ctx.fillRect(x1, y, Math.max(x2 - x1 - 0.5, 0.5), RH - 1);
				ctx.globalAlpha = 1;
				if (f === S.fn && i !== 0) {
					ctx.strokeStyle = "#000";
					ctx.lineWidth = 2;
					ctx.strokeRect(x1 + 1, y + 1, Math.max(x2 - x1 - 2, 1), RH - 3);
				}
				if (isMain && diff && T.total[S.col ? 0 : 1][i] === 0 && i !== 0) {
					ctx.fillStyle = "#000";
					ctx.fillRect(x1, y, Math.max(x2 - x1 - 0.5, 0.5), 3); // new frame
				}
				var room = Math.floor((x2 - x1 - 6) / charW);
				if (room >= 3) {
					var name = D.fname[f];
					if (name.length > room)
						name = name.slice(0, room - 2) + "..";
					ctx.fillStyle = fg.trim() || "#000";
					ctx.fillText(name, x1 + 3, y + RH / 2);
				}
				drawn++;
			}
			i++;
		}
		this.drawn = drawn;
	};
	// node under the mouse, or -1
	FlameView.prototype.at = function (e) {
		var t = this.getTree(), rect = this.canvas.getBoundingClientRect();
		var px = e.clientX - rect.left, py = e.clientY - rect.top;
		return this.nodeAt(px, py);
	};
	FlameView.prototype.nodeAt = function (px, py) {
		var t = this.getTree(), sTop = this.box.scrollTop;
		var d = this.inverted ? Math.floor((py + sTop) / RH)
			: Math.floor((this.height() - py - sTop) / RH);
		if (d < 0 || d > t.maxDepth)
			return -1;
		var r = this.range(), c = r.c, xs = t.x[c], tot = t.total[c];
		var wx = r.x0 + px * r.w / this.box.clientWidth;
		var cur = 0;
		while (t.depth[cur] < d) {
			var j = cur + 1, found = -1;
			while (j < t.end[cur]) {
				if (wx >= xs[j] && wx < xs[j] + tot[j]) {
					found = j;
					break;
				}
				j = t.end[j];
			}
			if (found < 0)
				return -1;
			cur = found;
		}
		return cur;
	};
	// where node i is drawn (test hook), or null
	FlameView.prototype.rectOf = function (i) {
		var t = this.getTree(), r = this.range(), cw = this.box.clientWidth;
		var scale = cw / r.w, x = (t.x[r.c][i] - r.x0) * scale, w = t.total[r.c][i] * scale;
		var br = this.canvas.getBoundingClientRect();
		return { x: br.left + Math.max(x, 0), y: br.top + this.rowY(t.depth[i]),
			w: Math.min(x + w, cw) - Math.max(x, 0), h: RH - 1 };
	};
	FlameView.prototype.hover = function (e) {
		var i = this.at(e), t = this.getTree();
		if (i < 0) {
			tip.style.display = "none";
			return;
		}
		var c = t.total.length > 1 ? S.col : 0, f = t.frame[i];
		var tot = t.total[c][i], root = t.total[c][0], z = t.total[c][this.getZoom()] || 1;
		var lines = [D.fname[f]];
		lines.push(fmt(tot) + " " + unit + " (" + pct(tot, root) + " of total, " +
			pct(tot, z) + " of zoom)");
		lines.push("self " + fmt(t.self[c][i]) + " (" + pct(t.self[c][i], root) + "), total " + fmt(tot));
		if (D.fmod[f])
			lines.push("module " + D.fmod[f]);
		var fl = D.fflags[f], kinds = [];
		if (fl & 1) kinds.push("kernel");
		if (fl & 2) kinds.push("inlined");
		if (fl & 4) kinds.push("JIT");
		if (kinds.length)
			lines.push(kinds.join(", "));
		if (t === T && diff) {
			var a = T.total[0][i], b = T.total[1][i];
			lines.push("before " + fmt(a) + " (" + pct(a, T.total[0][0]) + "), after " + fmt(b) +
				" (" + pct(b, T.total[1][0]) + ")" + (a === 0 ? " NEW" : b === 0 ? " REMOVED" : ""));
		}
		tip.textContent = lines.join("\n");
		tip.style.display = "block";
		var tx = Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 4);
		var ty = e.clientY + 16 + tip.offsetHeight > window.innerHeight ? e.clientY - tip.offsetHeight - 8 : e.clientY + 16;
		tip.style.left = Math.max(tx, 0) + "px";
		tip.style.top = Math.max(ty, 0) + "px";
	};

	function fmt(x) { return Math.round(x).toLocaleString("en-US"); }
	function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(2) + "%" : "0%"; }

	// ---- page parts ----
	var tip = doc.getElementById("tip");
	var crumbs = doc.getElementById("crumbs");
	var searchBox = doc.getElementById("search");
	var icaseBox = doc.getElementById("icase");
	var matchedEl = doc.getElementById("matched");
	var views = {
		flame: new FlameView(doc.getElementById("v-flame"), function () { return T; }, false,
			function () { return S.zoom; }, zoomTo),
		icicle: new FlameView(doc.getElementById("v-icicle"), function () { return T; }, true,
			function () { return S.zoom; }, zoomTo),
	};
	var sand = { callers: null, callees: null };
	views.callers = new FlameView(doc.getElementById("v-callers"), function () { return sand.callers; },
		false, function () { return 0; }, function (i) { selectFn(sand.callers.frame[i]); });
	views.callees = new FlameView(doc.getElementById("v-callees"), function () { return sand.callees; },
		true, function () { return 0; }, function (i) { selectFn(sand.callees.frame[i]); });

	function zoomTo(i) {
		S.zoom = i >= 0 && i < T.n && W(i) > 0 ? i : 0;
		if (S.zoom)
			S.fn = T.frame[S.zoom];
		update();
	}

	function drawCrumbs() {
		crumbs.textContent = "";
		var path = [];
		for (var a = S.zoom; a >= 0; a = T.parent[a])
			path.unshift(a);
		path.forEach(function (n, k) {
			var b = doc.createElement("button");
			b.textContent = D.fname[T.frame[n]];
			b.className = "crumb" + (n === S.zoom ? " current" : "");
			b.addEventListener("click", function () { zoomTo(n); });
			if (k)
				crumbs.appendChild(doc.createTextNode(" \u203a "));
			crumbs.appendChild(b);
		});
	}

	// ---- search ----
	function runSearch() {
		match = null;
		matchList = [];
		var re = null;
		if (S.search) {
			try {
				re = new RegExp(S.search, S.icase ? "i" : "");
				searchBox.classList.remove("bad");
			} catch (e) {
				searchBox.classList.add("bad");
			}
		} else {
			searchBox.classList.remove("bad");
		}
		if (!re) {
			matchedEl.textContent = "";
			return;
		}
		match = new Uint8Array(D.nframes + 1);
		for (var f = 0; f < D.nframes; f++)
			match[f] = re.test(D.fname[f]) ? 1 : 0;
		var sum = 0, zsum = 0, tot = T.total[S.col], zEnd = T.end[S.zoom];
		for (var i = 1; i < T.n;) {
			if (match[T.frame[i]] && tot[i] > 0) {
				sum += tot[i];
				matchList.push(i);
				if (i >= S.zoom && i < zEnd)
					zsum += tot[i];
				i = T.end[i];
			} else {
				i++;
			}
		}
		matchAt = -1;
		matchedEl.textContent = "Matched: " + pct(sum, total()) +
			(S.zoom ? " (" + pct(zsum, W(S.zoom)) + " of zoom)" : "");
		matchedEl.setAttribute("data-matched", String(sum));
	}
	function stepMatch(dir) {
		if (!matchList.length)
			return;
		matchAt = (matchAt + dir + matchList.length) % matchList.length;
		zoomTo(matchList[matchAt]);
	}

	// ---- top functions ----
	var fnSelf = null, fnTotal = null, sortKey = "self", sortDesc = true;
	function computeFunctions() {
		var nf = D.nframes, self = new Float64Array(nf + 1), tot = new Float64Array(nf + 1);
		var on = new Int32Array(nf + 1), path = [], c = S.col;
		var ts = T.self[c], tt = T.total[c];
		for (var i = 1; i < T.n; i++) {
			var d = T.depth[i];
			while (path.length >= d)
				on[T.frame[path.pop()]]--;
			var f = T.frame[i];
			self[f] += ts[i];
			if (on[f] === 0)
				tot[f] += tt[i];
			on[f]++;
			path.push(i);
		}
		fnSelf = self;
		fnTotal = tot;
	}
	function drawTable() {
		if (!fnSelf)
			computeFunctions();
		var nf = D.nframes, ids = [];
		for (var f = 0; f < nf; f++)
			if (fnTotal[f] > 0 && (!match || match[f]))
				ids.push(f);
		var key = sortKey === "self" ? fnSelf : sortKey === "total" ? fnTotal : null;
		ids.sort(function (a, b) {
			var r = key ? key[a] - key[b] : (D.fname[a] < D.fname[b] ? -1 : D.fname[a] > D.fname[b] ? 1 : 0);
			if (r === 0)
				r = D.fname[a] < D.fname[b] ? -1 : D.fname[a] > D.fname[b] ? 1 : 0;
			return sortDesc ? -r : r;
		});
		var body = doc.getElementById("fn-rows"), root = total();
		body.textContent = "";
		var lim = Math.min(ids.length, 1000);
		for (var k = 0; k < lim; k++) {
			var tr = doc.createElement("tr"), id = ids[k];
			tr.setAttribute("data-frame", String(id));
			if (id === S.fn)
				tr.className = "sel";
			[fmt(fnSelf[id]), pct(fnSelf[id], root), fmt(fnTotal[id]), pct(fnTotal[id], root),
				D.fname[id]].forEach(function (txt, j) {
				var td = doc.createElement("td");
				td.textContent = txt;
				if (j === 0)
					td.setAttribute("data-value", String(fnSelf[id]));
				if (j === 2)
					td.setAttribute("data-value", String(fnTotal[id]));
				tr.appendChild(td);
			});
			tr.addEventListener("click", (function (f) { return function () { selectFn(f); setView("sandwich"); }; })(id));
			body.appendChild(tr);
		}
		doc.querySelectorAll("#fn-table th").forEach(function (th) {
			th.classList.toggle("sorted", th.getAttribute("data-key") === sortKey);
			th.setAttribute("data-dir", th.getAttribute("data-key") === sortKey ? (sortDesc ? "desc" : "asc") : "");
		});
	}

	// ---- sandwich ----
	function buildSandwich() {
		var F = S.fn;
		sand.callers = sand.callees = null;
		if (F < 0 || F >= D.nframes)
			return;
		var nameOf = function (f) { return D.fname[f]; };
		var up = new TreeBuilder(F), down = new TreeBuilder(F), c = S.col;
		var ts = T.self[c], tt = T.total[c];
		for (var i = 1; i < T.n; i++) {
			if (T.frame[i] !== F || tt[i] <= 0)
				continue;
			// callers: path from i up to the root, F first
			var anc = [];
			for (var a = T.parent[i]; a > 0; a = T.parent[a])
				anc.push(T.frame[a]);
			var outer = anc.indexOf(F) < 0;
			if (outer)
				up.add(anc, tt[i]);
			if (!outer)
				continue;
			// callees: the subtree of this outermost F
			var path = [], e = T.end[i], base = T.depth[i];
			for (var j = i + 1; j < e; j++) {
				path.length = T.depth[j] - base - 1;
				path.push(T.frame[j]);
				if (ts[j] > 0)
					down.add(path, ts[j]);
			}
			down.add([], ts[i]);
		}
		sand.callers = up.build(nameOf);
		sand.callees = down.build(nameOf);
	}
	function selectFn(f) {
		S.fn = f;
		sand.callers = sand.callees = null;
		update();
	}

	// ---- views, URL state, keys ----
	function setView(v) {
		if (!doc.getElementById("p-" + v))
			v = "flame";
		S.view = v;
		update();
	}
	function writeHash() {
		var parts = ["v=" + S.view];
		if (S.zoom)
			parts.push("z=" + S.zoom);
		if (S.search)
			parts.push("s=" + encodeURIComponent(S.search));
		if (S.icase)
			parts.push("i=1");
		if (S.fn >= 0)
			parts.push("f=" + S.fn);
		if (diff && S.col === 0)
			parts.push("swap=1");
		var h = "#" + parts.join("&");
		if (location.hash !== h)
			history.replaceState(null, "", h);
	}
	function readHash() {
		var h = location.hash.replace(/^#/, "");
		h.split("&").forEach(function (kv) {
			var k = kv.split("=")[0], v = kv.slice(k.length + 1);
			if (k === "v") S.view = v;
			if (k === "z") S.zoom = parseInt(v, 10) || 0;
			if (k === "s") { try { S.search = decodeURIComponent(v); } catch (e) { S.search = ""; } }
			if (k === "i") S.icase = v === "1";
			if (k === "f") S.fn = parseInt(v, 10);
			if (k === "swap" && diff) S.col = 0;
		});
		if (!(S.zoom >= 0 && S.zoom < T.n))
			S.zoom = 0;
		if (!(S.fn >= 0 && S.fn < D.nframes))
			S.fn = -1;
	}
	var lastSearch = null;
	function update() {
		var key = S.search + "\u0000" + S.icase + "\u0000" + S.zoom + "\u0000" + S.col;
		if (key !== lastSearch) {
			runSearch();
			lastSearch = key;
		}
		doc.querySelectorAll(".panel").forEach(function (p) {
			p.hidden = p.id !== "p-" + S.view;
		});
		doc.querySelectorAll("#tabs button").forEach(function (b) {
			b.classList.toggle("on", b.getAttribute("data-view") === S.view);
		});
		if (searchBox.value !== S.search)
			searchBox.value = S.search;
		icaseBox.checked = S.icase;
		drawCrumbs();
		if (S.view === "flame" || S.view === "icicle")
			views[S.view].draw();
		if (S.view === "table")
			drawTable();
		if (S.view === "sandwich") {
			if (!sand.callers)
				buildSandwich();
			var name = S.fn >= 0 ? D.fname[S.fn] : "(pick a function in the table or a graph)";
			doc.getElementById("sw-name").textContent = name;
			views.callers.placed = false;
			views.callers.draw();
			views.callees.draw();
		}
		writeHash();
	}

	doc.querySelectorAll("#tabs button").forEach(function (b) {
		b.addEventListener("click", function () { setView(b.getAttribute("data-view")); });
	});
	doc.querySelectorAll("#fn-table th").forEach(function (th) {
		th.addEventListener("click", function () {
			var k = th.getAttribute("data-key");
			if (k === sortKey)
				sortDesc = !sortDesc;
			else {
				sortKey = k;
				sortDesc = k !== "name";
			}
			drawTable();
		});
	});
	searchBox.addEventListener("input", function () {
		S.search = searchBox.value;
		update();
	});
	icaseBox.addEventListener("change", function () {
		S.icase = icaseBox.checked;
		update();
	});
	doc.getElementById("next").addEventListener("click", function () { stepMatch(1); });
	doc.getElementById("prev").addEventListener("click", function () { stepMatch(-1); });
	doc.getElementById("reset").addEventListener("click", function () { zoomTo(0); });
	var swapBtn = doc.getElementById("swap");
	if (diff) {
		swapBtn.hidden = false;
		swapBtn.addEventListener("click", function () {
			S.col = 1 - S.col;
			fnSelf = null;
			sand.callers = null;
			if (W(S.zoom) <= 0)
				S.zoom = 0;
			update();
		});
	}
	doc.addEventListener("keydown", function (e) {
		var inInput = e.target === searchBox;
		if (e.key === "/" && !inInput) {
			e.preventDefault();
			searchBox.focus();
			searchBox.select();
			return;
		}
		if (e.key === "Escape") {
			if (inInput)
				searchBox.blur();
			zoomTo(0);
			return;
		}
		if (inInput) {
			if (e.key === "Enter")
				stepMatch(e.shiftKey ? -1 : 1);
			return;
		}
		var z = S.zoom, k = e.key;
		if (k === "n" || k === "N") stepMatch(k === "n" ? 1 : -1);
		else if (k === "ArrowUp" || k === "ArrowDown") {
			var toParent = (k === "ArrowDown") !== (S.view === "icicle");
			if (toParent && z > 0) zoomTo(T.parent[z]);
			if (!toParent) { // widest child
				var best = -1;
				for (var j = z + 1; j < T.end[z]; j = T.end[j])
					if (best < 0 || W(j) > W(best)) best = j;
				if (best > 0) zoomTo(best);
			}
		} else if ((k === "ArrowLeft" || k === "ArrowRight") && z > 0) {
			var p = T.parent[z], sib = [];
			for (var s = p + 1; s < T.end[p]; s = T.end[s])
				if (W(s) > 0) sib.push(s);
			var at = sib.indexOf(z) + (k === "ArrowRight" ? 1 : -1);
			if (at >= 0 && at < sib.length) zoomTo(sib[at]);
		} else if (k >= "1" && k <= "4") setView(["flame", "icicle", "table", "sandwich"][+k - 1]);
		else return;
		e.preventDefault();
	});
	window.addEventListener("resize", function () { update(); });
	window.addEventListener("hashchange", function () { readHash(); update(); });

	// ---- test hook (read-only views of the state) ----
	window.scorchView = {
		decodeMs: decodeMs,
		nodes: T.n,
		total: function () { return total(); },
		state: function () { return JSON.parse(JSON.stringify(S)); },
		matched: function () { return parseFloat(matchedEl.getAttribute("data-matched") || "0"); },
		name: function (i) { return D.fname[T.frame[i]]; },
		find: function (names) { // node of a root-first path of names, or -1
			var cur = 0;
			for (var k = 0; k < names.length; k++) {
				var nx = -1;
				for (var j = cur + 1; j < T.end[cur]; j = T.end[j])
					if (D.fname[T.frame[j]] === names[k]) { nx = j; break; }
				if (nx < 0) return -1;
				cur = nx;
			}
			return cur;
		},
		rectOf: function (i) { return views[S.view].rectOf(i); },
		drawn: function () { return views[S.view].drawn; },
		canvasSize: function () {
			var c = views[S.view].canvas;
			return { w: c.width, h: c.height };
		},
		maxDepth: function () { return T.maxDepth; },
		// run one interaction as the UI does; returns its milliseconds
		act: function (kind, arg) {
			var a = performance.now();
			if (kind === "zoom") zoomTo(arg);
			if (kind === "search") { S.search = arg; update(); }
			if (kind === "view") setView(arg);
			if (kind === "fn") selectFn(arg);
			return performance.now() - a;
		},
		heap: function () { return performance.memory ? performance.memory.usedJSHeapSize : 0; },
	};
	readHash();
	update();
	window.scorchView.firstPaintMs = performance.now() - t0;
	window.scorchView.readyAt = performance.now(); // since navigation start
	doc.body.setAttribute("data-ready", "1");
	}
})();
