#!/usr/bin/env python3
"""tests/schema/check.py - cases/schema.json against harness/caseload.c and the corpus.

The editors' schema of case files (cases/schema.json) must say what the case
loader (harness/caseload.c) accepts, no more and no less. This checks:

  1. the schema is a valid draft 2020-12 schema (against the metaschema, when
     the jsonschema module is installed) that uses only the keywords the
     validator below implements;
  2. every key list of the loader is exactly the properties of the matching
     schema object, and that object refuses other keys: each keys(...) call
     (found by its "what" text, so that a new call with a new text fails here
     until the table below knows where it is in the schema), the zone-entry
     table entry_keys and the zones each key is for, the action keys act_keys
     and the keys extra_keys allows beside each action, the answers `then`
     may hold and the actions that need `player`;
  3. the names the loader accepts are the schema's enums (steps and zones from
     engine/query.c, sectors, variants, the words of stop and result, the
     zones a spell is cast from, the event types of patterns from
     engine/vocab.c), the keys it insists on are required, and
     each key it reads with get_int, get_bool, get_str, player_index,
     step_index, int_list, str_list, counters_map or get_name has the schema
     type and integer range that reader accepts;
  4. every case file under cases/ (as the harness finds them) validates;
  5. the malformed cases of tests/malformed/ whose error is one of shape
     (an unknown key, a wrong type, a value out of range, ...) are refused.

Each check and each case file counts once; the last line is
"N passed, N failed". Needs PyYAML for 4 and 5 (skipped without it).

usage: python3 tests/schema/check.py [--root DIR] [--quiet]
"""
import argparse
import datetime
import json
import os
import re
import sys
import traceback

# ---------------------------------------------------------------------------
# results

class Results:
    def __init__(self, quiet):
        self.passed = self.failed = self.skipped = 0
        self.quiet = quiet

    def ok(self, cond, name, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s%s" % (name, ": " + detail if detail else ""))
        return cond

    def skip(self, name, why):
        self.skipped += 1
        print("SKIP %s: %s" % (name, why))

    def info(self, msg):
        if not self.quiet:
            print(msg)


class Missing(Exception):
    """Something the checks look for in the C sources is not there."""


# ---------------------------------------------------------------------------
# a validator for the part of JSON Schema (draft 2020-12) the schema uses

ANNOTATIONS = {"$schema", "$id", "title", "description", "examples", "$comment", "default"}
KEYWORDS = {"$ref", "$defs", "type", "enum", "const", "minimum", "maximum", "minLength", "maxLength",
            "pattern", "items", "minItems", "maxItems", "uniqueItems", "properties",
            "additionalProperties", "required", "dependentRequired", "minProperties", "maxProperties",
            "oneOf", "anyOf", "allOf", "not", "if", "then", "else"} | ANNOTATIONS


class _Invalid(Exception):
    pass


def json_type_ok(x, t):
    if t == "object":
        return isinstance(x, dict)
    if t == "array":
        return isinstance(x, list)
    if t == "string":
        return isinstance(x, str)
    if t == "boolean":
        return isinstance(x, bool)
    if t == "null":
        return x is None
    if t == "integer":
        return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())
    if t == "number":
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    raise ValueError("unknown type %r" % t)


def json_equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) in (int, float) and type(b) in (int, float) and a == b or \
        type(a) is type(b) and a == b


def short(x):
    s = json.dumps(x, default=str)
    return s if len(s) <= 60 else s[:57] + "..."


