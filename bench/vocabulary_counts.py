#!/usr/bin/env python3
'''Where the suite's vocabularies are spelled, at two commits (issue 47:
"a count, before and after, of the places each vocabulary is spelled").

Counted in the library (``reframe_tests/microbench``, its Python files),
read from git, so that any two commits compare:

- **verdict words**: the string literals that are a figure verdict's
  word (``'regression'``, ...; the words of today's
  ``microbench.verdicts.vocabulary``), and the modules holding them,
  leaving out the module that declares them;
- **field separators**: the literals ``';'`` and ``' ('`` and ``': '``
  used to join or split a packed record field (``.join``, ``.split``,
  ``.partition``), outside the codecs' module;
- **pitfall rows**: hand-kept rows of a pitfall table (a Markdown line
  starting ``| S1`` ... ``| N3`` or holding a check's name in backquotes
  after ``|``) in README.md and docs/index.md, outside the generated
  blocks (``<!-- ...:begin -->`` to ``<!-- ...:end -->``);
- **function-level imports**: ``import`` statements inside a function;
- **templates**: string literals holding Python source (``import`` or
  ``class`` at the start of one of their lines).

Usage: ``bench/vocabulary_counts.py [BEFORE [AFTER]]`` (default
``ab6f460``, the commit before the vocabulary, and ``HEAD``); prints one
table.
'''

import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'reframe_tests'))

from microbench.verdicts import vocabulary  # noqa: E402

LIBRARY = 'reframe_tests/microbench'
DECLARES = {f'{LIBRARY}/verdicts/vocabulary.py'}
CODECS = {f'{LIBRARY}/codecs.py', f'{LIBRARY}/fields.py'}
SEPARATORS = (';', ' (', ': ')
SPLITTERS = ('join', 'split', 'rsplit', 'partition', 'rpartition')
PAGES = ('README.md', 'docs/index.md')
PITFALL_ROW = re.compile(r'^\|\s*(`?[SN][1-7]\b|`[a-z_]+`)')
SOURCE_LINE = re.compile(r'^\s*(import |from \S+ import |class )', re.M)


def git(*args):
    return subprocess.run(['git', '-C', ROOT, *args], capture_output=True,
                          text=True, check=True).stdout


def files(rev):
    return [path for path in git('ls-tree', '-r', '--name-only', rev,
                                 LIBRARY).split() if path.endswith('.py')]


def show(rev, path):
    try:
        return git('show', f'{rev}:{path}')
    except subprocess.CalledProcessError:
        return ''


def in_functions(tree):
    '''The import statements inside a function of ``tree``.'''
    found = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += sum(isinstance(inner, (ast.Import, ast.ImportFrom))
                         for inner in ast.walk(node))
    return found


def separators(tree):
    '''Calls ``SEP.join(...)`` or ``x.split(SEP)`` with a packing
    separator.'''
    found = 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SPLITTERS):
            continue
        owner = node.func.value
        args = [arg for arg in node.args if isinstance(arg, ast.Constant)]
        if (isinstance(owner, ast.Constant) and owner.value in SEPARATORS) \
                or any(arg.value in SEPARATORS for arg in args):
            found += 1
    return found


def library_counts(rev):
    words = set(vocabulary.VERDICT_WORDS)
    counts = {'verdict words': 0, 'modules spelling them': 0,
              'field separators': 0, 'function-level imports': 0,
              'templates': 0}
    for path in files(rev):
        try:
            tree = ast.parse(show(rev, path))
        except SyntaxError:
            continue
        literals = [node.value for node in ast.walk(tree)
                    if isinstance(node, ast.Constant)
                    and isinstance(node.value, str)]
        if path not in DECLARES:
            spelled = sum(value in words for value in literals)
            counts['verdict words'] += spelled
            counts['modules spelling them'] += bool(spelled)
        if path not in CODECS:
            counts['field separators'] += separators(tree)
        counts['function-level imports'] += in_functions(tree)
        counts['templates'] += sum(bool(SOURCE_LINE.search(value))
                                   and '\n' in value for value in literals)
    return counts


def pitfall_rows(rev):
    rows = 0
    for page in PAGES:
        generated = False
        for line in show(rev, page).splitlines():
            if re.match(r'<!-- \S+:begin -->', line):
                generated = True
            elif re.match(r'<!-- \S+:end -->', line):
                generated = False
            elif not generated and PITFALL_ROW.match(line):
                rows += 1
    return rows


def main(argv):
    before = argv[0] if argv else 'ab6f460'
    after = argv[1] if len(argv) > 1 else 'HEAD'
    table = {}
    for rev in (before, after):
        counts = library_counts(rev)
        counts['hand-kept pitfall rows'] = pitfall_rows(rev)
        table[rev] = counts
    print(f'| count | {before} | {after} |')
    print('|---|---|---|')
    for key in table[before]:
        print(f'| {key} | {table[before][key]} | {table[after][key]} |')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
