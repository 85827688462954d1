#!/bin/sh
# Runs each test binary given as an argument, then prints one summary line.
pass=0; fail=0; failed=""
for t in "$@"; do
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $(basename "$t")"; fi
done
[ -n "$failed" ] && echo "failed suites:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
