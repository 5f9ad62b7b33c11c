'''The two stacks of ``microbench ab``, from its command line.

A stack is given as

- a Spack environment folder whose view is installed (``spack_envs/local``,
  ``/opt/stacks/envs/local-7ce799e7508c``): its ``.spack-env/view``, and
  the sha256 of its ``spack.lock``;
- an install prefix or a view (``/opt/fio-3.40``, ``/usr``), or a folder of
  programs itself (``/usr/bin``);
- explicit ``tool=dir`` pairs, comma-separated (``fio=/usr/bin,
  ior=/opt/ior/bin``).

Under a prefix each tool's programs are looked for where an environment's
view keeps them (``spack_envs/view.yaml``: ``bin``, and OSU's
``libexec/osu-micro-benchmarks/mpi/pt2pt``); a tool is in the stack where
its program is (:data:`PROGRAMS`).  A stack with none of them is not
installed: one line, before anything runs (:class:`StackError`).
'''

import hashlib
import os

import yaml

from microbench import paths, sides

#: The program that says a tool is in a folder (spack_envs/tools.yaml
#: names each program's package)
PROGRAMS = {'fio': 'fio', 'ior': 'ior', 'mdtest': 'mdtest',
            'osu': 'osu_latency', 'fabtests': 'fi_msg_pingpong',
            'elbencho': 'elbencho'}

#: The most of a spack.lock hashed (a facility lock is a few MiB)
LOCK_CAP = 64 << 20


class StackError(ValueError):
    '''A stack that cannot be run (one line).'''


def view_dirs():
    '''The folders of a view that hold programs (spack_envs/view.yaml).'''
    with open(os.path.join(paths.SPACK_ENVS, 'view.yaml')) as fp:
        return list(yaml.safe_load(fp)['path'])


def _holds(directory, tool):
    return os.access(os.path.join(directory, PROGRAMS[tool]), os.X_OK)


def _digest(path):
    size = os.path.getsize(path)
    if size > LOCK_CAP:
        raise StackError(f'{path}: {size} bytes, more than the {LOCK_CAP} '
                         f'a spack.lock is read to')
    with open(path, 'rb') as fp:
        return hashlib.sha256(fp.read()).hexdigest()


def _environment(path):
    '''The Spack environment folder ``path`` is, or is the view of; None.'''
    parts = os.path.abspath(path).split(os.sep)
    if '.spack-env' in parts:
        return os.sep.join(parts[:parts.index('.spack-env')]) or os.sep
    if os.path.isdir(os.path.join(path, '.spack-env')):
        return os.path.abspath(path)
    return None


def _where(label, text):
    '''``text`` as a folder: as given, else below the checkout (a
    ``spack_envs/<env>`` typed from elsewhere).'''
    if os.path.isdir(text):
        return os.path.abspath(text)
    below = os.path.join(paths.ROOT, text)
    if not os.path.isabs(text) and os.path.isdir(below):
        return below
    raise StackError(f'--{label.lower()} {text}: no such folder (a Spack '
                     f'environment, an install prefix, a folder of '
                     f'programs, or tool=dir pairs)')


def _pairs(label, text, name):
    dirs = []
    for pair in text.split(','):
        tool, _, directory = pair.partition('=')
        if tool not in sides.TOOLS:
            raise StackError(f'--{label.lower()} {text}: {tool!r} is not a '
                             f'tool of {", ".join(sides.TOOLS)}')
        directory = os.path.abspath(directory)
        if not _holds(directory, tool):
            raise StackError(f'--{label.lower()} {text}: no {PROGRAMS[tool]} '
                             f'in {directory}: not an installed {tool}')
        dirs.append((tool, directory))
    return sides.Side(label, name or text, dirs=tuple(dirs))


def resolve(label, text, name=None):
    '''The :class:`~microbench.sides.Side` ``label`` of the stack ``text``
    (its name ``name``, else the path given).

    :raises StackError: it is not an installed stack (one line).'''
    if '=' in text.split(os.sep)[0]:
        return _pairs(label, text, name)
    where = _where(label, text)
    env = _environment(where)
    prefix = where
    if env and not where.startswith(os.path.join(env, '.spack-env')):
        prefix = os.path.join(env, '.spack-env', 'view')
        if not os.path.isdir(prefix):
            raise StackError(f'--{label.lower()} {text}: a Spack '
                             f'environment without an '
                             f'installed view ({prefix}): spack -e {env} '
                             f'install')
    candidates = [prefix] + [os.path.join(prefix, d) for d in view_dirs()]
    dirs = []
    for tool in sides.TOOLS:
        found = [d for d in candidates if _holds(d, tool)]
        if found:
            dirs.append((tool, found[0]))
    if not dirs:
        raise StackError(
            f'--{label.lower()} {text}: not an installed stack: none of '
            f'{", ".join(PROGRAMS.values())} under {prefix} (nor in '
            f'{", ".join(view_dirs())} below it)')
    lock = os.path.join(env, 'spack.lock') if env else ''
    return sides.Side(label, name or (os.path.basename(env) if env else
                                      text),
                      prefix=prefix,
                      lock=_digest(lock) if lock and os.path.isfile(lock)
                      else '',
                      env=env or '', dirs=tuple(dirs))


def same(one, two):
    '''Whether two sides run the same programs: each tool from the same
    folder (once links are followed), and the same lock.'''
    def where(side):
        return ({tool: os.path.realpath(d) for tool, d in side.dirs},
                side.lock)
    return where(one) == where(two)


def described(side):
    '''One line of what a side is.'''
    tools = ', '.join(f'{tool} {d}' for tool, d in side.dirs)
    return (f'{side.label}: {side.name} ({tools}'
            + (f'; lock {side.lock[:12]}' if side.lock else '') + ')')
