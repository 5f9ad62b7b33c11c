'''What the docstrings and comments name exists: every path of the
checkout (``microbench/verdicts/nightly.py``, ``ci/nightly.sh``,
``tests/data/results/``) and every module a dotted name points into
(``microbench.verdicts.nightly.judge``, ``:mod:`microbench.fields```) in the
project's Python and shell files.  A file moved into a subpackage leaves
no docstring naming its old place.'''

import importlib
import os
import re

import pytest

from microbench import paths

#: Where the project's own text is (Python and shell)
TREES = ('reframe_tests', 'tests', 'bench', 'ci', 'systems', 'docs')

#: A path of the checkout, from one of its top folders
PATH = re.compile(r'(?<![\w./-])((?:reframe_tests|tests|ci|bench|systems|'
                  r'spack_envs|docs|microbench)/[\w./-]*[\w/])')
#: A dotted name into the library
DOTTED = re.compile(r'(?<![\w./\'"-])(microbench(?:\.\w+)+)')


def sources():
    for tree in TREES:
        for folder, _, names in os.walk(os.path.join(paths.ROOT, tree)):
            if '/data' in folder or '__pycache__' in folder:
                continue
            for name in sorted(names):
                # this file names what must not exist, on purpose
                if name.endswith(('.py', '.sh')) and \
                        name != os.path.basename(__file__):
                    yield os.path.join(folder, name)


def _pattern(line, match):
    '''Whether a path is a pattern, not a path: a glob (``tests/test_*``)
    or with a placeholder (``spack_envs/SYSTEM/PARTITION``).'''
    after = line[match.end():match.end() + 1]
    return after in ('*', '<', '{', '$') or any(
        part.isupper() for part in match.group(1).split('/'))


def named(path):
    '''``[(line, what)]``: the paths and dotted names a file names.'''
    with open(path, encoding='utf-8') as fp:
        lines = fp.read().splitlines()
    out = []
    for number, line in enumerate(lines, 1):
        out += [(number, m.group(1)) for m in PATH.finditer(line)
                if not _pattern(line, m)]
        out += [(number, m.group(1)) for m in DOTTED.finditer(line)]
    return out


def exists(what):
    '''Whether a path of the checkout (or of the library), or a dotted name
    into the library, exists.'''
    if '/' in what:
        what = what.rstrip('.')
        where = (os.path.join(paths.CHECKS, what) if
                 what.startswith('microbench/') else
                 os.path.join(paths.ROOT, what))
        return os.path.exists(where)
    parts = what.rstrip('.').split('.')
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module('.'.join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


@pytest.mark.parametrize('path', list(sources()),
                         ids=lambda p: os.path.relpath(p, paths.ROOT))
def test_every_named_path_exists(path):
    missing = [f'line {line}: {what}' for line, what in named(path)
               if not exists(what)]
    assert missing == []


def test_the_test_sees_a_moved_module():
    assert not exists('microbench/witnessed.py')
    assert not exists('microbench.recorded.Recorded')
    assert exists('microbench/suite/witnessed.py')
    assert exists('microbench.suite.recorded.Recorded')
    assert exists('ci/nightly.sh') and not exists('ci/nightly.py')
