'''Software stacks: where an A/B experiment finds the benchmarks of a lock,
and how a bisection step gets installed.

A :class:`Stack` is what a run puts first on PATH: the view of an installed
Spack environment (``<env>/.spack-env/view``), or an install prefix (a
``/opt/fio-3.40``, ``/usr``).  A stack already installed is used as it is,
without Spack and without compiling (:func:`from_view`,
:func:`from_prefix`): what the tests and a quick A/B run on.  An external
of a lock (fio from apt in ``local-2023``) is not in the view: the stack
names its prefix (:meth:`Stack.bindir`).

With the pinned Spack on PATH (spack_envs/checkout-versions.yaml, checked
by :func:`pinned_spack`), :func:`concretize` and :func:`install` make a
step's stack; a step that Spack cannot concretize or build is a
:class:`StepError` that says so in one line (and keeps Spack's log), never
a guess.  :func:`snapshot` keeps one environment per lock: a
self-contained copy (its includes and repositories copied beside it) named
by the lock's sha256, so that a stack installed for an experiment stays
what its lock says after the project's files move on.
:func:`recipe_couples` is the recipes' rule of which changes move together.
'''

import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

import yaml

from microbench import paths
from microbench.cause import locks
from microbench.cause.intermediate import requirement

#: Seconds a concretization may take (a busy 2-core machine takes 2 to 5
#: minutes for the project's environments)
CONCRETIZE_TIMEOUT_S = 1800

#: Seconds an install may take (libfabric and fabtests from source: about
#: 10 minutes each on a busy 2-core machine)
INSTALL_TIMEOUT_S = 4 * 3600

#: Characters of Spack's output a message quotes
SHOWN = 200

#: Spack's own error lines
_ERROR = re.compile(r'^==> Error: (.*)$', re.M)


class StackError(ValueError):
    '''A stack that is not one (a missing view, no bin/), or no pinned
    Spack: one line.'''


class StepError(Exception):
    '''A bisection step that Spack could not ``concretize`` or ``install``
    (``kind``): one line of what Spack said, and the log it wrote.'''

    def __init__(self, kind, env_dir, said, log):
        super().__init__(f'{env_dir}: cannot be {kind}d: {said}')
        self.kind, self.env_dir, self.said, self.log = \
            kind, env_dir, said, log


@dataclasses.dataclass(frozen=True)
class Stack:
    '''Where the benchmarks of one side of an experiment are.

    ``root``: a view or a prefix, whose ``bin/`` goes first on PATH;
    ``lock``: the lock it was installed from (None for a prefix);
    ``externals``: {package: prefix} of the lock's externals, which no
    view holds.'''

    name: str
    root: str
    lock: str = None
    externals: tuple = ()

    def bindir(self, package=None):
        '''The ``bin/`` a ``package``'s programs are in: its external
        prefix's, else the stack's.'''
        prefix = dict(self.externals).get(package, self.root)
        return os.path.join(prefix, 'bin')


def _externals(lock):
    return tuple(sorted({(n.name, n.external) for n in lock.nodes.values()
                         if n.external}))


def from_prefix(prefix, name=None):
    '''An installed prefix as a stack (``/opt/fio-3.40``, ``/usr``).

    :raises StackError: no such folder, or no ``bin/`` in it.'''
    if not os.path.isdir(os.path.join(prefix, 'bin')):
        raise StackError(f'{prefix}: not an installed stack (no bin/ '
                         f'folder)')
    return Stack(name=name or os.path.basename(prefix.rstrip('/')),
                 root=os.path.abspath(prefix))


def from_view(view, lock_path=None, name=None):
    '''The view of an installed Spack environment as a stack; with its
    lock, the lock's externals too.

    :raises StackError: not a view with ``bin/``.
    :raises locks.LockError: the lock is not one.'''
    stack = from_prefix(view, name)
    if lock_path is None:
        return stack
    lock = locks.read(lock_path)
    return dataclasses.replace(stack, lock=os.path.abspath(lock_path),
                               externals=_externals(lock))


def from_environment(env_dir, name=None):
    '''The stack of an installed environment folder (its
    ``.spack-env/view`` and ``spack.lock``).'''
    return from_view(os.path.join(env_dir, '.spack-env', 'view'),
                     os.path.join(env_dir, 'spack.lock'),
                     name or os.path.basename(env_dir.rstrip('/')))


# -- the pinned Spack ---------------------------------------------------------

def _environ():
    return dict(os.environ, SPACK_DISABLE_LOCAL_CONFIG='1')


