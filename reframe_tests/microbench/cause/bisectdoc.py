'''The parts of a bisection's document (:mod:`.bisect_json`) made from
what the bisection found: its units with what differs of each, its steps'
rows, and per moved figure what became of it.'''

from microbench.cause import ab_json, bisect_json, bisection


def _word(name, value):
    '''A variant as a spec spells it (``+slowwrite``,
    ``scheduler=slurm``).'''
    if isinstance(value, bool):
        return f'+{name}' if value else f'~{name}'
    if isinstance(value, tuple):
        value = ','.join(value)
    return f'{name}={value}'


def _differing(change):
    '''The names of the variants whose values differ between the nodes
    of a change's two sides.'''
    old = {pair for node in change.a for pair in node.variants().items()}
    new = {pair for node in change.b for pair in node.variants().items()}
    return sorted({name for name, _ in old ^ new})


def versions(change, nodes):
    '''One side of a change as a person reads it: each node's version
    and the variants that differ (``3.33 +slowwrite``), 'absent' where
    the lock lacks it.'''
    names = _differing(change)
    shown = []
    for node in nodes:
        found = node.variants()
        shown.append(' '.join([node.version] + [
            _word(name, found[name]) for name in names if name in found]))
    return ', '.join(sorted(set(shown))) or 'absent'


def units(found):
    '''The ``units[]`` of the document: each change of its own.'''
    rows = []
    for name in found.units():
        change = found.changes[name]
        rows.append({
            'name': name, 'kinds': list(change.kinds),
            'a': sorted({node.version for node in change.a}),
            'b': sorted({node.version for node in change.b}),
            'root': change.root,
            'brings': sorted(other for other, bringers in
                             found.comes_with.items() if name in bringers),
            'rebuilds': sorted(other for other, causes in
                               found.rebuilt.items() if name in causes)})
    return rows


def packages(found, group):
    '''``[{name, a, b}]`` of the units of ``group``.'''
    return [{'name': name,
             'a': versions(found.changes[name], found.changes[name].a),
             'b': versions(found.changes[name], found.changes[name].b)}
            for name in group]


def _key(key):
    return dict(zip(ab_json.KEY, key))


def moved_row(figure):
    return {**_key(figure.key), 'verdict': figure.verdict,
            'ratio': figure.ratio, 'low': figure.low, 'high': figure.high}


def figure_row(key, judged):
    '''A step's row of one moved figure (a :class:`.bisection.Judged`).'''
    return {**_key(key), 'outcome': judged.outcome, 'why': judged.why,
            'ratio': judged.ratio, 'low': judged.low, 'high': judged.high,
            'level': judged.level, 'pairs': judged.pairs}


def step_row(number, subset):
    '''The row of a step before it runs.'''
    return {'step': number, 'moves': sorted(subset), 'status': '',
            'said': '', 'env': None, 'lock_hash': None, 'ab': None,
            'ab_id': None, 'pairs_run': 0, 'minutes': 0.0, 'figures': []}


def results(search, moved, found):
    '''The ``results[]`` of the document, in the order of ``moved``.'''
    rows = []
    for figure in moved:
        result, left, why = search.result(figure.key)
        group = left[0] if result == bisection.NAMED else None
        rows.append({
            'result': result, 'group': group,
            'evidence': search.evidence(figure.key),
            'packages': (packages(found, search.groups[group])
                         if group is not None else []),
            'candidates': left, 'steps': search.deciding(figure.key),
            'why': why})
    return rows


def document(head, found, groups, couples, full, moved, steps, search):
    '''The bisection document, validated.

    :arg head: the members the run knows of itself (date, minutes, mode,
        system, partition, locks, checks, options, roots, coupling rule).
    :arg full: the ``full`` member.
    :arg steps: the steps' rows.'''
    rows = results(search, moved, found)
    named = all(row['result'] == bisection.NAMED for row in rows)
    measured = sum(step['status'] == bisection.MEASURED for step in steps)
    doc = {
        'format': bisect_json.FORMAT, 'version': bisect_json.VERSION,
        **{name: head[name] for name in (
            'date', 'minutes', 'mode', 'system', 'partition', 'locks',
            'checks', 'options', 'roots')},
        'coupling': {'rule': head['coupling'],
                     'couples': [list(pair) for pair in couples]},
        'units': units(found), 'groups': [list(g) for g in groups],
        'k': len(groups), 'budget': bisection.budget(len(groups)),
        'full': full, 'moved': [moved_row(figure) for figure in moved],
        'steps': steps,
        'ab_steps': measured + (full['source'] == 'run'),
        'results': rows, 'exit_code': int(not named)}
    bisect_json.validate(doc, '<new bisection document>')
    return doc
