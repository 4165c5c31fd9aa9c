#!/bin/sh
# cli_html.sh - the html pages (-f html, docs/html.md): each one parses as
# HTML5 without an error (html5lib, strict), holds the csv's cells under
# the same headings for every example, fetches nothing, escapes what the
# op list names; in a headless Chromium the op table sorts and filters from
# the address's fragment, and a screenshot of it is not blank. The checks
# that need html5lib or Chromium skip, saying so, where they are missing
# (.ci/run installs both).
. "${top_srcdir:-.}/tests/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
CHECK="$top_srcdir/tests/html_check.py"
TRACE="$DATA/impl/trace_compiled_gpt2_b4_p256_gen9.json.gz"

have_html5lib=0
"$PY" -c 'import html5lib' 2>/dev/null && have_html5lib=1
chromium=
for c in chromium chromium-browser google-chrome; do
	if command -v "$c" >/dev/null 2>&1; then chromium=$c; break; fi
done

# validate DESC PAGE...: each page parses without an error
validate() {
	desc=$1; shift
	if [ "$have_html5lib" -eq 0 ]; then
		ok "$desc # SKIP html5lib not installed (python3-html5lib)"
		return
	fi
	if "$PY" "$CHECK" validate "$@" 2>"$tmp/verr"; then ok "$desc"
	else not_ok "$desc" "$(cat "$tmp/verr")"; fi
}

# same_cells DESC PAGE CSV TABLE: the page's table holds the csv's cells
same_cells() {
	if "$PY" "$CHECK" cells "$2" "$3" "$4" >"$tmp/cells" 2>"$tmp/cerr"; then ok "$1 ($(cat "$tmp/cells"))"
	else not_ok "$1" "$(cat "$tmp/cerr")"; fi
}

# self_contained DESC PAGE: no address but the SVG namespace, no external
# script, style sheet, image or font
self_contained() {
	if grep -Eo '(https?|ftp)://[^" )]*' "$2" | grep -v '^http://www.w3.org/2000/svg$' |
		grep -q . || grep -Eiq '<(script|img|iframe)[^>]* src=|<link[ >]|@import|url\(http' "$2"; then
		not_ok "$1" "$(grep -Eo '(https?|ftp)://[^" )]*' "$2" | sort -u | head -3)"
	else
		ok "$1"
	fi
}

# --- every example: classify's op lists, model's configs --------------------

