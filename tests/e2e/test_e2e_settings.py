'''End to end: the machine's settings in every record, and the changed key
named by ``microbench compare --last``.  Two real short nights of
fio_cache_flags' O_DIRECT variant, whose job reads its settings from a
test bed (the tree recorded on the development VM, tests/data/settings,
through MICROBENCH_SYSFS and MICROBENCH_PROCFS: the machine's own
settings are not changed under the other tests) where the scratch disk's
``read_ahead_kb`` and firmware string change between the nights.  The
same plants on the machine itself, for real, are bench/settings_plants.py.
'''

import json
import os
import shutil
import subprocess
import sys

import pytest

import perflog
import project
from microbench import settings

from disks import disk_of
from fixtures import path

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')


def night(tmp, tree, tag):
    proc = project.run_checks(
        tmp, '--mode', 'quick', '-n', '^fio_cache_flags%mode=direct$',
        *project.SHORT_FIO, '-S', f'scratch_dir={tmp}/scratch',
        '--session-extras', f'tag={tag}',
        env={'MICROBENCH_SYSFS': str(tree / 'sys'),
             'MICROBENCH_PROCFS': str(tree / 'proc')})
    project.assert_ran(proc)
    return proc


def test_a_changed_setting_is_named_the_night_it_changes(tmp_path):
    (tmp_path / 'scratch').mkdir()
    disk = disk_of(str(tmp_path / 'scratch'))
    if disk is None:
        pytest.skip(f'{tmp_path} is on no block device here: no queue '
                    f'settings to change')
    tree = tmp_path / 'tree'
    shutil.copytree(path('settings/vm-debian12'), tree, symlinks=True)
    if disk != 'vda':
        os.rename(tree / 'sys/block/vda', tree / 'sys/block' / disk)
    queue, device = tree / 'sys/block' / disk / 'queue', \
        tree / 'sys/block' / disk / 'device'
    (device / 'firmware_rev').write_text('GDC5302Q\n')
    night(tmp_path, tree, 'one')
    (queue / 'read_ahead_kb').write_text('4096\n')
    (device / 'firmware_rev').write_text('GDC5602Q\n')
    night(tmp_path, tree, 'two')

    out = tmp_path / 'last.json'
    env = {**os.environ, 'RFM_SQLITE_DB_FILE': str(tmp_path / 'results.db'),
           'MICROBENCH_REFERENCES': project.NO_USER_REFERENCES}
    proc = subprocess.run([MICROBENCH, 'compare', '--last', '--json',
                           str(out)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert out.exists(), proc.stdout + proc.stderr
    found = json.loads(out.read_text())['differences']
    assert settings.said(found) == [
        f'block.{disk}.firmware GDC5302Q -> GDC5602Q',
        f'block.{disk}.read_ahead_kb 8192 -> 4096']
    # nothing else of the machine or the software is said to differ
    assert set(found) == {f'setting block.{disk}.firmware',
                          f'setting block.{disk}.read_ahead_kb'}
    assert f'machine setting: block.{disk}.read_ahead_kb 8192 -> 4096' in \
        proc.stdout

    # every perflog record of both nights holds its night's settings
    frame = perflog.load(str(tmp_path / 'perflogs'))
    values = [settings.CODEC.decode(text)
              for text in frame['machine_settings']]
    assert len(values) >= 2
    assert {v[f'block.{disk}.read_ahead_kb'] for v in values} == {'8192',
                                                                 '4096'}
    assert all(v['vm.dirty_ratio'] == '20' for v in values)
