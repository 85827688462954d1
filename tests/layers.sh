#!/bin/sh
# The layer check (run by `make test`), against the tables of docs/ARCHITECTURE.md:
#  - modules: every source file of src/, tools/ and include/ belongs to one layer of
#    the layer table, and no file includes a header of a higher layer; every module
#    the table names must exist;
#  - folders: every folder that holds source files is a row of the folder table, and
#    a file includes only headers of its own folder or of a folder of a lower rank
#    (the header found by its name in the folders: names are unique).
# Usage: sh tests/layers.sh [ROOT] (default: the current directory).
root=${1:-.}
doc="$root/docs/ARCHITECTURE.md"
[ -f "$doc" ] || { echo "layers: $doc not found" >&2; exit 1; }
# shellcheck disable=SC2046
awk -v doc="$doc" -v root="$root" '
	function base(f) { sub(/.*\//, "", f); return f }
	# the folder of a file, relative to the root
	function folder(f) {
		if (index(f, root "/") == 1)
			f = substr(f, length(root) + 2)
		if (f !~ /\//)
			return "."
		sub(/\/[^\/]*$/, "", f)
		return f
	}
	BEGIN {
		for (i = 2; i < ARGC; i++) {
			b = base(ARGV[i])
			if ((b in home) && home[b] != folder(ARGV[i])) {
				print ARGV[i] ": " b " is also in " home[b] "/"
				bad = 1
			}
			home[b] = folder(ARGV[i])
		}
	}
	FILENAME == doc {
		# A layer row: "| N | name | `file` `file` ... |"; modules are the
		# backquoted names of the third column, without folder or extension.
		if ($0 ~ /^\| *[0-9]+ *\|/) {
			split($0, col, "|")
			n = col[2] + 0
			s = col[4]
			while (match(s, /`[^`]+`/)) {
				m = substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
				sub(/.*\//, "", m)
				sub(/\..*/, "", m)
				if ((m in layer) && layer[m] != n) {
					print doc ": " m " is in layers " layer[m] " and " n
					bad = 1
				}
				layer[m] = n
			}
		}
		# A folder row: "| `src/core/` | N | ... |": the folder and its rank.
		if ($0 ~ /^\| *`[^`]*\/` *\| *[0-9]+ *\|/) {
			split($0, col, "|")
			f = col[2]
			gsub(/[ `]/, "", f)
			sub(/\/$/, "", f)
			rank[f] = col[3] + 0
			folders++
		}
		next
	}
	FNR == 1 {
		mod = FILENAME
		sub(/.*\//, "", mod)
		sub(/\.[ch]$/, "", mod)
		seen[mod] = 1
		if (!(mod in layer)) {
			print FILENAME ": in no layer of " doc
			bad = 1
		}
		dir = folder(FILENAME)
		if (folders && !(dir in rank)) {
			print FILENAME ": its folder " dir "/ is in no row of the folder table of " doc
			bad = 1
		}
	}
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0
		sub(/^[^"]*"/, "", h)
		sub(/".*/, "", h)
		hb = base(h)
		sub(/\.h$/, "", h)
		sub(/.*\//, "", h)
		if (!(h in layer)) {
			print FILENAME ":" FNR ": includes " h ".h, which is in no layer"
			bad = 1
		} else if ((mod in layer) && layer[h] > layer[mod]) {
			print FILENAME ":" FNR ": layer " layer[mod] " includes " h ".h of layer " layer[h]
			bad = 1
		}
		if (folders && (hb in home) && (dir in rank) && (home[hb] in rank) && rank[home[hb]] > rank[dir]) {
			print FILENAME ":" FNR ": " dir "/ (rank " rank[dir] ") includes " hb " of " home[hb] "/ (rank " rank[home[hb]] ")"
			bad = 1
		}
	}
	END {
		for (m in layer)
			if (!(m in seen)) {
				print doc ": " m " has no file in src/, tools/ or include/"
				bad = 1
			}
		exit bad
	}
' "$doc" $(ls "$root"/src/*.[ch] "$root"/src/*/*.[ch] "$root"/tools/*.[ch] "$root"/tools/*/*.[ch] "$root"/include/*.h 2>/dev/null)
