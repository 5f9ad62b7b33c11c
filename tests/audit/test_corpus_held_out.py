'''``microbench audit`` scored on the held-out halves of the corpora
gathered apart from the rules (tests/data/audit/corpus2.yaml to
corpus14.yaml, issue 46) by bench/audit.py, run as a person runs it: the
figures docs/operators/audit.md states are a floor, a drop below them
fails; no input may crash the audit; no held-out input is named.'''

import os
import re
import subprocess
import sys

import pytest

import project

#: What docs/operators/audit.md says of each held-out half: its inputs,
#: then the floor: precision, recall, unreadable inputs
FLOORS = {'corpus2': (69, 1.000, 0.779, 8), 'corpus3': (23, 0.931, 0.871, 1),
          'corpus4': (18, 0.962, 0.806, 1), 'corpus5': (13, 0.800, 0.421, 5),
          'corpus6': (10, 0.909, 0.556, 3),
          'corpus7': (16, 0.913, 0.778, 1),
          'corpus8': (14, 0.812, 0.684, 4),
          'corpus9': (15, 1.000, 0.480, 5),
          'corpus10': (12, 0.917, 0.647, 3),
          'corpus11': (14, 0.905, 0.679, 1),
          'corpus12': (15, 1.000, 0.414, 5),
          'corpus13': (17, 0.905, 0.655, 1),
          'corpus14': (17, 0.833, 0.417, 6)}
#: bench/audit.py's overall row: its precision and recall
OVERALL = re.compile(r'^overall +\d+ +\d+ +\d+ +\d+ +\d+ +([\d.]+) +([\d.]+)',
                     re.MULTILINE)


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
    inputs, precision, recall, unreadable = FLOORS[corpus]
    said = held_out(corpus)
    assert said.startswith(f'{corpus} held-out: {inputs} inputs')
    overall = OVERALL.search(said)
    assert float(overall[1]) >= precision and float(overall[2]) >= recall
    refused = int(re.search(r'^unreadable: (\d+)', said, re.MULTILINE)[1])
    assert refused <= unreadable
    assert re.search(r'^crashes: 0$', said, re.MULTILINE)
    # of the held-out half, counts only: no input named
    assert f'{corpus}/' not in said and '.sh' not in said


@pytest.mark.parametrize('corpus', sorted(FLOORS))
def test_the_stated_floor_is_what_the_docs_say(corpus):
    inputs, precision, recall, unreadable = FLOORS[corpus]
    with open(os.path.join(project.ROOT, 'docs', 'operators',
                           'audit.md')) as fp:
        said = fp.read()
    block = re.search(rf'^{corpus} held-out: {inputs} inputs.*?^crashes',
                      said[said.index('<!-- held-out now -->'):],
                      re.MULTILINE | re.DOTALL)
    assert block is not None
    overall = OVERALL.search(block[0])
    assert (overall[1], overall[2]) == (f'{precision:.3f}', f'{recall:.3f}')
    assert f'unreadable: {unreadable} (' in block[0]
