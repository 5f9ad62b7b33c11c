'''The library's architecture, kept: who may import whom (an AST walk over
every import of reframe_tests/microbench).

- ``suite/`` (the job ReFrame runs) never imports ``tools/`` (each tool
  builds on the suite, never the reverse);
- neither imports ``verdicts/``, ``bundles/`` or the CLI: what a compute
  node or ReFrame's loader needs does not drag in the offline analysis;
- ``verdicts/`` and ``bundles/`` import neither ``suite/`` nor ``tools/``,
  and no ReFrame but through ``verdicts/storage.py`` (the one module that
  knows ReFrame's results storage): the analysis never loads ReFrame's
  pipeline;
- the shared modules at the top import no subpackage and no ReFrame (the
  configuration and both sides read them);
- ``audit/`` (``microbench audit``, run by anyone on a login node or a
  laptop) imports neither ``tools/`` nor ReFrame, nor the verdicts: the
  knobs it rewrites come from the shared ``knobs``, which the checks read
  too; of ``suite/`` it reads only the Darshan witness's rules
  (``suite/darshan.py``, ``suite/output.py``: no ReFrame), and its
  ``--measure`` runs the suite's checks through the ``reframe`` command;
- ``nodes/`` (``microbench vet``, ``nodes``, ``links``) imports neither
  ``suite/`` nor ``tools/`` but one reader: ``microbench links`` reads
  what its own ``srun`` of fi_pingpong printed with the suite's reader of
  it (``tools/fabtests/pingpong.py``, no ReFrame, nor anything it
  imports);
- ``cli.py`` only wires the subcommands of ``verdicts/``, ``bundles/`` and
  ``audit/``.
'''

import ast
import os

import pytest

from microbench import paths

SUBPACKAGES = ('suite', 'tools', 'verdicts', 'bundles', 'audit', 'cause',
               'nodes')

#: package -> what it must not import (packages of microbench, or 'reframe')
FORBIDDEN = {
    'suite': {'tools', 'verdicts', 'bundles', 'cli'},
    'tools': {'verdicts', 'bundles', 'cli'},
    'verdicts': {'suite', 'tools', 'cli', 'reframe'},
    'bundles': {'suite', 'tools', 'cli', 'reframe'},
    'audit': {'tools', 'verdicts', 'bundles', 'cli', 'reframe'},
    'cause': {'suite', 'tools', 'cli', 'reframe'},
    'nodes': {'suite', 'tools', 'cli', 'reframe', 'bundles', 'audit'},
    'top': {*SUBPACKAGES, 'cli', 'reframe'},
    'cli': {'suite', 'tools', 'reframe'},
}

#: The one module of verdicts/ and bundles/ that may import ReFrame
STORAGE = os.path.join('verdicts', 'storage.py')

#: The modules of suite/ the audit may import: none of them imports
#: ReFrame (a test below holds them to it)
AUDIT_READS_OF_SUITE = {'darshan', 'dxt', 'output'}

#: The one module of tools/ that nodes/ may import (the link search's
#: reader of fi_pingpong), and the module of nodes/ that does
NODES_READ_OF_TOOLS = 'microbench.tools.fabtests.pingpong'
LINK_RUN = os.path.join('nodes', 'linkrun.py')


def modules():
    '''{path relative to the library: its package} of every module.'''
    out = {}
    for folder, _, names in os.walk(paths.LIBRARY):
        for name in names:
            if name.endswith('.py'):
                rel = os.path.relpath(os.path.join(folder, name),
                                      paths.LIBRARY)
                top = rel.split(os.sep)[0]
                out[rel] = (top if top in SUBPACKAGES else
                            'cli' if rel == 'cli.py' else 'top')
    return out


