'''``microbench diagnose`` end to end on the local default: one real
diagnosis of an event whose cause is a real machine change.

The history is 16 nights made from a real recorded night
(tests/cause/diagnose_cases.py), every night's records naming this
machine's fio (the stack does not change), the last night's O_DIRECT
write figure halved: the event.  The machine change is made for real: a
block-device write throttle of the scratch disk (cgroup v2 ``io.max
wbps``, else cgroup v1 ``blkio.throttle.write_bps_device``) at half the
level before the event, on the cgroup the diagnosis runs in (its A/B's
jobs with it).  Wanted: an A/A of this machine's fio (both nights ran
it), both sides at tonight's level: ``machine (by experiment)``, the
diagnosis written where compare reads it, and the event saying so.

Skipped, saying why, without root, fio, or a block-device throttle.  The
smallest A/B that still judges: quick mode, one batch of three pairs.  On
a machine busy beside the test (another writer on the same disk), three
pairs may be too spread to rule out a software change of the event's
size: the A/A's interval of B/A reaches the event's ratio, and then the
one right answer is ``inconclusive``, saying so (the rule's power is
measured on a quiet machine by bench/diagnose.py).
'''

import os
import shutil
import subprocess

import pytest

from microbench.cause import diagnosis_json
from microbench.verdicts import compare_json

import disks
from diagnose_cases import WATCHED, bed_of
from nights import MICROBENCH

pytestmark = pytest.mark.e2e


def diagnose(procs, db, event, verdicts, scratch):
    '''``microbench diagnose`` of ``event`` run in the throttled cgroup
    (its A/B's jobs with it); the completed process.'''
    return subprocess.run(
        ['sh', '-c', f'echo $$ > {procs} && exec "$@"', 'sh', MICROBENCH,
         '--db', db, 'diagnose', event['fingerprint'], '--verdicts',
         verdicts, '--mode', 'quick', '--first', '3', '--cap', '3', '-S',
         f'scratch_dir={scratch}'], capture_output=True, text=True,
        timeout=3600)


def test_a_real_throttle_is_the_machine_by_experiment(tmp_path):
    fio = shutil.which('fio')
    if not fio:
        pytest.skip('fio is not installed (apt-get install fio)')
    program = f'{fio} -> {os.path.realpath(fio)}'
    db, verdicts, _ = bed_of(str(tmp_path), stack=(program, ''))
    event, = compare_json.read(verdicts).events
    row = next(r for r in compare_json.read(verdicts).figures
               if (r['check'], r['variant'], r['figure']) == WATCHED)
    scratch = tmp_path / 'scratch'
    scratch.mkdir()
    bps = int(row['median_before'] * 2**19)     # half of it, in bytes/s
    with disks.write_throttle('microbench-diagnose-e2e',
                              disks.device_number(str(scratch)),
                              bps) as procs:
        proc = diagnose(procs, db, event, verdicts, scratch)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    found = diagnosis_json.read(str(tmp_path / 'diagnoses' /
                                    f'{event["fingerprint"]}.json'))
    assert found.aa and found.ab['pairs_run'] == 3
    mine = next(r for r in found.figures
                if (r['check'], r['variant'], r['figure']) == WATCHED)
    event_ratio = mine['tonight'] / mine['before']
    if mine['low'] <= event_ratio:
        # A machine busy beside the test (another writer on the disk) can
        # spread three pairs so wide that they cannot rule out a software
        # change of the event's size: then, and only then, no cause
        assert mine['cause'] == 'inconclusive', mine['why']
        assert "cannot rule out a software change of the event's size" in \
            mine['why']
        print(f'\nthree pairs too spread on this machine: {mine["why"]}')
        return
    assert mine['cause'] == 'machine (by experiment)', mine['why']
    assert found.cause == 'machine (by experiment)', found.why
    again = subprocess.run([MICROBENCH, '--db', db, 'compare', '--last'],
                           capture_output=True, text=True, timeout=600)
    assert 'cause: machine (by experiment)' in again.stdout
