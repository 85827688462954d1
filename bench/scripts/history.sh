# Sourced by the FFO scripts (ffo.sh, ffo-threads.sh, solve-6x6.sh): the history file and the
# one way a row goes into it.  A row is appended only when the sources the figures depend on
# (src/, include/, data/, tools/) are committed, so that each row names the code that gave it;
# from a tree with changes the figures are printed and the row is left out.
# Needs $dir, the folder of the sourcing script.
hist=$dir/../results/ffo-history.csv
history_commit=$(git -C "$dir/../.." rev-parse --short HEAD 2>/dev/null || echo "?")

# history_append ROW: ROW without its first two columns (date, commit)
history_append() {
	if [ "${FFO_HISTORY:-1}" = 0 ]; then
		return 0
	fi
	if [ "$history_commit" = "?" ] ||
		! git -C "$dir/../.." diff --quiet HEAD -- src include data tools 2>/dev/null; then
		echo "not appended to $hist: the sources have uncommitted changes (or no git)"
		return 0
	fi
	[ -f "$hist" ] || echo "date,commit,range,threads,positions,wrong,nodes,wall_s,cpu_s,load,options" > "$hist"
	echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$history_commit,$1" >> "$hist"
	echo "appended to $hist"
}
