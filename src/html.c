/* html.c - the self-contained page of the html outputs (see html.h). */
#include "config.h"

#include "html.h"

#include <string.h>

#include "err.h"
#include "svg.h"

/* Light by default, dark where the browser asks for it; the bounds in the
 * charts' colours (svg.c). The charts are drawn on white: in the dark they
 * are inverted, their hues turned back, so that a bound keeps its colour. */
static const char style[] =
	":root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--mut:#5b636e;--line:#d8dde3;"
	"--head:#f1f3f5;--hl:#fff8d6;--sel:#ffe48a;--compute:#d62728;--memory:#1f77b4;"
	"--overhead:#8c6d31;--network:#2ca02c}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e4e7eb;--bg:#14171b;--mut:#9aa3ad;"
	"--line:#343a42;--head:#1e2227;--hl:#2e2b1c;--sel:#5b4c10;--compute:#ff7b7b;"
	"--memory:#64b0ec;--overhead:#cfa860;--network:#63d463}"
	".chart svg{filter:invert(.9) hue-rotate(180deg)}}\n"
	"body{margin:0;font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;"
	"color:var(--fg);background:var(--bg)}\n"
	"header{padding:14px 24px 10px;border-bottom:1px solid var(--line)}\n"
	"h1{font-size:19px;margin:0 0 6px}h2{font-size:16px;margin:20px 0 8px}\n"
	"dl.meta{display:flex;flex-wrap:wrap;gap:2px 22px;margin:0}"
	"dl.meta div{display:flex;gap:6px}dl.meta dt{color:var(--mut)}dl.meta dd{margin:0}\n"
	"main{display:flex;flex-direction:column;padding:0 24px 28px}\n"
	"#summary{order:1}#charts{order:2}#timeline{order:3}#kinds{order:4}#host{order:4}#ops{order:5}"
	"#details{order:9}\n"
	".cards{display:flex;flex-wrap:wrap;gap:10px}"
	".card{border:1px solid var(--line);border-radius:6px;padding:7px 12px;min-width:130px}"
	".card .l{color:var(--mut);font-size:12px}.card .v{font-size:18px;font-weight:600}"
	".card .n{color:var(--mut);font-size:12px}\n"
	".bar{display:flex;height:14px;border-radius:3px;overflow:hidden;background:var(--line);"
	"max-width:720px;margin:6px 0}\n"
	".bg-compute{background:var(--compute)}.bg-memory{background:var(--memory)}"
	".bg-overhead{background:var(--overhead)}.bg-network{background:var(--network)}\n"
	".bd-compute{color:var(--compute)}.bd-memory{color:var(--memory)}"
	".bd-overhead{color:var(--overhead)}.bd-network{color:var(--network)}\n"
	".scroll{overflow:auto;max-height:78vh;border:1px solid var(--line)}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
	"th,td{padding:3px 8px;border-bottom:1px solid var(--line);white-space:nowrap;"
	"text-align:left}"
	"th{background:var(--head);position:sticky;top:0;font-weight:600}"
	"th.num,td.n{text-align:right}td.w{white-space:normal;min-width:20em}"
	"#op-table td.w{white-space:nowrap;max-width:30em;overflow:hidden;text-overflow:ellipsis}"
	"#op-table tr.sel td.w{white-space:normal}"
	"#op-table td:first-child{max-width:30em;overflow:hidden;text-overflow:ellipsis}"
	"#op-table tr.sel td:first-child{white-space:normal;word-break:break-all}\n"
	"table.sortable th{cursor:pointer}table.sortable th:focus{outline:2px solid var(--memory)}"
	"th[aria-sort=ascending]::after{content:\" \\25B2\"}"
	"th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	"tbody tr:hover td{background:var(--hl)}tr.sel td{background:var(--sel)}"
	"#op-table tr.more{display:none}#all-rows:checked~.scroll #op-table tr.more{display:table-row}"
	"#op-table tr.more[hidden]{display:none}"
	"tr.differs td.c-expected_bound::after{content:\" *\";color:var(--compute)}\n"
	"form.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:6px 0}"
	"form.filters input{width:16em}.count{color:var(--mut)}\n"
	".note{color:var(--mut);font-size:12px;max-width:60em}\n"
	".chart svg{max-width:100%;height:auto;border:1px solid var(--line)}"
	".chart .sel{stroke:#000;stroke-width:3;fill-opacity:.9}\n"
	".tl{display:grid;grid-template-columns:88px 1fr;align-items:stretch;max-width:1200px;"
	"border:1px solid var(--line)}"
	".tl .lanes{display:flex;flex-direction:column;font-size:12px;color:var(--mut)}"
	".tl .lanes span{height:26px;line-height:26px;padding-left:6px}"
	".tl svg{width:100%;display:block;cursor:grab}.tl .ax{grid-column:2}"
	".tl .sel{stroke:var(--fg);stroke-width:2}\n"
	"pre{font:12px/1.4 ui-monospace,\"DejaVu Sans Mono\",monospace;overflow:auto;"
	"background:var(--head);padding:10px}\n";

