/*
 * reporttext: perf report's --stdio text (see reporttext.h).
 */
#include "render/reporttext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* ---- columns ---- */

static const char *const titles[REP_NKEY] = {
	"Command", "    Pid:Command", "Shared Object", "Symbol", "CPU", "Parent symbol",
	"Trace output", "Symbol size", "IPC   [IPC Coverage]", "Source:Line",
};

static const char *dso_name(const struct rep_entry *e)
{
	return e->f.dso ? e->f.dso->short_name : "[unknown]";
}

static size_t col_len(const struct rep_entry *e, enum rep_key k)
{
	switch (k) {
	case REP_COMM: return strlen(e->comm);
	case REP_PID: return strlen(e->thread_comm) + 8;
	case REP_DSO: return strlen(dso_name(e));
	case REP_SYM: /* perf: name + "[.] ", or 16 hex digits + 6 unresolved */
		if (e->f.inl)
			return strlen(e->f.inl) + 4;
		return e->f.sym ? strlen(e->f.sym->name) + 4 : 22;
	case REP_CPU: return 3;
	case REP_TRACE: return strlen(e->trace);
	case REP_SRCLINE: return strlen(e->srcline);
	case REP_IPC: return 20;
	case REP_SYMSIZE: /* perf: "unknown" without a symbol */
		return e->f.sym ? (size_t)snprintf(NULL, 0, "%llu", (unsigned long long)rep_sym_size(e)) : 7;
	case REP_PARENT: return strlen(e->parent ? e->parent : "[other]");
	case REP_NKEY: break;
	}
	return 0;
}

/* n spaces */
static void add_spaces(struct strbuf *sb, size_t n)
{
	static const char sp[] = "                                ";
	for (; n > sizeof(sp) - 1; n -= sizeof(sp) - 1)
		sb_add(sb, sp, sizeof(sp) - 1);
	sb_add(sb, sp, n);
}

static void cell(struct strbuf *sb, const struct rep_entry *e, enum rep_key k,
		 size_t width, bool last)
{
	size_t start = sb->len;
	switch (k) {
	case REP_COMM: sb_adds(sb, e->comm); break;
	case REP_PID: sb_addf(sb, "%7d:%s", (int)e->tid, e->thread_comm); break;
	case REP_DSO: sb_adds(sb, dso_name(e)); break;
	case REP_SYM:
		sb_addc(sb, '[');
		sb_addc(sb, e->f.level);
		sb_adds(sb, "] ");
		if (e->f.inl) {
			sb_adds(sb, e->f.inl);
			sb_adds(sb, " (inlined)");
		} else if (e->f.sym) {
			sb_adds(sb, e->f.sym->name);
		} else {
			/* "%#.16llx": 0x but for 0 */
			if (e->f.ip)
				sb_adds(sb, "0x");
			size_t at = sb->len;
			sb_add_hex(sb, e->f.ip, 16);
			for (size_t i = at; i < sb->len && sb->buf[i] == ' '; i++)
				sb->buf[i] = '0';
		}
		break;
	case REP_CPU: sb_addf(sb, "%*.*d", (int)width, (int)width, e->cpu); break;
	case REP_PARENT: sb_adds(sb, e->parent ? e->parent : "[other]"); break;
	case REP_TRACE: sb_adds(sb, e->trace); break;
	case REP_SRCLINE: /* perf cuts it to the column */
		sb_addf(sb, "%.*s", (int)width, e->srcline);
		break;
	case REP_IPC: sb_adds(sb, "-      -"); break;
	case REP_SYMSIZE:
		if (e->f.sym)
			sb_addf(sb, "%*llu", (int)width, (unsigned long long)rep_sym_size(e));
		else
			sb_addf(sb, "%*s", (int)width, "unknown");
		break;
	case REP_NKEY: break;
	}
	/* perf pads every column but a symbol, trace or srcline column
	 * that comes last */
	if (!(last && (k == REP_SYM || k == REP_TRACE || k == REP_SRCLINE)) &&
	    sb->len - start < width)
		add_spaces(sb, width - (sb->len - start));
}

