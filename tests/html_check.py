#!/usr/bin/env python3
"""html_check.py - checks of roofline's html pages for tests/cli_html.sh.

  html_check.py validate PAGE...     each page parses as HTML5 without one
                                     parse error (html5lib, strict); exit 77
                                     when html5lib is not installed
  html_check.py cells PAGE CSV ID    the table ID of PAGE holds, row by row,
                                     every cell of CSV under the same heading
  html_check.py dom DOM COL ORDER KIND
                                     a page as Chromium left it (--dump-dom)
                                     after the view #sort=COL&desc=..&kind=KIND:
                                     the op table's rows shown are all of KIND,
                                     in ORDER (asc or desc) of COL, and as many
                                     as the page says
  html_check.py png PNG              a screenshot that is not blank: many
                                     colours, and a tenth of it not background

Only the standard library but for html5lib (python3-html5lib).
"""
import csv
import html.parser
import re
import struct
import sys
import zlib


def fail(msg):
    print("html_check: " + msg, file=sys.stderr)
    sys.exit(1)


def validate(pages):
    try:
        import html5lib
    except ImportError:
        print("html_check: html5lib is not installed (python3-html5lib)", file=sys.stderr)
        sys.exit(77)
    for page in pages:
        parser = html5lib.HTMLParser(strict=True)
        with open(page, "rb") as f:
            data = f.read()
        try:
            parser.parse(data)
        except html5lib.html5parser.ParseError:
            pos, code, args = parser.errors[0]
            fail("%s:%d:%d: %s %s" % (page, pos[0], pos[1], code, args or ""))


class Tables(html.parser.HTMLParser):
    """The rows of one table (by id) as lists of cell texts, with each row's
    attributes; cells end where the next begins (their end tags are
    optional)."""

    def __init__(self, table_id):
        super().__init__(convert_charrefs=True)
        self.want = table_id
        self.depth = 0  # tables open inside the one wanted
        self.inside = False
        self.rows = []  # (attrs, [cells])
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            if self.inside:
                self.depth += 1
            elif a.get("id") == self.want:
                self.inside = True
            return
        if not self.inside or self.depth:
            return
        if tag == "tr":
            self.rows.append((a, []))
            self.cell = None
        elif tag in ("td", "th") and self.rows:
            self.cell = []
            self.rows[-1][1].append(self.cell)

    def handle_endtag(self, tag):
        if tag == "table" and self.inside:
            if self.depth:
                self.depth -= 1
            else:
                self.inside = False
        elif tag in ("td", "th", "tr"):
            self.cell = None

    def handle_data(self, data):
        if self.inside and not self.depth and self.cell is not None:
            self.cell.append(data)


def table(page, table_id):
    with open(page, encoding="utf-8") as f:
        p = Tables(table_id)
        p.feed(f.read())
        p.close()
    rows = [(a, ["".join(c) for c in cells]) for a, cells in p.rows]
    if not rows:
        fail("%s: no table '%s'" % (page, table_id))
    return rows


def cells(page, csv_path, table_id):
    rows = table(page, table_id)
    head = rows[0][1]
    with open(csv_path, newline="", encoding="utf-8") as f:
        want = list(csv.reader(f))
    if len(rows) - 1 != len(want) - 1:
        fail("%s: %d rows in table %s, %d in %s" % (page, len(rows) - 1, table_id,
                                                   len(want) - 1, csv_path))
    where = {}
    for name in want[0]:
        if name not in head:
            fail("%s: table %s has no column '%s'" % (page, table_id, name))
        where[name] = head.index(name)
    checked = 0
    for i, (row, (_, got)) in enumerate(zip(want[1:], rows[1:]), start=2):
        for name, value in zip(want[0], row):
            have = got[where[name]] if where[name] < len(got) else None
            if have != value:
                fail("%s:%d: column %s: html '%s', csv '%s'" % (csv_path, i, name, have, value))
            checked += 1
    print("%d cells match" % checked)


def dom(page, col, order, kind):
    rows = table(page, "op-table")
    head = rows[0][1]
    if col not in head:
        fail("%s: no column %s" % (page, col))
    c = head.index(col)
    shown = [(a, r) for a, r in rows[1:] if "hidden" not in a and
             "more" not in a.get("class", "").split()]
    if not shown:
        fail("%s: no row shown" % page)
    bad = [r[0] for a, r in shown if a.get("data-kind") != kind]
    if bad:
        fail("%s: rows of another kind than %s shown: %s" % (page, kind, bad[:3]))
    matching = sum(1 for a, r in rows[1:] if a.get("data-kind") == kind)
    limit = None
    with open(page, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'data-rows="(\d+)"', text)
    if m:
        limit = int(m.group(1))
    if len(shown) != min(matching, limit or matching):
        fail("%s: %d rows shown, %d of kind %s (the first %s)" % (page, len(shown), matching,
                                                                kind, limit))
    count = re.search(r'id="op-count"[^>]*>([^<]*)<', text)
    if count is None or not count.group(1).startswith("%d of %d ops match" %
                                                     (matching, len(rows) - 1)):
        fail("%s: the count says '%s'" % (page, count.group(1) if count else None))
    vals = [float(r[c]) if r[c] not in ("", "inf") else float("inf") for a, r in shown]
    if vals != sorted(vals, reverse=(order == "desc")):
        fail("%s: column %s not in %s order: %s" % (page, col, order, vals[:8]))
    # every row kept its cells: the sort moves rows, it does not rebuild them
    for a, r in rows[1:]:
        if len(r) != len(head):
            fail("%s: a row of %d cells under %d headings" % (page, len(r), len(head)))
    for key in ("data-ready-ms", "data-apply-ms"):
        m = re.search(key + r'="([0-9.]+)"', text)
        if m is None:
            fail("%s: the script did not run to its end (no %s)" % (page, key))
        print("%s %s" % (key, m.group(1)))
    print("%d rows shown, sorted %s by %s" % (len(shown), order, col))


def png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s: not a PNG" % path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                fail("%s: not 8-bit RGB(A) without interlace" % path)
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = {}
    at = 0
    for y in range(h):
        f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if y % 4 == 0:  # a sample of the rows is enough
            for x in range(0, stride, bpp * 2):
                px = bytes(line[x:x + 3])
                colours[px] = colours.get(px, 0) + 1
    total = sum(colours.values())
    background = max(colours.values())
    if len(colours) < 16 or (total - background) < total / 10:
        fail("%s: looks blank: %d colours, %.1f %% not the background" %
             (path, len(colours), 100.0 * (total - background) / total))
    print("%d colours, %.1f %% not the background" %
          (len(colours), 100.0 * (total - background) / total))


def main(argv):
    if len(argv) >= 2 and argv[0] == "validate":
        validate(argv[1:])
    elif len(argv) == 4 and argv[0] == "cells":
        cells(argv[1], argv[2], argv[3])
    elif len(argv) == 5 and argv[0] == "dom":
        dom(argv[1], argv[2], argv[3], argv[4])
    elif len(argv) == 2 and argv[0] == "png":
        png(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
