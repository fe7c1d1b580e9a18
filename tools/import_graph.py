#!/usr/bin/env python3
"""Draws the file-level import graph of one source folder and names its import loops.

    tools/import_graph.py src/export/word [src/import/docx/parse …] [--dot]

A node is a file of the folder (`mod` for its `mod.rs`) or a sub-folder module. A file imports
another when it names it by path: in a `use` (groups expanded) or inline (`super::runs::f()`),
as `super::…`, `crate::<folder>::…` or, in `mod.rs`, a child's bare name. A name taken from
`mod.rs` counts as an import of the file it is defined or re-exported from (`mod` when defined
there; nothing when it comes from outside the folder). Lines inside a `#[cfg(test)]` module are
marked `[test]`; they count, as the compiler counts them. Then it prints every loop: each
strongly connected group of files, with the edges that hold it together and the names each
edge imports, so a loop can be judged (a shared struct beside one of its steps, or real mutual
recursion).

Python 3.11 standard library only; it reads the sources, it does not run cargo. With `--dot` it
prints the graph in Graphviz form instead.
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

ITEM_KEYWORDS = r"(?:struct|enum|union|fn|const|static|type|trait|macro_rules!)"


def strip(src: str) -> str:
    """Blanks comments and string/char literals (keeping line breaks), so only code is read."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if src[i] == "\n":
                        out.append("\n")
                    i += 1
            continue
        m = re.match(r'b?r(#*)"', src[i:i + 260]) if c in "br" else None
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = src.find('"' + m.group(1), i + m.end())
            end = n if end < 0 else end + 1 + len(m.group(1))
            out.append('""' + "\n" * src.count("\n", i, end))
            i = end
            continue
        if c == '"' or (c == "b" and src.startswith('b"', i)):
            i += 1 if c == '"' else 2
            start = i
            while i < n and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
            out.append('""' + "\n" * src.count("\n", start, i))
            i += 1
            continue
        if c == "'":
            # A char literal ('a', '\n', '"') or a lifetime/label ('a, 'static).
            if src.startswith("\\", i + 1):
                j = i + 2
                while j < n and src[j] != "'":
                    j += 1
                out.append("' '")
                i = j + 1
                continue
            if i + 2 < n and src[i + 2] == "'":
                out.append("' '")
                i += 3
                continue
            out.append(c)
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def expand_use(tree: str) -> list[tuple[list[str], str]]:
    """`a::{b, c::{d as e}}` into ([a, b], b), ([a, c, d], e): each path and the name it binds."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree))

    def parse(s: str, prefix: list[str]) -> list[tuple[list[str], str]]:
        items, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                items.append(cur)
                cur = ""
                continue
            depth += ch == "{"
            depth -= ch == "}"
            cur += ch
        items.append(cur)
        result = []
        for item in filter(None, items):
            if "{" in item:
                head = item[: item.index("{")].rstrip(":")
                inner = item[item.index("{") + 1 : item.rindex("}")]
                result += parse(inner, prefix + [p for p in head.split("::") if p])
                continue
            path, _, alias = item.partition("@")
            segs = [p for p in path.split("::") if p]
            name = segs[-1] if segs else ""
            if name == "self":
                segs, name = segs[:-1], segs[-2] if len(segs) > 1 else ""
            result.append((prefix + segs, alias or name))
        return result

    return parse(tree, [])


class Folder:
    def __init__(self, root: Path):
        self.root = root
        src = next(p for p in [root, *root.parents] if p.name == "src")
        self.crate_path = ["crate", *root.relative_to(src).parts]
        self.nodes: dict[str, Path] = {}
        for p in sorted(root.iterdir()):
            if p.suffix == ".rs":
                self.nodes["mod" if p.stem == "mod" else p.stem] = p
            elif p.is_dir() and ((p / "mod.rs").exists() or (root / f"{p.name}.rs").exists()):
                self.nodes.setdefault(p.name, p / "mod.rs")
        self.children = set(self.nodes) - {"mod"}
        self.texts = {k: self.read(v) for k, v in self.nodes.items()}
        self.mod_names = self.names_of_mod()

    @staticmethod
    def read(path: Path) -> str:
        if path.is_dir() or not path.exists():
            return ""
        return strip(path.read_text(encoding="utf-8"))

    def names_of_mod(self) -> dict[str, str | None]:
        """Each name `mod.rs` defines or imports → the node it comes from (None: outside)."""
        text = self.texts.get("mod", "")
        names: dict[str, str | None] = {}
        for m in re.finditer(rf"\b{ITEM_KEYWORDS}\s+(\w+)", text):
            names[m.group(1)] = "mod"
        for m in re.finditer(r"\buse\s+([^;]+);", text):
            for segs, bound in expand_use(m.group(1)):
                target = self.target(segs, depth=0, node="mod")
                if bound and bound != "*":
                    names.setdefault(bound, target[0] if target else None)
        return names

    def target(self, segs: list[str], depth: int, node: str) -> tuple[str, str] | None:
        """The node a path names, seen from `node` at inline-module depth `depth`, and the name."""
        segs = [s for s in segs if s]
        if not segs:
            return None
        rest: list[str]
        if segs[0] == "crate":
            if segs[: len(self.crate_path)] != self.crate_path:
                return None
            rest = segs[len(self.crate_path) :]
        elif segs[0] in ("super", "self"):
            k = 0
            while k < len(segs) and segs[k] == "super":
                k += 1
            if segs[0] == "self":
                rest_from_self = segs[1:]
                if node != "mod" or depth:
                    return None
                rest = rest_from_self
            else:
                # From a file, `super` at depth d+1 is the folder; from mod.rs, depth d is.
                level = depth + (0 if node == "mod" else 1)
                if k != level:
                    return None
                rest = segs[k:]
        elif node == "mod" and depth == 0 and segs[0] in self.children:
            rest = segs
        else:
            return None
        if not rest:
            return None
        head = rest[0]
        if head in self.children:
            return (head, "::".join(rest[1:]) or head) if head != node else None
        if head == "*":
            return None
        origin = self.mod_names.get(head)
        if origin is None or origin == node:
            return None
        return origin, head

    def edges(self) -> dict[tuple[str, str], dict[str, bool]]:
        """(from, to) → {imported name: only under cfg(test)}."""
        found: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
        for node, text in self.texts.items():
            for start, end, depth, test in self.regions(text):
                chunk = text[start:end]
                uses = list(re.finditer(r"\buse\s+([^;]+);", chunk))
                for m in uses:
                    for segs, _ in expand_use(m.group(1)):
                        self.add(found, node, segs, depth, test)
                rest = re.sub(r"\buse\s+([^;]+);", " ", chunk)
                for m in re.finditer(r"(?<![\w:])((?:\w+::)+\w+)", rest):
                    self.add(found, node, m.group(1).split("::"), depth, test)
        return found

    def add(self, found, node, segs, depth, test):
        hit = self.target(segs, depth, node)
        if hit:
            names = found[(node, hit[0])]
            names[hit[1]] = names.get(hit[1], True) and test

    @staticmethod
    def regions(text: str):
        """Splits a file into (start, end, inline-module depth, under cfg(test)) pieces."""
        opens = []  # (brace depth inside, is_test)
        stack_depth = 0
        pieces, last = [], 0
        mod_depth, test_depth = 0, 0
        for m in re.finditer(r"(#\[cfg\(test\)\]\s*)?\bmod\s+\w+\s*\{|\{|\}", text):
            tok = m.group(0)
            if tok.endswith("{") and "mod" in tok:
                pieces.append((last, m.end(), mod_depth, test_depth > 0))
                last = m.end()
                stack_depth += 1
                is_test = m.group(1) is not None or re.search(r"\bmod\s+tests\b", tok) is not None
                opens.append((stack_depth, is_test))
                mod_depth += 1
                test_depth += is_test
            elif tok == "{":
                stack_depth += 1
            else:
                if opens and opens[-1][0] == stack_depth:
                    pieces.append((last, m.start(), mod_depth, test_depth > 0))
                    last = m.end()
                    _, is_test = opens.pop()
                    mod_depth -= 1
                    test_depth -= is_test
                stack_depth -= 1
        pieces.append((last, len(text), mod_depth, test_depth > 0))
        return pieces


def loops(nodes, edges):
    """Tarjan's strongly connected components with more than one node."""
    graph = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def short(names: dict[str, bool]) -> str:
    shown = sorted(names)
    text = ", ".join(n + (" [test]" if names[n] else "") for n in shown[:6])
    return text + (f", … ({len(shown)} names)" if len(shown) > 6 else "")


def main(argv: list[str]) -> int:
    dot = "--dot" in argv
    dirs = [a for a in argv if not a.startswith("--")]
    if not dirs:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    total = 0
    for d in dirs:
        folder = Folder(Path(d))
        edges = folder.edges()
        if dot:
            name = "/".join(folder.crate_path[1:])
            print(f'digraph "{name}" {{')
            for a, b in sorted(edges):
                test = all(edges[(a, b)].values())
                print(f'  "{a}" -> "{b}"' + (" [style=dashed]" if test else ";"))
            print("}")
            continue
        print(f"== {d}")
        for node in sorted(folder.nodes):
            outs = sorted(b for (a, b) in edges if a == node)
            print(f"  {node} -> {', '.join(outs) if outs else '(nothing in the folder)'}")
        comps = loops(folder.nodes, edges)
        total += len(comps)
        if not comps:
            print("  loops: none")
        for comp in comps:
            print(f"  loop: {' <-> '.join(comp)}")
            for a, b in sorted(edges):
                if a in comp and b in comp:
                    print(f"    {a} -> {b}: {short(edges[(a, b)])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
