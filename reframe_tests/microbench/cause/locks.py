'''Spack locks as a bisection reads them.

A lock (``spack.lock``, Spack 1.0's lockfile version 6) is read whole and
checked before anything uses it (:func:`read`): a file that is not a Spack
lock, a lockfile version this reader does not know, or a lock whose nodes
are not what Spack writes (a key missing, a value of the wrong type, a
dependency on a hash the lock does not hold) is one line naming the file
and the entry, :class:`LockError`.  Nothing in it runs code (JSON), and
the work is bounded: a file past :data:`MAX_BYTES` or with more than
:data:`MAX_NODES` nodes is not read; the rest is linear in its size.

What differs between two locks, and which changes must move together, is
:mod:`microbench.cause.diff`.
'''

import dataclasses
import json
import re

#: What ``_meta: file-type`` of a Spack lock says
FILE_TYPE = 'spack-lockfile'

#: The lockfile versions read: Spack 1.0's (the pinned v1.0.2 writes 6).
#: Another version may lay its nodes out differently: it is rejected, not
#: guessed at
LOCKFILE_VERSIONS = (6,)

#: The largest lock read: the project's have 40 to 120 nodes in 40 to
#: 170 KiB; a hundred times that is no lock of one environment
MAX_BYTES = 16 << 20

#: The most nodes a lock may hold (Spack's whole builtin repository has
#: some 8000 packages)
MAX_NODES = 20000

#: Characters of a read value a message quotes
SHOWN = 40

#: A Spack package name (``py-darshan``, ``compiler-wrapper``)
NAME = re.compile(r'[a-z0-9][a-z0-9_-]{0,99}')

#: A Spack DAG hash: 32 characters of lowercase base32
HASH = re.compile(r'[a-z2-7]{32}')

#: Parameters of a node that are compiler flags (each a list of strings)
FLAGS = ('cflags', 'cppflags', 'cxxflags', 'fflags', 'ldflags', 'ldlibs')

#: Parameters of a node that are no variant: the patches Spack applied
#: (they follow from the recipe and the variants) and a development path
NOT_VARIANTS = ('patches', 'dev_path')

#: What can differ in a package between two locks, besides a rebuild
KINDS = ('version', 'variants', 'dependencies', 'external', 'arch',
         'recipe', 'added', 'removed')


class LockError(ValueError):
    '''A file that is not a Spack lock this reader reads: one line naming
    the file (and the entry) and what is wrong.'''


@dataclasses.dataclass(frozen=True)
class Dependency:
    '''An edge of a node: the dependency's name and hash, how it is
    depended on (``build``, ``link``, ``run``, ``test``) and the virtuals
    it provides there (``mpi``, ``c``).'''

    name: str
    hash: str
    deptypes: tuple
    virtuals: tuple


@dataclasses.dataclass(frozen=True)
class Node:
    '''A concrete spec of a lock, as the bisection compares it.

    ``parameters``: the variants and flags, as sorted ``(name, value)``
    pairs (a list value as a tuple); ``external``: the prefix of an
    external, else None, and ``external_attributes`` its
    ``extra_attributes`` (JSON text: a compiler's executables); ``arch``:
    ``(platform, os, target)``.'''

    name: str
    version: str
    hash: str
    namespace: str
    package_hash: str
    parameters: tuple
    external: str
    external_attributes: str
    arch: tuple
    dependencies: tuple

    def variants(self):
        '''{name: value} of the variants and non-empty flags.'''
        return {key: value for key, value in self.parameters
                if key not in NOT_VARIANTS
                and not (key in FLAGS and not value)}

    def spec(self):
        '''``name@version`` (the text a message shows).'''
        return f'{self.name}@{self.version}'


