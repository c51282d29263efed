# t7721: as t7720, on the fixture recordings multi (two events: one
# section each) and offcpu (sched_switch system-wide: many threads, kernel
# chains, unresolved frames).
REPORT_CASES="multi offcpu"
. "$ROOT/tests/t7720-report-perf-fixtures.sh"