def imported(path):
    '''What the module at ``path`` imports: microbench's packages and
    top-level modules by name, and 'reframe' for any of ReFrame.'''
    with open(os.path.join(paths.LIBRARY, path)) as fp:
        tree = ast.parse(fp.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [f'{node.module}.{alias.name}' for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            raise AssertionError(f'{path}: a relative import; the library '
                                 f'imports by absolute name')
        else:
            continue
        for name in names:
            parts = name.split('.')
            if parts[0] == 'reframe':
                found.add('reframe')
            elif parts[0] == 'microbench' and len(parts) > 1:
                found.add(parts[1])
    return found


def test_every_module_is_in_a_known_place():
    found = modules()
    assert {package for package in found.values()} == {*SUBPACKAGES, 'top',
                                                       'cli'}
    assert 'storage.py' not in {os.path.basename(p) for p, package in
                                found.items() if package != 'verdicts'}


@pytest.mark.parametrize('path', sorted(modules()))
def test_imports_keep_the_seams(path):
    package = modules()[path]
    forbidden = set(FORBIDDEN[package])
    if path == STORAGE:
        forbidden.discard('reframe')
    if path == LINK_RUN and {
            name for name in modules_imported(path)
            if name.startswith('microbench.tools')} == {NODES_READ_OF_TOOLS}:
        forbidden.discard('tools')
    wrong = imported(path) & forbidden
    assert not wrong, (f'{path} ({package}/) imports {sorted(wrong)}: '
                       'see tests/repository/test_layout.py for who may '
                       'import whom')


def test_the_walk_sees_what_it_looks_for():
    '''The walk is not blind: the modules known to cross a seam the
    allowed way are seen doing it.'''
    found = modules()
    # a tool's package __init__ only gathers its own modules
    assert all('suite' in imported(path) for path, package in found.items()
               if package == 'tools' and imported(path) - {'tools'})
    assert 'reframe' in imported(os.path.join('suite', 'rounds.py'))
    assert 'reframe' in imported(STORAGE)
    assert {'verdicts', 'bundles', 'audit'} <= imported('cli.py')


def test_the_audit_reads_only_suite_modules_without_reframe():
    '''audit/ may import suite/'s Darshan rules, never a module of suite/
    that loads ReFrame: ``microbench audit`` runs where ReFrame's pipeline
    need not.'''
    used = set()
    for path, package in modules().items():
        if package != 'audit':
            continue
        with open(os.path.join(paths.LIBRARY, path)) as fp:
            tree = ast.parse(fp.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith('microbench.suite'):
                names = ([node.module.split('.')[2]] if node.module.count('.')
                         > 1 else [a.name for a in node.names])
                used.update(names)
    assert used and used <= AUDIT_READS_OF_SUITE, used
    for name in AUDIT_READS_OF_SUITE:
        assert 'reframe' not in imported(os.path.join('suite', f'{name}.py'))


def modules_imported(path):
    '''The modules of microbench the module at ``path`` imports, by their
    full names (``from a.b import c`` gives ``a.b``).'''
    with open(os.path.join(paths.LIBRARY, path)) as fp:
        tree = ast.parse(fp.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.update(f'{node.module}.{alias.name}' for alias in
                         node.names)
    return {name for name in found if name.startswith('microbench.')}


def test_the_link_search_reads_one_tool_module_without_reframe():
    '''nodes/linkrun.py imports tools/fabtests/pingpong.py and no other
    module of tools/, and nothing that reader imports of microbench loads
    ReFrame: ``microbench links`` runs on a login node without it.'''
    ours = {name for name in modules_imported(LINK_RUN)
            if name.startswith('microbench.tools')}
    assert ours == {NODES_READ_OF_TOOLS}
    seen, todo = set(), [NODES_READ_OF_TOOLS]
    while todo:
        name = todo.pop()
        parts = name.split('.')[1:]
        for size in (len(parts), len(parts) - 1):
            path = os.path.join(*parts[:size]) + '.py'
            if size and os.path.exists(os.path.join(paths.LIBRARY, path)):
                break
        else:
            continue
        if path in seen:
            continue
        seen.add(path)
        assert 'reframe' not in imported(path), path
        todo.extend(modules_imported(path))
    assert os.path.join('tools', 'fabtests', 'pingpong.py') in seen
    assert os.path.join('suite', 'output.py') in seen


def test_loading_the_checks_runs_no_command():
    '''What ReFrame does while it loads the checks (``reframe -l``) runs no
    git, no tool: the suite's commit is read when a test is set up.'''
    import subprocess
    import sys

    probe = (
        'import glob, os, sys\n'
        'import microbench.provenance as provenance\n'
        'calls = []\n'
        'provenance.run = lambda *args, **kwargs: calls.append(args)\n'
        f'sys.path.insert(0, {paths.CHECKS!r})\n'
        f'for path in sorted(glob.glob({paths.CHECKS!r} + "/*.py")):\n'
        '    __import__(os.path.basename(path)[:-3])\n'
        'print(len(calls))\n')
    out = subprocess.run([sys.executable, '-c', probe], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == '0'


def test_every_package_is_installed():
    '''A package left out of pyproject.toml's list would be missing from a
    non-editable install (the venv loads the source tree and would not
    notice).'''
    import tomllib
    with open(os.path.join(paths.ROOT, 'pyproject.toml'), 'rb') as fp:
        listed = set(tomllib.load(fp)['tool']['setuptools']['packages'])
    found = set()
    for folder, _, names in os.walk(paths.LIBRARY):
        if '__init__.py' in names:
            rel = os.path.relpath(folder, paths.LIBRARY)
            found.add('microbench' if rel == '.' else
                      'microbench.' + rel.replace(os.sep, '.'))
    assert found == listed