static void units(uint64_t n, uint64_t *v, char *u)
{
	*u = ' ';
	*v = n;
	const char *s = "KMG";
	for (int i = 0; i < 3 && *v > 1000; i++) {
		*v /= 1000;
		*u = s[i];
	}
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}


/* ---- call graphs ---- */

struct graph {
	struct strbuf *o;
	const struct rep *r;
	const struct rep_event *ev;
	const struct rep_text_opts *t;
	uint64_t min_abs;          /* graph: children below are cut */
	struct strbuf name;
};

static const struct rep_node *node_at(const struct graph *g, uint32_t n)
{
	return &g->ev->nodes[n];
}

static bool single_kid(const struct graph *g, uint32_t n)
{
	const struct rep_node *x = node_at(g, n);
	return x->kid != REP_NONE && node_at(g, x->kid)->next == REP_NONE;
}

/* The last trie node of the perf node starting at n: perf's nodes end
 * where a chain ends or the chains part. */
static uint32_t run_end(const struct graph *g, uint32_t n)
{
	while (node_at(g, n)->hit == 0 && single_kid(g, n))
		n = node_at(g, n)->kid;
	return n;
}

static void frame_name(struct graph *g, uint32_t n)
{
	sb_reset(&g->name);
	rep_frame_name(&g->r->frames[node_at(g, n)->frame], &g->name);
}

static void margin(struct graph *g, int left)
{
	add_spaces(g->o, 12 + (size_t)(left > 0 ? left : 0));
}

static void value(struct graph *g, uint64_t v, uint64_t total)
{
	if (g->t->period_values) {
		sb_addf(g->o, "%llu", (unsigned long long)v);
	} else {
		sb_add_fixed2(g->o, pct(v, total), 0);
		sb_addc(g->o, '%');
	}
}

static size_t kids_of(struct graph *g, uint32_t n, uint32_t **out)
{
	uint64_t min = g->min_abs;
	if (g->t->mode == REP_G_FRACTAL) {
		const struct rep_node *x = node_at(g, n);
		min = (uint64_t)ceil((double)(x->cumul - x->hit) * (g->t->min_percent / 100.0));
	}
	return rep_node_kids(g->r, g->ev, n, min, true, out);
}

static void graph_line(struct graph *g, int depth, unsigned mask, int left)
{
	margin(g, left);
	for (int i = 0; i < depth; i++)
		sb_adds(g->o, mask & (1u << i) ? "|          " : "           ");
	sb_addc(g->o, '\n');
}

static void chain_line(struct graph *g, uint64_t cumul, const char *name, int depth,
		       unsigned mask, bool first, uint64_t total, int left)
{
	margin(g, left);
	for (int i = 0; i < depth; i++) {
		sb_addc(g->o, mask & (1u << i) ? '|' : ' ');
		if (first && i == depth - 1) {
			sb_adds(g->o, "--");
			value(g, cumul, total);
			sb_adds(g->o, "--");
		} else {
			sb_adds(g->o, "          ");
		}
	}
	sb_adds(g->o, name);
	sb_addc(g->o, '\n');
}

static void graph_kids(struct graph *g, uint32_t n, uint64_t total, int depth,
		       unsigned mask, int left)
{
	uint32_t *k;
	size_t nk = kids_of(g, n, &k);
	uint64_t remaining = total;
	unsigned new_mask = mask;
	bool rel = g->t->mode == REP_G_FRACTAL;
	/* perf's print limit: a level's first kids; the last one shown
	 * keeps its branch line when more were cut */
	size_t shown = g->t->print_limit && g->t->print_limit < nk ? g->t->print_limit : nk;
	for (size_t j = 0; j < shown; j++) {
		const struct rep_node *c = node_at(g, k[j]);
		remaining -= c->cumul;
		if (j + 1 == nk && (!rel || !remaining))
			new_mask &= ~(1u << (depth - 1));
		graph_line(g, depth, mask, left);
		uint32_t end = run_end(g, k[j]);
		bool first = true;
		for (uint32_t x = k[j]; ; x = node_at(g, x)->kid) {
			frame_name(g, x);
			chain_line(g, c->cumul, g->name.buf, depth, new_mask, first, total, left);
			first = false;
			if (x == end)
				break;
		}
		const struct rep_node *e = node_at(g, end);
		uint64_t new_total = rel ? e->cumul - e->hit : total;
		graph_kids(g, end, new_total, depth + 1, new_mask | (1u << depth), left);
	}
	if (rel && remaining && remaining != total) {
		new_mask &= ~(1u << (depth - 1));
		/* perf 6.1 sometimes adds " (inlined)" (its rest line's
		 * symbol is uninitialised memory) */
		chain_line(g, remaining, "[...]", depth, new_mask, true, total, left);
	}
	free(k);
}

