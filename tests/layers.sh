#!/bin/sh
# The layer check (run by `make test`): every source file of src/, tools/ and include/
# belongs to one layer of the table in docs/ARCHITECTURE.md, and no file
# includes a header of a higher layer.  Every module the table names must
# exist.  Usage: sh tests/layers.sh [ROOT] (default: the current directory).
root=${1:-.}
doc="$root/docs/ARCHITECTURE.md"
[ -f "$doc" ] || { echo "layers: $doc not found" >&2; exit 1; }
# shellcheck disable=SC2086
awk -v doc="$doc" '
	# A layer row: "| N | name | `file` `file` ... |"; modules are the
	# backquoted names of the third column, without folder or extension.
	FILENAME == doc {
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
	}
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0
		sub(/^[^"]*"/, "", h)
		sub(/".*/, "", h)
		sub(/.*\//, "", h)
		sub(/\.h$/, "", h)
		if (!(h in layer)) {
			print FILENAME ":" FNR ": includes " h ".h, which is in no layer"
			bad = 1
		} else if ((mod in layer) && layer[h] > layer[mod]) {
			print FILENAME ":" FNR ": layer " layer[mod] " includes " h ".h of layer " layer[h]
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
' "$doc" $(ls "$root"/src/*.[ch] "$root"/src/*/*.[ch] "$root"/tools/*.[ch] "$root"/tools/lib/*.[ch] "$root"/include/*.h 2>/dev/null)
