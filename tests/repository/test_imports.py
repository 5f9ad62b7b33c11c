'''The library's import graph, beside its boundaries
(tests/repository/test_layout.py): no circle (module A imports B, which imports
A, however far round), no import hidden inside a function to dodge one, and no
private name (a name starting with ``_``) imported from another module: a name
another module needs is part of its module's interface.'''

import ast
import os

from microbench import paths


def _module_of(path):
    rel = os.path.relpath(path, paths.CHECKS)[:-3].replace(os.sep, '.')
    return rel.removesuffix('.__init__')


def _sources():
    for folder, _, names in os.walk(paths.LIBRARY):
        for name in sorted(names):
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8') as fp:
                    yield _module_of(path), ast.parse(fp.read(), path)


def _targets(node, known):
    '''The library modules an import names (``from a.b import c`` names
    ``a.b.c`` where that is a module, else ``a.b``), with the names it
    takes from each.'''
    if isinstance(node, ast.Import):
        return [(alias.name, None) for alias in node.names
                if alias.name in known]
    out = []
    for alias in node.names:
        full = f'{node.module}.{alias.name}'
        if full in known:
            out.append((full, None))
        elif node.module in known:
            out.append((node.module, alias.name))
    return out


def graph():
    '''``({module: {modules it imports at its top level}}, [(module, what
    it imports inside a function)], [(module, private names it imports
    from another module)])``.'''
    trees = dict(_sources())
    known = set(trees)
    edges, hidden, private = {}, [], []
    for module, tree in trees.items():
        edges[module] = set()
        inner = {id(n) for f in ast.walk(tree)
                 if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for n in ast.walk(f)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target, name in _targets(node, known):
                if target == module:
                    continue
                if name and name.startswith('_'):
                    private.append((module, f'{target}.{name}'))
                if id(node) in inner:
                    hidden.append((module, target))
                else:
                    edges[module].add(target)
    return edges, hidden, private


def circles(edges):
    '''Every circle of the graph (each once, from its least module).'''
    found = set()

    def walk(start, at, path):
        for nxt in sorted(edges.get(at, ())):
            if nxt == start:
                found.add(tuple(path))
            elif nxt not in path and nxt > start:
                walk(start, nxt, [*path, nxt])

    for start in sorted(edges):
        walk(start, start, [start])
    return sorted(found)


def test_the_import_graph_has_no_circle():
    edges, _, _ = graph()
    assert circles(edges) == [], '; '.join(
        ' -> '.join([*c, c[0]]) for c in circles(edges))


def test_the_test_sees_a_circle():
    edges = {'a': {'b'}, 'b': {'c'}, 'c': {'a'}, 'd': {'a'}}
    assert circles(edges) == [('a', 'b', 'c')]


#: Libraries a module may import only when they are needed: seconds to
#: import (matplotlib, SciPy, Otava) or ReFrame's runtime
HEAVY = ('matplotlib', 'scipy', 'otava', 'reframe')


def heavy(module, trees, edges):
    '''Whether ``module`` imports one of :data:`HEAVY` at its top level,
    itself or through the library's modules it imports.'''
    seen, todo = set(), [module]
    while todo:
        at = todo.pop()
        if at in seen:
            continue
        seen.add(at)
        if _imports_heavy(trees[at]):
            return True
        todo += sorted(edges.get(at, ()))
    return False


def _imports_heavy(tree):
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            continue
        if any(name.split('.')[0] in HEAVY for name in names):
            return True
    return False


def test_no_import_hides_in_a_function_to_dodge_a_circle():
    '''An import inside a function is there to load a heavy library only
    when needed (:data:`HEAVY`): a module of the library only where that
    module imports one itself (the report's page, matplotlib), never to
    hide a circle.'''
    edges, hidden, _ = graph()
    trees = dict(_sources())
    assert [(module, target) for module, target in hidden
            if not heavy(target, trees, edges)] == []


def test_no_private_name_is_imported_across_modules():
    _, _, private = graph()
    assert private == []