@dataclasses.dataclass(frozen=True)
class Lock:
    '''A lock as read: where from, the Spack that made it, its roots as
    ``(spec, hash)`` and its nodes by hash.'''

    path: str
    spack: str
    roots: tuple
    nodes: dict

    def by_name(self):
        '''{name: [nodes]}: a lock may hold a package twice (a build tool
        of another version for one dependent).'''
        out = {}
        for node in self.nodes.values():
            out.setdefault(node.name, []).append(node)
        return out

    def root_names(self):
        return {self.nodes[digest].name for _, digest in self.roots}


def _shown(value):
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + '...'


def _need(value, kind, where):
    '''``value`` if it is a ``kind`` (a type or a tuple of types; a bool
    is no number here), else the :class:`LockError` of ``where``.'''
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (
            isinstance(value, bool) and bool not in kinds):
        names = ' or '.join(k.__name__ for k in kinds)
        raise LockError(f'{where} is {_shown(value)}, not a {names}')
    return value


def _text(value, pattern, where):
    _need(value, str, where)
    if pattern is not None and not pattern.fullmatch(value):
        raise LockError(f'{where} is {_shown(value)}, not a '
                        f'{"hash" if pattern is HASH else "package name"}')
    return value


def _parameter(value, where):
    '''A parameter's value, hashable: a bool, a string, a number or a
    list of strings (a multi-valued variant, flags, patches).'''
    if isinstance(value, list):
        return tuple(_need(v, str, f'{where}[{i}]')
                     for i, v in enumerate(value))
    return _need(value, (bool, str, int, float), where)


def _dependency(entry, where):
    _need(entry, dict, where)
    params = _need(entry.get('parameters'), dict, f'{where}.parameters')
    return Dependency(
        name=_text(entry.get('name'), NAME, f'{where}.name'),
        hash=_text(entry.get('hash'), HASH, f'{where}.hash'),
        deptypes=tuple(_need(t, str, f'{where}.parameters.deptypes')
                       for t in _need(params.get('deptypes'), list,
                                      f'{where}.parameters.deptypes')),
        virtuals=tuple(_need(v, str, f'{where}.parameters.virtuals')
                       for v in _need(params.get('virtuals', []), list,
                                      f'{where}.parameters.virtuals')))


def _node(digest, entry, where):
    _need(entry, dict, where)
    if entry.get('hash') != digest:
        raise LockError(f'{where}.hash is {_shown(entry.get("hash"))}, '
                        f'not its key')
    arch = _need(entry.get('arch'), dict, f'{where}.arch')
    target = arch.get('target')
    if isinstance(target, dict):
        target = target.get('name')
    params = _need(entry.get('parameters'), dict, f'{where}.parameters')
    external, attributes = entry.get('external'), '{}'
    if external is not None:
        _need(external, dict, f'{where}.external')
        attributes = json.dumps(_need(external.get('extra_attributes', {}),
                                      dict,
                                      f'{where}.external.extra_attributes'),
                                sort_keys=True)
        external = _need(external.get('path'), str,
                         f'{where}.external.path')
    deps = _need(entry.get('dependencies', []), list,
                 f'{where}.dependencies')
    return Node(
        name=_text(entry.get('name'), NAME, f'{where}.name'),
        version=_text(entry.get('version'), None, f'{where}.version'),
        hash=digest,
        namespace=_text(entry.get('namespace'), None, f'{where}.namespace'),
        package_hash=_text(entry.get('package_hash', ''), None,
                           f'{where}.package_hash'),
        parameters=tuple(sorted(
            (_need(k, str, f'{where}.parameters'),
             _parameter(v, f'{where}.parameters.{k}'))
            for k, v in params.items())),
        external=external,
        external_attributes=attributes,
        arch=(_text(arch.get('platform'), None, f'{where}.arch.platform'),
              _text(arch.get('platform_os'), None,
                    f'{where}.arch.platform_os'),
              _text(target, None, f'{where}.arch.target')),
        dependencies=tuple(_dependency(d, f'{where}.dependencies[{i}]')
                           for i, d in enumerate(deps)))


