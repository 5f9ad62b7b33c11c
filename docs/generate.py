#!/usr/bin/env python3
'''The reference pages of the documentation, made from the code that is
their source (never by hand):

- ``reference/checks.md``: every check file (reframe_tests/*.py): its
  pitfall and catalogue entry (the file's docstring), each test class,
  its knob and the knob's values (ReFrame's own variant information),
  its gaps, its witness;
- ``reference/variables.md``: every ReFrame variable the suite's classes
  declare (``-S``), its type, default and ``#:`` comment, and the checks
  that have it;
- ``reference/fields.md``: every record field, from the one table that
  defines them (:data:`microbench.fields.FIELDS`);
- ``reference/commands.md``: every ``microbench`` subcommand, from its
  argument parser.

    docs/generate.py            write the pages
    docs/generate.py --check    exit 1 (naming them) if a page is stale

``tests/repository/test_docs.py`` runs ``--check``: a page the code no
longer says fails the tests.
'''

import argparse
import ast
import importlib
import inspect
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECKS = os.path.join(ROOT, 'reframe_tests')
sys.path.insert(0, CHECKS)

#: The pages, in the reference folder
PAGES = ('checks', 'variables', 'fields', 'commands')

HEAD = ('<!-- Made by docs/generate.py from the code: do not edit; run '
        'docs/generate.py -->\n\n')


def _cell(text):
    '''Text fit for a Markdown table cell.'''
    return ' '.join(str(text).split()).replace('|', '\\|')


def _table(head, rows):
    lines = ['| ' + ' | '.join(head) + ' |',
             '|' + '---|' * len(head)]
    lines += ['| ' + ' | '.join(_cell(c) for c in row) + ' |'
              for row in rows]
    return '\n'.join(lines) + '\n'


def comment_above(lines, lineno, marker='#:'):
    '''The comment lines right above line ``lineno`` (1-based) that start
    with ``marker``, joined, the marker dropped.'''
    found = []
    at = lineno - 2
    while at >= 0 and lines[at].strip().startswith(marker):
        found.append(lines[at].strip()[len(marker):].strip())
        at -= 1
    return ' '.join(reversed(found)).strip()


def _sources():
    '''Every Python file of the checks and the library: (its module name,
    its path).'''
    for folder, _, files in sorted(os.walk(CHECKS)):
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, CHECKS)[:-3].replace(os.sep, '.')
            yield rel.removesuffix('.__init__'), path


# -- variables -------------------------------------------------------------

def declared_variables():
    '''``{(module, class): [(name, type, default, doc, line)]}`` of every
    ``name = variable(...)`` in a class body of the checks and the
    library, with its ``#:`` comment (Sphinx's doc comment).'''
    out = {}
    for module, path in _sources():
        with open(path, encoding='utf-8') as fp:
            text = fp.read()
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                call = item.value if isinstance(item, ast.Assign) else None
                if not (isinstance(call, ast.Call)
                        and getattr(call.func, 'id', '') == 'variable'):
                    continue
                kinds = ' or '.join(ast.get_source_segment(text, a)
                                    for a in call.args)
                default = next((ast.get_source_segment(text, k.value)
                                for k in call.keywords if k.arg == 'value'),
                               '(required)')
                doc = comment_above(lines, item.lineno)
                doc = doc.split(':type:')[0].strip()
                for target in item.targets:
                    out.setdefault((module, node.name), []).append(
                        (target.id, kinds, default, doc, item.lineno))
    return out


def test_classes():
    '''Every ReFrame test class of every check file (variant checks, gaps,
    sweeps, rounds fixtures), by name.'''
    from reframe.core.pipeline import RegressionTest

    out = {}
    for name in sorted(os.listdir(CHECKS)):
        if not name.endswith('.py'):
            continue
        module = importlib.import_module(name[:-3])
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and \
                    issubclass(cls, RegressionTest):
                out[cls_name] = cls
    return out


