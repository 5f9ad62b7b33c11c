'''IOR's outputs held to themselves: a figure IOR states twice changed
(its summary's max, min, mean, standard deviation, operations per second,
mean time, bytes against its per-repetition rows; a repeated parameter;
the bytes and stonewall its standard output states) is rejected, naming
the figure (the cases: tests/helpers/ior_cases.py).
'''

import json
import re

import pytest

from ior_cases import (PAIRS, another, asked, assert_rejected, edited,
                       stdout_of, summary_of)


# --- 2. A figure IOR states twice changed ------------------------------------

#: Figures of a summary entry IOR computes from its rows, exactly but for
#: its 4 decimals
FROM_ROWS = ('bwMaxMIB', 'bwMinMIB', 'bwMeanMIB', 'bwStdMIB', 'OPsMax',
             'OPsMin', 'OPsMean', 'OPsSD', 'MeanTime', 'xsizeMiB')
ROW_FIGURES = ('bwMiB', 'totalTime', 'wrRdTime', 'iops', 'blockKiB',
               'xferKiB')
#: What the summary entries repeat of the Parameters and the Options
REPEATED = ('segmentCount', 'blockSize', 'transferSize', 'tasksPerNode',
            'repetitions', 'filePerProc', 'reorderTasks', 'numTasks')
OPTIONS = ('segments', 'nodes', 'clients per node', 'repetitions', 'tasks')
FACTORS = (0.25, 0.8, 1.25, 4)


def _scaled(value, factor):
    return round(value * factor, 4) if value else 1.0


def changed_summaries(name):
    '''(how, the summary with one redundant figure changed, words).'''
    real = json.loads(summary_of(name))
    for at, entry in enumerate(real['summary']):
        op = entry['operation']
        for key in FROM_ROWS:
            for factor in FACTORS:
                def change(data, at=at, key=key, factor=factor):
                    entry = data['summary'][at]
                    entry[key] = _scaled(entry[key], factor)

                yield (f'{op} {key} x {factor}',
                       edited(summary_of(name), change), [op, key])

        def late(data, at=at):
            entry = data['summary'][at]
            entry['StoneWallTime'] = round(entry['MeanTime'] * 1.25 + 1, 4)

        yield (f'{op} StoneWallTime beyond MeanTime',
               edited(summary_of(name), late), ['StoneWallTime'])
        for key in REPEATED:
            def change(data, at=at, key=key):
                data['summary'][at][key] = another(data['summary'][at][key])

            yield (f'{op} {key} changed', edited(summary_of(name), change),
                   [key] if key != 'numTasks' else ['tasks'])

    for at, row in enumerate(real['tests'][0]['Results']):
        for key in ROW_FIGURES:
            for factor in FACTORS:
                def change(data, at=at, key=key, factor=factor):
                    row = data['tests'][0]['Results'][at]
                    row[key] = _scaled(row[key], factor)

                yield (f'Results row {at} {key} x {factor}',
                       edited(summary_of(name), change),
                       [row['access']])

    for key in OPTIONS:
        def change(data, key=key):
            options = data['tests'][0]['Options']
            options[key] = another(options[key])

        yield f'Options {key} changed', edited(summary_of(name), change), \
            [f'Options say {key}']


@pytest.mark.parametrize('name', PAIRS)
def test_a_redundant_figure_of_the_summary_changed(name):
    for how, summary, says in changed_summaries(name):
        assert_rejected('2 a redundant figure changed', name, how, summary,
                        stdout_of(name), asked(name), says)


def changed_stdouts(name):
    '''(how, ior.out with one figure the summary also states changed,
    words).'''
    real = stdout_of(name)
    pairs = re.search(r'accessed: (\d+)\n', real)
    for factor in (0.5, 2):
        other = int(int(pairs[1]) * factor)
        yield (f'Pairs {pairs[1]} -> {other}',
               real.replace(pairs[0], f'accessed: {other}\n'),
               [str(other), 'pairs'])

    first = re.search(r'(max: )(\d+)( -- min data: [\d.]+ GiB mean data: )'
                      r'([\d.]+)( GiB time: )([\d.]+)s', real)
    for group, other, says in (
            (2, str(int(first[2]) * 2), ['pairs']),
            (4, f'{float(first[4]) * 4 + 1:.1f}', ['GiB', 'stonewall']),
            (6, f'{float(first[6]) + 1:.1f}', ['StoneWallTime'])):
        parts = list(first.groups())
        parts[group - 1] = other
        yield (f'write stonewall line group {group} -> {other}',
               real.replace(first[0], ''.join(parts) + 's', 1), says)


@pytest.mark.parametrize('name', PAIRS)
def test_a_figure_ior_out_states_changed(name):
    for how, stdout, says in changed_stdouts(name):
        assert_rejected('2 a redundant figure changed', name, how,
                        summary_of(name), stdout, asked(name), says)


def test_redundant_figures_hold_on_three_repetitions():
    '''The three-repetition run: min < mean < max, the mean is the rows'.'''
    data = json.loads(summary_of('ior/easy-i3'))
    write = data['summary'][0]
    rows = [r['bwMiB'] for r in data['tests'][0]['Results']
            if r['access'] == 'write']
    assert write['bwMinMIB'] < write['bwMeanMIB'] < write['bwMaxMIB']
    assert abs(sum(rows) / 3 - write['bwMeanMIB']) < 1e-4
