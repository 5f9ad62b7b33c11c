'''What reads and writes the limits files around the reader
(microbench.limitsfile): systems/config.py, where a broken file is one
line at the start of the run and a withheld entry for its partitions,
and another machine's limits are withheld; and ``microbench limits
--write`` on the real quick session of the component limits
(tests/data/results/limits-quick.json, its node renamed): it records this
machine, refuses another host's limits, and loses no entry of a file it
cannot read whole.'''

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest
import yaml

from microbench import components, limitsfile, paths
from microbench.verdicts import storage

from fixtures import path as fixture_path


def committed(system):
    with open(os.path.join(limitsfile.COMMITTED, f'{system}.yaml')) as fp:
        return fp.read()


# -- the configuration: a bad file costs its shares, not the run ------------

SHOW = '''
import json, importlib.util
spec = importlib.util.spec_from_file_location('config', {config!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps({{f"{{s['name']}}:{{p['name']}}":
                  p.get('extras', {{}}).get('measured')
                  for s in module.site_configuration['systems']
                  for p in s['partitions']}}))
'''


def configured(limits_dir):
    '''(what systems/config.py puts in every partition's
    ``extras.measured``, its standard error) with ``limits_dir``.'''
    proc = subprocess.run(
        [sys.executable, '-c', SHOW.format(config=paths.CONFIG)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, 'MICROBENCH_LIMITS_DIR': str(limits_dir)})
    assert proc.returncode == 0 and 'Traceback' not in proc.stderr, \
        proc.stderr
    return json.loads(proc.stdout), proc.stderr


def test_a_broken_file_is_one_line_at_the_configuration(tmp_path):
    shutil.copy(os.path.join(limitsfile.COMMITTED, 'slurm_testbed.yaml'),
                tmp_path)
    (tmp_path / 'local.yaml').write_text('default: {limits: [\n')
    found, stderr = configured(tmp_path)
    path = tmp_path / 'local.yaml'
    line, = stderr.splitlines()
    assert line.startswith(f'microbench: warning: {path}: not YAML at '
                           f'line 2 (')
    assert found['local:default'] == {'withheld': components.REJECTED}
    # the other system's file is not touched by it
    assert 'limits' in found['slurm_testbed:node_local']
    assert found['slurm_cluster:nvme'] is None


def test_another_machines_limits_are_withheld(tmp_path):
    data = yaml.safe_load(committed('local'))
    data['partitions']['default']['measured']['machine'] = \
        'ffffffffffffffff'
    (tmp_path / 'local.yaml').write_text(yaml.safe_dump(data))
    found, stderr = configured(tmp_path)
    assert stderr == ''
    assert found['local:default'] == {'withheld': components.ELSEWHERE}
    # without a file, the local default says it has none
    (tmp_path / 'local.yaml').unlink()
    assert configured(tmp_path)[0]['local:default'] == {
        'withheld': components.NONE}


# -- microbench limits --write ----------------------------------------------

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')


@pytest.fixture(scope='module')
def measured_on(tmp_path_factory):
    '''A results storage of the real quick session of the component
    limits (tests/data/results/limits-quick.json) with its node renamed:
    ``measured_on(host)`` its path.'''
    made = {}

    def make(host):
        if host not in made:
            with open(fixture_path('results/limits-quick.json')) as fp:
                report = json.load(fp)
            for case in report['runs'][-1]['testcases']:
                case['node'] = host if case.get('node') else case['node']
            db = tmp_path_factory.mktemp('limits') / 'results.db'
            storage.store(str(db), report)
            made[host] = db
        return made[host]

    return make


def write(db, limits_dir, partition='local:default'):
    proc = subprocess.run(
        [MICROBENCH, '--db', str(db), 'limits', '--partition', partition,
         '--write'], capture_output=True, text=True, timeout=300,
        env={**os.environ, 'MICROBENCH_LIMITS_DIR': str(limits_dir)})
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc


def test_write_keeps_this_machine(measured_on, tmp_path):
    proc = write(measured_on(socket.gethostname()), tmp_path)
    if components.identity() is None:
        # a container without a machine-id: its limits would apply nowhere
        assert proc.returncode == 2
        assert components.ANONYMOUS in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    assert f'+      machine: {components.identity()}' in proc.stdout
    found = limitsfile.read((tmp_path / 'local.yaml').read_text())
    assert not found.problems and found.version == limitsfile.VERSION
    measured = found.entries['default']['measured']
    assert measured['machine'] == components.identity()
    assert measured['nodes'] == socket.gethostname()
    # where it applies: here (unless this machine was resized since the
    # recorded session: its cores and memory are the development VM's)
    assert components.elsewhere(found.entries['default'],
                                components.this_machine()) in (
        None, components.RESIZED)


def test_write_refuses_another_hosts_limits(measured_on, tmp_path):
    proc = write(measured_on('another-host'), tmp_path)
    assert proc.returncode == 2
    line, = proc.stderr.splitlines()
    assert line.startswith(
        f'microbench limits: error: the limits of local:default in this '
        f'results storage were measured on another-host, this is '
        f'{socket.gethostname()}: ')
    assert not (tmp_path / 'local.yaml').exists()


@pytest.mark.parametrize('old, said', [
    ('default: {limits: [\n', 'not YAML at line 2'),
    ('format: microbench limits\nversion: 2\npartitions:\n  other: 1\n',
     'other: not a mapping'),
    ('format: microbench limits\nversion: 2\nextra: 1\n',
     "unknown key 'extra'"),
])
def test_write_loses_nothing(measured_on, tmp_path, old, said):
    (tmp_path / 'local.yaml').write_text(old)
    proc = write(measured_on(socket.gethostname()), tmp_path)
    assert proc.returncode == 2
    line, = proc.stderr.splitlines()
    assert line.startswith(f'microbench limits: error: {tmp_path}/'
                           f'local.yaml: ') and said in line
    assert line.endswith('--write would lose it: fix it first (nothing '
                         'written)')
    assert (tmp_path / 'local.yaml').read_text() == old


def test_write_replaces_its_own_rejected_entry(measured_on, tmp_path):
    (tmp_path / 'local.yaml').write_text('default: 1\n')     # version 1
    proc = write(measured_on(socket.gethostname()), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert 'default: replaces its rejected entry' in proc.stderr
    found = limitsfile.read((tmp_path / 'local.yaml').read_text())
    assert not found.problems and 'machine' in found.entries['default'][
        'measured']
