/*
 * collect: resolved frames and threads as frame descriptions (see
 * collect.h). Stage: profile. Key invariant: a description holds what
 * perf script prints for the frame (symbol or inline name, dso), so its
 * folded name equals the pipeline's.
 */
#include "profile/collect.h"

#include <string.h>

void prof_desc_of_frame(const struct proc_frame *f, struct prof_frame_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->flags = f->kernel ? PROF_F_KERNEL : PROF_F_USER;
	if (f->dso) {
		d->dso = f->dso->name;
		d->dso_len = strlen(f->dso->name);
		if (f->dso->kind == SYM_DSO_JIT)
			d->flags |= PROF_F_JIT;
	}
	d->addr = f->addr;
	if (f->inline_name) {
		d->kind = PROF_FRAME_SYMBOL;
		d->flags |= PROF_F_INLINE;
		d->name = f->inline_name;
	} else if (f->sym) {
		d->kind = PROF_FRAME_SYMBOL;
		d->name = f->sym->name;
	} else {
		d->kind = PROF_FRAME_ADDRESS;
	}
	d->name_len = d->name ? strlen(d->name) : 0;
}

void prof_desc_of_comm(const char *comm, int32_t pid, int32_t tid,
		       struct prof_frame_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->kind = PROF_FRAME_COMM;
	d->name = comm;
	d->name_len = comm ? strlen(comm) : 0;
	d->pid = pid;
	d->tid = tid;
}
