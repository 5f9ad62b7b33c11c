'''A bisection (:mod:`.bisect_json`'s document) for a terminal: the two
locks, the units and their groups, the full A/B's moved figures, each
step, and what became of every moved figure: the package(s) and both
versions, or what the steps could not decide.'''

from microbench.cause import bisection


def figure(row):
    '''``check variant figure`` of a row with a figure's key.'''
    return ' '.join(row[name] for name in ('check', 'variant', 'figure')
                    if row[name])


def interval(row):
    if row['low'] is None or row['high'] is None:
        return ''
    return f' [{row["low"]:.3f}, {row["high"]:.3f}]'


def ratio(row):
    return '-' if row['ratio'] is None else f'{row["ratio"]:.3f}'


def group(doc, index):
    return ' + '.join(doc['groups'][index])


def spelt(doc, indices):
    return ', '.join(group(doc, index) for index in indices)


def packages(row):
    '''``fio 3.33 ~slowwrite -> 3.33 +slowwrite`` of a result.'''
    return '; '.join(f'{package["name"]} {package["a"]} -> {package["b"]}'
                     for package in row['packages'])


def _units(doc):
    by_name = {unit['name']: unit for unit in doc['units']}
    lines = []
    for index, names in enumerate(doc['groups']):
        said = []
        for name in names:
            unit = by_name[name]
            extra = [f'brings {", ".join(unit["brings"])}'
                     if unit['brings'] else '',
                     f'rebuilds {", ".join(unit["rebuilds"])}'
                     if unit['rebuilds'] else '']
            said.append(f'{name} {",".join(unit["a"]) or "absent"} -> '
                        f'{",".join(unit["b"]) or "absent"} '
                        f'({", ".join(unit["kinds"])}'
                        + ''.join(f'; {e}' for e in extra if e) + ')')
        lines.append(f'  group {index}: {" + ".join(said)}')
    return lines


def _steps(doc):
    lines = []
    for step in doc['steps']:
        lines.append(f'step {step["step"]}: A with '
                     f'{spelt(doc, step["moves"])} at B\'s versions: '
                     f'{step["status"]}'
                     + (f' ({step["said"]})' if step['said'] else '')
                     + f', {step["minutes"]:.1f} min')
        for row in step['figures']:
            lines.append(f'  {figure(row)}: {row["outcome"]} (B/A '
                         f'{ratio(row)}{interval(row)})')
    return lines


def text(doc):
    '''The bisection for a terminal.'''
    locks = doc['locks']
    lines = [f'{side}: {locks[side]["path"]} (lock '
             f'{locks[side]["sha256"][:12]}; installed {locks[side]["env"]})'
             for side in ('A', 'B')]
    lines.append(f'checks: {", ".join(doc["checks"])}'
                 + (f' ({" ".join(doc["options"])})' if doc['options']
                    else '')
                 + f'; {doc["mode"]} mode on {doc["system"]}:'
                   f'{doc["partition"]}; each step installs '
                   f'{", ".join(doc["roots"]) or "every root"}')
    lines.append(f'{len(doc["units"])} units in k = {doc["k"]} groups '
                 f'(coupled by the {doc["coupling"]["rule"]}): one cause '
                 f'is named in at most ceil(log2 {doc["k"]}) + 1 = '
                 f'{doc["budget"]} A/B steps')
    lines += _units(doc)
    full = doc['full']
    lines.append(f'the full A/B ({full["source"]}, {full["pairs_run"]} '
                 f'pairs of rounds, {full["minutes"]:.1f} min, '
                 f'{full["path"]}): {len(doc["moved"])} figure(s) moved')
    for row in doc['moved']:
        lines.append(f'  {figure(row)}: {row["verdict"]}, B/A '
                     f'{ratio(row)}{interval(row)}')
    lines += _steps(doc)
    lines.append('')
    for moved, row in zip(doc['moved'], doc['results']):
        if row['result'] == bisection.NAMED:
            lines.append(f'{figure(moved)} ({moved["verdict"]}, B/A '
                         f'{ratio(moved)}): {packages(row)} ({row["why"]})')
        else:
            lines.append(f'{figure(moved)} ({moved["verdict"]}, B/A '
                         f'{ratio(moved)}): {row["why"]}')
    if not doc['moved']:
        lines.append('nothing moved between A and B: nothing to bisect')
    lines.append(f'{doc["ab_steps"]} A/B step(s) of the budget of '
                 f'{doc["budget"]} ({len(doc["steps"])} step(s) after the '
                 f'full A/B); wall time {doc["minutes"]:.1f} min')
    return '\n'.join(lines) + '\n'
