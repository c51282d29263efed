/*
 * stackname: folded stack text of a resolved sample (see stackname.h).
 * Stage: analysis. Each frame goes through collapse_perf_frame with the
 * strings perf script would print (map address in hex, symbol or
 * "[unknown]", dso path), so the text matches scorch fold's.
 */
#include "analysis/stackname.h"

#include "process/session.h"

#include <stdio.h>
#include <string.h>

void an_stackname_init(struct an_stackname *n, const struct collapse_opts *o)
{
	memset(n, 0, sizeof(*n));
	n->o = *o;
	collapse_opts_finish(&n->o);
	stack_builder_init(&n->b);
	sb_init(&n->pname);
	sb_init(&n->scratch);
}

void an_stackname_release(struct an_stackname *n)
{
	stack_builder_release(&n->b);
	sb_release(&n->pname);
	sb_release(&n->scratch);
}

static void push_frame(struct an_stackname *n, const struct proc_frame *f, bool java)
{
	struct strbuf *s = &n->scratch;
	sb_reset(s);
	sb_addf(s, "%llx", (unsigned long long)f->addr);
	size_t pc_len = s->len;
	const char *sym = f->inline_name ? f->inline_name
			  : f->sym ? f->sym->name : "[unknown]";
	const char *dso = f->dso ? f->dso->name : "[unknown]";
	struct collapse_frame cf = { s->buf, pc_len, sym, strlen(sym), dso,
				     strlen(dso), NULL, NULL };
	collapse_perf_frame(&n->o, java, &cf, &n->b);
}

const char *an_stackname_of(struct an_stackname *n, const struct proc_sample *ps,
			    size_t *len)
{
	char pid[16], tid[16];
	int pl = snprintf(pid, sizeof(pid), "%d", (int)ps->s->pid);
	int tl = snprintf(tid, sizeof(tid), "%d", (int)ps->s->tid);
	const char *comm = ps->thread && ps->thread->comm ? ps->thread->comm : "";
	sb_reset(&n->pname);
	collapse_perf_comm(&n->o, comm, strlen(comm), pid, (size_t)pl, tid,
			   (size_t)tl, &n->pname);
	bool java = collapse_perf_is_java(n->pname.buf, n->pname.len);
	stack_builder_reset(&n->b);
	if (ps->s->sample_type & PD_SAMPLE_CALLCHAIN)
		for (size_t i = 0; i < ps->nframes; i++)
			push_frame(n, &ps->frames[i], java);
	stack_builder_push(&n->b, n->pname.buf, n->pname.len);
	return stack_builder_join(&n->b, STACK_LEAF_FIRST, len);
}
