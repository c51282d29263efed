/*
 * workload: the command `scorch record -- CMD` profiles, forked and held
 * before its exec on a pipe so the events exist first (enable_on_exec);
 * see record.h. Stage: record. A failed exec comes back as its errno on
 * a second pipe (close-on-exec: EOF means the exec worked).
 */
#include "record/record.h"

#include "base/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int rec_workload_prepare(struct rec_workload *w, char **argv, bool pipe_mode)
{
	int go[2], err[2];
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char c;
		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);   /* ignored by us, not by the command */
		prctl(PR_SET_NAME, "scorch-exec");
		if (pipe_mode)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->pid = pid;
	w->go = go[1];
	w->err = err[0];
	return 0;
}

int rec_workload_start(struct rec_workload *w)
{
	int e = 0;
	ssize_t n;
	if (write(w->go, "g", 1) != 1)
		return errno;
	close(w->go);
	w->go = -1;
	n = fd_read(w->err, &e, sizeof(e));
	close(w->err);
	w->err = -1;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

void rec_workload_abort(struct rec_workload *w)
{
	if (w->go >= 0)
		close(w->go);
	if (w->err >= 0)
		close(w->err);
	if (w->pid > 0)
		waitpid(w->pid, NULL, 0);
}

int rec_workload_exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

int rec_workload_run(struct rec_session *s, struct rec_workload *wl,
		     const volatile sig_atomic_t *stop, int *status)
{
	bool got;
	int r = 0, waited = 0;
	*status = -1;
	while (r == 0) {
		r = rec_session_poll(s, 100, &got);
		if (wl->pid > 0 && *status == -1 &&
		    waitpid(wl->pid, status, WNOHANG) == wl->pid)
			break;
		if (wl->pid <= 0 && rec_session_targets_gone(s))
			break;
		if (!*stop)
			continue;
		if (wl->pid <= 0)
			break;
		/* stop the workload too, and keep draining until it is gone */
		kill(wl->pid, waited++ < 50 ? SIGTERM : SIGKILL);
	}
	if (wl->pid > 0 && *status == -1 && r < 0) {
		kill(wl->pid, SIGKILL);
		waitpid(wl->pid, status, 0);
	}
	return r;
}

volatile sig_atomic_t rec_stop_signal;

static void on_stop(int sig)
{
	rec_stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

void rec_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	/* a reader that goes away (-o - | head) is a write error we report,
	 * not a reason to die with the workload left running */
	signal(SIGPIPE, SIG_IGN);
}
