'''A script's loops (:mod:`.batch`): how many times a ``for`` loop runs,
the words it goes over, and what that makes of a command in it: a sweep
(the command uses the loop's variable: each value a configuration, run
once) or repetition (it does not: the same command again, M1).  A
variable set in a loop from its variable (``NP=$((n*16))``,
``cmd="${TEST}_CMD"``) is the loop's too: kept as written, it is
expanded in each configuration of the command that uses it.'''

import itertools
import re
from collections.abc import Mapping

from microbench.audit import bounds, shellvars, shellwords

#: An assignment (``export`` before it or not): its name and its text
_ASSIGNMENT = re.compile(r'^(?:export\s+)?(\w+)=(\S.*|)$')


def items_of(items, env, reader=None, where=None):
    '''The words a ``for`` loop goes over, where they are literal.'''
    items = shellvars.expand(items, env, reader, where).strip()
    if any(c in items for c in '$`*{'):
        return None
    try:          # ("" "-z"): the words the shell makes, quotes removed
        return shellwords.split(items)
    except ValueError:
        return items.split()


#: An arithmetic expansion, whose variables need no ``$`` (``$((n*16))``)
_ARITHMETIC = re.compile(r'\$\(\(([^()]*)\)\)')


def uses(variable, command):
    '''Whether ``command`` reads ``variable`` (``$n``, ``${n}``, or ``n``
    in an arithmetic expansion).'''
    if re.search(rf'\${{?{variable}\b', command) is not None:
        return True
    return '$((' in command and any(
        re.search(rf'(?<![\w$]){variable}\b', inner[1])
        for inner in _ARITHMETIC.finditer(command))


def sweep(loops, command):
    '''(the first :data:`~.bounds.MAX_SWEEP` assignments of the loop
    variables ``command`` uses (a sweep: each value a configuration of its
    own; [{}] where it uses none), how many there are in all).'''
    swept = [(variable, items) for variable, count, _, items in loops
             if variable and items and uses(variable, command)
             and not counted(variable, count, items, command)]
    total = 1
    for _, items in swept:
        total *= len(items)
    names = [variable for variable, _ in swept]
    first = itertools.islice(itertools.product(
        *(items for _, items in swept)), bounds.MAX_SWEEP)
    return [dict(zip(names, values)) for values in first], total


#: ``$(seq N)``, ``$(seq A B)``, ``$(seq A STEP B)`` (or in backquotes)
SEQ = re.compile(r'(?:\$\(|`)\s*seq\s+(\d+)(?:\s+(\d+))?(?:\s+(\d+))?'
                 r'\s*(?:\)|`)')


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


#: A ``while`` loop that counts (``while [ $i -le $max ]``, ``while ((
#: i < 25 ))``): its variable, the test, its bound
_WHILE_COUNT = re.compile(
    r'^\s*while\s+(?:\[\[?\s+"?\$\{?(\w+)\}?"?\s+-(le|lt)\s+"?([$\w{}]+)"?'
    r'\s+\]\]?|\(\(\s*\$?(\w+)\s*(<=|<)\s*\$?(\w+)\s*\)\))')


def while_count(line, env):
    '''(its variable, how many times it runs: None if not known) of a
    ``while`` loop: a counter from the value it holds up to a bound the
    input sets, one at a time (``i=$((i+1))``, the way such loops go; a
    loop that doubles its counter goes over fewer, and uses it in the
    command: a sweep); (None, None) for any other.'''
    match = _WHILE_COUNT.match(line)
    if match is None:
        return None, None
    variable, test, bound = (match[1], match[2], match[3]) if match[1] \
        else (match[4], {'<=': 'le', '<': 'lt'}[match[5]], match[6])
    start = bounds.integer(str(env.get(variable, '')).strip())
    bound = shellvars.expand(bound if bound.startswith('$') or not
                             bound.isidentifier() else f'${bound}', env)
    end = bounds.integer(bound.strip())
    if start is None or end is None:
        return variable, None
    return variable, max(end - start + (test == 'le'), 0)


def counted(variable, count, items, command):
    '''Whether a loop over numbers only counts the runs of ``command``
    (``for i in {1..3}; do fio ... -o ../res_host$i``): its variable
    used in names only (an output's, a file's), never as a value of its
    own (``-np $i``, ``--bs=${i}k``, ``-n$i``).'''
    if not variable or count is None or (
            items is not None and not all(item.isdigit() for item in items)):
        return False
    found = False
    for word in command.split():
        for use in re.finditer(rf'\${{?{variable}\b', word):
            before = word[:use.start()].rpartition('=')[2]
            if not _NAME.fullmatch(before) or before.startswith('-'):
                return False
            found = True
    return found and '$((' not in command


#: What a name holds before a counter's value (``res_host``, ``../out.``)
_NAME = re.compile(r'[\w./:-]*[A-Za-z_./][\w./:-]*')


def repeats(loops, command):
    '''(times the loops run ``command`` unchanged, what says so).'''
    times, said = 1, []
    for variable, count, line, items in loops:
        if variable and uses(variable, command) and \
                not counted(variable, count, items, command):
            continue                 # a sweep: each value runs once
        if count is None:
            return None, f'a loop of line {line}, whose count the input ' \
                f'does not say'
        times *= count
        said.append(f'a loop of {count} at line {line}')
    return times, ', '.join(said) or None


def derive(part, loops, env):
    '''Keep a variable set from a loop's variable as written (``NP=$((n
    * 16))`` in ``for n in ...``), in ``env``'s derived ones; whether
    ``part`` was one.'''
    match = _ASSIGNMENT.match(part.strip())
    variables = [variable for variable, _, _, _ in loops if variable]
    if match is None or match[1] in variables or not any(
            uses(variable, match[2]) for variable in variables):
        return False            # job="${job%.j2}": the loop's own
    try:
        (value,) = shellwords.split(match[2]) or ['']
    except ValueError:
        return False            # several words, or unbalanced quotes
    env.set(match[1], value)
    env.derived.add(match[1])
    return True


def with_derived(part, env, reader=None, where=None):
    '''``part`` with the loop-derived variables it uses written out
    (their loop variables then swept as its own); what it adds counted
    by ``reader``.'''
    if not env.derived or '$' not in part:
        return part
    return shellvars.expand(part, _Derived(env), reader, where)


class _Derived(Mapping):
    '''The loop-derived variables of an environment as they are now, each
    looked up as a command names it (a copy of them all for each command
    was derived x commands).'''

    def __init__(self, env):
        self._names, self._view = env.derived, env.view()

    def __getitem__(self, name):
        if name not in self._names:
            raise KeyError(name)
        return self._view[name]

    def __iter__(self):
        return (name for name in self._names if name in self._view)

    def __len__(self):
        return sum(1 for _ in self)
