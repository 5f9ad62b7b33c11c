'''The machine's settings (microbench/settings.py and its node script
microbench/suite/settings.sh): read from this machine's real sysfs, and
from a tree recorded on the development VM (tests/data/settings) with
files missing, unreadable, not numbers, a disk gone; the record's field;
the keys named where two nights differ; the event that says them.'''

import os
import shutil
import socket
import subprocess

import pandas as pd
import pytest

from microbench import fields, paths, settings
from microbench.verdicts import events

from disks import disk_of
from fixtures import path

TREE = path('settings/vm-debian12')

#: The block queue's settings the node script reads
QUEUE = ('scheduler', 'read_ahead_kb', 'nr_requests', 'max_sectors_kb',
         'wbt_lat_usec', 'rotational')


def node_script(scratch='', tree=None):
    '''The one line the node script prints (on ``tree``: a recorded
    /sys and /proc).'''
    env = dict(os.environ)
    if tree:
        env.update(MICROBENCH_SYSFS=os.path.join(tree, 'sys'),
                   MICROBENCH_PROCFS=os.path.join(tree, 'proc'))
    proc = subprocess.run(['bash', paths.SETTINGS, scratch], env=env,
                          capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == b'', proc.stderr
    (line,) = proc.stdout.decode('utf-8', 'replace').splitlines()
    return line


def one_node(line):
    (node, found), = settings.parse(line).items()
    return node, found


def test_this_machines_settings(tmp_path):
    node, found = one_node(node_script(str(tmp_path)))
    assert node == socket.gethostname()
    with open('/proc/sys/vm/dirty_ratio') as fp:
        assert found['vm.dirty_ratio'] == fp.read().strip()
    for key in ('mm.thp.enabled', 'cpu.governor', 'cpu.microcode',
                'kernel.cmdline'):
        assert found[key]
    disk = disk_of(str(tmp_path))
    if disk is None:
        assert found['scratch.device'].startswith('none: ')
        return
    assert found['scratch.device'] == disk
    with open(f'/sys/block/{disk}/queue/read_ahead_kb') as fp:
        assert found[f'block.{disk}.read_ahead_kb'] == fp.read().strip()
    with open(f'/sys/block/{disk}/queue/scheduler') as fp:
        assert f'[{found[f"block.{disk}.scheduler"]}]' in fp.read() or \
            found[f'block.{disk}.scheduler'] == 'none'
    # nothing volatile: two reads in a row are the same
    assert one_node(node_script(str(tmp_path)))[1] == found


def test_no_scratch_is_the_nodes_settings_alone():
    _, found = one_node(node_script(''))
    assert 'scratch.device' not in found
    assert not [key for key in found if key.startswith('block.')]


def test_a_recorded_tree():
    _, found = one_node(node_script('', TREE))
    assert {key: found[key] for key in (
        'vm.dirty_ratio', 'vm.dirty_background_ratio', 'mm.thp.enabled',
        'mm.thp.defrag', 'cpu.microcode', 'net.eth0.mtu',
        'cpu.governor')} == {
        'vm.dirty_ratio': '20', 'vm.dirty_background_ratio': '10',
        'mm.thp.enabled': 'madvise', 'mm.thp.defrag': 'madvise',
        'cpu.microcode': '0x1', 'net.eth0.mtu': '1400',
        'cpu.governor': 'none: no cpufreq in sysfs'}
    assert found['kernel.cmdline'].startswith('mitigations=auto')
    assert 'net.lo.mtu' not in found          # lo has no device: not a NIC


@pytest.fixture
def tree(tmp_path):
    '''A copy of the recorded tree to break; its disk under the name this
    machine's scratch disk has (the node script finds it by findmnt).'''
    copy = tmp_path / 'tree'
    shutil.copytree(TREE, copy, symlinks=True)
    disk = disk_of(str(tmp_path))
    if disk and disk != 'vda':
        os.rename(copy / 'sys/block/vda', copy / 'sys/block' / disk)
    return copy, disk


def test_a_setting_missing_unreadable_not_a_number_or_odd(tree, tmp_path):
    copy, _ = tree
    vm = copy / 'proc/sys/vm'
    os.unlink(vm / 'dirty_ratio')
    os.unlink(vm / 'dirty_bytes')
    os.mkdir(vm / 'dirty_bytes')                   # cat fails on it
    (vm / 'dirty_background_ratio').write_text('twenty\n')
    (vm / 'dirty_expire_centisecs').write_text('')
    (copy / 'proc/cmdline').write_bytes(b'a;b|c\nd \xff\x00e=f\n')
    _, found = one_node(node_script('', str(copy)))
    assert found['vm.dirty_ratio'] == 'missing'
    assert found['vm.dirty_bytes'] == 'unreadable'
    assert found['vm.dirty_background_ratio'] == 'twenty'
    assert found['vm.dirty_expire_centisecs'] == 'empty'
    assert found['kernel.cmdline'].startswith('a,b/c d ')
    assert found['kernel.cmdline'].endswith('e=f')
    # and the field holds them all
    text = settings.of_record(node_script('', str(copy)))
    assert settings.CODEC.decode(text)['vm.dirty_ratio'] == 'missing'


def test_a_disk_gone_between_nights(tree, tmp_path):
    copy, disk = tree
    if disk is None:
        pytest.skip(f'{tmp_path} is on no block device here')
    before = one_node(node_script(str(tmp_path), str(copy)))[1]
    assert before[f'block.{disk}.read_ahead_kb'] == '8192'
    shutil.rmtree(copy / 'sys/block')
    after = one_node(node_script(str(tmp_path), str(copy)))[1]
    assert after['scratch.device'].startswith('none: ')
    found = settings.differences([settings.CODEC.encode(before)],
                                 [settings.CODEC.encode(after)])
    assert f'setting block.{disk}.read_ahead_kb' in found
    assert found['setting scratch.device'][0] == [disk]


def test_a_firmware_string_changed(tree, tmp_path):
    '''A test bed for a device's firmware: the same tree with a
    firmware_rev that changes between two nights.'''
    copy, disk = tree
    if disk is None:
        pytest.skip(f'{tmp_path} is on no block device here')
    device = copy / 'sys/block' / disk / 'device'
    (device / 'firmware_rev').write_text('GDC5302Q\n')
    before = settings.of_record(node_script(str(tmp_path), str(copy)))
    (device / 'firmware_rev').write_text('GDC5602Q\n')
    after = settings.of_record(node_script(str(tmp_path), str(copy)))
    found = settings.differences([before], [after])
    assert settings.said(found) == [
        f'block.{disk}.firmware GDC5302Q -> GDC5602Q']


@pytest.mark.parametrize('record', [
    '', 'x', 'node', 'node a', 'node =1', 'node a=1;b;c=', '|||', ';;',
    'n1 a=1|n1 a=2', '\x00\xff garbage=\x01', 'n a=1=2', ' n a=1 '])
def test_a_record_that_is_not_one_keeps_what_reads(record):
    found = settings.parse(record)
    text = settings.field_text(found)
    assert settings.CODEC.decode(text) is not None
    for node, values in found.items():
        assert node and values and all(values.values())


def test_nodes_that_agree_and_one_that_does_not():
    record = ('mbnode1 vm.dirty_ratio=20;block.sda.read_ahead_kb=128|'
              'mbnode2 vm.dirty_ratio=20;block.sda.read_ahead_kb=4096')
    assert settings.CODEC.decode(settings.of_record(record)) == {
        'block.sda.read_ahead_kb@mbnode1': '128',
        'block.sda.read_ahead_kb@mbnode2': '4096',
        'vm.dirty_ratio': '20'}
    # a key one node lacks is missing there
    record = 'a x=1;y=2|b x=1'
    assert settings.CODEC.decode(settings.of_record(record)) == {
        'x': '1', 'y@a': '2', 'y@b': 'missing'}


def test_older_records_without_settings_name_no_key():
    now = settings.CODEC.encode({'vm.dirty_ratio': '20'})
    assert settings.differences(['', ''], [now]) == {}
    assert settings.differences([now], ['']) == {}
    assert settings.differences([now], [now, now]) == {}


def test_a_long_value_is_said_by_its_words():
    before = 'console=ttyS0 quiet mitigations=auto reboot=k panic=1 x=1'
    after = 'console=ttyS0 mitigations=off reboot=k panic=1 x=1 nosmt'
    found = {'setting kernel.cmdline': ([before], [after]),
             'setting vm.dirty_ratio': {'before': ['20'], 'after': ['5']},
             'kernel': (['6.1'], ['6.2'])}
    assert settings.said(found) == [
        'kernel.cmdline -quiet -mitigations=auto +mitigations=off +nosmt',
        'vm.dirty_ratio 20 -> 5']


def frame(text):
    row = {name: '' for name in fields.CONTEXT}
    row['machine_settings'] = text
    return pd.DataFrame([row])


def test_the_changed_key_is_the_machine_and_named_in_the_event():
    before = frame('block.vda.read_ahead_kb=128;vm.dirty_ratio=20')
    after = frame('block.vda.read_ahead_kb=4096;vm.dirty_ratio=20')
    found = fields.differences(before, after)
    assert found == {'setting block.vda.read_ahead_kb': (['128'], ['4096'])}
    assert events.cause(found) == 'machine'
    assert fields.is_machine('setting block.vda.read_ahead_kb')
    event = {'fingerprint': 'ev-0', 'verdict': 'regression',
             'system': 's', 'partition': 'p', 'date': '2026-11-28',
             'members': [{}], 'cause': 'machine', 'root': [],
             'differences': {name: {'before': lhs, 'after': rhs}
                             for name, (lhs, rhs) in found.items()}}
    assert 'the machine changed: block.vda.read_ahead_kb 128 -> 4096' in \
        events.line(event)
    # the same settings: nothing
    assert fields.differences(before, before) == {}


def test_the_diagnosis_and_the_confirmation_say_the_changed_key():
    from microbench.cause import diagnose
    from microbench.verdicts import triage
    event = {'differences': {'setting block.vda.read_ahead_kb': {
        'before': ['8192'], 'after': ['4096']}}}
    said = diagnose.recorded(event, 'not reproduced')
    assert said.startswith('; recorded that night: block.vda.read_ahead_kb '
                           '8192 -> 4096 (the A/B runs on the machine as '
                           'it is now')
    assert diagnose.recorded(event, 'machine (by experiment)') == \
        '; recorded that night: block.vda.read_ahead_kb 8192 -> 4096'
    assert diagnose.recorded({'differences': None}, 'not reproduced') == ''

    rows = [{'verdict': 'unconfirmed', 'why': 'x', 'reasons': [],
             'confirmation': {'state': 'not confirmed'}},
            {'verdict': 'regression', 'why': 'y', 'reasons': [],
             'confirmation': {'state': 'confirmed'}}]
    moved = triage.settings_moved(
        frame('block.vda.read_ahead_kb=4096'),
        frame('block.vda.read_ahead_kb=8192'), rows)
    assert moved == ['block.vda.read_ahead_kb 4096 -> 8192']
    assert 'changed between the run and its rerun: block.vda.read_ahead_kb' \
        in rows[0]['why']
    assert 'rerun' not in rows[1]['why']