static void print_graph(struct graph *g, const struct rep_entry *e)
{
	size_t start = g->o->len;
	uint64_t total = g->ev->total;
	uint64_t parent = g->r->o.children ? e->acc : e->period;
	int left = 0;
	uint32_t root = e->root;
	uint32_t *k;
	size_t nk = kids_of(g, root, &k);
	/* perf: a root that had siblings (cut by the threshold) still
	 * shows its percentage */
	if (nk == 1 && single_kid(g, root)) {
		/* one root: no percentage, one column less */
		uint32_t end = run_end(g, k[0]);
		bool printed = false, first = true;
		unsigned long lines = 0; /* perf's print limit counts these too */
		for (uint32_t x = k[0]; ; x = node_at(g, x)->kid) {
			bool skip = first && g->t->skip_first;
			first = false;
			if (!skip) {
				if (!printed) {
					margin(g, left);
					sb_adds(g->o, "|\n");
					margin(g, left);
					sb_adds(g->o, "---");
					left += 3;
					printed = true;
				} else {
					margin(g, left);
				}
				frame_name(g, x);
				sb_adds(g->o, g->name.buf);
				sb_addc(g->o, '\n');
				if (++lines == g->t->print_limit)
					break;
			}
			if (x == end)
				break;
		}
		root = end;
	}
	free(k);
	if (g->t->mode == REP_G_FRACTAL)
		total = parent;
	graph_kids(g, root, total, 1, 1, left);
	if (g->o->len != start)
		sb_addc(g->o, '\n');
}

/* flat and folded: every node where chains end, by its period */
struct flat_node { uint32_t node; uint64_t hit, cumul; size_t seq; };

static void collect_ends(struct graph *g, uint32_t n, uint32_t *path, size_t depth,
			 struct flat_node **out, size_t *nout, size_t *cap, uint32_t **paths,
			 size_t *npaths, size_t *pcap)
{
	uint32_t *k;
	size_t nk = rep_node_kids(g->r, g->ev, n, 0, false, &k);
	for (size_t j = 0; j < nk; j++) {
		path[depth] = k[j];
		collect_ends(g, k[j], path, depth + 1, out, nout, cap, paths, npaths, pcap);
	}
	free(k);
	const struct rep_node *x = node_at(g, n);
	if (!x->hit || x->hit < g->min_abs || depth == 0)
		return;
	XGROW(*out, *cap, *nout + 1);
	(*out)[*nout] = (struct flat_node){ (uint32_t)*npaths, x->hit, x->cumul, *nout };
	(*nout)++;
	XGROW(*paths, *pcap, *npaths + depth + 1);
	(*paths)[(*npaths)++] = (uint32_t)depth;
	for (size_t i = 0; i < depth; i++)
		(*paths)[(*npaths)++] = path[i];
}