class Validator:
    def __init__(self, root):
        self.root = root
        self.refs = {}
        self.regex = {}
        self.quick = {}

    def target(self, ref):
        if ref not in self.refs:
            if not ref.startswith("#"):
                raise ValueError("only local $ref is supported: %s" % ref)
            node = self.root
            for part in ref[1:].split("/")[1:]:
                node = node[part.replace("~1", "/").replace("~0", "~")]
            self.refs[ref] = node
        return self.refs[ref]

    def _rejects(self, x, s):
        """A quick no from the type and the required keys of s (behind a bare $ref)."""
        q = self.quick.get(id(s))
        if q is None:
            r = s
            while isinstance(r, dict) and "$ref" in r and not set(r) - ANNOTATIONS - {"$ref"}:
                r = self.target(r["$ref"])
            t = r.get("type") if isinstance(r, dict) else None
            q = self.quick[id(s)] = ((t if isinstance(t, list) else [t]) if t else (),
                                     tuple(r.get("required", ())) if isinstance(r, dict) else ())
        types, req = q
        if types and not any(json_type_ok(x, t) for t in types):
            return True
        return bool(req) and isinstance(x, dict) and any(k not in x for k in req)

    def valid(self, x, s):
        if isinstance(s, dict) and self._rejects(x, s):
            return False
        try:
            self._v(x, s, "", None)
            return True
        except _Invalid:
            return False

    def errors(self, x, s=None):
        errs = []
        self._v(x, self.root if s is None else s, "", errs)
        return errs

    def _v(self, x, s, path, errs):
        if s is True:
            return
        if s is False:
            self._fail(errs, path, "nothing is allowed here")
            return

        def fail(msg):
            self._fail(errs, path, msg)

        if "$ref" in s:
            self._v(x, self.target(s["$ref"]), path, errs)
        if "type" in s:
            ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(json_type_ok(x, t) for t in ts):
                fail("%s is not of type %s" % (short(x), " or ".join(ts)))
                return
        if "enum" in s and not any(json_equal(x, e) for e in s["enum"]):
            fail("%s is not one of %s" % (short(x), ", ".join(map(str, s["enum"]))))
        if "const" in s and not json_equal(x, s["const"]):
            fail("%s is not %s" % (short(x), short(s["const"])))
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            if "minimum" in s and x < s["minimum"]:
                fail("%s is less than the minimum %s" % (x, s["minimum"]))
            if "maximum" in s and x > s["maximum"]:
                fail("%s is more than the maximum %s" % (x, s["maximum"]))
        if isinstance(x, str):
            if "minLength" in s and len(x) < s["minLength"]:
                fail("%s is shorter than %d" % (short(x), s["minLength"]))
            if "maxLength" in s and len(x) > s["maxLength"]:
                fail("%s is longer than %d" % (short(x), s["maxLength"]))
            if "pattern" in s:
                rx = self.regex.get(s["pattern"]) or self.regex.setdefault(s["pattern"], re.compile(s["pattern"]))
                if not rx.search(x):
                    fail("%s does not match %s" % (short(x), s["pattern"]))
        if isinstance(x, list):
            if "minItems" in s and len(x) < s["minItems"]:
                fail("fewer than %d items" % s["minItems"])
            if "maxItems" in s and len(x) > s["maxItems"]:
                fail("more than %d items" % s["maxItems"])
            if s.get("uniqueItems"):
                for i in range(len(x)):
                    if any(json_equal(x[i], x[j]) for j in range(i)):
                        fail("%s is listed twice" % short(x[i]))
                        break
            if "items" in s:
                for i, item in enumerate(x):
                    self._v(item, s["items"], "%s/%d" % (path, i), errs)
        if isinstance(x, dict):
            if "minProperties" in s and len(x) < s["minProperties"]:
                fail("fewer than %d keys" % s["minProperties"])
            if "maxProperties" in s and len(x) > s["maxProperties"]:
                fail("more than %d keys" % s["maxProperties"])
            for k in s.get("required", ()):
                if k not in x:
                    fail("'%s' is required" % k)
            for k, needs in s.get("dependentRequired", {}).items():
                if k in x:
                    for n in needs:
                        if n not in x:
                            fail("'%s' needs '%s'" % (k, n))
            props = s.get("properties", {})
            extra = s.get("additionalProperties", True)
            for k, v in x.items():
                if k in props:
                    self._v(v, props[k], "%s/%s" % (path, k), errs)
                elif extra is False:
                    fail("unknown key '%s' (allowed: %s)" % (k, ", ".join(props)))
                elif extra is not True:
                    self._v(v, extra, "%s/%s" % (path, k), errs)
        for sub in s.get("allOf", ()):
            self._v(x, sub, path, errs)
        if "anyOf" in s and not any(self.valid(x, b) for b in s["anyOf"]):
            self._none_of(x, s["anyOf"], path, errs, "anyOf")
        if "oneOf" in s:
            n = sum(1 for b in s["oneOf"] if self.valid(x, b))
            if n == 0:
                self._none_of(x, s["oneOf"], path, errs, "oneOf")
            elif n > 1:
                fail("%s matches %d of the oneOf alternatives" % (short(x), n))
        if "not" in s and self.valid(x, s["not"]):
            fail("%s matches what is excluded here%s" % (
                short(x), " (%s)" % s["not"]["description"] if "description" in s["not"] else ""))
        if "if" in s:
            if self.valid(x, s["if"]):
                if "then" in s:
                    self._v(x, s["then"], path, errs)
            elif "else" in s:
                self._v(x, s["else"], path, errs)

    def _fail(self, errs, path, msg):
        if errs is None:
            raise _Invalid()
        errs.append((path or "/", msg))

    def _none_of(self, x, alts, path, errs, kw):
        if errs is None:
            raise _Invalid()
        # explain with the alternative the value was most likely meant for:
        # one of its type whose required keys are all present
        cands = []
        for b in alts:
            r = self.target(b["$ref"]) if "$ref" in b else b
            t = r.get("type")
            if t is not None and not any(json_type_ok(x, tt) for tt in (t if isinstance(t, list) else [t])):
                continue
            if isinstance(x, dict) and not all(k in x for k in r.get("required", ())):
                continue
            cands.append(b)
        if len(cands) == 1:
            self._v(x, cands[0], path, errs)
        else:
            errs.append((path or "/", "%s matches none of the %s alternatives" % (short(x), kw)))


def subschemas(s, path="#"):
    """Every schema object of s with its JSON pointer."""
    if not isinstance(s, dict):
        return
    yield path, s
    for kw in ("properties", "$defs", "dependentSchemas"):
        for k, v in s.get(kw, {}).items():
            yield from subschemas(v, "%s/%s/%s" % (path, kw, k))
    for kw in ("additionalProperties", "items", "not", "if", "then", "else"):
        if isinstance(s.get(kw), dict):
            yield from subschemas(s[kw], "%s/%s" % (path, kw))
    for kw in ("oneOf", "anyOf", "allOf"):
        for i, v in enumerate(s.get(kw, ())):
            yield from subschemas(v, "%s/%s/%d" % (path, kw, i))


# ---------------------------------------------------------------------------
# reading the C sources

def strip_comments(src):
    def rep(m):
        t = m.group(0)
        return re.sub(r"[^\n]", " ", t) if t.startswith("/") else t
    return re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', rep, src, flags=re.S)


def c_strings(text):
    return re.findall(r'"((?:\\.|[^"\\])*)"', text)


def c_array(src, name):
    m = re.search(r"\b%s\s*\[[^\]]*\]\s*=\s*\{(.*?)\};" % re.escape(name), src, re.S)
    if not m:
        raise Missing("no array %s" % name)
    return c_strings(m.group(1))


