'''The Spack environment of a bisection step: lock A with a subset of the
changes taken from lock B (:func:`intermediate`).

The environment is written from the two locks alone, so that the pinned
Spack concretizes it to nodes of A and of B and installs nothing new where
both are installed: every package is required at the version and variants
(and flags) of the side it takes, A's or B's (``require: "@=3.33 +libaio
~gui ..."``), every external of that side is declared again with its prefix
(and ``buildable: false``), every virtual names the provider that side used
(``mpi: require: mpich``), and the target is the locks' own.  A package
takes B's side when it is in the subset, or comes with one that is (a new
build dependency); a package that is only rebuilt takes what both sides
share and follows its dependencies.  The roots are the packages of A's
roots (B's for an added root in the subset, none for a removed one).

The recipes come from the repositories given (:func:`repos_of` reads an
environment's), in their order but where a node's recipe needs another
(:func:`ordered_repos`: Spack takes a package from the first repository
holding it); ``builtin`` is the site's.  A node's hash
covers its recipe: a step reproduces A's and B's hashes only with the
recipes that made the locks (the pinned spack-packages and the project's
repository at the commit of the locks).  Whether a subset can be built at
all is Spack's to say: a step it cannot concretize is reported as such
(:class:`microbench.cause.stacks.StepError`), never guessed over.
'''

import json
import os

import yaml

from microbench.cause.locks import FLAGS, LockError

#: Namespaces every Spack has (the site scope's builtin recipes)
SITE_NAMESPACES = ('builtin',)

#: Virtuals a step does not name a provider for: the compilers' languages
#: and the libc, which the compiler external carries with it
IMPLIED_VIRTUALS = ('c', 'cxx', 'fortran', 'libc')

#: Packages a step does not declare: Spack makes the libc external of the
#: compiler itself
IMPLIED_PACKAGES = ('glibc', 'musl')


def _value(value):
    '''A variant value as a spec spells it.'''
    text = ','.join(value) if isinstance(value, tuple) else str(value)
    if any(c in text for c in ' "\'=') or text == '':
        return json.dumps(text)
    return text


def variants_text(node):
    '''``+libaio ~gui build_system=autotools cflags="-O2"`` of a node:
    every variant it has, and its non-empty flags.'''
    words = []
    for name, value in sorted(node.variants().items()):
        if isinstance(value, bool):
            words.append(f'+{name}' if value else f'~{name}')
        elif name in FLAGS:
            words.append(f'{name}={json.dumps(" ".join(value))}')
        elif isinstance(value, tuple) and not value:
            continue
        else:
            words.append(f'{name}={_value(value)}')
    return ' '.join(words)


def requirement(node):
    '''``@=3.33 +libaio ~gui ...``: the node exactly, but its hash.'''
    return f'@={node.version} {variants_text(node)}'.strip()


def external(node):
    '''The ``externals:`` entry that declares ``node`` again.'''
    entry = {'spec': f'{node.name}@={node.version} '
                     f'{variants_text(node)}'.strip(),
             'prefix': node.external}
    attributes = json.loads(node.external_attributes)
    if attributes:
        entry['extra_attributes'] = attributes
    return entry


def sides(found, subset):
    '''{name: 'a' or 'b'}: the side each package of either lock takes
    when the changes ``subset`` move.

    :raises LockError: a name of the subset is no unit of the difference.'''
    units = set(found.units())
    unknown = sorted(set(subset) - units)
    if unknown:
        raise LockError(f'{found.b.path}: {", ".join(unknown)} is no '
                        f'change of its own between the locks (the units '
                        f'are {", ".join(sorted(units)) or "none"})')
    side = {}
    for name in set(found.a.by_name()) | set(found.b.by_name()):
        moves = name in subset or any(
            bringer in subset for bringer in found.comes_with.get(name, ()))
        side[name] = 'b' if moves else 'a'
    return side


def _chosen(found, side):
    '''{name: [nodes]} of the step: each package's nodes on its side.'''
    a, b = found.a.by_name(), found.b.by_name()
    out = {}
    for name, where in side.items():
        nodes = (b if where == 'b' else a).get(name, [])
        if nodes:
            out[name] = nodes
    return out


def _provides(path, name):
    '''Whether the repository at ``path`` holds a recipe of ``name``
    (Spack's package folder: ``-`` written ``_``, a leading digit behind
    ``_``).'''
    folder = name.replace('-', '_')
    if folder[:1].isdigit():
        folder = f'_{folder}'
    return os.path.isfile(os.path.join(path, 'packages', folder,
                                       'package.py'))


def ordered_repos(repos, chosen):
    '''``repos`` ([(namespace, path)]) in the order that gives every node
    of ``chosen`` ({name: [nodes]}) the recipe of its lock: Spack takes a
    package from the first repository that holds it, so a node's
    namespace goes before every other repository holding a recipe of its
    name (side A's fio of ``microbench_test`` before side B's repository
    ``microbench_test_double``, which holds another fio); otherwise the
    order given.

    :raises LockError: two nodes need the repositories in orders that
        contradict each other.'''
    names = [ns for ns, _ in repos]
    path = dict(repos)
    before = {ns: set() for ns in names}      # {ns: namespaces before it}
    for name, nodes in sorted(chosen.items()):
        for node in nodes:
            if node.namespace not in path:
                continue
            for other in names:
                if other != node.namespace and _provides(path[other], name):
                    before[other].add(node.namespace)
    out = []
    while len(out) < len(names):
        ready = [ns for ns in names if ns not in out
                 and before[ns] <= set(out)]
        if not ready:
            left = ', '.join(ns for ns in names if ns not in out)
            raise LockError(f'the step needs each of the repositories '
                            f'{left} before another: two of its packages '
                            f'take recipes of one name from each')
        out.append(ready[0])
    return [(ns, path[ns]) for ns in out]


