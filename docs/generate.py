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
  argument parser;
- ``reference/pitfalls.md`` and ``reference/catalogue.json``: the pitfall
  catalogue (``reframe_tests/microbench/catalogue.py``), and its table in
  README.md and docs/index.md (between ``<!-- catalogue:begin -->`` and
  ``<!-- catalogue:end -->``; the rest of those pages is written by hand);
- ``reference/verdicts.md``: every verdict, status, acknowledgement kind
  and cause, from the one module that declares them
  (:mod:`microbench.verdicts.vocabulary`).

    docs/generate.py            write the pages
    docs/generate.py --check    exit 1 (naming them) if a page is stale

``tests/repository/test_docs.py`` runs ``--check``: a page the code no
longer says fails the tests, and so does a catalogue the checks' code
contradicts (a knob's values, a gap, a witness: docs/catalogue_page.py).
What every page is made of (the checks' folder on ``sys.path``, tables,
``#:`` comments, the test classes): docs/page_parts.py.
'''

import argparse
import ast
import io
import os
import sys

from page_parts import HEAD, HERE, ROOT, PageError, comment_above, \
    sources, table, test_classes
from checks_page import checks_page
from catalogue_page import catalogue_json, holders, pitfalls_page
from verdicts_page import verdicts_page

#: The pages, in the reference folder (``.md`` where no suffix is given)
PAGES = ('checks', 'variables', 'fields', 'commands', 'pitfalls',
         'catalogue.json', 'verdicts')


# -- variables -------------------------------------------------------------

def declared_variables():
    '''``{(module, class): [(name, type, default, doc, line)]}`` of every
    ``name = variable(...)`` in a class body of the checks and the
    library, with its ``#:`` comment (Sphinx's doc comment).'''
    out = {}
    for module, path in sources():
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
            + table(('variable', 'type', 'default', 'declared in',
                      'tests that have it', 'what it is'), rows))


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
            + table(('field', 'type', 'default', 'shared', 'what ran',
                      'what it holds'), rows)
            + '\nA perflog\'s columns, as its header line names them (`|` '
            'between them; `pandas.read_csv(path, sep=\'|\')` reads one): '
            + ', '.join(f'`{c}`' for c in fields.perflog_header())
            + '.  The perflog handler of `systems/config.py` writes each as '
            '`%(check_<column>)s`, ReFrame\'s name of the attribute; the '
            'header drops the `check_`.\n')


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
          'fields': fields_page, 'commands': commands_page,
          'pitfalls': pitfalls_page, 'catalogue.json': catalogue_json,
          'verdicts': verdicts_page}


def pages(into=None):
    '''``{path: text}`` of every generated page (in the folder ``into``,
    else docs/reference), and of README.md and docs/index.md with their
    pitfall tables made anew (where they are, whatever ``into``).'''
    into = into or os.path.join(HERE, 'reference')
    out = {}
    for name in PAGES:
        stdout, sys.stdout = sys.stdout, io.StringIO()
        try:
            text = MAKERS[name]()
        finally:
            sys.stdout = stdout
        out[os.path.join(into, name if '.' in name else f'{name}.md')] = text
    out.update(holders())
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--check', action='store_true', help='exit 1 if a '
                        'page is stale; write nothing')
    parser.add_argument('--into', metavar='DIR', help='the folder of the '
                        'pages (default: docs/reference)')
    args = parser.parse_args()
    try:
        made = pages(args.into)
    except PageError as err:
        print(f'docs/generate.py: {err}', file=sys.stderr)
        return 2
    stale = []
    for path, text in made.items():
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
