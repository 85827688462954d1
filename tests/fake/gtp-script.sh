#!/bin/sh
# gtp-script.sh - a scripted GTP "engine" for the match runner's tests.
#
# usage: gtp-script.sh GAMEFILE [MODE [N [PASSES]]]
#   GAMEFILE  one line: the transcript of a whole game (passes implied).
#             The engine plays the game's next move whatever its colour, so
#             two scripted engines replay the game exactly (opening included).
#   MODE      good (default), or from its Nth genmove of a game (N >= 1):
#             illegal (answers D4, a centre square, never empty), pass (PASS
#             with moves left), exit (exits, status 3), hang (sleeps), slow
#             (its Nth answer only comes after 2 s), junk (a chatty line
#             before the reply),
#             binary (control bytes), long (a 5000-byte line), refuse
#             ("? ..."), resign; deadstart: exits before saying anything.
#   PASSES    explicit (default: accepts `play b pass`) or implicit (answers
#             it "? syntax error" like gtp-rhino).
# It does not check the moves it is told: the runner is what is under test.
set -f
game=$(cat "$1")
mode=${2:-good}
at=${3:-1}
passes=${4:-explicit}
n=0 # moves on the board, passes not counted
g=0 # genmoves in this game

[ "$mode" = deadstart ] && exit 1

ok() { printf '= %s\n\n' "$1"; }
no() { printf '? %s\n\n' "$1"; }

while IFS= read -r line; do
	# shellcheck disable=SC2086
	set -- $line
	case $1 in
	protocol_version) ok 2 ;;
	name) ok script ;;
	boardsize|komi|time_settings|time_left|set_game) ok "" ;;
	clear_board) n=0; g=0; ok "" ;;
	play)
		case $3 in
		pass|PASS) if [ "$passes" = explicit ]; then ok ""; else no "syntax error"; fi ;;
		*) n=$((n + 1)); ok "" ;;
		esac ;;
	genmove)
		g=$((g + 1))
		if [ "$mode" != good ] && [ "$g" -ge "$at" ]; then
			case $mode in
			illegal) ok D4; continue ;;
			pass) ok PASS; continue ;;
			exit) exit 3 ;;
			hang) sleep 600; exit 0 ;;
			slow) [ "$g" -eq "$at" ] && sleep 2 ;;
			junk) printf 'thinking very hard about %s\n' "$2" ;;
			binary) printf '\001\002\377garbage\n\n'; continue ;;
			long) printf '=%05000d\n\n' 7; continue ;;
			refuse) no "cannot think"; continue ;;
			resign) ok resign; continue ;;
			esac
		fi
		i=$((2 * n + 1))
		mv=$(printf '%s' "$game" | cut -c"$i-$((i + 1))")
		n=$((n + 1))
		ok "$mv" ;;
	quit) ok ""; exit 0 ;;
	*) no "unknown command" ;;
	esac
done