def variables_page():
    declared = declared_variables()
    users = {}
    for name, cls in test_classes().items():
        for base in cls.__mro__:
            if (base.__module__, base.__name__) in declared:
                users.setdefault((base.__module__, base.__name__),
                                 set()).add(name)
    rows = []
    for (module, cls), found in sorted(declared.items()):
        for name, kinds, default, doc, line in found:
            who = sorted(users.get((module, cls), ()))
            rows.append((f'`{name}`', kinds, f'`{default}`',
                         f'`{module}.{cls}`',
                         ', '.join(f'`{w}`' for w in who) or '-', doc))
    rows.sort(key=lambda row: (row[0], row[3]))
    count = len({row[0] for row in rows})
    return (HEAD + '# Variables (`-S`)\n\n'
            f'{count} variables, declared in {len(declared)} classes of the '
            'checks and the library.  Set one for every test that has it '
            'with `reframe -S NAME=VALUE`, for one check or fixture with '
            '`-S CLASS.NAME=VALUE` (`-S fio_cache_flags_rounds.runtime_s=2`'
            '); the quick mode (`--mode quick`, reframe_tests/modes.yaml) is '
            'a set of them.  Besides these, every record field is a '
            'variable of every test ([record fields](fields.md)); '
            '`samples` and `warmup_rounds` are the ones meant to be set '
            '(`-S samples=10`, `-S warmup_rounds=1`).\n\n'
            + _table(('variable', 'type', 'default', 'declared in',
                      'tests that have it', 'what it is'), rows))


# -- checks ------------------------------------------------------------------

def _knob_values(cls, knobs):
    '''``{knob: [its values]}`` from ReFrame's variant information.'''
    out = {knob: [] for knob in knobs}
    for number in range(cls.num_variants):
        params = cls.get_variant_info(number, recurse=False)['params']
        for knob in knobs:
            if knob in params and params[knob] not in out[knob]:
                out[knob].append(params[knob])
    return out


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


def _gap_docs(path, cls):
    '''``{gap: the comment above it}`` of a gap class's ``gaps``.'''
    lines = inspect.getsource(cls).splitlines()
    out = {}
    for gap in cls.gaps:
        at = next((i for i, line in enumerate(lines)
                   if f"'{gap}'" in line), None)
        if at is not None:
            out[gap] = comment_above(lines, at + 1, '#')
    return out


def _witness(doc):
    '''What the page says of a check file's witness: its docstring says
    it (``Witness: ...``), or there is none.'''
    return '' if 'Witness' in doc else 'Witness: none.\n\n'


def checks_page():
    from microbench.suite.gap import GapCheck
    from microbench.suite.rounds import Rounds

    classes = test_classes()
    parts = [HEAD, '# Checks\n\n', 'Every check file of `reframe_tests/`: '
             'the pitfall it encodes (its catalogue entry, in the file\'s '
             'docstring), its knob and the knob\'s values (the benchmark\'s '
             'default first), its gaps (benchmark default over realistic '
             'form) and its witness.  `reframe -c reframe_tests -l` lists '
             'them; `-n NAME` picks one.\n']
    for name in sorted(os.listdir(CHECKS)):
        if not name.endswith('.py'):
            continue
        path = os.path.join(CHECKS, name)
        module = importlib.import_module(name[:-3])
        doc = inspect.getdoc(module) or ''
        title = doc.split('\n')[0]
        mine = {n: c for n, c in classes.items()
                if c.__module__ == module.__name__}
        params = _parameter_docs(path)
        rows = []
        for cls_name, cls in sorted(mine.items()):
            if issubclass(cls, Rounds):
                kind = 'rounds fixture: runs every variant round-robin'
                what = f'variants: {", ".join(cls.variants)}'
            elif issubclass(cls, GapCheck):
                kind = f'gaps of `{cls.pitfall.__name__}`'
                docs = _gap_docs(path, cls)
                what = '; '.join(
                    f'`{gap}` = {pair[0]} / {pair[1]}'
                    + (f' ({pair[2]})' if len(pair) > 2 else '')
                    + (f': {docs[gap]}' if docs.get(gap) else '')
                    for gap, pair in cls.gaps.items())
            else:
                knob = getattr(cls, 'knob', None)
                knobs = (knob if isinstance(knob, tuple) else
                         (knob,) if knob else ())
                values = _knob_values(cls, knobs)
                kind = 'check' if knobs else 'test'
                what = '; '.join(
                    f'knob `{k}`: {", ".join(map(str, values[k]))}'
                    + (f' ({params[cls_name, k]})'
                       if params.get((cls_name, k)) else '')
                    for k in knobs) or _cell(inspect.getdoc(cls) or '-')
            rows.append((f'`{cls_name}`', kind, what))
        parts += [f'\n## {name[:-3]}\n\n', f'**{_cell(title)}**\n\n',
                  doc.split('\n', 1)[1].strip() + '\n' if '\n' in doc
                  else '', '\n',
                  _witness(doc),
                  _table(('test', 'kind', 'knob, variants, gaps'), rows)]
    return ''.join(parts)