def _target(lock):
    '''The target of the lock's roots (the environment's explicit one).'''
    targets = sorted({lock.nodes[digest].arch[2]
                      for _, digest in lock.roots})
    if len(targets) != 1:
        raise LockError(f'{lock.path}: its roots have targets '
                        f'{", ".join(targets)}, not one')
    return targets[0]


def _roots(found, subset):
    a, b = found.a.root_names(), found.b.root_names()
    moved = {name for name in subset
             if name in found.changes and found.changes[name].root}
    return sorted((a - moved) | (b & moved) | (a & b))


def intermediate(found, subset, repos, roots=None):
    '''The ``spack.yaml`` (a dict) of the step that moves the changes
    ``subset`` (names of :meth:`~microbench.cause.diff.Diff.units`) of
    ``found`` (a :class:`~microbench.cause.diff.Diff`) from lock A to
    lock B.  ``repos``: [(namespace, path)] of the recipes, in order.
    ``roots``: the root packages to install, if not all of them (an A/B of
    the fio checks needs fio alone; a root whose source is not here, such
    as OSU on the development machine, would fail every step).

    :raises LockError: a name that is no unit or no root, a namespace of
        the locks without a repository, roots of more than one target.'''
    specs = _roots(found, subset)
    if roots is not None:
        unknown = sorted(set(roots) - set(specs))
        if unknown:
            raise LockError(f'{found.a.path}: {", ".join(unknown)} is no '
                            f'root of the step (its roots are '
                            f'{", ".join(specs)})')
        specs = sorted(set(roots))
    side = sides(found, subset)
    chosen = _chosen(found, side)
    known = {ns for ns, _ in repos} | set(SITE_NAMESPACES)
    missing = sorted({n.namespace for nodes in chosen.values()
                      for n in nodes} - known)
    if missing:
        raise LockError(f'{found.a.path}: the namespace '
                        f'{", ".join(missing)} of its nodes has no '
                        f'repository here')

    repos = ordered_repos(repos, chosen)
    target = _target(found.b if subset else found.a)
    packages = {'all': {'target': [target]}}
    providers = {}
    for name, nodes in sorted(chosen.items()):
        for node in nodes:
            for dep in node.dependencies:
                for virtual in dep.virtuals:
                    if virtual not in IMPLIED_VIRTUALS:
                        providers.setdefault(virtual, set()).add(dep.name)
        if name in IMPLIED_PACKAGES:
            continue
        externals = [external(n) for n in nodes if n.external]
        built = sorted({requirement(n) for n in nodes if not n.external})
        entry = {}
        if externals:
            entry['externals'] = externals
            if not built:
                entry['buildable'] = False
        requirements = built + [f'@={n.version}' for n in nodes
                                if n.external]
        requirements = sorted(set(requirements))
        entry['require'] = (requirements[0] if len(requirements) == 1
                            else [{'any_of': requirements}])
        packages[name] = entry
    for virtual, names in sorted(providers.items()):
        names = sorted(names)
        packages.setdefault(virtual, {})['require'] = (
            names[0] if len(names) == 1 else [{'any_of': names}])

    return {'spack': {
        'specs': specs,
        'repos': {ns: os.path.abspath(path) for ns, path in repos},
        'concretizer': {'unify': True, 'reuse': False,
                        'targets': {'host_compatible': False}},
        'packages': packages,
        'view': True,
    }}


def write(env_dir, manifest):
    '''Write ``manifest`` as ``env_dir``/spack.yaml (a new folder).'''
    os.makedirs(env_dir, exist_ok=True)
    path = os.path.join(env_dir, 'spack.yaml')
    with open(path, 'w') as fp:
        fp.write('# A bisection step (microbench.cause.intermediate): '
                 'lock A with a subset of\n# the changes of lock B, every '
                 'package pinned to its side\n')
        yaml.safe_dump(manifest, fp, sort_keys=False)
    return path


def repos_of(env_dir):
    '''[(namespace, absolute path)] of the ``repos:`` of the Spack
    environment ``env_dir`` (its spack.yaml), in order.

    :raises LockError: no readable spack.yaml, or no ``repos:`` mapping.'''
    path = os.path.join(env_dir, 'spack.yaml')
    try:
        with open(path) as fp:
            conf = yaml.safe_load(fp)
    except (OSError, yaml.YAMLError, UnicodeDecodeError) as err:
        raise LockError(f'{path}: cannot be read as YAML '
                        f'({str(err).splitlines()[0][:80]})') from None
    repos = conf.get('spack', {}).get('repos', {}) if isinstance(
        conf, dict) and isinstance(conf.get('spack'), dict) else None
    if not isinstance(repos, dict) or not all(
            isinstance(v, str) for v in repos.values()):
        raise LockError(f'{path}: spack.repos is no mapping of namespace '
                        f'to path')
    return [(ns, os.path.normpath(os.path.join(env_dir, p)))
            for ns, p in repos.items()]
