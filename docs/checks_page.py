'''``reference/checks.md``: every check file of ``reframe_tests/``, its
pitfall (the file's docstring, and its entries of the pitfall catalogue,
which must agree with the checks: :func:`catalogue_page.drift`), its
tests, their knobs and gaps (ReFrame's own variant information, the gap
classes' tables) and their witnesses: each check's ``witnesses``
declaration, said with the one line the table of ``microbench/witnesses.py``
gives each witness.'''

import ast
import importlib
import inspect
import os

from page_parts import CHECKS, HEAD, PageError, cell, check_files, \
    comment_above, fixtures, knob_values, table, test_classes
from catalogue_page import check_file_lines, drift

from microbench import witnesses


def _parameter_docs(path):
    '''``{(class, parameter): its #: comment}`` of a check file.'''
    with open(path, encoding='utf-8') as fp:
        text = fp.read()
    lines = text.splitlines()
    out = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                call = item.value if isinstance(item, ast.Assign) else None
                if isinstance(call, ast.Call) and \
                        getattr(call.func, 'id', '') == 'parameter':
                    for target in item.targets:
                        out[node.name, target.id] = comment_above(
                            lines, item.lineno)
    return out


def _gap_docs(cls):
    '''``{gap: the comment above it}`` of a gap class's ``gaps``.'''
    lines = inspect.getsource(cls).splitlines()
    out = {}
    for gap in cls.gaps:
        at = next((i for i, line in enumerate(lines)
                   if f"'{gap}'" in line), None)
        if at is not None:
            out[gap] = comment_above(lines, at + 1, '#')
    return out


def declared_witnesses(classes):
    '''``{check class name: its witnesses}`` of every check among
    ``classes`` (not the rounds fixtures, which declare none), each as
    its class body declares it; a check that declares none, or a name
    :data:`microbench.witnesses.WITNESSES` lacks, is a
    :class:`PageError`.'''
    rounds = fixtures(classes)
    out = {}
    for name, cls in sorted(classes.items()):
        if name in rounds:
            continue
        declared = cls.__dict__.get('witnesses')
        if not isinstance(declared, tuple):
            raise PageError(f'{inspect.getfile(cls)}: {name} declares no '
                            f'witnesses = (...) (a tuple of names of '
                            f'microbench/witnesses.py; () for none)')
        wrong = witnesses.unknown(declared)
        if wrong:
            raise PageError(f'{inspect.getfile(cls)}: {name}: '
                            f'{", ".join(map(repr, wrong))} is no witness of '
                            f'microbench/witnesses.py')
        out[name] = declared
    return out


def witness_table(declared, classes):
    '''The table of every witness: what it sees, when it runs, its code,
    and the check files whose checks declare it.'''
    files = {}
    for name, found in declared.items():
        for witness in found:
            files.setdefault(witness, set()).add(classes[name].__module__)
    rows = [(f'`{name}`', witness.sees, witness.runs,
             f'`{witness.code}`',
             ', '.join(f'`{f}`' for f in sorted(files.get(name, ()))) or '-')
            for name, witness in witnesses.WITNESSES.items()]
    return table(('witness', 'what it sees', 'when it runs', 'code '
                  '(reframe_tests/microbench/)', 'check files'), rows)


def witness_lines(declared):
    '''What a check file's section says of its witnesses: one line per
    witness its checks declare, in the table's order, with the checks
    that declare it; ``Witnesses: none.`` where none declares one.'''
    users = {}
    for name, found in declared.items():
        for witness in found:
            users.setdefault(witness, []).append(name)
    if not users:
        return 'Witnesses: none.\n\n'
    lines = [f'- `{name}` ({", ".join(f"`{u}`" for u in users[name])}): '
             f'{witness.sees}; {witness.runs}.\n'
             for name, witness in witnesses.WITNESSES.items()
             if name in users]
    return 'Witnesses:\n\n' + ''.join(lines) + '\n'


def _row(cls_name, cls, params, declared):
    '''(test, kind, knob or gaps, witnesses) of one test class; a rounds
    fixture is the one class ``declared`` lacks.'''
    from microbench.suite.gap import GapCheck
    from microbench.suite.rounds import Rounds

    if cls_name not in declared:
        return (f'`{cls_name}`',
                'rounds fixture: runs every variant round-robin',
                f'variants: {", ".join(cls.variants)}', '-')
    witnessed = ', '.join(f'`{w}`' for w in declared[cls_name]) or 'none'
    if issubclass(cls, Rounds):
        return (f'`{cls_name}`', 'sweep: one job, every point round-robin',
                cell(inspect.getdoc(cls) or '-'), witnessed)
    if issubclass(cls, GapCheck):
        docs = _gap_docs(cls)
        what = '; '.join(
            f'`{gap}` = {pair[0]} / {pair[1]}'
            + (f' ({pair[2]})' if len(pair) > 2 else '')
            + (f': {docs[gap]}' if docs.get(gap) else '')
            for gap, pair in cls.gaps.items())
        return (f'`{cls_name}`', f'gaps of `{cls.pitfall.__name__}`', what,
                witnessed)
    knob = getattr(cls, 'knob', None)
    knobs = (knob if isinstance(knob, tuple) else (knob,) if knob else ())
    values = knob_values(cls, knobs)
    what = '; '.join(
        f'knob `{k}`: {", ".join(map(str, values[k]))}'
        + (f' ({params[cls_name, k]})' if params.get((cls_name, k)) else '')
        for k in knobs) or cell(inspect.getdoc(cls) or '-')
    return (f'`{cls_name}`', 'check' if knobs else 'test', what, witnessed)


def checks_page():
    classes = test_classes()
    declared = declared_witnesses(classes)
    wrong = drift(classes)
    if wrong:
        raise PageError('the pitfall catalogue (reframe_tests/microbench/'
                        'catalogue.py) and the checks disagree: '
                        + '; '.join(wrong))
    parts = [HEAD, '# Checks\n\n', 'Every check file of `reframe_tests/`: '
             'the pitfall it encodes (its docstring, and its entries of the '
             'catalogue: [Pitfalls](pitfalls.md)), its knob and the '
             'knob\'s values (the benchmark\'s default first), its gaps '
             '(benchmark default over realistic form) and its '
             'witnesses.  `reframe -c reframe_tests -l` lists '
             'them; `-n NAME` picks one.\n\n',
             '## Witnesses\n\n',
             'Every check declares the witnesses it runs (its `witnesses`, '
             'by the names of `reframe_tests/microbench/witnesses.py`, '
             'where each is described once; a rounds fixture runs the '
             'witnesses of its checks and declares none).  How each works '
             'and what it found: [Witnesses](../authors/witnesses.md).\n\n',
             witness_table(declared, classes)]
    for name in check_files():
        path = os.path.join(CHECKS, name)
        module = importlib.import_module(name[:-3])
        doc = inspect.getdoc(module) or ''
        title = doc.split('\n')[0]
        mine = {n: c for n, c in classes.items()
                if c.__module__ == module.__name__}
        params = _parameter_docs(path)
        rows = [_row(cls_name, cls, params, declared)
                for cls_name, cls in sorted(mine.items())]
        parts += [f'\n## {name[:-3]}\n\n', f'**{cell(title)}**\n\n',
                  doc.split('\n', 1)[1].strip() + '\n' if '\n' in doc
                  else '', '\n', check_file_lines(name),
                  witness_lines({n: w for n, w in declared.items()
                                 if n in mine}),
                  table(('test', 'kind', 'knob, variants, gaps',
                         'witnesses'), rows)]
    return ''.join(parts)