/* Sorting, filtering, the chart's points and the table's rows selecting
 * each other, the timeline's zoom, and the view kept in the fragment
 * (#sort=COL&desc=1&kind=K&bound=B&name=S&op=N). The body's data-ready-ms
 * says when the page was ready (ms from the start of navigation), its
 * data-apply-ms how long applying the fragment's view took. */
static const char script[] =
	"(function(){\"use strict\";\n"
	"var d=document,ops=d.getElementById(\"op-table\"),form=d.getElementById(\"filters\"),"
	"allbox=d.getElementById(\"all-rows\"),st={};\n"
	"function all(s,e){return Array.prototype.slice.call((e||d).querySelectorAll(s));}\n"
	"function val(td){if(!td)return\"\";var v=td.getAttribute(\"data-v\");"
	"return v===null?td.textContent:v;}\n"
	"function sortBy(t,i,desc){var b=t.tBodies[0];if(!b)return;"
	"var th=t.tHead.rows[0].cells[i],num=th.classList.contains(\"num\");"
	"var k=Array.prototype.map.call(b.rows,function(r,j){var s=val(r.cells[i]),"
	"x=num?(s===\"inf\"?Infinity:+s):s.toLowerCase();"
	"return{r:r,j:j,e:s===\"\"||(num&&isNaN(x)),x:x};});\n"
	"k.sort(function(p,q){if(p.e!==q.e)return p.e?1:-1;"
	"var c=p.x<q.x?-1:p.x>q.x?1:0;return(desc?-c:c)||p.j-q.j;});\n"
	"var f=d.createDocumentFragment();k.forEach(function(o){f.appendChild(o.r);});"
	"b.appendChild(f);\n"
	"all(\"th\",t.tHead).forEach(function(h){h.removeAttribute(\"aria-sort\");});"
	"th.setAttribute(\"aria-sort\",desc?\"descending\":\"ascending\");}\n"
	"function save(){var p=[];Object.keys(st).forEach(function(k){if(st[k])"
	"p.push(k+\"=\"+encodeURIComponent(st[k]));});"
	"try{history.replaceState(null,\"\",p.length?\"#\"+p.join(\"&\"):"
	"location.pathname+location.search);}catch(e){}}\n"
	"function filter(){if(!ops)return;var k=st.kind||\"\",b=st.bound||\"\","
	"n=(st.name||\"\").toLowerCase(),s=0,a=0;\n"
	"var lim=+ops.getAttribute(\"data-rows\")||Infinity,every=allbox&&allbox.checked;\n"
	"Array.prototype.forEach.call(ops.tBodies[0].rows,function(r){a++;"
	"var ok=(!k||r.getAttribute(\"data-kind\")===k)&&(!b||r.getAttribute(\"data-bound\")===b)"
	"&&(!n||r.cells[0].textContent.toLowerCase().indexOf(n)>=0);r.hidden=!ok;"
	"if(ok){r.classList.toggle(\"more\",s>=lim);s++;}});\n"
	"var c=d.getElementById(\"op-count\");if(c)c.textContent=s+\" of \"+a+\" ops match\"+"
	"(s>lim&&!every?\", the first \"+lim+\" shown\":\"\");}\n"
	"function tip(t,what){var r=d.getElementById(\"op-\"+t.getAttribute(\"data-op\"));if(!r)return;"
	"var x=d.createElementNS(\"http://www.w3.org/2000/svg\",\"title\");"
	"x.textContent=r.cells[0].textContent+\" (\"+r.getAttribute(\"data-kind\")+\", \"+"
	"r.getAttribute(\"data-bound\")+\")\"+(what?\": \"+what:\"\");t.appendChild(x);}\n"
	"function select(i,scroll){all(\".sel\").forEach(function(e){e.classList.remove(\"sel\");});"
	"all('[data-op=\"'+i+'\"]').forEach(function(e){e.classList.add(\"sel\");});"
	"var r=d.getElementById(\"op-\"+i);if(!r)return;st.op=i;\n"
	"if(scroll){if(r.hidden){st.kind=st.bound=st.name=\"\";if(form)form.reset();filter();}"
	"if(r.classList.contains(\"more\")&&allbox&&!allbox.checked){allbox.checked=true;filter();}"
	"r.scrollIntoView({block:\"center\"});}save();}\n"
	"all(\"table.sortable\").forEach(function(t){all(\"th\",t.tHead).forEach(function(th,i){"
	"th.tabIndex=0;function go(){var desc=th.getAttribute(\"aria-sort\")?"
	"th.getAttribute(\"aria-sort\")===\"ascending\":th.classList.contains(\"num\");"
	"sortBy(t,i,desc);if(t===ops){st.sort=th.getAttribute(\"data-col\");st.desc=desc?\"1\":\"\";"
	"filter();save();}}\n"
	"th.addEventListener(\"click\",go);th.addEventListener(\"keydown\",function(e){"
	"if(e.key===\"Enter\"||e.key===\" \"){e.preventDefault();go();}});});});\n"
	"if(form&&ops){form.hidden=false;var seen={};"
	"Array.prototype.forEach.call(ops.tBodies[0].rows,function(r){"
	"seen[r.getAttribute(\"data-kind\")]=1;});\n"
	"Object.keys(seen).sort().forEach(function(k){var o=d.createElement(\"option\");"
	"o.value=o.textContent=k;form.kind.appendChild(o);});\n"
	"form.addEventListener(\"input\",function(){st.kind=form.kind.value;st.bound=form.bound.value;"
	"st.name=form.q.value;filter();save();});"
	"form.addEventListener(\"submit\",function(e){e.preventDefault();});}\n"
	"if(allbox)allbox.addEventListener(\"change\",filter);\n"
	"d.addEventListener(\"click\",function(e){var t=e.target.closest&&e.target.closest(\"[data-op]\");"
	"if(t)select(t.getAttribute(\"data-op\"),!!t.closest(\"svg\"));});\n"
	"all(\"svg.tl\").forEach(function(s){var W=+s.getAttribute(\"data-w\"),"
	"H=+s.getAttribute(\"data-h\"),T=+s.getAttribute(\"data-us\"),"
	"ax=d.getElementById(s.getAttribute(\"data-axis\")),v0=0,v1=W,drag=null,"
	"NS=\"http://www.w3.org/2000/svg\";\n"
	"function ticks(){while(ax.firstChild)ax.removeChild(ax.firstChild);"
	"var u0=v0/W*T,u1=v1/W*T,r=(u1-u0)/6,p=Math.pow(10,Math.floor(Math.log10(r))),"
	"m=r/p,step=(m<2?2:m<5?5:10)*p;\n"
	"for(var u=Math.ceil(u0/step)*step;u<=u1;u+=step){var x=(u-u0)/(u1-u0)*100+\"%\","
	"l=d.createElementNS(NS,\"line\"),t=d.createElementNS(NS,\"text\");"
	"l.setAttribute(\"x1\",x);l.setAttribute(\"x2\",x);l.setAttribute(\"y1\",0);"
	"l.setAttribute(\"y2\",5);l.setAttribute(\"stroke\",\"currentColor\");\n"
	"var q=(u-u0)/(u1-u0);t.setAttribute(\"x\",x);t.setAttribute(\"y\",17);"
	"t.setAttribute(\"text-anchor\",q<0.03?\"start\":q>0.97?\"end\":\"middle\");"
	"t.textContent=+u.toPrecision(6)+\" us\";ax.appendChild(l);ax.appendChild(t);}}\n"
	"function view(a,b){var m=W/1e6;if(b-a<m){var c=(a+b)/2;a=c-m/2;b=c+m/2;}"
	"if(a<0){b-=a;a=0;}if(b>W){a-=b-W;b=W;}if(a<0)a=0;v0=a;v1=b;"
	"s.setAttribute(\"viewBox\",a+\" 0 \"+(b-a)+\" \"+H);ticks();}\n"
	"function at(e){var r=s.getBoundingClientRect();return v0+(e.clientX-r.left)/r.width*(v1-v0);}\n"
	"s.addEventListener(\"wheel\",function(e){e.preventDefault();var x=at(e),"
	"z=e.deltaY<0?0.8:1.25;view(x-(x-v0)*z,x+(v1-x)*z);},{passive:false});\n"
	"s.addEventListener(\"pointerdown\",function(e){drag={x:e.clientX,a:v0,b:v1};});"
	"s.addEventListener(\"pointerup\",function(){drag=null;});"
	"s.addEventListener(\"pointerleave\",function(){drag=null;});\n"
	"s.addEventListener(\"pointermove\",function(e){if(!drag)return;"
	"var r=s.getBoundingClientRect(),dx=(e.clientX-drag.x)/r.width*(drag.b-drag.a);"
	"if(Math.abs(e.clientX-drag.x)>2)view(drag.a-dx,drag.b-dx);});\n"
	"s.addEventListener(\"dblclick\",function(){view(0,W);});\n"
	"s.addEventListener(\"mouseover\",function(e){var t=e.target;if(t.firstChild||"
	"!t.getAttribute(\"data-op\"))return;"
	"tip(t,+(+t.getAttribute(\"width\")/W*T).toPrecision(4)+\" us\");});ticks();});\n"
	"all(\".chart svg\").forEach(function(s){s.addEventListener(\"mouseover\",function(e){"
	"var t=e.target;if(!t.firstChild&&t.getAttribute(\"data-op\"))tip(t,\"\");});});\n"
	"var t0=performance.now();location.hash.replace(/^#/,\"\").split(\"&\").forEach(function(p){"
	"var i=p.indexOf(\"=\");if(i>0)st[p.slice(0,i)]=decodeURIComponent(p.slice(i+1));});\n"
	"if(ops&&st.sort){var h=ops.querySelector('th[data-col=\"'+st.sort+'\"]');"
	"if(h)sortBy(ops,h.cellIndex,st.desc===\"1\");}\n"
	"if(form&&ops){form.kind.value=st.kind||\"\";form.bound.value=st.bound||\"\";"
	"form.q.value=st.name||\"\";}filter();if(st.op)select(st.op,true);\n"
	"d.body.setAttribute(\"data-apply-ms\",(performance.now()-t0).toFixed(1));"
	"d.body.setAttribute(\"data-ready-ms\",performance.now().toFixed(1));})();\n";