pages=
for f in "$EX"/*.csv; do
	b=$(basename "$f" .csv)
	# the marked-up list names its sizes (cli_component.sh)
	set --
	[ "$b" = llama3-8b-components ] &&
		set -- --impl hf --set B=1,S=2048,C=2048,H=4096,I=14336,NH=32,KVH=8,D=128,V=128256,L=32
	run classify "$f" --hw h200 "$@" -f csv -o "$tmp/$b.csv"
	run classify "$f" --hw h200 "$@" -f html -o "$tmp/$b.html"
	if [ "$rc" -ne 0 ]; then not_ok "classify $b -f html" "exit $rc: $(head -n 2 "$tmp/err")"; continue; fi
	same_cells "classify $b: the html's cells are the csv's" "$tmp/$b.html" "$tmp/$b.csv" op-table
	pages="$pages $tmp/$b.html"
done
for f in "$EX"/*.json; do
	b=model-$(basename "$f" .json)
	case $b in model-bert-base | model-vit-b16) hw=h100-sxm ;; *) hw=h200 ;; esac
	run model "$f" --hw $hw -f csv -o "$tmp/$b.csv"
	[ "$rc" -eq 0 ] || continue # a config model refuses on one GPU (cli_model.sh)
	run model "$f" --hw $hw -f html -o "$tmp/$b.html"
	if [ "$rc" -ne 0 ]; then not_ok "model $b -f html" "exit $rc: $(head -n 2 "$tmp/err")"; continue; fi
	same_cells "$b: the html's cells are the csv's" "$tmp/$b.html" "$tmp/$b.csv" op-table
	pages="$pages $tmp/$b.html"
done
# shellcheck disable=SC2086
validate "every example's page parses as HTML5 without an error" $pages
for p in $pages; do
	self_contained "$(basename "$p") fetches nothing" "$p"
	break
done

# --- a trace, a model's step with its timeline, a training step -------------

run report "$TRACE" --hw h200 -f csv -o "$tmp/trace.csv"
run report "$TRACE" --hw h200 --timeline -f html -o "$tmp/trace.html"
check "report -f html on a 1,950-op trace" test "$rc" -eq 0
same_cells "report: the html's cells are the csv's" "$tmp/trace.html" "$tmp/trace.csv" op-table
self_contained "the trace's page fetches nothing" "$tmp/trace.html"
# the page's sections: summary, chart, timeline, per kind, the text
for id in summary charts timeline kinds ops details; do
	if grep -q "<section id=\"$id\">\|<section id=\"$id\" " "$tmp/trace.html"; then ok "the trace's page has its $id section"
	else not_ok "the trace's page has its $id section"; fi
done
# a bar per op on the host lane, and the chart's points name their rows
rows=$(($(wc -l <"$tmp/trace.csv") - 1))
bars=$(sed -n '/<g class="host"/,/<\/g>/p' "$tmp/trace.html" | grep -c '<rect ')
if [ "$bars" -gt $((rows / 2)) ] && [ "$bars" -le "$rows" ]; then ok "the timeline's host lane has a bar per op ($bars of $rows)"
else not_ok "the timeline's host lane has a bar per op" "$bars bars, $rows ops"; fi
pts=$(sed -n '/<section id="charts"/,/<\/section>/p' "$tmp/trace.html" | grep -c '<circle [^>]*data-op=')
if [ "$pts" -gt 0 ]; then ok "the chart's points carry their rows ($pts)"; else not_ok "the chart's points carry their rows"; fi
# the per-kind table's totals are json's step: its ops, launches and
# measured, expected and roofline GPU time
run report "$TRACE" --hw h200 -f json -o "$tmp/trace.json"
want=$("$PY" -c 'import json, sys
a = json.load(open(sys.argv[1]))["step"]["all"]
print(a["ops"], a["launches"], a["measured_us"], a["expected_us"], a["roofline_us"])' "$tmp/trace.json")
got=$(grep -o '<tfoot><tr>.*</tr>' "$tmp/trace.html" | sed 's/<[^>]*>/ /g' |
	awk '{ print $2, $3, $4, $5, $6 }')
if "$PY" -c 'import sys
w, g = [list(map(float, a.split())) for a in sys.argv[1:3]]
sys.exit(0 if len(w) == 5 and len(g) == 5 and all(abs(x - y) <= 1e-5 * max(1, abs(x)) for x, y in zip(w, g)) else 1)' "$want" "$got"; then
	ok "the per-kind totals are json's step ($got)"
else
	not_ok "the per-kind totals are json's step" "page '$got', json '$want'"
fi
validate "the trace's page parses as HTML5 without an error" "$tmp/trace.html"

# the host calls far above their kind's (report's block after the table) are
# a section of the page
HOSTY="$DATA/impl/trace_compiled_qwen2_7b_l2_b4_p512_gen9.json.gz"
run report "$HOSTY" --hw h200 -o "$tmp/hosty.txt"
run report "$HOSTY" --hw h200 -f html -o "$tmp/hosty.html"
want=$(sed -n 's/^  \(aten::[a-z_]*\) (\([a-z]*\)), call \([0-9]*\) .*/\1 (\2), call \3/p' "$tmp/hosty.txt")
got=$(sed -n '/<section id="host">/,/<\/section>/p' "$tmp/hosty.html" |
	sed -n 's/^  \(aten::[a-z_]*\) (\([a-z]*\)), call \([0-9]*\) .*/\1 (\2), call \3/p')
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "report's host advice is a section of the page ($got)"
else not_ok "report's host advice is a section of the page" "table '$want', page '$got'"; fi