# -- fields and commands ---------------------------------------------------

def fields_page():
    from microbench import fields

    rows = [(f'`{name}`', kind.__name__, f'`{default!r}`',
             'yes' if shared else 'no',
             ('what ran (`CONTEXT`; ' + ('software' if name in
                                          fields.SOFTWARE else 'machine')
              + ')') if name in fields.CONTEXT else '-', doc)
            for name, (kind, default, shared, doc) in fields.FIELDS.items()]
    return (HEAD + '# Record fields\n\n'
            'What every perflog record and every test case of the results '
            'storage carries, from `microbench/fields.py` (`FIELDS`), in '
            'perflog order.  A *shared* field is measured once by the '
            'rounds job and taken by its variant checks and gaps; *what '
            'ran* fields tell two runs of a figure apart (compare lists '
            'them where they differ; an event is classed by them: the '
            'software, or the machine, changed).\n\n'
            + _table(('field', 'type', 'default', 'shared', 'what ran',
                      'what it holds'), rows)
            + '\nA perflog row\'s columns: '
            + ', '.join(f'`{c}`' for c in fields.perflog_columns()) + '.\n')


def commands_page():
    os.environ['COLUMNS'] = '79'
    from microbench import cli

    top = cli.parser()
    parts = [HEAD, '# The `microbench` command\n\n',
             'Every subcommand, as its argument parser says it '
             '(`microbench SUBCOMMAND --help`).\n\n', '```text\n',
             top.format_help(), '```\n']
    action = next(a for a in top._actions
                  if a.__class__.__name__ == '_SubParsersAction')
    for name, sub in action.choices.items():
        parts += [f'\n## {name}\n\n', '```text\n', sub.format_help(),
                  '```\n']
    return ''.join(parts)


MAKERS = {'checks': checks_page, 'variables': variables_page,
          'fields': fields_page, 'commands': commands_page}


def pages(into=None):
    '''``{path: text}`` of every generated page (in the folder ``into``,
    else docs/reference).'''
    into = into or os.path.join(HERE, 'reference')
    out = {}
    for name in PAGES:
        stdout, sys.stdout = sys.stdout, io.StringIO()
        try:
            text = MAKERS[name]()
        finally:
            sys.stdout = stdout
        out[os.path.join(into, f'{name}.md')] = text
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--check', action='store_true', help='exit 1 if a '
                        'page is stale; write nothing')
    parser.add_argument('--into', metavar='DIR', help='the folder of the '
                        'pages (default: docs/reference)')
    args = parser.parse_args()
    stale = []
    for path, text in pages(args.into).items():
        old = open(path, encoding='utf-8').read() if os.path.exists(path) \
            else None
        if old == text:
            continue
        name = os.path.relpath(path, ROOT)
        stale.append(path if name.startswith('..') else name)
        if not args.check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as out:
                out.write(text)
    if args.check and stale:
        print(f'stale: {", ".join(stale)}: run docs/generate.py',
              file=sys.stderr)
        return 1
    print(f'{"stale" if args.check else "written"}: '
          f'{", ".join(stale) or "none"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
