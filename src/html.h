/* html.h - the page every html output is one of: a self-contained HTML5
 * document (styles and script inline, no network, no fonts), whose content
 * is plain HTML tables and inline SVG that read without the script; the
 * script only sorts the tables, filters the op table, links the chart's
 * points to the table's rows, zooms the timeline, and keeps that view in
 * the address's fragment (docs/html.md). Writers call begin, write their
 * sections, and end. The FILE stays the caller's.
 */
#ifndef RL_HTML_H
#define RL_HTML_H

#include <stdio.h>

/* Writes the document's head (doctype, charset, the inline style and CSS,
 * when not NULL, after it; TITLE as the page's title) and opens its body
 * and its header, whose heading is HEADING. */
void rl_html_begin(FILE *out, const char *title, const char *css, const char *heading);

/* A key and its value in the header's list: <dt>KEY</dt><dd>VALUE</dd>,
 * VALUE escaped. Nothing when VALUE is NULL. */
void rl_html_meta(FILE *out, const char *key, const char *value);

/* Closes the header and opens the main element, whose sections follow. */
void rl_html_main(FILE *out);

/* Closes main, writes the inline script and closes the document. Returns 0
 * or RL_ERR_IO when OUT has an error. */
int rl_html_end(FILE *out);

/* Writes S as HTML text (safe in attribute values too): & < > " ' as
 * references, control characters as spaces, invalid UTF-8 as U+FFFD. */
void rl_html_text(FILE *out, const char *s);

/* Writes TEXT (LEN bytes) as the content of a <pre>, escaped. */
void rl_html_pre(FILE *out, const char *text, size_t len);

/* Writes TEXT (LEN bytes) as a list, an item per line (blank lines and
 * the lines' leading blanks dropped), escaped. */
void rl_html_lines(FILE *out, const char *text, size_t len);

/* One headline figure of a summary: a box with LABEL above VALUE (both
 * escaped) and NOTE (escaped; NULL: none) below. */
void rl_html_card(FILE *out, const char *label, const char *value, const char *note);

#endif