void rl_html_text(FILE *out, const char *s)
{
	rl_svg_text(out, s, 0);
}

void rl_html_begin(FILE *out, const char *title, const char *css, const char *heading)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"color-scheme\" content=\"light dark\">\n"
	      "<meta name=\"generator\" content=\"roofline " PACKAGE_VERSION "\">\n<title>",
	      out);
	rl_html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<header>\n<h1>", style,
	        css != NULL ? css : "");
	rl_html_text(out, heading);
	fputs("</h1>\n<dl class=\"meta\">\n", out);
}

void rl_html_main(FILE *out)
{
	fputs("</dl>\n</header>\n<main>\n", out);
}

int rl_html_end(FILE *out)
{
	fprintf(out, "</main>\n<script>\n%s</script>\n</body>\n</html>\n", script);
	return ferror(out) ? RL_ERR_IO : 0;
}

/* Writes LEN bytes of TEXT escaped, its line breaks kept. */
static void pre_text(FILE *out, const char *text, size_t len)
{
	size_t i = 0, j;
	char buf[513];

	/* in pieces: rl_svg_text takes a string */
	while (i < len) {
		char *p = buf, *nl;

		j = len - i < sizeof(buf) - 1 ? len - i : sizeof(buf) - 1;
		/* not inside a UTF-8 sequence */
		while (j > 1 && i + j < len && ((unsigned char)text[i + j] & 0xC0) == 0x80)
			j--;
		memcpy(buf, text + i, j);
		buf[j] = '\0';
		/* rl_svg_text turns control characters into spaces: keep the
		 * line breaks */
		while ((nl = strchr(p, '\n')) != NULL) {
			*nl = '\0';
			rl_html_text(out, p);
			fputc('\n', out);
			p = nl + 1;
		}
		rl_html_text(out, p);
		i += j;
	}
}