def c_functions(src):
    """name -> body of every function defined at the start of a line."""
    out = {}
    for m in re.finditer(r"^[A-Za-z_][\w \t*]*?\b(\w+)\(([^;{}]*?)\)\s*\{", src, re.M):
        depth, i = 1, m.end()
        while depth and i < len(src):
            ch = src[i]
            if ch in "\"'":
                j = i + 1
                while j < len(src) and src[j] != ch:
                    j += 2 if src[j] == "\\" else 1
                i = j
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            i += 1
        out[m.group(1)] = src[m.end():i - 1]
    return out


def c_args(text, start):
    """The arguments of the call whose '(' is at text[start], split at top-level commas."""
    depth, args, cur, i = 0, [], "", start
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            j = i + 1
            while text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            cur += text[i:j + 1]
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                return args
        elif ch == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += ch
        i += 1
    raise Missing("unbalanced call")


def c_int(expr):
    expr = expr.strip()
    return int(expr) if re.fullmatch(r"-?\d+", expr) else None


class Loader:
    """What harness/caseload.c (with harness/caseload.h and engine/query.c) accepts."""

    def __init__(self, root):
        def read(p):
            with open(os.path.join(root, p), encoding="utf-8") as f:
                return strip_comments(f.read())
        self.src = read("harness/caseload.c")
        self.hdr = read("harness/caseload.h")
        self.query = read("engine/query.c")
        self.funcs = c_functions(self.src)
        self.engine_funcs = c_functions(self.query)

    def func(self, name):
        if name not in self.funcs:
            raise Missing("no function %s" % name)
        return self.funcs[name]

    def array(self, name, where=None):
        return c_array(self.func(where) if where else self.src, name)

    # -- zones and steps (engine/query.c)
    def zone_names(self):
        return c_array(self.query, "zone_names")

    def step_names(self):
        names = c_array(self.query, "step_names")
        parse = self.engine_funcs.get("mtg_step_parse")
        if parse is None:
            raise Missing("no mtg_step_parse in engine/query.c")
        return names + re.findall(r'strcmp\(n, "(\w+)"\)', parse)

    # -- keys(...) calls: (function, key-array expression, what texts)
    def keys_calls(self):
        calls = []
        for fname, body in self.funcs.items():
            if fname == "keys":
                continue
            for m in re.finditer(r"\bkeys\(", body):
                if body[m.start() - 1:m.start()].isalnum() or body[m.start() - 1] == "_":
                    continue
                a = c_args(body, m.end() - 1)
                if len(a) != 4:
                    raise Missing("keys() call with %d arguments in %s" % (len(a), fname))
                calls.append((fname, a[2], c_strings(a[3])))
            if re.search(r"\bymap_check_keys\(", body):
                calls.append((fname, "ymap_check_keys", ["(a direct ymap_check_keys call)"]))
        return calls

    # -- the zone-entry table: key -> set of zone names
    def entry_keys(self):
        m = re.search(r"\bentry_keys\[\]\s*=\s*\{(.*?)\};", self.src, re.S)
        if not m:
            raise Missing("no entry_keys table")
        defines = dict(re.findall(r"^#define (\w+) (.+)$", self.src, re.M))
        zones = self.zone_names()

        def mask(expr):
            out = set()
            for term in expr.split("|"):
                term = term.strip()
                b = re.fullmatch(r"ZBIT\(\s*MTG_Z_(\w+)\s*\)", term)
                if b:
                    out.add(b.group(1).lower())
                elif term in defines:
                    out |= mask(defines[term])
                elif re.fullmatch(r"0x[0-9a-fA-F]+u?|\d+u?", term):
                    v = int(term.rstrip("uU"), 0)
                    out |= {z for i, z in enumerate(zones) if v >> i & 1}
                else:
                    raise Missing("zone mask term %r" % term)
            return out
        table = {}
        for e in re.finditer(r'\{\s*"(\w+)"\s*,\s*([^,]+?)\s*,\s*(?:NULL|"[^"]*")\s*\}', m.group(1)):
            table[e.group(1)] = mask(e.group(2))
        if not table:
            raise Missing("empty entry_keys table")
        return table

    # -- actions
    def act_kinds(self):
        m = re.search(r"typedef enum\s*\{(.*?)\}\s*act_kind;", self.hdr, re.S)
        if not m:
            raise Missing("no act_kind enum in harness/caseload.h")
        kinds = [k for k in re.findall(r"\bA_\w+", m.group(1)) if k != "A_COUNT"]
        keys = self.array("act_keys")
        if len(kinds) != len(keys):
            raise Missing("act_kind has %d kinds, act_keys %d names" % (len(kinds), len(keys)))
        return dict(zip(kinds, keys)), keys

    def extra_keys(self):
        """(keys beside each top-level action, keys beside an answer in `then`)"""
        body = self.func("extra_keys")
        kind_key, keys = self.act_kinds()
        nested = re.search(r"if \(nested\) return (\w+);", body)
        default = re.findall(r"\breturn (\w+);", body)
        if not nested or not default:
            raise Missing("extra_keys: no nested or default return")
        per = {kind_key[k]: a for k, a in re.findall(r"if \(kind == (A_\w+)\) return (\w+);", body)}
        top = {k: self.array(per.get(k, default[-1]), "extra_keys") for k in keys}
        return top, self.array(nested.group(1), "extra_keys")

    def _kind_bound(self, pattern, what):
        kind_key, keys = self.act_kinds()
        m = re.search(pattern, self.func("load_action"))
        if not m:
            raise Missing("load_action: no %s" % what)
        return keys.index(kind_key[m.group(1)])

    def answer_kinds(self):
        """the actions a `then` list may hold: those after the bound load_action refuses there"""
        keys = self.act_kinds()[1]
        return keys[self._kind_bound(r"nested && j <= (A_\w+)", "bound of the actions refused in 'then'") + 1:]

    def priority_kinds(self):
        """the actions that need 'player' (outside `then`)"""
        keys = self.act_kinds()[1]
        return keys[:self._kind_bound(r"a->kind <= (A_\w+) && a->player < 0 && !nested", "'needs player' bound") + 1]

    def cast_zones(self):
        z = re.findall(r"a->from != MTG_Z_(\w+)", self.func("load_action"))
        if not z:
            raise Missing("load_action: no zones a spell is cast from")
        return [x.lower() for x in z]

    def words(self, fname, var="n->str"):
        return re.findall(r'(?:strcmp|ystr_is)\(%s, "(\w+)"\)' % re.escape(var), self.func(fname))

    # -- what each key is read with: (function, key or None, reader, args, case kinds)
    READERS = ("get_int", "get_bool", "get_str", "player_index", "step_index", "int_list", "str_list",
               "counters_map", "get_name")

    def reads(self, fname):
        body = self.func(fname)
        ev = []
        for m in re.finditer(r"\b(\w+)\s*=\s*(?:(?:[^;,=]|==)*\?\s*)?ymap_get\(\s*[\w>.\-\[\]]+\s*,\s*\"(\w+)\"\s*\)", body):
            ev.append((m.start(), "var", m.group(1), m.group(2)))
        for m in re.finditer(r'(?:strcmp|ystr_is)\((?:key|ks|k->str), "(\w+)"\)', body):
            ev.append((m.start(), "key", m.group(1), None))
        for m in re.finditer(r"\bcase (A_\w+):", body):
            ev.append((m.start(), "case", m.group(1), m.end()))
        for m in re.finditer(r"\bdefault:", body):
            ev.append((m.start(), "case", None, m.end()))
        for m in re.finditer(r"\b(%s)\(" % "|".join(self.READERS), body):
            ev.append((m.start(), "read", m.group(1), c_args(body, m.end() - 1)))
        ev.sort(key=lambda e: e[0])
        kind_key, keys = self.act_kinds()
        named = {kind_key[e[2]] for e in ev if e[1] == "case" and e[2]}
        out = []
        var, key, cases, case_end = {}, None, [], -1
        for pos, what, a, b in ev:
            if what == "var":
                var[a] = (pos, b)
            elif what == "key":
                key = (pos, a)
            elif what == "case":
                if body[case_end:pos].strip():  # not right after another case label
                    cases = []
                case_end = b
                cases += [kind_key[a]] if a else [k for k in keys if k not in named]
            elif what == "read":
                args = b
                if len(args) < 2 or args[0] != "l":
                    continue
                target = args[1]
                g = re.fullmatch(r'ymap_get\(\s*[\w>.\-\[\]]+\s*,\s*"(\w+)"\s*\)', target)
                k = None
                if g:
                    k = g.group(1)
                elif re.fullmatch(r"\w+", target):
                    vk = var.get(target)
                    if vk and (key is None or vk[0] > key[0]):
                        k = vk[1]
                    elif key is not None:
                        k = key[1]
                    elif cases and target == "v":
                        out.append((fname, None, a, args[2:], list(cases)))
                        continue
                if k:
                    out.append((fname, k, a, args[2:], None))
        return out


