'''The software stack a night ran, named from its records, and whether it
is still installed (``microbench diagnose``: the night before an event is
side A of its A/B, tonight side B).

A night's records name its stack by two fields every figure carries
(:mod:`microbench.fields`): ``tool_path``, the tool's program as the job
found it and where its links lead (``<env>/.spack-env/view/bin/fio ->
<install tree>/fio-3.33-<hash>/bin/fio``), and ``spack_lock``, the sha256 of
the ``spack.lock`` of the Spack environment whose view held it.  So:

- a program found in a Spack environment's view names that environment
  and its lock (:attr:`NightStack.env`, :attr:`NightStack.lock`): the
  stack is the environment *with that lock*.  It is still installed where
  the environment folder still holds that lock, or where a folder of the
  stacks directory (:data:`STACKS`, where ci/spack_install.sh keeps one
  environment per lock hash) holds it;
- a program found elsewhere (``/usr/bin/fio``, ``-S fio_bindir=DIR``)
  names its folder, and the build is the file its links lead to: still
  installed where the program is still there, leads to the same file, and
  the other night did not record another version from that same file (a
  package upgraded in place: the old build is gone).

A night whose records lack these fields (recorded by a suite older than
them) names no stack: said in one line, ``--a STACK`` gives it by hand.
'''

import dataclasses
import os

from microbench import sides, spack
from microbench.cause import abstacks

#: Where ci/spack_install.sh keeps one Spack environment per lock
#: (``<environment>-<first 12 of the lock's sha256>``): MICROBENCH_STACKS,
#: else this
STACKS = os.path.join(os.path.expanduser('~'), 'microbench-stacks')

#: The environment variable naming it (ci/spack_install.sh reads it too)
STACKS_VARIABLE = 'MICROBENCH_STACKS'

#: The most folders of a stacks directory looked into
MOST_STACKS = 1000

#: A tool by the program that names it (abstacks.PROGRAMS the other way)
TOOL_OF = {program: tool for tool, program in abstacks.PROGRAMS.items()}


class StackError(ValueError):
    '''A night's stack that cannot be named or is no longer installed
    (one line).'''


def stacks_directory(given=None):
    '''The stacks directory: ``given``, else MICROBENCH_STACKS, else
    :data:`STACKS`.'''
    return os.path.abspath(given or os.environ.get(STACKS_VARIABLE)
                           or STACKS)


@dataclasses.dataclass(frozen=True)
class NightStack:
    '''What a night's records say of its stack: the session, each tool's
    program as found (``paths``: {tool: path}), where its links led
    (``reals``), its version (``versions``), the Spack environment whose
    view held them ('' where none) and its lock's sha256 ('').'''

    session: str
    paths: dict
    reals: dict
    versions: dict
    env: str = ''
    lock: str = ''

    def describe(self):
        '''One line of it.'''
        tools = ', '.join(f'{tool} {path}' + (
            f' ({self.versions[tool]})' if self.versions.get(tool) else '')
            for tool, path in sorted(self.paths.items()))
        where = (f'Spack environment {self.env}, lock {self.lock[:12]}; '
                 if self.env else '')
        return f'{where}{tools}'

    def as_dict(self):
        '''What the diagnosis keeps of it.'''
        return {'night': self.session, 'env': self.env or None,
                'lock_hash': self.lock or None,
                'tools': {tool: {'path': self.paths[tool],
                                 'real': self.reals[tool],
                                 'version': self.versions.get(tool, '')}
                          for tool in sorted(self.paths)}}


def _one(values, what, session):
    '''The one value of ``values`` ('' where none); a night whose records
    disagree names no one stack.'''
    found = sorted({str(value) for value in values} - {'', 'nan', 'None'})
    if len(found) > 1:
        raise StackError(f'the records of session {session} name '
                         f'{len(found)} {what}s ({"; ".join(found)[:300]}): '
                         f'not one stack')
    return found[0] if found else ''


