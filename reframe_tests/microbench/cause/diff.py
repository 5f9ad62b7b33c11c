'''What differs between two Spack locks, by package name, and which
changes must move together in a bisection.

By name, as an operator names what an upgrade moved.  A package whose
version, variants (and flags), dependencies (their names and types),
external prefix, target or recipe (namespace or package hash) differ is a
change of its own, :class:`Change`, with the kinds of what differs.  A
package whose only difference is the hash of a dependency is *rebuilt
because of* the changes of their own below it: not a change of its own, it
follows its dependencies into any step.  A package that only one lock
holds is ``added`` or ``removed``: a unit of its own when it is a root,
else it *comes with* the changed packages that depend on it (a new build
dependency of a new version) and moves with them.

The units of a bisection are the changes of their own (:meth:`Diff.units`).
:func:`groups` joins the units that must move together, given the pairs
that are coupled: :func:`edge_couples` (without Spack: every dependency edge
between two units, in either lock) or the recipes' rule of
:func:`microbench.cause.stacks.recipe_couples` (the pinned Spack reads the
``depends_on`` of both sides).
'''

import dataclasses

from microbench.cause.locks import LockError


@dataclasses.dataclass(frozen=True)
class Change:
    '''A package that changed of its own between lock A and lock B:
    ``kinds`` (of :data:`~microbench.cause.locks.KINDS`), its nodes in A
    and in B (tuples, empty where the lock lacks it), and whether it is a
    root of either lock.'''

    name: str
    kinds: tuple
    a: tuple
    b: tuple
    root: bool

    def describe(self):
        '''``fabtests 1.17.0 -> 2.6.0 (version, dependencies)``.'''
        def versions(nodes):
            return ','.join(sorted({n.version for n in nodes})) or 'absent'

        return (f'{self.name} {versions(self.a)} -> {versions(self.b)} '
                f'({", ".join(self.kinds)})')


@dataclasses.dataclass
class Diff:
    '''The difference of two locks (:func:`diff`).

    ``changes``: {name: :class:`Change`}; ``rebuilt``: {name: names of the
    changes it is rebuilt because of}; ``comes_with``: {name: names of the
    changes that bring (or drop) it}, for the added and removed packages
    that are no root.'''

    a: object
    b: object
    changes: dict
    rebuilt: dict
    comes_with: dict

    def units(self):
        '''The names a bisection moves, sorted: the changes of their own
        but those that come with another.'''
        return sorted(n for n in self.changes if n not in self.comes_with)

    def empty(self):
        return not self.changes and not self.rebuilt


def _edges(node):
    return tuple(sorted((d.name, tuple(sorted(d.deptypes)))
                        for d in node.dependencies))


#: What each kind compares, for one node (sorted over the nodes of a name)
_ASPECTS = {
    'version': lambda n: n.version,
    'variants': lambda n: tuple(sorted(n.variants().items())),
    'dependencies': _edges,
    'external': lambda n: n.external or '',
    'arch': lambda n: n.arch,
    'recipe': lambda n: (n.namespace, n.package_hash),
}


def _kinds(old, new):
    kinds = [kind for kind, aspect in _ASPECTS.items()
             if sorted(map(aspect, old)) != sorted(map(aspect, new))]
    # A package hash covers the version's archive: another version has
    # another one.  The recipe changed only if the namespace did, or the
    # package hash at the same versions
    if 'version' in kinds and 'recipe' in kinds and \
            sorted(n.namespace for n in old) == sorted(
                n.namespace for n in new):
        kinds.remove('recipe')
    return tuple(kinds)


def _dependents(lock):
    '''{name: names of the packages that depend on it} in ``lock``.'''
    out = {}
    for node in lock.nodes.values():
        for dep in node.dependencies:
            out.setdefault(dep.name, set()).add(node.name)
    return out


def _causes(name, a_names, b_names, changes, rebuilt, seen):
    '''The changes of their own ``name`` is rebuilt because of: through
    every dependency whose hashes differ between the locks.'''
    if name in rebuilt:
        return rebuilt[name]
    if name in seen:   # a cycle is no lock; stop rather than recurse
        return ()
    seen.add(name)
    causes = set()
    deps = {d.name for n in b_names.get(name, []) for d in n.dependencies}
    for dep in sorted(deps):
        old = {n.hash for n in a_names.get(dep, [])}
        new = {n.hash for n in b_names.get(dep, [])}
        if old == new:
            continue
        if dep in changes:
            causes.add(dep)
        else:
            causes.update(_causes(dep, a_names, b_names, changes, rebuilt,
                                  seen))
    rebuilt[name] = tuple(sorted(causes))
    return rebuilt[name]


def diff(a, b):
    '''The :class:`Diff` of lock ``a`` (before) and lock ``b`` (after).'''
    a_names, b_names = a.by_name(), b.by_name()
    roots = a.root_names() | b.root_names()
    changes = {}
    for name in sorted(set(a_names) | set(b_names)):
        old, new = a_names.get(name, []), b_names.get(name, [])
        if not old or not new:
            kinds = ('removed',) if old else ('added',)
        else:
            kinds = _kinds(old, new)
        if kinds:
            changes[name] = Change(name=name, kinds=kinds,
                                   a=tuple(old), b=tuple(new),
                                   root=name in roots)

    rebuilt = {}
    for name in sorted(set(a_names) & set(b_names)):
        if name in changes:
            continue
        if {n.hash for n in a_names[name]} != {n.hash for n in
                                              b_names[name]}:
            _causes(name, a_names, b_names, changes, rebuilt, set())
    rebuilt = {name: causes for name, causes in rebuilt.items()
               if name not in changes and {
                   n.hash for n in a_names[name]} != {
                   n.hash for n in b_names[name]}}

    comes_with = {}
    dependents = {'added': _dependents(b), 'removed': _dependents(a)}
    for name, change in changes.items():
        kind = change.kinds[0]
        if change.root or kind not in ('added', 'removed'):
            continue
        bringers = sorted(dependents[kind].get(name, set()) &
                          (set(changes) | set(rebuilt)))
        if bringers:
            comes_with[name] = tuple(bringers)
    return Diff(a=a, b=b, changes=changes, rebuilt=rebuilt,
                comes_with=comes_with)


def require_changes(found):
    '''``found`` if it has changes to bisect.

    :raises LockError: the two locks hold the same stack.'''
    if found.empty():
        raise LockError(f'{found.b.path}: the same stack as {found.a.path} '
                        f'(no package differs): nothing to bisect')
    return found


def edge_couples(found):
    '''The pairs of units with a dependency edge between them in either
    lock: the rule without Spack.  Never too fine for what a lock can show
    of a constraint between two packages (a dependency's version), possibly
    too coarse (ior and mpich would move together although IOR 4.0.0
    accepts either MPICH).'''
    units = set(found.units())
    pairs = set()
    for lock in (found.a, found.b):
        for node in lock.nodes.values():
            for dep in node.dependencies:
                if node.name in units and dep.name in units and \
                        node.name != dep.name:
                    pairs.add(tuple(sorted((node.name, dep.name))))
    return sorted(pairs)


def groups(found, couples):
    '''The units of ``found`` joined by ``couples`` (pairs of names that
    must move together), each group sorted, the groups by their first
    name.  A pair naming a package that is no unit is ignored.'''
    units = found.units()
    parent = {name: name for name in units}

    def top(name):
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for one, other in couples:
        if one in parent and other in parent:
            parent[top(one)] = top(other)
    joined = {}
    for name in units:
        joined.setdefault(top(name), []).append(name)
    return sorted(tuple(sorted(g)) for g in joined.values())

