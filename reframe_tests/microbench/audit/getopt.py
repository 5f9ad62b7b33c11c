'''Options as IOR, mdtest and elbencho read them (IOR's ``option.c``):
short flags grouped (``-vvv``, ``-wr``), a short option's value attached
(``-t1m``) or the next word, long options as ``--name=value`` or ``--name
value``.  A word the tool knows no option for is one it rejects.'''

import re
from collections import Counter
from dataclasses import dataclass

from microbench.audit.bounds import (EXCERPT_CHARS, clipped, excerpt,
                                     options_read)
from microbench.audit.findings import Unreadable


#: A word that is a variable the input does not set (``$PARAMS``), or a
#: documentation's placeholder for one (``<mdtest_options>``), or an
#: array's elements (``"${opts[@]}"``): it may hold
#: options; passed over, and said by the audit (its name: ``[1]``)
UNSET = re.compile(r'^(?:\$\{?(?=\w+\}?$)|<(?=\w[\w-]*>$)|'
                   r'\$\{(?=\w+\[[@*]\]\}$))([\w-]+)(?:\[[@*]\])?[}>]?$')


@dataclass(slots=True)
class Given:
    '''One option as given: its name (``-C``, ``--posix.odirect``), its
    value (None for a flag), and the index of its first word.'''

    name: str
    value: str
    word: int
    #: the words it takes (2: a value in the next word)
    span: int = 1


def parse(argv, table, program, where, positional=False, groups=False,
          modules=()):
    '''[:class:`Given`] of ``argv`` (program first) against ``table``
    ({option: (takes a value, releases)}), and the positional words.
    With ``groups`` (IOR's ``option.c`` since 4.0), a letter of a group
    of flags that is no option is passed over where another letter of
    the group is one (``-z-k`` is ``-z -k``); ``modules``: the back ends
    whose own options (``--cubefs.conf=FILE``) the table does not hold,
    taken as given.

    :raises Unreadable: on an option no release of the tool has, or one
        whose value is missing.
    '''
    given, words, i = [], list(argv[1:]), 0
    rest = []
    while i < len(words):
        word, start = words[i], i
        i += 1
        if word == '--':
            rest.extend(words[i:])
            break
        if not word.startswith('-') or word == '-':
            if UNSET.match(word):
                continue       # a variable the input does not set: said
            if not positional:
                raise Unreadable(f'{where}: {program} takes no argument '
                                 f'{excerpt(word)} (an option\'s value '
                                 f'given twice, or a stray word)')
            rest.append(word)
            continue
        options_read(len(given), where)
        if word.startswith('--'):
            name, eq, value = word.partition('=')
            if name not in table and name[2:].split('.')[0].lower() in \
                    modules and '.' in name:
                given.append(Given(name, value if eq else None, start, 1))
                continue
            if name not in table:
                raise Unreadable(f'{where}: {program} has no option '
                                 f'{clipped(name, EXCERPT_CHARS)} '
                                 f'({program} would stop)')
            takes, _ = table[name]
            if takes and not eq:
                if i >= len(words):
                    raise Unreadable(f'{where}: {program} option {name} '
                                     f'needs a value')
                value, i = words[i], i + 1
            given.append(Given(name, value if takes or eq else None, start,
                               i - start))
            continue
        letters = word[1:]
        known = groups and any(f'-{letter}' in table for letter in letters)
        for index, letter in enumerate(letters):
            name = f'-{letter}'
            if name not in table and known:
                continue
            if name not in table:
                raise Unreadable(f'{where}: {program} has no option {name} '
                                 f'(in {excerpt(word)}; {program} would '
                                 f'stop)')
            takes, _ = table[name]
            if not takes:
                given.append(Given(name, None, start))
                options_read(len(given), where)
                continue
            value = letters[index + 1:]
            if value.startswith('='):
                value = value[1:]
            if not value:
                if i >= len(words):
                    raise Unreadable(f'{where}: {program} option {name} '
                                     f'needs a value')
                value, i = words[i], i + 1
            given.append(Given(name, value, start, i - start))
            break
    return given, rest


def last(given, *names):
    '''The last of ``given`` named any of ``names``, or None.'''
    for option in reversed(given):
        if option.name in names:
            return option
    return None


def value(given, name, default=None):
    '''The value of the last ``name`` given, else ``default``.'''
    option = last(given, name)
    return option.value if option is not None and option.value is not None \
        else default


def count(given, *names):
    return sum(1 for option in given if option.name in names)


def groups(words):
    '''Flat option words (``-C -Q 1 -e``) as (option, value words)
    groups.'''
    out = []
    for word in words:
        if word.startswith('-') or not out:
            out.append([word])
        else:
            out[-1].append(word)
    return [tuple(group) for group in out]


def _without(word, taken):
    '''``word`` without the first ``taken[letter]`` of each letter: the
    flags taken out of a group (``-vCe`` without ``C``), in one pass
    whatever their number (one ``str.replace`` per flag was quadratic in a
    word of a million flags).'''
    out, taken = [], Counter(taken)
    for letter in word:
        if taken[letter] > 0:
            taken[letter] -= 1
            continue
        out.append(letter)
    return ''.join(out)


def rewrite(argv, given, drop, add):
    '''``argv`` without the options named in ``drop`` (a flag grouped
    with others is taken out of its word) and with the option words
    ``add`` at its end, each option once.'''
    adding = groups(add)
    drop = set(drop) | {group[0] for group in adding}
    words = list(argv[1:])
    skip = set()
    #: {word index: {flag letter: how many to take out}}
    letters = {}
    for option in given:
        if option.name not in drop:
            continue
        word = words[option.word]
        grouped = (not word.startswith('--') and len(word) > 2
                   and option.value is None)
        if grouped:
            if option.word not in letters:
                letters[option.word] = Counter()
            letters[option.word][option.name[1]] += 1
            continue
        skip.update(range(option.word, option.word + option.span))
    for index, taken in letters.items():
        words[index] = _without(words[index], taken)
        if words[index] == '-':
            skip.add(index)
    kept = [w for index, w in enumerate(words) if index not in skip]
    seen, tail = set(), []
    for group in reversed(adding):
        if group[0] not in seen:
            seen.add(group[0])
            tail[:0] = group
    return [argv[0], *kept, *tail]