def named(rows, session):
    '''The :class:`NightStack` of a night's records ``rows`` (a data frame
    of :func:`microbench.verdicts.figures.load`, the event's checks in
    the night's ``session``).

    :raises StackError: they name none (one line).'''
    if rows.empty:
        raise StackError(f'session {session} has no records of the event\'s '
                         f'checks: its stack cannot be named')
    paths, reals, versions = {}, {}, {}
    for text, version in zip(rows['tool_path'], rows['tool_version']):
        path, _, real = str(text or '').partition(spack.LEADS)
        program = os.path.basename(path.strip())
        if program not in TOOL_OF:
            continue
        tool = TOOL_OF[program]
        if tool in paths and paths[tool] != path.strip():
            raise StackError(f'the records of session {session} name two '
                             f'{tool} programs ({paths[tool]}, '
                             f'{path.strip()}): not one stack')
        paths[tool] = path.strip()
        reals[tool] = real.strip() or path.strip()
        if str(version or '') not in ('', 'nan'):
            versions[tool] = str(version)
    if not paths:
        raise StackError(f'the records of session {session} name no '
                         f'program (no tool_path: recorded by a suite older '
                         f'than the field): give the stack with --a STACK')
    envs = {spack.environment_of(path) for path in paths.values()}
    env = _one([e or '' for e in envs], 'Spack environment', session)
    lock = _one(rows['spack_lock'], 'lock', session)
    return NightStack(session, paths, reals, versions, env if lock else '',
                      lock if env else '')


def _lock_holders(directory):
    '''``{sha256: folder}`` of the Spack environments of ``directory``
    (its folders holding a spack.lock; at most :data:`MOST_STACKS`).'''
    out = {}
    try:
        names = sorted(os.listdir(directory))[:MOST_STACKS]
    except OSError:
        return out
    for name in names:
        folder = os.path.join(directory, name)
        digest = spack.lock_digest(folder)
        if digest and os.path.isdir(os.path.join(folder, '.spack-env',
                                                 'view')):
            out.setdefault(digest, folder)
    return out


def _holds_all(folder, stack):
    '''Whether the view of environment ``folder`` holds every program of
    ``stack``.'''
    view = os.path.join(folder, '.spack-env', 'view')
    candidates = [view] + [os.path.join(view, d)
                           for d in abstacks.view_dirs()]
    return all(any(os.access(os.path.join(d, os.path.basename(path)),
                             os.X_OK) for d in candidates)
               for path in stack.paths.values())


def installed(stack, other=None, stacks=None, which='the night before'):
    '''The stack text ``microbench ab`` takes for ``stack`` where it is
    still installed: its environment folder (where it holds the lock, else
    a folder of ``stacks`` that does), or ``tool=dir`` pairs.  ``other``:
    the other night's :class:`NightStack` (a build replaced in place shows
    as the same file with another version).

    :raises StackError: it is not installed any more (one line, saying how
        stacks are kept).'''
    keep = ('stacks are kept by ci/spack_install.sh, the last ones by '
            'lock hash (docs/operators/diagnose.md, "Keeping stacks"); or '
            'give it with --a STACK')
    if stack.lock:
        if spack.lock_digest(stack.env) == stack.lock and \
                _holds_all(stack.env, stack):
            return stack.env
        found = _lock_holders(stacks_directory(stacks)).get(stack.lock)
        if found and _holds_all(found, stack):
            return found
        now = spack.lock_digest(stack.env)
        said = (f'{stack.env} holds it, but its view lacks the programs '
                f'(spack -e {stack.env} install)' if now == stack.lock else
                f'{stack.env} now holds lock {now[:12]}' if now else
                f'{stack.env} is gone' if not os.path.isdir(stack.env)
                else f'{stack.env} holds no spack.lock')
        raise StackError(f'{which}\'s stack (lock {stack.lock[:12]}) is '
                         f'no longer installed: {said}, and no environment '
                         f'of {stacks_directory(stacks)} '
                         f'({STACKS_VARIABLE}) holds that lock; {keep}')
    pairs = []
    for tool in sorted(stack.paths):
        path, real = stack.paths[tool], stack.reals[tool]
        if not os.access(path, os.X_OK):
            raise StackError(f'{which}\'s {tool} {path} is no longer '
                             f'installed; {keep}')
        if os.path.realpath(path) != real:
            raise StackError(f'{which}\'s {tool} {path} now leads to '
                             f'{os.path.realpath(path)}, not to {real}: its '
                             f'build is no longer installed; {keep}')
        if other is not None and other.reals.get(tool) == real and \
                other.versions.get(tool) and stack.versions.get(tool) and \
                other.versions[tool] != stack.versions[tool]:
            raise StackError(f'{which}\'s {tool} {stack.versions[tool]} at '
                             f'{real} was replaced in place (the other night '
                             f'ran {other.versions[tool]} from the same '
                             f'file): no longer installed; {keep}')
        directory = os.path.dirname(path)
        if sides.SIDE_SEPARATOR in directory or \
                sides.ITEM_SEPARATOR in directory:
            raise StackError(f'{which}\'s {tool} folder {directory} holds '
                             f'"," or ";": give the stack with --a')
        pairs.append(f'{tool}={directory}')
    return ','.join(pairs)
