#!/usr/bin/env bash
# tools/install-deps.sh [--test]: install the Debian packages scorch needs
# to build (and, with --test, to run its test suite) when they are missing.
# Runs apt-get as root, or through sudo when that works without a password;
# otherwise prints the apt-get line to run.
set -u
build_pkgs="gcc g++ make pkg-config libiberty-dev libelf-dev libdw-dev libzstd-dev libisal-dev libtraceevent-dev"
run_pkgs="linux-perf"
test_pkgs="clang libclang-rt-14-dev libxml2-utils libc6-dbg zstd perl python3:python3 groff node:nodejs npm:npm chromium firefox-esr go:golang-go clickhouse-server clickhouse-client"
want="$build_pkgs $run_pkgs"
[ "${1:-}" = --test ] && want="$want $test_pkgs"

missing=
for p in $want; do
	case $p in # CMD:PKG: the command being there is enough (node may come from elsewhere)
	*:*) command -v "${p%%:*}" >/dev/null 2>&1 && continue; p=${p#*:} ;;
	esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "scorch: missing Debian packages:$missing" >&2
	echo "scorch: run as root: apt-get install$missing" >&2
	exit 1
fi
echo "scorch: installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null 2>&1 || true
rc=0
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 || {
	# one at a time, so a package this release lacks does not block the rest
	for p in $missing; do
		$sudo apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
			{ echo "scorch: could not install $p" >&2; rc=1; }
	done
}
exit $rc
