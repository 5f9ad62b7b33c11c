'''What every reference page of docs/generate.py is made of: where the
checks are, the page's head, a Markdown table, the ``#:`` comments of the
code and the suite's test classes.  Importing it puts the checks' folder
on ``sys.path`` (as ReFrame's ``-c`` does), so that the pages load the
check files and the library by the names the suite uses.'''

import importlib
import inspect
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECKS = os.path.join(ROOT, 'reframe_tests')
sys.path.insert(0, CHECKS)

class PageError(ValueError):
    '''What the code declares cannot be written on the page.'''


HEAD = ('<!-- Made by docs/generate.py from the code: do not edit; run '
        'docs/generate.py -->\n\n')


def cell(text):
    '''Text fit for a Markdown table cell.'''
    return ' '.join(str(text).split()).replace('|', '\\|')


def table(head, rows):
    lines = ['| ' + ' | '.join(head) + ' |',
             '|' + '---|' * len(head)]
    lines += ['| ' + ' | '.join(cell(c) for c in row) + ' |'
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


def sources():
    '''Every Python file of the checks and the library: (its module name,
    its path).'''
    for folder, _, files in sorted(os.walk(CHECKS)):
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, CHECKS)[:-3].replace(os.sep, '.')
            yield rel.removesuffix('.__init__'), path


def check_files():
    '''The file name of every check file of ``reframe_tests/``, sorted.'''
    return [name for name in sorted(os.listdir(CHECKS))
            if name.endswith('.py')]


def test_classes():
    '''Every ReFrame test class of every check file (variant checks, gaps,
    sweeps, rounds fixtures), by name.'''
    from reframe.core.pipeline import RegressionTest

    out = {}
    for name in check_files():
        module = importlib.import_module(name[:-3])
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and \
                    issubclass(cls, RegressionTest):
                out[cls_name] = cls
    return out


def knob_values(cls, knobs):
    '''``{knob: [its values]}`` from ReFrame's variant information.'''
    out = {knob: [] for knob in knobs}
    for number in range(cls.num_variants):
        params = cls.get_variant_info(number, recurse=False)['params']
        for knob in knobs:
            if knob in params and params[knob] not in out[knob]:
                out[knob].append(params[knob])
    return out


def fixtures(classes):
    '''The names of the rounds fixtures among ``classes``: the classes
    some check takes as its ``rounds``.'''
    return {cls.fixture_space['rounds'].cls.__name__
            for cls in classes.values() if 'rounds' in cls.fixture_space}