def _run(args, timeout, log=None):
    '''Spack's exit code and output; the output also in ``log``.'''
    try:
        proc = subprocess.run(['spack', *args], capture_output=True,
                              text=True, timeout=timeout, env=_environ())
        code, output = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as err:
        code = None
        output = f'{err.output or ""}\nno answer within {timeout} s'
    except OSError as err:
        raise StackError(f'spack cannot be run ({err.strerror or err})') \
            from None
    if log:
        with open(log, 'w') as fp:
            fp.write(output)
    return code, output


def _said(output, code):
    errors = _ERROR.findall(output)
    said = errors[0] if errors else (output.strip().splitlines() or [
        f'exit code {code}'])[-1]
    return said[:SHOWN]


def pinned_spack():
    '''The pinned Spack's version, if ``spack`` on PATH is it.

    :raises StackError: no spack, or another release.'''
    with open(os.path.join(paths.SPACK_ENVS, 'checkout-versions.yaml')) \
            as fp:
        pinned = str(yaml.safe_load(fp)['spack']['version'])
    code, output = _run(['--version'], 120)
    found = output.split()[0] if output.split() else ''
    if code != 0 or found != pinned:
        raise StackError(f'spack on PATH is {found or "absent"}, not the '
                         f'pinned {pinned} (spack_envs/README.md, '
                         f'"Reproducing a lock")')
    return pinned


def _scope_args(scope):
    return ['-C', scope] if scope else []


def concretize(env_dir, scope=None, timeout=CONCRETIZE_TIMEOUT_S):
    '''Concretize the environment ``env_dir`` (its spack.lock is
    written); the lock.

    :raises StepError: Spack cannot concretize it.'''
    log = os.path.join(env_dir, 'concretize.log')
    code, output = _run([*_scope_args(scope), '-e', env_dir, 'concretize',
                         '--force'], timeout, log)
    if code != 0:
        raise StepError('concretize', env_dir, _said(output, code), log)
    return locks.read(os.path.join(env_dir, 'spack.lock'))


def install(env_dir, scope=None, timeout=INSTALL_TIMEOUT_S, fake=False):
    '''Install the concretized environment ``env_dir`` as its lock says
    (``spack install`` does not concretize a locked environment again);
    its :class:`Stack`.  ``scope``: a Spack configuration folder (the
    install tree, the source mirror).  A source the mirror lacks, Spack
    fetches from the package's URL: keep such roots out of a step
    (``roots=`` of :func:`microbench.cause.intermediate.intermediate`)
    where nothing may be downloaded.

    :raises StepError: Spack cannot install it (a fetch, a build).'''
    lock_path = os.path.join(env_dir, 'spack.lock')
    with open(lock_path, 'rb') as fp:
        before = fp.read()
    log = os.path.join(env_dir, 'install.log')
    code, output = _run([*_scope_args(scope), '-e', env_dir, 'install',
                         *(['--fake'] if fake else [])], timeout, log)
    if code != 0:
        raise StepError('install', env_dir, _said(output, code), log)
    with open(lock_path, 'rb') as fp:
        if fp.read() != before:
            raise StepError('install', env_dir, 'Spack concretized it '
                            'again: the stack is not the lock', log)
    return from_environment(env_dir)


def _lock_digest(path):
    with open(path, 'rb') as fp:
        return hashlib.sha256(fp.read()).hexdigest()


def snapshot(env_dir, root, name=None):
    '''A self-contained copy of the concretized environment ``env_dir``
    under ``root``: ``<name>-<first 12 of the lock's sha256>/``, with its
    spack.yaml (includes and repositories pointing at copies beside it)
    and its spack.lock unchanged.  An existing snapshot of the same lock
    is kept as it is (it may be installed).'''
    name = name or os.path.basename(os.path.abspath(env_dir))
    lock_path = os.path.join(env_dir, 'spack.lock')
    locks.read(lock_path)
    dest = os.path.join(root, f'{name}-{_lock_digest(lock_path)[:12]}')
    if os.path.isfile(os.path.join(dest, 'spack.lock')):
        return dest
    with open(os.path.join(env_dir, 'spack.yaml')) as fp:
        manifest = yaml.safe_load(fp)
    conf = manifest['spack']
    work = tempfile.mkdtemp(prefix=f'.{name}-', dir=root)
    includes = []
    for i, entry in enumerate(conf.get('include', [])):
        source = entry['path'] if isinstance(entry, dict) else entry
        source = os.path.join(env_dir, source)
        target = f'include/{i}-{os.path.basename(source)}'
        os.makedirs(os.path.join(work, 'include'), exist_ok=True)
        shutil.copy(source, os.path.join(work, target))
        includes.append(target)
    if includes:
        conf['include'] = includes
    repos = {}
    for namespace, source in conf.get('repos', {}).items():
        target = f'repos/spack_repo/{namespace}'
        shutil.copytree(os.path.join(env_dir, source),
                        os.path.join(work, target),
                        ignore=shutil.ignore_patterns('__pycache__'))
        repos[namespace] = target
    if repos:
        conf['repos'] = repos
    with open(os.path.join(work, 'spack.yaml'), 'w') as fp:
        fp.write(f'# A snapshot of {os.path.abspath(env_dir)} '
                 f'(microbench.cause.stacks)\n')
        yaml.safe_dump(manifest, fp, sort_keys=False)
    shutil.copy(lock_path, os.path.join(work, 'spack.lock'))
    os.rename(work, dest)
    return dest