run model "$EX/llama3-8b.json" --hw h200 --impl hf --timeline -f html -o "$tmp/hf.html"
check "model --impl hf --timeline -f html" test "$rc" -eq 0
grep -q '<dt>implementation</dt><dd>hf</dd>' "$tmp/hf.html" && ok "the header names the implementation" ||
	not_ok "the header names the implementation"
run model "$EX/gpt2.json" --hw h200 --train --batch 8 --seq 512 -f html -o "$tmp/train.html"
check "model --train -f html" test "$rc" -eq 0
run model "$EX/gpt2.json" --hw h200 --train --batch 8 --seq 512 -f csv -o "$tmp/train.csv"
same_cells "a training step's html cells are the csv's" "$tmp/train.html" "$tmp/train.csv" op-table

# --- a ladder, a sweep ------------------------------------------------------

run model "$EX/llama3-8b.json" --hw h200 --impl all -f csv -o "$tmp/ladder.csv"
run model "$EX/llama3-8b.json" --hw h200 --impl all -f html -o "$tmp/ladder.html"
check "model --impl all -f html" test "$rc" -eq 0
same_cells "--impl all: the html's cells are the csv's" "$tmp/ladder.html" "$tmp/ladder.csv" ladder
run model "$EX/llama3-8b.json" --hw h200 --sweep batch=1,8,64,512 -f csv -o "$tmp/sweep.csv"
run model "$EX/llama3-8b.json" --hw h200 --sweep batch=1,8,64,512 -f html -o "$tmp/sweep.html"
check "model --sweep -f html" test "$rc" -eq 0
same_cells "model --sweep: the html's cells are the csv's" "$tmp/sweep.html" "$tmp/sweep.csv" sweep-table
run classify "$DATA/sweep-matmul.csv" --hw h200 --sweep B=1,16,256 -f csv -o "$tmp/csweep.csv"
run classify "$DATA/sweep-matmul.csv" --hw h200 --sweep B=1,16,256 -f html -o "$tmp/csweep.html"
check "classify --sweep -f html" test "$rc" -eq 0
same_cells "classify --sweep: the html's cells are the csv's" "$tmp/csweep.html" "$tmp/csweep.csv" sweep-table
run search "$EX/llama3-8b.json" --hw hgx-h100-8 --gpus 8 --train --batch 32 --seq 4096 --top 8 -f csv -o "$tmp/search.csv"
run search "$EX/llama3-8b.json" --hw hgx-h100-8 --gpus 8 --train --batch 32 --seq 4096 --top 8 -f html -o "$tmp/search.html"
check "search -f html" test "$rc" -eq 0
same_cells "search: the html's cells are the csv's" "$tmp/search.html" "$tmp/search.csv" search-table
grep -q '<svg [^>]*>' "$tmp/sweep.html" && ! grep -q '<?xml' "$tmp/sweep.html" &&
	ok "the sweep's chart is inline SVG" || not_ok "the sweep's chart is inline SVG"
validate "the trace's, ladder's, sweeps' and search's pages parse as HTML5" "$tmp/hf.html" "$tmp/train.html" \
	"$tmp/hosty.html" "$tmp/search.html" \
	"$tmp/ladder.html" "$tmp/sweep.html" "$tmp/csweep.html"

# --- what an op list names is text ------------------------------------------

cat >"$tmp/hostile.csv" <<'EOF'
name,kind,dtype,shape,inputs,flops_per_element,note
"<script>alert(1)</script>&amp;",pointwise,fp32,1048576,1,1,"</td></tr></table><b>"
"a ""quoted"", name — ü",matmul,bf16,64x64x64,,,
EOF
run classify "$tmp/hostile.csv" --hw h200 -f html -o "$tmp/hostile.html"
run classify "$tmp/hostile.csv" --hw h200 -f csv -o "$tmp/hostile.out.csv"
same_cells "names and notes that look like markup stay text" "$tmp/hostile.html" "$tmp/hostile.out.csv" op-table
if grep -q '<script>alert' "$tmp/hostile.html"; then not_ok "no markup from the op list reaches the page"
else ok "no markup from the op list reaches the page"; fi
validate "the hostile list's page parses as HTML5" "$tmp/hostile.html"