# ---------------------------------------------------------------------------
# the checks

def load_yaml_module():
    try:
        import yaml
    except ImportError:
        return None, None
    return yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def normal(x):
    """YAML data as JSON data: string keys, dates as text."""
    if isinstance(x, dict):
        return {("true" if k else "false") if isinstance(k, bool) else "null" if k is None else str(k): normal(v)
                for k, v in x.items()}
    if isinstance(x, list):
        return [normal(v) for v in x]
    if isinstance(x, (datetime.date, datetime.datetime, datetime.time)):
        return x.isoformat()
    if isinstance(x, bytes):
        return x.decode("latin-1")
    return x


def case_files(top):
    """The files the harness reads under top: *.yaml and *.yml but rules.yaml, no dot files."""
    out = []
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in files:
            if f.startswith(".") or f == "rules.yaml" or not (f.endswith(".yaml") or f.endswith(".yml")):
                continue
            out.append(os.path.join(d, f))
    return sorted(out)


# tests/malformed files whose error the schema must catch too (the others are
# about cards, labels, players or YAML itself, which a schema can't see)
MALFORMED_SHAPE = [
    "bad-team.yaml", "entry-key-wrong-zone.yaml", "exiled-with-without-link.yaml",
    "link-without-exiled-with.yaml", "not-a-mapping.yaml", "todo-without-reason.yaml",
    "too-deep.yaml", "unknown-action.yaml", "unknown-expected-sector.yaml", "unknown-key.yaml",
    "unknown-sector.yaml", "unknown-variant.yaml", "unquoted-rule.yaml", "variant-twice.yaml",
    "wrong-type.yaml",
]


