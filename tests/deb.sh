#!/bin/sh
# The Debian package check (`make test-deb`, CI): build the binary packages
# from a copy of this tree (tracked and untracked files, not the ignored
# build outputs) with dpkg-buildpackage -us -uc -b, run lintian on them
# (an error fails), install them with dpkg -i, then check the installed
# files: /usr/bin/emilia --version and perft 8 (390216), the man page, and
# examples/two-engines.c built against libemilia-dev through pkg-config and
# run on libemilia0.  The packages are purged at the end, even on failure.
# Needs root (dpkg -i) and the packages to build them (debhelper, dpkg-dev,
# lintian, build-essential and the build dependencies: .ci/run installs them).
# Environment: DEB_BUILD_OPTIONS (default "nocheck noautodbgsym parallel=2":
# CI runs the tests on its own, and skips the -dbgsym packages;
# DEB_BUILD_OPTIONS= runs make test in the build too);
# LINTIAN=0 skips lintian; KEEP=DIR copies the packages there; NO_INSTALL=1
# stops after lintian (`make deb`: KEEP=build/deb NO_INSTALL=1, no root).
set -u
cd "$(dirname "$0")/.." || exit 1
DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck noautodbgsym parallel=2}
export DEB_BUILD_OPTIONS
tmp=$(mktemp -d) || exit 1
installed=""
cleanup() {
	# shellcheck disable=SC2086
	[ -z "$installed" ] || dpkg --purge $installed >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# installed PKG: dpkg -s is ambiguous for a package installed for two
# architectures (check and check:arm64 after make test-arm64)
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'; }
fail() {
	echo "deb: $*" >&2
	exit 1
}
pkgs="emilia libemilia0 libemilia-dev"
if [ "${NO_INSTALL:-0}" = 0 ]; then
	[ "$(id -u)" = 0 ] || fail "installs the packages with dpkg -i: run it as root (or NO_INSTALL=1)"
	for p in $pkgs; do
		if installed "$p"; then fail "$p is installed already: dpkg --purge $pkgs first"; fi
	done
fi

need="build-essential debhelper dpkg-dev lintian fakeroot zlib1g-dev"
# nocheck: also the build profile, so that the test tools are not build dependencies
case " $DEB_BUILD_OPTIONS " in
*" nocheck "*) export DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES:+$DEB_BUILD_PROFILES }nocheck" ;;
*) need="$need check man-db pkg-config python3" ;;
esac
missing=""
for p in $need pkg-config; do installed "$p" || missing="$missing $p"; done
# make installs nothing: .ci/run (its PACKAGES) and the README install these
[ -z "$missing" ] || fail "needs$missing: sudo apt-get install$missing"

# ---- build in a copy: dpkg-buildpackage cleans the tree (make clean) and
# writes the packages next to it ----
t0=$(date +%s)
src=$tmp/emilia
mkdir "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$src"
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$src"
fi
[ -f "$src/debian/rules" ] || fail "no debian/rules in the copy"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 ||
	{ tail -40 "$tmp/build.log" >&2; fail "dpkg-buildpackage -us -uc -b failed (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)"; }
t1=$(date +%s)
arch=$(dpkg --print-architecture)
debs=""
for p in $pkgs; do
	f=$(ls "$tmp/${p}_"*"_$arch.deb" 2>/dev/null | head -1)
	[ -n "$f" ] || fail "no package $p was built"
	debs="$debs $f"
done
echo "deb: built$(for f in $debs; do printf ' %s (%s kB)' "$(basename "$f")" $(($(stat -c %s "$f") / 1024)); done) in $((t1 - t0)) s"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" && cp "$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes "$KEEP"/ && echo "deb: packages copied to $KEEP/"
fi

