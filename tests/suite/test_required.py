'''A check that forgets what its base class needs is skipped by ReFrame
with one line naming it (microbench/suite/required.py), not a traceback
from the library's first hook that reads it.'''

import os
import subprocess

import pytest

import project
from microbench.suite import required
from microbench.suite.gap import GapCheck
from microbench.suite.rounds import Rounds
from microbench.suite.variant import VariantCheck

FORGETFUL = '''
import reframe as rfm
from reframe.core.builtins import fixture, parameter

from microbench.suite.gap import GapCheck
from microbench.suite.rounds import Rounds
from microbench.tools.fio import FioVariantCheck
from microbench.tools.fio.output import parse
from fio_fallocate import fio_fallocate, fio_fallocate_rounds


class no_command_rounds(Rounds):
    variants = ('a',)
    reader = parse

    def tools_needed(self):
        return ['fio']


@rfm.simple_test
class no_knob(FioVariantCheck):
    fallocate = parameter(['default'])
    rounds = fixture(fio_fallocate_rounds, scope='environment')
    witnesses = ('cold_start',)


@rfm.simple_test
class no_rounds(GapCheck):
    pitfall = fio_fallocate
    gaps = {'preallocated_over_none': ('default', 'none')}
    witnesses = ('cold_start',)


@rfm.simple_test
class no_command(FioVariantCheck):
    x = parameter(['a'])
    knob = 'x'
    rounds = fixture(no_command_rounds, scope='environment')
    witnesses = ('cold_start',)
'''


@pytest.fixture(scope='module')
def listed(tmp_path_factory):
    folder = tmp_path_factory.mktemp('forgetful')
    (folder / 'forgetful.py').write_text(FORGETFUL)
    env = {**os.environ, 'RFM_CONFIG_FILES': project.CONFIG,
           'PYTHONPATH': project.CHECKS_DIR}
    proc = subprocess.run([project.REFRAME, '-c', str(folder), '-l'],
                          env=env, capture_output=True, text=True,
                          timeout=600, cwd=folder)
    return proc.stdout + proc.stderr


@pytest.mark.parametrize('check, said', [
    ('no_knob', 'no_knob is a VariantCheck and does not set knob (a class '
                'attribute)'),
    ('no_rounds', 'no_rounds is a GapCheck and does not set rounds (a '
                  'fixture: rounds = fixture(...))'),
    ('no_command', 'no_command_rounds is a Rounds and does not set '
                   'variant_command() (a method)'),
])
def test_a_forgotten_attribute_is_named(listed, check, said):
    assert said in listed, listed
    assert 'Traceback' not in listed
    assert 'Found 0 check(s)' in listed


def test_every_check_of_the_suite_sets_what_its_bases_need():
    '''None of the suite's checks forgets anything (each class, as its
    test would be made).'''
    bases = (Rounds, VariantCheck, GapCheck)
    checks = project.check_classes().values()
    assert len(checks) > 20
    for cls in checks:
        made = [cls]
        if 'rounds' in cls.fixture_space:
            made.append(cls.fixture_space['rounds'].cls)
        for item in made:
            for base in bases:
                if issubclass(item, base):
                    assert required.forgotten(item, base) == [], item
