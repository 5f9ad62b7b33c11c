'''A script's loops (:mod:`.batch`): how many times a ``for`` loop runs,
the words it goes over, and what that makes of a command in it: a sweep
(the command uses the loop's variable: each value a configuration, run
once) or repetition (it does not: the same command again, M1).'''

import itertools
import re

from microbench.audit import bounds, shellvars


def items_of(items, env, reader=None, where=None):
    '''The words a ``for`` loop goes over, where they are literal.'''
    items = shellvars.expand(items, env, reader, where).strip()
    if any(c in items for c in '$`*{'):
        return None
    return items.split()


def uses(variable, command):
    return re.search(rf'\${{?{variable}\b', command) is not None


def sweep(loops, command):
    '''(the first :data:`~.bounds.MAX_SWEEP` assignments of the loop
    variables ``command`` uses (a sweep: each value a configuration of its
    own; [{}] where it uses none), how many there are in all).'''
    swept = [(variable, items) for variable, _, _, items in loops
             if variable and items and uses(variable, command)]
    total = 1
    for _, items in swept:
        total *= len(items)
    names = [variable for variable, _ in swept]
    first = itertools.islice(itertools.product(
        *(items for _, items in swept)), bounds.MAX_SWEEP)
    return [dict(zip(names, values)) for values in first], total


#: ``$(seq N)``, ``$(seq A B)``, ``$(seq A STEP B)``
SEQ = re.compile(r'\$\(\s*seq\s+(\d+)(?:\s+(\d+))?(?:\s+(\d+))?\s*\)')


def count(items, env, reader=None, where=None):
    '''How many times a ``for`` loop over ``items`` runs, None if not
    known.'''
    items = shellvars.expand(items, env, reader, where).strip()
    seq = SEQ.fullmatch(items)
    if seq:
        numbers = [bounds.integer(n) for n in seq.groups() if n]
        if None in numbers:
            return None
        if len(numbers) == 1:
            return numbers[0]
        if len(numbers) == 2:
            return max(numbers[1] - numbers[0] + 1, 0)
        if numbers[1] == 0:
            return None                  # seq: "invalid Zero increment"
        return max((numbers[2] - numbers[0]) // numbers[1] + 1, 0)
    brace = re.fullmatch(r'\{(\d+)\.\.(\d+)\}', items)
    if brace:
        first, last = bounds.integer(brace[1]), bounds.integer(brace[2])
        if first is None or last is None:
            return None
        return abs(last - first) + 1     # bash counts down as well as up
    if re.fullmatch(r'\{[^{}]*\$[^{}]*\}', items):
        return 1     # bash expands no range holding a variable: one item
    if '$' in items or '`' in items or '*' in items:
        return None
    return len(items.split())


def repeats(loops, command):
    '''(times the loops run ``command`` unchanged, what says so).'''
    times, said = 1, []
    for variable, count, line, _ in loops:
        if variable and uses(variable, command):
            continue                 # a sweep: each value runs once
        if count is None:
            return 3, f'a loop of line {line} (its count not known)'
        times *= count
        said.append(f'a loop of {count} at line {line}')
    return times, ', '.join(said) or None
