#!/bin/sh
# cli_options.sh - every command's --help lists exactly the options it
# accepts (the option table of src/cli_options.c makes both). An option is
# accepted when the command does not call it unknown: each candidate, every
# option that any --help or the man page names, is given to each command
# followed by an unknown option, so that nothing runs past the parsing. The
# help's options are those of its option lines, not the prose.
. "$top_srcdir/tests/lib.sh"

commands=$("$ROOFLINE" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }')
check "--help lists the commands" test -n "$commands"

# the options of CMD's --help, the names left of each option line's text;
# with ARGS set, each followed by 1 when it takes a value, else 0
help_options() {
	"$ROOFLINE" $1 --help | awk -v args="${ARGS:-}" '
		/^Options:/ { on = 1; next }
		on && /^$/ { on = 0 }
		on && /^  (-[A-Za-z], |    )--/ {
			left = $0
			sub(/^ +/, "", left)
			sub(/   *[^ ].*$/, "", left) # the help text after two spaces
			n = split(left, w, /[ ,]+/)
			for (i = 1; i <= n; i++) {
				if (w[i] !~ /^-/)
					continue
				# the value: the next word not an option, past a short letter
				j = i + 1
				while (j <= n && w[j] ~ /^--/ && w[i] ~ /^-[^-]/) j++
				v = j <= n && w[j] !~ /^-/
				print (args != "" ? w[i] " " v : w[i])
			}
		}' | sort
}

for cmd in $commands; do
	help_options "$cmd" >"$tmp/help-$cmd"
	cat "$tmp/help-$cmd"
done | sort -u >"$tmp/cand"
sed 's/\\//g' "$top_srcdir/docs/roofline.1" | grep -o -- '--[a-z][a-z0-9-]*' >>"$tmp/cand"
sort -u "$tmp/cand" -o "$tmp/cand"
check "candidates: 50 options or more" test "$(wc -l <"$tmp/cand")" -ge 50

cd "$tmp" || exit 99
for cmd in $commands; do
	check "$cmd --help: each option once" test -z "$(uniq -d "$tmp/help-$cmd")"
	check "$cmd --help: --help and --version" \
		grep -qx -- '--version' "$tmp/help-$cmd"
	: >"$tmp/accepted-$cmd"
	ARGS=1 help_options "$cmd" >"$tmp/args-$cmd"
	while read -r opt; do
		if grep -qx -- "$opt" "$tmp/help-$cmd"; then
			# an option of the help: given a value where it takes one, it
			# must reach the command's own case, not its "unknown option"
			tok=$opt
			if grep -qx -- "$opt 1" "$tmp/args-$cmd"; then
				case $opt in --*) tok="$opt=zz" ;; *) tok="${opt}zz" ;; esac
			fi
			"$ROOFLINE" $cmd "$tok" --zz-not-an-option </dev/null >/dev/null 2>"$tmp/err"
			grep -qF -- "unknown option '$tok'" "$tmp/err" ||
				echo "$opt" >>"$tmp/accepted-$cmd"
			continue
		fi
		"$ROOFLINE" $cmd "$opt" --zz-not-an-option </dev/null >/dev/null 2>"$tmp/err"
		grep -qF -- "unknown option '$opt'" "$tmp/err" && continue
		# getopt_long takes a unique prefix of a long name for the name
		# (--hw for --hwdb where there is no --hw): not an option of its own
		[ "$(grep -c -- "^$opt" "$tmp/help-$cmd")" -ne 1 ] || continue
		echo "$opt" >>"$tmp/accepted-$cmd"
	done <"$tmp/cand"
	sort "$tmp/accepted-$cmd" -o "$tmp/accepted-$cmd"
	if cmp -s "$tmp/accepted-$cmd" "$tmp/help-$cmd"; then
		ok "$cmd: --help lists what it accepts, and nothing else"
	else
		not_ok "$cmd: --help lists what it accepts, and nothing else" \
			"accepted, not in --help: $(comm -23 "$tmp/accepted-$cmd" "$tmp/help-$cmd" | tr '\n' ' ')" \
			"in --help, refused: $(comm -13 "$tmp/accepted-$cmd" "$tmp/help-$cmd" | tr '\n' ' ')"
	fi
done

# issue 22: model --help names the training options it takes
check "model --help: --train and --grad-accum" \
	grep -q -- '--grad-accum' "$tmp/help-model"
check "validate --help: --best-case and --efficiency" \
	grep -q -- '--efficiency' "$tmp/help-validate"

done_testing