class Checker:
    def __init__(self, root, res):
        self.root = root
        self.res = res
        with open(os.path.join(root, "cases/schema.json"), encoding="utf-8") as f:
            self.schema = json.load(f)
        self.v = Validator(self.schema)
        self.c = Loader(root)

    # -- schema navigation
    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            node = self.v.target(node["$ref"])
        return node

    def at(self, *path):
        node = self.schema
        for step in path:
            node = self.resolve(node)
            if isinstance(node, dict) and step in node:
                node = node[step]
            elif isinstance(node, list) and isinstance(step, int) and step < len(node):
                node = node[step]
            else:
                return None
        return self.resolve(node)

    def alts(self, node):
        node = self.resolve(node)
        if node is None:
            return []
        for kw in ("oneOf", "anyOf"):
            if kw in node:
                return [b for a in node[kw] for b in self.alts(a)]
        return [node]

    def object_of(self, node):
        objs = [b for b in self.alts(node) if b.get("type") == "object" and "properties" in b]
        return objs[0] if len(objs) == 1 else None

    # schema places
    SETUP = ("properties", "setup")
    PLAYER = ("properties", "setup", "properties", "players", "items")
    EXPECT = ("properties", "expect")
    STATE = EXPECT + ("properties", "state")
    PLAYER_X = STATE + ("properties", "players", "additionalProperties")
    OBJECT_X = STATE + ("properties", "objects", "additionalProperties")

    def entry(self, zone):
        return self.object_of(self.at(*self.PLAYER, "properties", zone, "items"))

    def zone_x(self, zone):
        return self.object_of(self.at(*self.PLAYER_X, "properties", zone))

    def action_branches(self, node):
        """action key -> branch of a oneOf of actions"""
        kinds = set(self.c.act_kinds()[1])
        out, bad = {}, []
        for b in self.alts(node):
            ks = [k for k in b.get("required", ()) if k in kinds]
            if len(ks) != 1:
                bad.append("an alternative requires %s, not one action key" % (ks or "none"))
            elif ks[0] in out:
                bad.append("two alternatives for '%s'" % ks[0])
            else:
                out[ks[0]] = b
        return out, bad

    def actions(self):
        return self.action_branches(self.at("properties", "actions", "items"))

    # -- named places of the keys(...) calls
    def sections(self):
        zones = self.c.array("zone_keys")
        return {
            "a case": [("the case", self.schema)],
            "setup": [("setup", self.at(*self.SETUP))],
            "a player": [("setup player", self.object_of(self.at(*self.PLAYER)))],
            "expect": [("expect", self.at(*self.EXPECT))],
            "state": [("expect.state", self.at(*self.STATE))],
            "a player's expectations": [("player expectations", self.object_of(self.at(*self.PLAYER_X)))],
            "an object's expectations": [("object expectations", self.object_of(self.at(*self.OBJECT_X)))],
            "result": [("expect.state.result", self.object_of(self.at(*self.STATE, "properties", "result")))],
            "stop": [("stop", self.object_of(self.at("properties", "stop")))],
            "zone contents": [("player expectations %s" % z, self.zone_x(z)) for z in zones],
        }

    def keyset(self, name, obj, want, required=()):
        r = self.res
        if obj is None or not isinstance(obj.get("properties"), dict):
            return r.ok(False, "keys of %s" % name, "no object with properties at that place of the schema")
        have = set(obj["properties"])
        want = set(want)
        detail = []
        if want - have:
            detail.append("the loader accepts %s, the schema does not list them" % sorted(want - have))
        if have - want:
            detail.append("the schema lists %s, the loader refuses them" % sorted(have - want))
        if obj.get("additionalProperties") is not False:
            detail.append("the loader refuses other keys: the schema needs additionalProperties: false")
        if set(obj.get("required", ())) != set(required):
            detail.append("required is %s, the loader needs %s" % (sorted(obj.get("required", ())), sorted(required)))
        return r.ok(not detail, "keys of %s" % name, "; ".join(detail))

    # -- 1. the schema itself
    def check_schema(self):
        r = self.res
        try:
            import jsonschema
        except ImportError:
            jsonschema = None
        if jsonschema is None:
            r.skip("schema metaschema", "no jsonschema module; the keyword check below still runs")
        else:
            try:
                jsonschema.Draft202012Validator.check_schema(self.schema)
                r.ok(True, "schema metaschema")
            except jsonschema.exceptions.SchemaError as e:
                r.ok(False, "schema metaschema", e.message)
        r.ok(self.schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema",
             "schema draft", "cases/schema.json must declare draft 2020-12 (the validator here implements it)")
        unknown = sorted({"%s: %s" % (p, k) for p, s in subschemas(self.schema) for k in s if k not in KEYWORDS})
        r.ok(not unknown, "schema keywords", "not implemented by tests/schema/check.py: %s" % ", ".join(unknown[:5]))
        broken = []
        for p, s in subschemas(self.schema):
            if "$ref" in s:
                try:
                    self.v.target(s["$ref"])
                except (KeyError, TypeError, ValueError):
                    broken.append("%s -> %s" % (p, s["$ref"]))
        r.ok(not broken, "schema references", ", ".join(broken))

    # -- 2. key lists
    def check_keys(self):
        r = self.res
        c = self.c
        sections = self.sections()
        required = {
            "a case": self.c.array("required", "load_case"),
            "setup": self.needs("setup needs 'players'", "players"),
            "a player": self.needs("a player needs a 'name'", "name"),
            "stop": self.needs("stop needs 'step'", "step"),
        }
        seen = set()
        for fname, arr, whats in c.keys_calls():
            if arr == "allowed" and fname in ("entry_keys_check", "load_action"):
                continue  # computed lists, checked below
            what = " / ".join(whats)
            if what not in sections:
                r.ok(False, "keys() call in %s" % fname,
                     "'%s' (%s): tests/schema/check.py does not know where these keys are in the schema" % (what, arr))
                continue
            seen.add(what)
            try:
                want = c.array(arr, fname) if re.search(r"\b%s\s*\[" % arr, c.func(fname)) else c.array(arr)
            except Missing as e:
                r.ok(False, "keys() call in %s" % fname, str(e))
                continue
            for name, obj in sections[what]:
                self.keyset(name, obj, want, required.get(what, ()))
        for what in sections:
            r.ok(what in seen, "keys() call for %s" % what, "harness/caseload.c no longer checks these keys")

        # zone entries
        zones = c.array("zone_keys")
        table = c.entry_keys()
        need_card = self.needs("a card entry needs 'card'", "card")
        for z in zones:
            ent = self.entry(z)
            self.keyset("setup %s entries" % z, ent, [k for k, zs in table.items() if z in zs], need_card)
            if ent is not None:
                dep = ent.get("dependentRequired", {})
                for msg, a, b in (("exiled_with needs 'link'", "exiled_with", "link"),
                                  ("'link' goes with 'exiled_with'", "link", "exiled_with")):
                    if a in ent["properties"] and msg in c.func("setup_entry"):
                        r.ok(b in dep.get(a, ()), "setup %s entries: %s" % (z, a),
                             "the loader refuses %s without %s: dependentRequired" % (a, b))
                if "copies" in ent["properties"] and "label" in ent["properties"]:
                    r.ok(self.v.valid({"card": "x", "copies": 1}, ent) and
                         not self.v.valid({"card": "x", "copies": 2, "label": "a"}, ent),
                         "setup %s entries: copies and label" % z, "the loader refuses them together")
        bare = [z for z in zones if not any(self.v.valid("Forest", b) for b in
                                            self.alts(self.at(*self.PLAYER, "properties", z, "items")))]
        r.ok(not bare, "setup zone entries as names", "no plain card name in %s" % bare)

        # actions
        top, sub = c.extra_keys()
        branches, bad = self.actions()
        r.ok(not bad, "actions: one alternative per action", "; ".join(bad))
        keys = c.act_kinds()[1]
        r.ok(set(branches) == set(keys), "actions: the action keys",
             "loader %s, schema %s" % (sorted(set(keys) - set(branches)), sorted(set(branches) - set(keys))))
        prio = c.priority_kinds()
        for k in keys:
            if k in branches:
                self.keyset("action %s" % k, branches[k], [k] + top[k], [k] + (["player"] if k in prio else []))
        answer_kinds = c.answer_kinds()
        for holder in ("cast", "activate"):
            if "then" not in top.get(holder, ()):
                continue
            then = self.resolve(branches.get(holder, {}).get("properties", {}).get("then"))
            ans, bad = self.action_branches(then.get("items") if then else None)
            r.ok(not bad and set(ans) == set(answer_kinds), "answers in %s then" % holder,
                 "; ".join(bad) or "loader %s, schema %s" % (sorted(answer_kinds), sorted(ans)))
            for k in answer_kinds:
                if k in ans:
                    self.keyset("answer %s in %s then" % (k, holder), ans[k], [k] + sub, [k])

        # event patterns: the reserved keys, other keys are fields
        reserved = [w for w in c.words("load_pattern", "k->str") if w != "sequence"]
        for name, node in (("event pattern", self.at(*self.EXPECT, "properties", "absent", "items")),
                           ("count pattern", self.at(*self.EXPECT, "properties", "count", "items"))):
            props = set((node or {}).get("properties", {}))
            r.ok(props == set(reserved) and (node or {}).get("additionalProperties") not in (None, False, True),
                 "keys of %s" % name, "reserved keys: loader %s, schema %s; other keys are fields" % (
                     sorted(reserved), sorted(props)))
        seq = [b for b in self.alts(self.at(*self.EXPECT, "properties", "events", "items"))
               if "sequence" in b.get("required", ())]
        if "a sequence block has only the key 'sequence'" in c.func("load_events"):
            self.keyset("sequence block", seq[0] if len(seq) == 1 else None, ["sequence"], ["sequence"])
        count = self.at(*self.EXPECT, "properties", "count", "items")
        if "a count pattern needs 'times'" in c.func("load_pattern"):
            r.ok("times" in (count or {}).get("required", ()), "count pattern requires times")

        # the case: status and reason go together
        dep = self.schema.get("dependentRequired", {})
        lc = c.func("load_case")
        if "a todo case needs a 'reason'" in lc:
            r.ok("reason" in dep.get("status", ()), "status needs reason", "dependentRequired status: [reason]")
        if "'reason' goes with 'status: todo'" in lc:
            r.ok("status" in dep.get("reason", ()), "reason needs status", "dependentRequired reason: [status]")

    def needs(self, message, key):
        return [key] if message in self.c.src else []

    # -- 3. names and value shapes
    def enum_of(self, node):
        vals = []
        for b in self.alts(node):
            if "enum" in b:
                vals += b["enum"]
            elif "const" in b:
                vals.append(b["const"])
            elif "items" in b and b.get("type") == "array":
                vals += self.enum_of(b["items"])
        return vals

    def check_enum(self, name, node, want):
        have = self.enum_of(node) if node is not None else None
        self.res.ok(have is not None and sorted(map(str, have)) == sorted(want), "names of %s" % name,
                    "loader %s, schema %s" % (sorted(want), have))

    def check_names(self):
        c = self.c
        steps = c.step_names()
        branches, _ = self.actions()
        bf = self.entry("battlefield")
        for name, node in (("setup step", self.at(*self.SETUP, "properties", "step")),
                           ("advance", branches.get("advance", {}).get("properties", {}).get("advance")),
                           ("expect.state step", self.at(*self.STATE, "properties", "step")),
                           ("stop step", (self.object_of(self.at("properties", "stop")) or {})
                            .get("properties", {}).get("step"))):
            self.check_enum(name, node, steps)
        stop = self.at("properties", "stop")
        self.check_enum("stop", {"anyOf": [b for b in self.alts(stop) if b.get("type") != "object"]},
                        c.words("load_stop") + steps)
        result = self.at(*self.STATE, "properties", "result")
        self.check_enum("result", {"anyOf": [b for b in self.alts(result) if b.get("type") != "object"]},
                        c.words("load_result"))
        self.check_enum("object zone", (self.object_of(self.at(*self.OBJECT_X)) or {}).get("properties", {}).get("zone"),
                        c.zone_names())
        sectors = c.array("sector_names")
        self.check_enum("setup sector", (bf or {}).get("properties", {}).get("sector"), sectors)
        self.check_enum("expected sector", (self.object_of(self.at(*self.OBJECT_X)) or {}).get("properties", {})
                        .get("sector"), sectors)
        variants = self.at(*self.SETUP, "properties", "variants")
        self.check_enum("variants", variants, c.array("variant_names"))
        if "is listed twice" in c.func("load_variants"):
            self.res.ok(bool((variants or {}).get("uniqueItems")), "variants listed once", "uniqueItems: true")
        self.check_enum("cast from", branches.get("cast", {}).get("properties", {}).get("from"), c.cast_zones())
        # the event types a pattern may name: the engine's vocabulary (engine/vocab.c)
        with open(os.path.join(self.root, "engine", "vocab.c"), encoding="utf-8") as f:
            types = re.findall(r'^\s*\{"([a-z_]+)", "[^"]*", [01]\},', f.read(), re.M)
        for name in ("pattern", "count_pattern"):
            self.check_enum("%s type" % name, self.schema["$defs"].get(name, {}).get("properties", {}).get("type"), types)

    def places(self, fname, key, kinds):
        """(name, schema node) of a key read by function fname"""
        c = self.c
        out = []

        def prop(name, obj, k):
            if obj is not None and k in obj.get("properties", {}):
                out.append((name, obj["properties"][k]))
        if fname == "load_case":
            prop("the case", self.schema, key)
        elif fname == "load_setup":
            prop("setup", self.at(*self.SETUP), key)
            prop("setup player", self.object_of(self.at(*self.PLAYER)), key)
        elif fname == "setup_entry":
            for z in c.array("zone_keys"):
                prop("setup %s entries" % z, self.entry(z), key)
        elif fname in ("load_action", "add_subs", "action_value"):
            branches, _ = self.actions()
            for k, b in branches.items():
                if fname == "add_subs" and k not in ("cast", "activate"):
                    continue
                if kinds is not None:
                    if k in kinds:
                        prop("action %s" % k, b, k)
                else:
                    prop("action %s" % k, b, key)
                if k in ("cast", "activate") and "then" in b.get("properties", {}):
                    then = self.resolve(b["properties"]["then"])
                    for a, ab in self.action_branches(then.get("items"))[0].items():
                        if kinds is not None:
                            if a in kinds:
                                prop("answer %s" % a, ab, a)
                        elif fname == "load_action":
                            prop("answer %s" % a, ab, key)
        elif fname == "load_players_x":
            prop("player expectations", self.object_of(self.at(*self.PLAYER_X)), key)
        elif fname == "load_objects_x":
            prop("object expectations", self.object_of(self.at(*self.OBJECT_X)), key)
        elif fname == "load_state":
            prop("expect.state", self.at(*self.STATE), key)
        elif fname == "load_result":
            prop("expect.state.result", self.object_of(self.at(*self.STATE, "properties", "result")), key)
        elif fname == "load_stop":
            prop("stop", self.object_of(self.at("properties", "stop")), key)
        elif fname == "zone_expect":
            for z in c.array("zone_keys"):
                prop("player expectations %s" % z, self.zone_x(z), key)
        elif fname == "load_pattern":
            prop("count pattern", self.at(*self.EXPECT, "properties", "count", "items"), key)
            prop("event pattern", self.at(*self.EXPECT, "properties", "absent", "items"), key)
        return out

    def types_of(self, node):
        ts = set()
        for b in self.alts(node):
            t = b.get("type")
            if t is not None:
                ts |= set(t if isinstance(t, list) else [t])
            elif "enum" in b or "const" in b:
                for v in b.get("enum", []) + ([b["const"]] if "const" in b else []):
                    ts.add("boolean" if isinstance(v, bool) else "string" if isinstance(v, str) else
                           "integer" if isinstance(v, int) else "other")
            else:
                ts.add("any")
        return ts

    def text(self, node, ts):
        """node takes what the loader reads as text: any scalar (YAML types `7` or `yes`, the
        loader reads them as written), or the names of an enum it checks the text against"""
        if all("enum" in b or "const" in b for b in self.alts(node) if b.get("type") != "array"):
            return ts - {"array"} == {"string"}
        return {"string", "number", "boolean"} <= ts - {"array"} <= {"string", "number", "boolean", "null"}

    SCALAR = {"string", "number", "boolean", "null"}

    def shape(self, reader, args, node, pname):
        """'' when node accepts what reader reads, else why not"""
        ts = self.types_of(node)

        def rng(b, lo, hi):
            lo, hi = c_int(lo) if isinstance(lo, str) else lo, c_int(hi) if isinstance(hi, str) else hi
            got = (b.get("minimum"), b.get("maximum"))
            if (lo is not None and got[0] != lo) or (hi is not None and got[1] != hi):
                return "range %s to %s, the loader reads %s to %s" % (got[0], got[1], lo, hi)
            return ""
        if reader == "get_int":
            if ts != {"integer"}:
                return "types %s, the loader reads an integer" % sorted(ts)
            lo = args[0]
            m = re.fullmatch(r"\w+\s*\?\s*(-?\d+)\s*:\s*(-?\d+)", lo.strip())
            if m:  # need_times ? A : B: A for count patterns
                lo = m.group(1) if pname == "count pattern" else m.group(2)
            return next((e for e in (rng(b, lo, args[1]) for b in self.alts(node)) if e), "")
        if reader == "int_list":
            if ts != {"integer", "array"}:
                return "types %s, the loader reads an integer or a list of them" % sorted(ts)
            for b in self.alts(node):
                e = rng(b if b.get("type") == "integer" else self.resolve(b.get("items", {})), args[0], args[1])
                if e:
                    return e
            return ""
        if reader == "get_bool":
            return "" if ts == {"boolean"} else "types %s, the loader reads true or false" % sorted(ts)
        if reader in ("get_str", "player_index"):
            return "" if ts <= self.SCALAR and self.text(node, ts) else \
                "types %s, the loader reads any scalar as text" % sorted(ts)
        if reader == "str_list":
            arrays = [b for b in self.alts(node) if b.get("type") == "array"]
            items = [self.types_of(b.get("items", {})) for b in arrays]
            if len(arrays) != 1 or not self.text(node, ts) or not self.text(arrays[0]["items"], items[0]):
                return "types %s (list items %s), the loader reads text or a list of text" % (sorted(ts), items)
            return ""
        if reader == "step_index":
            have = sorted(map(str, self.enum_of(node)))
            return "" if have == sorted(self.c.step_names()) else "steps %s" % have
        if reader == "get_name":
            want = sorted(self.c.array(args[0].strip()))
            have = sorted(map(str, self.enum_of(node)))
            return "" if have == want else "names %s, the loader reads %s" % (have, want)
        if reader == "counters_map":
            cm = self.c.func("counters_map")
            m = re.search(r"get_int\(l, ymap_val\(n, i\), (-?\d+), (-?\d+),", cm)
            obj = self.resolve(node)
            if obj.get("type") != "object" or not isinstance(obj.get("additionalProperties"), dict):
                return "not a mapping of counter kinds to numbers"
            val = self.resolve(obj["additionalProperties"])
            return rng(val, m.group(1), m.group(2)) if m else "counters_map: no get_int of the numbers"
        return ""

    def check_shapes(self):
        r = self.res
        fnames = ["load_case", "load_setup", "setup_entry", "load_action", "add_subs", "action_value",
                  "load_players_x", "load_objects_x", "load_state", "load_result", "load_stop", "zone_expect",
                  "load_pattern"]
        n = 0
        for fname in fnames:
            for _, key, reader, args, kinds in self.c.reads(fname):
                for pname, node in self.places(fname, key, kinds):
                    n += 1
                    why = self.shape(reader, args, node, pname)
                    label = key if key else "/".join(kinds)
                    r.ok(not why, "value of %s: %s" % (pname, label), "%s (%s in %s)" % (why, reader, fname))
        # a floor, so that a change of the loader's style that hides the reads fails here
        r.ok(n >= 80, "value shapes found", "only %d reads of keys found in harness/caseload.c" % n)
        return n

    # -- 4 and 5. the corpus and the malformed cases
    def check_cases(self):
        r = self.res
        yaml, loader = load_yaml_module()
        if yaml is None:
            r.skip("case files", "no PyYAML (python3-yaml): the corpus is not validated")
            return 0, 0
        files = case_files(os.path.join(self.root, "cases"))
        ndocs = 0
        docs = []
        for f in files:
            rel = os.path.relpath(f, self.root)
            try:
                with open(f, encoding="utf-8") as fh:
                    # an empty document is skipped, as the harness skips it
                    items = [normal(d) for d in yaml.load_all(fh, Loader=loader) if d is not None]
            except (yaml.YAMLError, UnicodeDecodeError) as e:
                r.ok(False, rel, "not YAML the schema can read: %s" % str(e).replace("\n", " "))
                continue
            problems = []
            for i, d in enumerate(items):
                ndocs += 1
                docs.append(d)
                for path, msg in self.v.errors(d):
                    cid = d.get("id") if isinstance(d, dict) else None
                    problems.append("document %d%s at %s: %s" % (i + 1, " (%s)" % cid if cid else "", path, msg))
            more = " (and %d more)" % (len(problems) - 4) if len(problems) > 4 else ""
            r.ok(not problems, rel, "; ".join(problems[:4]) + more)
        bad = []
        mdir = os.path.join(self.root, "tests", "malformed")
        found = 0
        for name in MALFORMED_SHAPE:
            p = os.path.join(mdir, name)
            if not os.path.exists(p):
                continue
            found += 1
            with open(p, encoding="utf-8") as fh:
                items = [normal(d) for d in yaml.load_all(fh, Loader=loader)]
            if all(self.v.valid(d, self.schema) for d in items):
                bad.append(name)
            docs += items
        r.ok(found and not bad, "malformed cases refused by the schema",
             "accepted: %s" % ", ".join(bad) if bad else "none of them found in tests/malformed")
        self.cross_check(docs)
        return len(files), ndocs

    def cross_check(self, docs):
        """The validator here and the jsonschema module agree (on a sample, for speed)."""
        try:
            import jsonschema
        except ImportError:
            return
        js = jsonschema.Draft202012Validator(self.schema)
        sample = docs[::10] + docs[-len(MALFORMED_SHAPE):]
        differ = [str(d.get("id") if isinstance(d, dict) else d)[:40] for d in sample
                  if js.is_valid(d) != self.v.valid(d, self.schema)]
        self.res.ok(not differ, "validator agrees with jsonschema", "on %s" % ", ".join(differ[:5]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    res = Results(a.quiet)
    try:
        ch = Checker(os.path.abspath(a.root), res)
        ch.check_schema()
        ch.check_keys()
        ch.check_names()
        nreads = ch.check_shapes()
        nfiles, ndocs = ch.check_cases()
        res.info("schema: %d reads of keys compared, %d case files (%d cases) validated" % (nreads, nfiles, ndocs))
    except Missing as e:
        res.ok(False, "reading harness/caseload.c", "%s: tests/schema/check.py needs updating" % e)
    except (OSError, ValueError) as e:
        res.ok(False, "reading the schema", str(e))
    except Exception:  # a schema or loader shape the checks did not expect
        traceback.print_exc(file=sys.stdout)
        res.ok(False, "checking", "stopped by the error above")
    if res.skipped:
        print("%d passed, %d failed, %d skipped" % (res.passed, res.failed, res.skipped))
    else:
        print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
