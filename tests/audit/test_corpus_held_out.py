'''``microbench audit`` scored on the held-out halves of the corpora
gathered apart from the rules (tests/data/audit/corpus2.yaml,
corpus3.yaml and corpus4.yaml, issue 46) by bench/audit.py, run as a
person runs it: the figures docs/operators/audit.md states are a floor,
a drop below them fails; no input may crash the audit; no held-out input
is named.'''

import os
import re
import subprocess
import sys

import pytest

import project

#: What docs/operators/audit.md says of each held-out half: its inputs,
#: the floor (precision, recall, unreadable inputs), and its overall row
#: as bench/audit.py prints it
FLOORS = {
    'corpus2': (69, 1.000, 0.779, 8,
                'overall        95     74   74    0   21     1.000   0.779'
                '     0.811'),
    'corpus3': (23, 0.929, 0.839, 3,
                'overall        31     28   26    2    5     0.929   0.839'
                '     0.654'),
    'corpus4': (18, 1.000, 0.677, 2,
                'overall        31     21   21    0   10     1.000   0.677'
                '     0.857'),
}


def held_out(corpus):
    '''bench/audit.py's text of a corpus's held-out half.'''
    proc = subprocess.run(
        [sys.executable, os.path.join(project.ROOT, 'bench', 'audit.py'),
         '--corpus', corpus, '--split', 'held-out'],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.parametrize('corpus', sorted(FLOORS))
def test_the_held_out_score_does_not_drop(corpus):
    inputs, precision, recall, unreadable, _ = FLOORS[corpus]
    said = held_out(corpus)
    assert said.startswith(f'{corpus} held-out: {inputs} inputs')
    overall = re.search(r'^overall +\d+ +\d+ +\d+ +\d+ +\d+ +([\d.]+) +'
                        r'([\d.]+)', said, re.MULTILINE)
    assert float(overall[1]) >= precision and float(overall[2]) >= recall
    refused = int(re.search(r'^unreadable: (\d+)', said, re.MULTILINE)[1])
    assert refused <= unreadable
    assert re.search(r'^crashes: 0$', said, re.MULTILINE)
    # of the held-out half, counts only: no input named
    assert f'{corpus}/' not in said and '.sh' not in said


@pytest.mark.parametrize('corpus', sorted(FLOORS))
def test_the_stated_floor_is_what_the_docs_say(corpus):
    inputs, precision, recall, unreadable, row = FLOORS[corpus]
    with open(os.path.join(project.ROOT, 'docs', 'operators',
                           'audit.md')) as fp:
        said = fp.read()
    block = re.search(rf'^{corpus} held-out: {inputs} inputs.*?^crashes',
                      said[said.index('<!-- held-out now -->'):],
                      re.MULTILINE | re.DOTALL)
    assert block is not None and row in block[0]
    assert f'{precision:.3f}   {recall:.3f}' in row
    assert f'unreadable: {unreadable} (' in block[0]