# --- what has no page --------------------------------------------------------

expect_error "kinds has no html" 2 "unknown format 'html'" kinds -f html
expect_error "hw has no html" 2 "unknown format 'html'" hw list -f html
expect_error "--generate writes no page" 2 "--generate writes no html page" \
	model "$EX/llama3-8b.json" --hw h200 --generate 4 -f html
expect_error "--max-batch writes no page" 2 "--max-batch writes no html page" \
	model "$EX/llama3-8b.json" --hw h200 --max-batch -f html
expect_error "--scale writes no page" 2 "--scale writes table or csv" \
	classify "$EX/llama2-7b-decode.csv" --hw h200 --scale B=2 -f html

# --- in a browser ------------------------------------------------------------

if [ -z "$chromium" ]; then
	ok "sorting and filtering in Chromium # SKIP no chromium (Debian's package chromium)"
	ok "a screenshot of the page # SKIP no chromium"
else
	browse() {
		# a profile of its own, removed with $tmp; root needs --no-sandbox
		timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$tmp/profile" --window-size=1400,2400 "$@" 2>"$tmp/chromium.err"
	}
	browse --dump-dom "file://$tmp/trace.html#sort=expected_us&desc=1&kind=matmul" >"$tmp/dom.html"
	if "$PY" "$CHECK" dom "$tmp/dom.html" expected_us desc matmul >"$tmp/dom.out" 2>"$tmp/dom.err"; then
		ok "Chromium sorts the op table by expected_us and filters it to matmul ($(tr '\n' ' ' <"$tmp/dom.out"))"
	else
		not_ok "Chromium sorts the op table by expected_us and filters it to matmul" \
			"$(cat "$tmp/dom.err")" "$(tail -n 3 "$tmp/chromium.err")"
	fi
	browse --dump-dom "file://$tmp/trace.html#sort=name&kind=pointwise" >"$tmp/dom2.html"
	n_pw=$(awk -F, 'NR > 1 && $2 == "pointwise"' "$tmp/trace.csv" | wc -l)
	# the serialised rows, one a line
	grep -o '<tr id="op-[^>]*>' "$tmp/dom2.html" >"$tmp/dom2.rows"
	n_dom=$(grep -c 'data-kind="pointwise"' "$tmp/dom2.rows")
	n_shown=$(grep 'data-kind="pointwise"' "$tmp/dom2.rows" | grep -vc 'hidden\|more')
	n_other=$(grep -v 'data-kind="pointwise"' "$tmp/dom2.rows" | grep -vc 'hidden')
	if [ "$n_dom" -eq "$n_pw" ] && [ "$n_shown" -eq $((n_pw < 100 ? n_pw : 100)) ] && [ "$n_other" -eq 0 ]; then
		ok "a filter by kind hides every other row and keeps the first 100 of $n_pw shown"
	else
		not_ok "a filter by kind hides every other row" "pointwise: $n_pw in csv, $n_dom in the page, $n_shown shown, $n_other others not hidden"
	fi
	shot=${HTML_SCREENSHOT:-$tmp/shot.png}
	browse --screenshot="$shot" "file://$tmp/trace.html" >/dev/null
	if "$PY" "$CHECK" png "$shot" >"$tmp/png.out" 2>"$tmp/png.err"; then ok "a screenshot of the page is not blank ($(cat "$tmp/png.out"))"
	else not_ok "a screenshot of the page is not blank" "$(cat "$tmp/png.err")"; fi
fi

done_testing
