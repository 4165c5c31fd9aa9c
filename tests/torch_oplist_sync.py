# torch_oplist_sync.py - what contrib/torch_oplist.py shares with the C code
# and could still drift from it (tests/cli_torch_oplist.sh runs it; no torch
# needed). The ATen table itself is one file, src/aten.def, that atenmap.c
# includes and the script reads; this checks that both take every line of it
# and that the script's own copies of C facts agree with the C:
#   - every ATEN or ATEN_TRACE line the C preprocessor would expand is one
#     the script's reader takes (read_aten_def), no name twice;
#   - so is every ATEN_CONV line (the conv rows' argument layouts);
#   - every rule the script ports (RULES) is a rule of atenmap.c's enum rule
#     and has a branch in the script's _apply; every rule aten.def names is
#     in the enum;
#   - MAX_DIMS is op.h's RL_MAX_DIMS; SIZES, the element sizes of the dtype
#     names, are dtype.c's; the columns it writes are columns of oplist.c;
#   - with ROOFLINE set (the binary), every kind aten.def names, in lower
#     case, is one `roofline classify` accepts.
# The rules' code stays code in both languages (docs/torch-oplist.md,
# "Limits"); it is tested by the cases of cli_torch_oplist.sh.
# Usage: torch_oplist_sync.py TOP_SRCDIR. Prints one line per difference;
# exits 1 when there is any.
import os
import re
import subprocess
import sys
import tempfile

top = sys.argv[1]
bad = []


def read(rel):
    with open(os.path.join(top, rel)) as f:
        return f.read()


def strip_c_comments(s):
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), s, flags=re.S)


# the script's table reader, without importing the script (which needs torch)
script = os.path.join(top, "contrib", "torch_oplist.py")
src = read("contrib/torch_oplist.py")
ns = {"os": os, "re": re, "sys": sys, "__file__": script, "__name__": "torch_oplist_sync"}
exec(src[src.index("# ---- the ATen table"):src.index("\ntry:\n    TABLE, TRACE_ONLY")], ns)
try:
    table, trace, layouts, slots = ns["read_aten_def"](os.path.join(top, "src", "aten.def"))
except ValueError as e:
    bad.append("torch_oplist.py cannot read src/aten.def: %s" % e)
    table, trace, layouts, slots = {}, set(), [], []

# what the C preprocessor expands: every ATEN( / ATEN_TRACE( outside comments
deftext = strip_c_comments(read("src/aten.def"))
c_rows = re.findall(r"\b(ATEN|ATEN_TRACE)\s*\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,", deftext)
if len(c_rows) != len(table) + len(trace):
    bad.append("src/aten.def: %d rows for the C preprocessor, %d for torch_oplist.py's reader "
               "(one op to a line, at the start of the line)" % (len(c_rows), len(table) + len(trace)))
c_conv = re.findall(r"\bATEN_CONV\s*\(\s*(\w+)\s*,", deftext)
if c_conv != layouts:
    bad.append("src/aten.def: conv layouts %s for the C preprocessor, %s for torch_oplist.py's "
               "reader" % (c_conv, layouts))

# the rules
atenmap = strip_c_comments(read("src/atenmap.c"))
m = re.search(r"enum rule \{(.*?)\};", atenmap, re.S)
c_rules = re.findall(r"\bR_(\w+)", m.group(1)) if m else []
if not c_rules:
    bad.append("src/atenmap.c: no enum rule found")
for r in sorted(set(row[3] for row in c_rows)):
    if r not in c_rules:
        bad.append("src/aten.def: rule %s is not in atenmap.c's enum rule" % r)
apply_src = src[src.index("def _apply("):]
apply_src = apply_src[:apply_src.index("\ndef ", 1)]
for r in ns["RULES"]:
    if r not in c_rules:
        bad.append("torch_oplist.py: RULES has %s, which atenmap.c's enum rule lacks" % r)
    if not re.search(r"\b%s\b" % r, apply_src):
        bad.append("torch_oplist.py: _apply has no branch for rule %s" % r)

# facts of the op-list format the script writes
m = re.search(r"#define RL_MAX_DIMS (\d+)", read("src/op.h"))
py_max = re.search(r"^MAX_DIMS = (\d+)", src, re.M)
if not m or not py_max or m.group(1) != py_max.group(1):
    bad.append("MAX_DIMS: op.h %s, torch_oplist.py %s"
               % (m and m.group(1), py_max and py_max.group(1)))
c_sizes = dict((n, int(s)) for n, s in re.findall(r'\{"(\w+)", (\d+),', read("src/dtype.c")))
py_sizes = eval(re.search(r"^SIZES = (\{.*?\})", src, re.M | re.S).group(1))
for n, s in sorted(py_sizes.items()):
    if c_sizes.get(n) != s:
        bad.append("dtype %s: %s bytes in dtype.c, %d in torch_oplist.py" % (n, c_sizes.get(n), s))
oplist_c = read("src/oplist.c")
py_cols = eval(re.search(r"^COLUMNS = (\(.*?\))", src, re.M | re.S).group(1))
for col in py_cols:
    if '"%s"' % col not in oplist_c:
        bad.append("column %s: written by torch_oplist.py, not a column of oplist.c" % col)

# the kinds, through the binary: an unknown kind's error lists them all
kinds_checked = "not checked (no ROOFLINE)"
rl = os.environ.get("ROOFLINE")
if rl and os.access(rl, os.X_OK):
    with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
        f.write("name,kind,dtype,shape\nx,no-such-kind,fp32,1\n")
        f.flush()
        p = subprocess.run([rl, "classify", f.name], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
    m = re.search(r"expected one of ([a-z0-9, ]+)\)", p.stderr)
    if not m:
        bad.append("roofline classify: no list of kinds in %r" % p.stderr.strip())
    else:
        known = set(k.strip() for k in m.group(1).split(","))
        for k in sorted(set(row[2].lower() for row in c_rows)):
            if k not in known:
                bad.append("src/aten.def: kind %s is not one roofline classify reads" % k)
        kinds_checked = "checked against %s" % os.path.basename(rl)

# not differences: trace-only ops whose rule the script has (they could be
# ported by changing ATEN_TRACE to ATEN and adding a test)
could = sorted(row[1] for row in c_rows if row[0] == "ATEN_TRACE" and row[3] in ns["RULES"])
for line in bad:
    print("# " + line)
print("# src/aten.def: %d ops, %d mapped by torch_oplist.py, %d by roofline import alone "
      "(%d of them with a rule the script has: %s); kinds %s; %d differences"
      % (len(c_rows), len(table), len(trace), len(could), " ".join(could), kinds_checked,
         len(bad)))
sys.exit(1 if bad else 0)
