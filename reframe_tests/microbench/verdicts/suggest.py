'''Did you mean: what the results storage holds, said to a person who
typed a name or a query it does not hold.

A mistyped partition (``--partition local:defualt``), check, or a
session query that selects nothing gets one line naming the closest
names (:mod:`difflib`) and what exists (every partition; the count of
sessions, their period, the newest three), never the query string the
command built for itself (every session is ``every session``).
'''

import difflib
import re

import pandas as pd

from microbench.verdicts.storage import ALL

#: The most names a message lists
SHOWN = 12


def said(query):
    return 'every session' if query == ALL else repr(query)


def matched(count):
    return f'{count} session{"s" if count != 1 else ""} matched'



def listed(names):
    shown = ', '.join(names[:SHOWN])
    more = len(names) - SHOWN
    return shown + (f' and {more} more' if more > 0 else '')


def close(name, names):
    '''The names of ``names`` closest to a mistyped ``name``
    (:mod:`difflib`), best first; a partition given without its system
    (``default``) finds ``local:default``.'''
    found = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    tails = [n for n in names if n.partition(':')[2] and
             difflib.get_close_matches(name, [n.partition(':')[2]], n=1,
                                       cutoff=0.6)]
    return list(dict.fromkeys([*found, *tails]))[:3]


def unknown(what, name, names, where='the results storage'):
    '''One line for a ``what`` (partition, check, ...) ``name`` that is not
    among ``names``: the closest ones, and every one (at most
    :data:`SHOWN`).'''
    near = close(name, names)
    out = f'no {what} {name} in {where}'
    if near:
        out += f'; did you mean {" or ".join(near)}?'
    return out + (f' ({what}s: {listed(names)})' if names else
                  f' (it holds no {what})')


def _infos(known):
    '''Every decoded session's ``(start, uuid, info)``, newest first.'''
    return sorted(((float(info.get('time_start_unix') or 0), uuid, info)
                   for uuid, info in known.infos.items()), reverse=True)


def _day(start):
    return pd.to_datetime(start, unit='s').strftime('%Y-%m-%d %H:%M')


def held(known, extras, names=()):
    '''What the results storage holds, in words: its count of sessions,
    their period, the newest three (with their ``extras``); the values of
    the extras ``names``.'''
    infos = _infos(known)
    if not infos:
        return 'it holds no session (run the suite first)'
    newest = '; '.join(
        f'{uuid} ({_day(start)}' + ''.join(
            f', {k}={info[k]}' for k in extras
            if info.get(k)) + ')' for start, uuid, info in infos[:3])
    out = (f'it holds {len(infos)} session{"s" if len(infos) != 1 else ""}'
           f' from {_day(infos[-1][0])} to {_day(infos[0][0])}; the newest: '
           f'{newest}')
    for name in names:
        values = sorted({str(info[name]) for _, _, info in infos
                         if name in info})
        out += (f'; {name}: {listed(values)}' if values else
                f'; no session has {name}')
    return out


def no_session(query, where, known, extras):
    '''Why ``query`` selects no session of the storage ``where``, with
    what the storage holds and the closest UUID.'''
    # the names a filter tests, not the texts it compares them with
    text = re.sub(r'"[^"]*"|\'[^\']*\'', '', query.partition('?')[2])
    names = [name for name in dict.fromkeys(
        re.findall(r'[A-Za-z_][A-Za-z0-9_]*', text))
        if any(name in info for info in known.infos.values())
        or name in extras]
    head = query.partition('?')[0]
    near = [u for u in known.infos if head and u.startswith(head)] or \
        difflib.get_close_matches(head, list(known.infos), n=1, cutoff=0.8)
    out = (f'no session of the results storage {where} matches '
           f'{said(query)}')
    if near:
        out += f'; did you mean {near[0]}?'
    return f'{out} ({held(known, extras, names)})'


def not_a_query(query, err, where):
    '''One line for a ``query`` ReFrame cannot parse.'''
    why = ' '.join(str(err).split())
    return (f'{query!r} is not a session query ({why}): a session UUID, a '
            f'time period (now-7d:now, 20261101:20261108), a filter on '
            f'the session extras (\'?tag=="pre"\') or both; the results '
            f'storage is {where}')