def _meta(data, path):
    if not isinstance(data, dict) or not isinstance(data.get('_meta'),
                                                    dict):
        raise LockError(f'{path}: not a Spack lock (no _meta object)')
    meta = data['_meta']
    if meta.get('file-type') != FILE_TYPE:
        raise LockError(f'{path}: not a Spack lock (_meta.file-type is '
                        f'{_shown(meta.get("file-type"))}, not '
                        f'{FILE_TYPE!r})')
    version = meta.get('lockfile-version')
    if version not in LOCKFILE_VERSIONS or isinstance(version, bool):
        raise LockError(
            f'{path}: lockfile-version {_shown(version)} is not one this '
            f'reader knows ({", ".join(map(str, LOCKFILE_VERSIONS))}: '
            f'Spack 1.0)')
    if 'include_concrete' in data:
        raise LockError(f'{path}: include_concrete (specs of other '
                        f'environments) is not read')


def parse(data, path):
    '''The :class:`Lock` of ``data`` (bytes), read from ``path``.

    :raises LockError: not a lock this reader reads.'''
    if len(data) > MAX_BYTES:
        raise LockError(f'{path}: {len(data)} bytes, more than a lock '
                        f'({MAX_BYTES} at most)')
    try:
        tree = json.loads(data.decode('utf-8'))
    except UnicodeDecodeError as err:
        raise LockError(f'{path}: not UTF-8 (byte {err.start})') from None
    except json.JSONDecodeError as err:
        raise LockError(f'{path}: not JSON ({err.msg}, line {err.lineno} '
                        f'column {err.colno})') from None
    except ValueError as err:   # an integer of more than 4300 digits
        raise LockError(f'{path}: not JSON ({_shown(str(err))})') from None
    except RecursionError:
        raise LockError(f'{path}: not a Spack lock (nested too '
                        f'deeply)') from None

    _meta(tree, path)
    where = f'{path}: '
    specs = _need(tree.get('concrete_specs'), dict,
                  f'{where}concrete_specs')
    if len(specs) > MAX_NODES:
        raise LockError(f'{path}: {len(specs)} nodes, more than a lock '
                        f'({MAX_NODES} at most)')
    nodes = {_text(digest, HASH, f'{where}concrete_specs key'):
             _node(digest, entry, f'{where}concrete_specs.{digest}')
             for digest, entry in specs.items()}
    for node in nodes.values():
        for dep in node.dependencies:
            if dep.hash not in nodes:
                raise LockError(f'{where}{node.spec()}/{node.hash[:7]} '
                                f'depends on {dep.name}/{dep.hash[:7]}, '
                                f'which the lock does not hold')
    roots = []
    for i, root in enumerate(_need(tree.get('roots'), list,
                                   f'{where}roots')):
        entry = _need(root, dict, f'{where}roots[{i}]')
        spec = _text(entry.get('spec'), None, f'{where}roots[{i}].spec')
        digest = _text(entry.get('hash'), HASH, f'{where}roots[{i}].hash')
        if digest not in nodes:
            raise LockError(f'{where}roots[{i}] ({_shown(spec)}) is not '
                            f'among its concrete_specs')
        roots.append((spec, digest))
    if not roots:
        raise LockError(f'{path}: a lock without roots')
    made_by = tree.get('spack') if isinstance(tree.get('spack'),
                                              dict) else {}
    return Lock(path=path, spack=str(made_by.get('version', 'unknown')),
                roots=tuple(roots), nodes=nodes)


def read(path):
    '''The :class:`Lock` in the file ``path``.

    :raises LockError: unreadable, or not a lock this reader reads.'''
    try:
        with open(path, 'rb') as fp:
            data = fp.read(MAX_BYTES + 1)
    except OSError as err:
        raise LockError(f'{path}: cannot be read '
                        f'({err.strerror or err})') from None
    return parse(data, path)
