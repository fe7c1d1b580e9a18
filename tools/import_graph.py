#!/usr/bin/env python3
"""Draws the file-level import graph of one source folder and names its import loops.

    tools/import_graph.py src/export/word [src/import/docx/parse …] [--dot] [--check]

A node is a file of the folder (`mod` for its `mod.rs`) or a sub-folder (all its files). A file
imports another when it names it by path, in a `use` (groups expanded) or inline
(`super::runs::f()`): every `crate::…`, `super::…`, `self::…` path, and a path starting with a
module the file declares, is resolved to its absolute module path. A name taken from the
folder's `mod.rs` counts as an import of the file it is defined in or re-exported from (`mod`
when defined there; nothing when it comes from outside the folder). Paths inside a
`#[cfg(test)]` module count too (the compiler counts them) and are marked `[test]`. Method
calls are not imports: a step calling another step's method on a shared struct adds no edge.

It prints each node's imports, then every loop: each strongly connected group of files, with
the edges that hold it together and the names each edge imports, so a loop can be judged (a
shared struct living beside one of its steps, or real mutual recursion). With `--dot` it
prints Graphviz instead; with `--check` it exits 1 when a folder has a loop. Python 3.11
standard library only; it reads the sources, no cargo.
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


def regions(text: str):
    """Splits a file into (start, end, inline modules open, under cfg(test)) pieces."""
    pieces, last = [], 0
    stack = []  # (brace depth inside, module name, is_test)
    depth = 0

    def mods():
        return [name for _, name, _ in stack]

    def tested():
        return any(t for _, _, t in stack)

    for m in re.finditer(r"(#\[cfg\(test\)\]\s*)?\bmod\s+(\w+)\s*\{|\{|\}", text):
        if m.group(2):
            pieces.append((last, m.end(), mods(), tested()))
            last = m.end()
            depth += 1
            stack.append((depth, m.group(2), m.group(1) is not None or m.group(2) == "tests"))
        elif m.group(0) == "{":
            depth += 1
        else:
            if stack and stack[-1][0] == depth:
                pieces.append((last, m.start(), mods(), tested()))
                last = m.end()
                stack.pop()
            depth -= 1
    pieces.append((last, len(text), mods(), tested()))
    return pieces


class Folder:
    """One folder's files, each file's module path, and the paths they name."""

    def __init__(self, root: Path):
        self.root = root
        src = next(p for p in [root.resolve(), *root.resolve().parents] if p.name == "src")
        self.src = src
        self.path = ["crate", *root.resolve().relative_to(src).parts]
        # Every .rs file under the folder, by the node it belongs to: a file of the folder is
        # its own node (`mod.rs` is `mod`), a sub-folder's files are the sub-folder's node.
        self.files: list[tuple[str, Path]] = []
        self.nodes: set[str] = set()
        for p in sorted(root.rglob("*.rs")):
            rel = p.relative_to(root).parts
            node = "mod" if rel == ("mod.rs",) else Path(rel[0]).stem
            self.nodes.add(node)
            self.files.append((node, p))
        self.children = self.nodes - {"mod"}
        self.mod_names = self.names_of_mod()

    def module_of(self, path: Path) -> list[str]:
        """The module path of a file: `src/a/b/mod.rs` and `src/a/b.rs` are `crate::a::b`."""
        parts = list(path.resolve().relative_to(self.src).with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts.pop()
        return ["crate", *parts]

    def resolve(self, segs: list[str], module: list[str], children: set[str]) -> list[str] | None:
        """The absolute path `segs` names from `module`, or None (another crate, a local)."""
        if not segs:
            return None
        if segs[0] == "crate":
            return segs
        if segs[0] == "self":
            return module + segs[1:]
        if segs[0] == "super":
            k = 0
            while k < len(segs) and segs[k] == "super":
                k += 1
            return module[: len(module) - k] + segs[k:] if k < len(module) else None
        if segs[0] in children:
            return module + segs
        return None

    def node_of(self, absolute: list[str]) -> tuple[str, str] | None:
        """The node of the folder an absolute path lands in, and the name it takes there."""
        n = len(self.path)
        if absolute[:n] != self.path or len(absolute) == n:
            return None
        head, rest = absolute[n], absolute[n + 1 :]
        if head in self.children:
            return head, "::".join(rest) or head
        if head in ("*", "self"):
            return None
        origin = self.mod_names.get(head)
        return (origin, head) if origin else None

    def names_of_mod(self) -> dict[str, str | None]:
        """Each name the folder's `mod.rs` defines or imports → the node it comes from."""
        mod_rs = self.root / "mod.rs"
        if not mod_rs.exists():
            return {}
        text = strip(mod_rs.read_text(encoding="utf-8"))
        top = regions(text)[0]
        names: dict[str, str | None] = {}
        for m in re.finditer(rf"\b{ITEM_KEYWORDS}\s+(\w+)", text):
            names[m.group(1)] = "mod"
        self.mod_names = {}  # what node_of reads while this is worked out: nothing yet
        for m in re.finditer(r"\buse\s+([^;]+);", text[top[0] : top[1]]):
            for segs, bound in expand_use(m.group(1)):
                absolute = self.resolve(segs, self.path, self.children)
                hit = self.node_of(absolute) if absolute else None
                if bound and bound != "*":
                    names.setdefault(bound, hit[0] if hit else None)
        return names

    def edges(self) -> dict[tuple[str, str], dict[str, bool]]:
        """(from, to) → {imported name: only under cfg(test)}."""
        found: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
        for node, path in self.files:
            text = strip(path.read_text(encoding="utf-8"))
            base = self.module_of(path)
            declared = set(re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, re.M))
            for start, end, inline, test in regions(text):
                module = base + inline
                children = declared if not inline else set()
                chunk = text[start:end]
                paths = [segs for m in re.finditer(r"\buse\s+([^;]+);", chunk)
                         for segs, _ in expand_use(m.group(1))]
                rest = re.sub(r"\buse\s+([^;]+);", " ", chunk)
                paths += [m.group(1).split("::")
                          for m in re.finditer(r"(?<![\w:])((?:\w+::)+\w+)", rest)]
                for segs in paths:
                    absolute = self.resolve(segs, module, children)
                    hit = self.node_of(absolute) if absolute else None
                    if hit and hit[0] != node:
                        names = found[(node, hit[0])]
                        names[hit[1]] = names.get(hit[1], True) and test
        return found


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
    dot, check = "--dot" in argv, "--check" in argv
    dirs = [a for a in argv if not a.startswith("--")]
    if not dirs:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    total = 0
    for d in dirs:
        folder = Folder(Path(d))
        edges = folder.edges()
        if dot:
            name = "/".join(folder.path[1:])
            print(f'digraph "{name}" {{')
            for a, b in sorted(edges):
                test = all(edges[(a, b)].values())
                print(f'  "{a}" -> "{b}"' + (" [style=dashed];" if test else ";"))
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
    return 1 if check and total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
