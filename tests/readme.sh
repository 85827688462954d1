#!/bin/sh
# The README's commands work from a clone (run by `make test-readme` and `make test`).
#
# README.md shows commands in two kinds of fenced blocks that render alike: ```sh blocks hold
# the cheap ones (seconds, no root, no network, no data outside the repository), and this
# script runs every one of them; ```shell blocks hold the others (apt-get, interactive games,
# the review of a whole game, solves and matches of a minute or more), shown but not run.  A line
# ending in a backslash goes on on the next line; `# ...` after a command is a comment.
#
# Each command runs with sh in a scratch folder that links every top-level entry of the
# repository, so the README's paths (./emilia, examples/, book/) resolve as in the repository
# root and what the commands write (review.html, my.book) stays out of the tree.  A non-zero
# exit status fails the check.  Also: no path into a folder outside the repository
# (../shared), and every examples/ file the README names exists.
#
# Usage: sh tests/readme.sh [README] (default: README.md of this repository);
# README_VERBOSE=1 prints each command with its seconds.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
readme=${1:-$root/README.md}
limit=${README_TIMEOUT:-120}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/emilia-readme.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

if grep -n '\.\./shared' "$readme"; then
	echo "readme: the lines above name a folder outside the repository" >&2
	fail=1
fi
for f in $(grep -o 'examples/[A-Za-z0-9._-]*' "$readme" | sort -u); do
	[ -e "$root/$f" ] || { echo "readme: $f is named but not in the repository" >&2; fail=1; }
done

mkdir "$tmp/run"
for f in "$root"/*; do
	ln -s "$f" "$tmp/run/"
done

# The commands of the ```sh blocks, one a line, continuation lines joined.
awk '
	/^```/ { if (inblock) { inblock = 0; next } if ($0 == "```sh") inblock = 1; next }
	inblock {
		line = line $0
		if (line ~ /\\$/) { sub(/\\$/, "", line); next }
		print line
		line = ""
	}
' "$readme" >"$tmp/commands"

n=0
start=$(date +%s)
while IFS= read -r cmd; do
	case $cmd in '' | '#'*) continue ;; esac
	n=$((n + 1))
	t0=$(date +%s.%N)
	t0=$(date +%s)
	if ! (cd "$tmp/run" && timeout "$limit" sh -c "$cmd") >"$tmp/out" 2>&1 </dev/null; then
		echo "readme: failed: $cmd" >&2
		tail -n 20 "$tmp/out" >&2
		fail=1
	fi
	[ -z "${README_VERBOSE:-}" ] || printf '%s s: %s\n' "$(($(date +%s) - t0))" "$cmd"
done <"$tmp/commands"

if [ "$n" = 0 ]; then
	echo "readme: no commands found in $readme" >&2
	fail=1
fi
[ $fail = 0 ] && echo "readme: $n commands ran, $(($(date +%s) - start)) s"
exit $fail