void rl_html_pre(FILE *out, const char *text, size_t len)
{
	fputs("<pre>", out);
	pre_text(out, text, len);
	fputs("</pre>\n", out);
}

void rl_html_lines(FILE *out, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	fputs("<ul class=\"lines\">\n", out);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl != NULL ? nl : end;

		while (p < e && (*p == ' ' || *p == '-'))
			p++;
		if (p < e) {
			fputs("<li>", out);
			pre_text(out, p, (size_t)(e - p));
			fputs("</li>\n", out);
		}
		p = e + 1;
	}
	fputs("</ul>\n", out);
}

void rl_html_meta(FILE *out, const char *key, const char *value)
{
	if (value == NULL)
		return;
	fputs("<div><dt>", out);
	rl_html_text(out, key);
	fputs("</dt><dd>", out);
	rl_html_text(out, value);
	fputs("</dd></div>\n", out);
}

void rl_html_card(FILE *out, const char *label, const char *value, const char *note)
{
	fputs("<div class=\"card\"><div class=\"l\">", out);
	rl_html_text(out, label);
	fputs("</div><div class=\"v\">", out);
	rl_html_text(out, value);
	fputs("</div>", out);
	if (note != NULL) {
		fputs("<div class=\"n\">", out);
		rl_html_text(out, note);
		fputs("</div>", out);
	}
	fputs("</div>\n", out);
}
