/*
 * namingopts: the naming options of fold and export (see namingopts.h).
 * Stage: command helpers.
 */
#include "cmd/namingopts.h"

#include "cmd/fold_perfdata.h"

bool namingopts_option(struct fold_perfdata_opts *f, int id, const char *arg)
{
	struct collapse_opts *c = &f->collapse;
	switch (id) {
	case NAMINGOPT_PID: c->pid = true; break;
	case NAMINGOPT_TID: c->tid = true; break;
	case NAMINGOPT_KERNEL: c->kernel = true; break;
	case NAMINGOPT_JIT: c->jit = true; break;
	case NAMINGOPT_ALL: c->all = true; break;
	case NAMINGOPT_ADDRS: c->addrs = true; break;
	case NAMINGOPT_INLINE: c->inline_ = true; break;
	case NAMINGOPT_NO_INLINE: f->no_inline = true; break;
	case NAMINGOPT_EVENT_FILTER: c->event_filter = arg; break;
	default: return false;
	}
	return true;
}