# -- which changes move together: the recipes' rule -------------------------

#: Run by ``spack python`` inside an environment of the locks' repositories:
#: for each (P's spec, Q's name, the other side's Q), whether a
#: ``depends_on`` of P's recipe that applies to P's spec constrains Q so
#: that the other side's Q does not satisfy it
_RECIPE_SCRIPT = '''
import json, sys
import spack.repo
import spack.spec
out = []
for p_text, q_name, q_text in json.load(open(sys.argv[1])):
    p = spack.spec.Spec(p_text)
    cls = spack.repo.PATH.get_pkg_class(p.name)
    coupled = False
    for when, deps in cls.dependencies.items():
        if q_name in deps and p.satisfies(when):
            if not spack.spec.Spec(q_text).intersects(deps[q_name].spec):
                coupled = True
    out.append(coupled)
print("RESULT " + json.dumps(out))
'''


def _spec_text(node):
    return f'{node.name}{requirement(node)}'


def recipe_pairs(found):
    '''The questions of :func:`recipe_couples`: for each dependency edge
    P -> Q between two units (in either lock), (P, Q, P's spec on one side,
    Q's spec on the other), both ways.'''
    units = set(found.units())
    a, b = found.a.by_name(), found.b.by_name()
    questions = set()
    for lock in (found.a, found.b):
        for node in lock.nodes.values():
            for dep in node.dependencies:
                p, q = node.name, dep.name
                if p not in units or q not in units or p == q:
                    continue
                for mine, other in ((b, a), (a, b)):
                    for pn in mine.get(p, []):
                        for qn in other.get(q, []):
                            questions.add((p, q, _spec_text(pn),
                                           _spec_text(qn)))
    return sorted(questions)


def recipe_couples(found, repos, timeout=600):
    '''The pairs of units that must move together by their recipes: P and
    Q (P depends on Q in either lock) are coupled when a ``depends_on`` of
    P's recipe that applies to P's version and variants on one side
    constrains Q so that Q on the other side does not satisfy it
    (``fabtests@2.6.0`` needs ``libfabric@2.6.0``; ``py-darshan@3.5.0``
    needs ``darshan-util@3.5.0``).  ``conflicts()`` and constraints on
    dependencies of dependencies are not read: a step they forbid is one
    Spack cannot concretize, reported as such.

    :raises StackError: no pinned Spack, or Spack could not answer.'''
    questions = recipe_pairs(found)
    if not questions:
        return []
    with tempfile.TemporaryDirectory(prefix='recipes-') as tmp:
        with open(os.path.join(tmp, 'spack.yaml'), 'w') as fp:
            yaml.safe_dump({'spack': {'specs': [], 'repos': {
                ns: os.path.abspath(path) for ns, path in repos}}}, fp)
        script = os.path.join(tmp, 'couples.py')
        with open(script, 'w') as fp:
            fp.write(_RECIPE_SCRIPT)
        asked = os.path.join(tmp, 'questions.json')
        with open(asked, 'w') as fp:
            json.dump([(q[2], q[1], q[3]) for q in questions], fp)
        code, output = _run(['-e', tmp, 'python', script, asked], timeout)
    answers = [line[len('RESULT '):] for line in output.splitlines()
               if line.startswith('RESULT ')]
    if code != 0 or len(answers) != 1:
        raise StackError(f'spack python could not read the recipes: '
                         f'{_said(output, code)}')
    coupled = json.loads(answers[0])
    return sorted({tuple(sorted(q[:2]))
                   for q, yes in zip(questions, coupled) if yes})