# ---- lintian: errors fail, the rest is shown ----
if [ "${LINTIAN:-1}" != 0 ]; then
	changes=$(ls "$tmp"/emilia_*_"$arch".changes)
	# (CI runs as root, which lintian frowns on; it changes nothing here)
	{
		lintian --fail-on error "$changes" 2>&1
		echo $? >"$tmp/lintian.rc"
	} | grep -v 'running with root privileges is not recommended' >"$tmp/lintian.txt"
	rl=$(cat "$tmp/lintian.rc")
	if [ -s "$tmp/lintian.txt" ]; then sed 's/^/deb: lintian: /' "$tmp/lintian.txt"; fi
	[ "$rl" = 0 ] || fail "lintian found errors"
	echo "deb: lintian: no error ($(grep -c '^W:' "$tmp/lintian.txt") warnings) in $(($(date +%s) - t1)) s"
fi

[ "${NO_INSTALL:-0}" = 0 ] || exit 0

# ---- install, use, purge ----
# shellcheck disable=SC2086
dpkg -i $debs >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; installed=$pkgs; fail "dpkg -i failed"; }
installed=$pkgs
v=$(/usr/bin/emilia --version) || fail "/usr/bin/emilia --version failed"
# amd64: both kernels, the CPU's chosen at start-up (debian/rules); elsewhere the portable one
if [ "$(dpkg --print-architecture)" = amd64 ]; then
	echo "$v" | grep -q '^emilia .*kernel, dispatched' || fail "/usr/bin/emilia --version: $v (expected a dispatched kernel)"
	v=$(EMILIA_KERNEL=portable /usr/bin/emilia --version)
	echo "$v" | grep -q '^emilia .*(portable kernel, dispatched' || fail "EMILIA_KERNEL=portable /usr/bin/emilia --version: $v"
else
	echo "$v" | grep -q '^emilia .*(portable kernel)$' || fail "/usr/bin/emilia --version: $v (expected the portable kernel)"
fi
n=$(/usr/bin/emilia perft 8 | head -1)
[ "$n" = 390216 ] || fail "/usr/bin/emilia perft 8 gave '$n', expected 390216"
[ "$(man -w emilia 2>/dev/null)" = /usr/share/man/man6/emilia.6.gz ] || ! command -v man >/dev/null ||
	fail "man -w emilia: $(man -w emilia 2>&1)"
[ "$(pkg-config --modversion emilia)" = "$(sed -n 's/^#define EMILIA_VERSION_STRING "\(.*\)"$/\1/p' include/emilia.h)" ] ||
	fail "pkg-config --modversion emilia: $(pkg-config --modversion emilia 2>&1)"
# shellcheck disable=SC2046
cc -o "$tmp/two-engines" examples/two-engines.c $(pkg-config --cflags --libs emilia) || fail "examples/two-engines.c does not build against libemilia-dev"
lib=$(ldd "$tmp/two-engines" | sed -n 's/^[[:space:]]*libemilia\.so\.0 => \([^ ]*\) .*/\1/p')
[ "$(readlink -f "$lib")" = "$(readlink -f "$(dpkg -L libemilia0 | grep '/libemilia\.so\.0$')")" ] ||
	fail "two-engines does not use the packaged libemilia.so.0: $(ldd "$tmp/two-engines" | grep emilia)"
out=$("$tmp/two-engines" 1 2) || fail "two-engines failed: $out"
echo "$out" | grep -q '^final score: Black [0-9]*, White [0-9]*$' || fail "two-engines: $(echo "$out" | tail -2)"
echo "deb: installed: $v; perft 8 $n; two-engines on libemilia0: $(echo "$out" | tail -1)"
# shellcheck disable=SC2086
dpkg --purge $pkgs >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; fail "dpkg --purge failed"; }
installed=""
for f in /usr/bin/emilia /usr/include/emilia.h /usr/share/man/man6/emilia.6.gz; do
	[ ! -e "$f" ] || fail "$f is left after dpkg --purge"
done
echo "deb: dpkg -i, checks, dpkg --purge: ok ($(($(date +%s) - t0)) s)"