static int by_hit(const void *pa, const void *pb)
{
	const struct flat_node *a = pa, *b = pb;
	if (a->hit != b->hit)
		return a->hit > b->hit ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static size_t tree_depth(const struct graph *g, uint32_t n)
{
	size_t d = 0;
	for (uint32_t c = node_at(g, n)->kid; c != REP_NONE; c = node_at(g, c)->next) {
		size_t x = tree_depth(g, c);
		if (x > d)
			d = x;
	}
	return d + 1;
}

static void print_flat(struct graph *g, const struct rep_entry *e)
{
	uint32_t *path = xmalloc(tree_depth(g, e->root) * sizeof(*path));
	struct flat_node *fl = NULL;
	uint32_t *paths = NULL;
	size_t nfl = 0, cap = 0, npaths = 0, pcap = 0;
	collect_ends(g, e->root, path, 0, &fl, &nfl, &cap, &paths, &npaths, &pcap);
	if (nfl > 1)
		qsort(fl, nfl, sizeof(*fl), by_hit);
	bool folded = g->t->mode == REP_G_FOLDED;
	if (g->t->print_limit && g->t->print_limit < nfl)
		nfl = g->t->print_limit;
	for (size_t i = 0; i < nfl; i++) {
		const uint32_t *p = paths + fl[i].node;
		size_t d = p[0];
		if (!folded) {
			/* perf sorts flat chains by their own period but
			 * prints the period through them */
			sb_adds(g->o, "           ");
			value(g, fl[i].cumul, g->ev->total);
			sb_addc(g->o, '\n');
		} else {
			value(g, fl[i].hit, g->ev->total);
			sb_addc(g->o, ' ');
		}
		for (size_t j = 0; j < d; j++) {
			frame_name(g, p[1 + j]);
			if (folded) {
				if (j)
					sb_addc(g->o, ';');
				sb_adds(g->o, g->name.buf);
			} else {
				add_spaces(g->o, 16);
				sb_adds(g->o, g->name.buf);
				sb_addc(g->o, '\n');
			}
		}
		sb_addc(g->o, '\n');
	}
	free(path);
	free(fl);
	free(paths);
}

/* ---- the table ---- */

/* The columns: -F's fields, else perf's default (Children and Self, or
 * Overhead; Period; Samples; the keys). */
static size_t columns(const struct rep *r, const struct rep_text_opts *t, int *col)
{
	const struct rep_opts *ro = &r->o;
	size_t n = 0;
	if (ro->nfields) {
		for (size_t i = 0; i < ro->nfields; i++)
			if (ro->fields[i] != REP_F_CHILDREN || ro->children)
				col[n++] = ro->fields[i];
		return n;
	}
	if (ro->children)
		col[n++] = REP_F_CHILDREN;
	col[n++] = REP_F_OVERHEAD;
	if (t->period)
		col[n++] = REP_F_PERIOD;
	if (t->samples)
		col[n++] = REP_F_SAMPLE;
	for (size_t i = 0; i < ro->nkeys; i++)
		col[n++] = ro->keys[i];
	return n;
}

static const char *col_title(int c, bool children)
{
	switch (c) {
	case REP_F_CHILDREN: return "Children";
	case REP_F_OVERHEAD: return children ? "Self" : "Overhead";
	case REP_F_PERIOD: return "Period";
	case REP_F_SAMPLE: return "Samples";
	default: return titles[c];
	}
}

static void header(struct strbuf *o, const int *col, size_t ncol, const size_t *w,
		   bool children)
{
	for (size_t i = 0; i < ncol; i++) {
		sb_adds(o, i ? "  " : "# ");
		sb_addf(o, col[i] < REP_NKEY ? "%-*s" : "%*s", (int)w[i], col_title(col[i], children));
	}
	sb_addc(o, '\n');
	for (size_t i = 0; i < ncol; i++) {
		sb_adds(o, i ? "  " : "# ");
		for (size_t j = 0; j < w[i]; j++)
			sb_addc(o, '.');
	}
	sb_adds(o, "\n#\n");
}

static size_t col_width(const struct rep_event *ev, int c)
{
	if (c == REP_F_CHILDREN || c == REP_F_OVERHEAD)
		return 8;
	if (c == REP_F_PERIOD || c == REP_F_SAMPLE)
		return 12;
	size_t w = strlen(titles[c]);
	for (size_t j = 0; j < ev->n; j++) {
		size_t n = col_len(&ev->e[j], (enum rep_key)c);
		/* perf sizes srcline with the ones it computed by then */
		if (c == REP_SRCLINE && !ev->e[j].src_known)
			n = 0;
		/* perf widens the dso column to 16 for unresolved rows */
		if (c == REP_DSO && !ev->e[j].f.sym && n < 16)
			n = 16;
		if (n > w)
			w = n;
	}
	return w;
}

static void row(struct strbuf *o, const struct rep_event *ev, const struct rep_entry *e,
		const int *col, size_t ncol, const size_t *w)
{
	for (size_t i = 0; i < ncol; i++) {
		sb_adds(o, "  ");
		switch (col[i]) {
		case REP_F_CHILDREN: sb_add_fixed2(o, pct(e->acc, ev->total), 7); sb_addc(o, '%'); break;
		case REP_F_OVERHEAD: sb_add_fixed2(o, pct(e->period, ev->total), 7); sb_addc(o, '%'); break;
		case REP_F_PERIOD: sb_addf(o, "%12llu", (unsigned long long)e->period); break;
		case REP_F_SAMPLE: sb_addf(o, "%12llu", (unsigned long long)e->samples); break;
		default: cell(o, e, (enum rep_key)col[i], w[i], i + 1 == ncol); break;
		}
	}
	sb_addc(o, '\n');
}

static void print_event(struct strbuf *o, const struct rep *r, const struct rep_event *ev,
			const struct rep_text_opts *t)
{
	const struct rep_opts *ro = &r->o;
	uint64_t v;
	char u;
	units(ev->samples, &v, &u);
	sb_addf(o, "# Samples: %llu%c of event '%s'\n", (unsigned long long)v, u,
		ev->attr && ev->attr->name ? ev->attr->name : "unknown");
	sb_addf(o, "# Event count (approx.): %llu\n#\n", (unsigned long long)ev->total);
	int col[REP_MAX_FIELDS + 4];
	size_t ncol = columns(r, t, col), w[REP_MAX_FIELDS + 4];
	/* perf titles the self column Self beside Children, but not when
	 * -F asks for both */
	bool children = !r->o.nfields && r->o.children;
	for (size_t i = 0; i < ncol; i++)
		w[i] = col_width(ev, col[i]);
	header(o, col, ncol, w, children);
	struct graph g = { o, r, ev, t, 0, SB_INIT };
	g.min_abs = (uint64_t)((double)ev->total * (t->min_percent / 100.0));
	for (size_t j = 0; j < ev->n; j++) {
		const struct rep_entry *e = &ev->e[j];
		uint64_t shown = ro->children ? e->acc : e->period;
		if (t->percent_limit > 0 && pct(shown, ev->total) < t->percent_limit)
			continue;
		row(o, ev, e, col, ncol, w);
		if (e->root == REP_NONE || t->mode == REP_G_NONE)
			continue;
		if (t->mode == REP_G_FLAT || t->mode == REP_G_FOLDED)
			print_flat(&g, e);
		else
			print_graph(&g, e);
	}
	sb_release(&g.name);
	sb_adds(o, "\n\n");
}

void rep_text_print(struct strbuf *o, const struct rep *r, const struct rep_text_opts *t)
{
	sb_adds(o, "# To display the perf.data header info, please use --header/--header-only options.\n#\n#\n");
	sb_addf(o, "# Total Lost Samples: %llu\n#\n", (unsigned long long)t->nr_lost);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].samples)
			print_event(o, r, &r->ev[i], t);
	sb_adds(o, "#\n# (Tip: scorch report reads the same perf.data as perf report.)\n#\n");
}

int rep_text_parse_graph(const char *s, struct rep_graph_opts *g)
{
	char buf[128];
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	int numbers = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		if (!strcmp(tok, "graph")) g->mode = REP_G_GRAPH;
		else if (!strcmp(tok, "fractal")) g->mode = REP_G_FRACTAL;
		else if (!strcmp(tok, "flat")) g->mode = REP_G_FLAT;
		else if (!strcmp(tok, "folded")) g->mode = REP_G_FOLDED;
		else if (!strcmp(tok, "none")) g->mode = REP_G_NONE;
		else if (!strcmp(tok, "caller")) g->order = REP_CALLER;
		else if (!strcmp(tok, "callee")) g->order = REP_CALLEE;
		else if (!strcmp(tok, "function")) continue;
		else if (!strcmp(tok, "percent")) g->period = false;
		else if (!strcmp(tok, "period")) g->period = true;
		else if (numbers == 0 && (g->min = strtod(tok, &end), end != tok && !*end)) numbers++;
		else if (numbers == 1 && *tok != '-' &&
			 (g->limit = strtoul(tok, &end, 0), end != tok && !*end)) numbers++;
		else return -1;
	}
	return 0;
}
