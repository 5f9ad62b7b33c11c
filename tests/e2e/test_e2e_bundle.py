'''End to end: a real night on the local default makes its bundle, which
``check-bundle`` verifies, catching a corrupted, a removed, an added file
and a figure whose tool the bundle does not hold; ``replay`` repeats the
run's command line and variables, and warns about another machine; a
bundle made before the contracts moved (commit ab6f460) replays with
today's suite.
'''

import glob
import io
import json
import os
import platform
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tarfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import project
from microbench.bundles import bundle, check, replay
import perflog
from microbench import provenance

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
NIGHTLY = os.path.join(project.ROOT, 'ci', 'nightly.sh')

#: a night's bundle made at commit ab6f460, before the contracts moved
#: (issue 47; tests/bundles/test_bundle_before_the_move.py checks it)
OLD_BUNDLE = os.path.join(project.ROOT, 'tests', 'data', 'bundles',
                          'ab6f460-local.tar.gz')
#: where that night wrote; its replay makes the scratch directory again
#: (``-S scratch_dir`` is the recorded one, --into moves the rest)
OLD_RECORDED_DIR = '/var/tmp/microbench-bundle-ab6f460'


def microbench(*args, env=None):
    return subprocess.run([MICROBENCH, *args], capture_output=True,
                          text=True, timeout=900,
                          env={**os.environ, **(env or {})})


def closed_url():
    '''The URL of a port of this machine nothing listens on: a
    Pushgateway that is down.'''
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return f'http://127.0.0.1:{sock.getsockname()[1]}'


@pytest.fixture(scope='module')
def night(tmp_path_factory):
    '''ci/nightly.sh on the local default: a quick session of
    fio_cache_flags, short (``project.SHORT_FIO``); (folder, its bundle,
    the process).'''
    tmp = tmp_path_factory.mktemp('night')
    (tmp / 'scratch').mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith('RFM_')}
    env.update(MICROBENCH_RESULTS=str(tmp / 'results'),
               MICROBENCH_REFERENCES=project.NO_USER_REFERENCES,
               MICROBENCH_TEXTFILE_DIR=str(tmp / 'textfile'),
               MICROBENCH_PUSHGATEWAY=closed_url())
    (tmp / 'textfile').mkdir()
    proc = subprocess.run(
        [NIGHTLY, 'local', '--mode', 'quick', '-n', '^fio_cache_flags',
         *project.SHORT_FIO, '-S', f'scratch_dir={tmp}/scratch',
         '--prefix', str(tmp / 'prefix')],
        cwd=project.ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    archives = glob.glob(str(tmp / 'results' / 'reports' /
                             'run-*-local.tar.gz'))
    assert len(archives) == 1, archives
    return tmp, archives[0], proc


def rewrite(archive, target, change, manifest=False):
    '''A copy of ``archive`` at ``target`` whose files ``change`` (a
    function of {name: bytes}) edits; ``manifest``: made again to match.'''
    files = bundle.read(archive)
    change(files)
    if manifest:
        files.pop(bundle.MANIFEST)
        files[bundle.MANIFEST] = bundle.manifest(files).encode()
    with tarfile.open(target, 'w:gz') as tar:
        for name, data in files.items():
            member = tarfile.TarInfo(f'copy/{name}')
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return str(target)


def test_the_night_makes_a_whole_bundle(night):
    tmp, archive, proc = night
    latest = tmp / 'results' / 'reports' / 'latest-bundle.tar.gz'
    assert os.path.realpath(latest) == os.path.realpath(archive)
    assert f'{archive}: OK' in proc.stdout

    checked = microbench('check-bundle', archive)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert ': OK: ' in checked.stdout
    assert '5 test cases with figures and their tool versions' in \
        checked.stdout

    files = bundle.read(archive)
    assert set(bundle.REQUIRED) <= set(files)
    meta = json.loads(files['bundle.json'])
    tokens = shlex.split(meta['cmdline'])
    assert tokens[tokens.index('--mode') + 1] == 'quick'
    assert 'samples=2' in tokens and '^fio_cache_flags' in tokens
    assert meta['suite_commit'] == [provenance.suite_commit()]
    assert meta['spack_envs'] == ['system']
    assert meta['tools'] == ['fio: ' + subprocess.check_output(
        ['fio', '--version'], text=True).strip()]

    machine = json.loads(files['machine.json'])
    assert machine['kernel'] == platform.release()
    assert machine['cpus'] == os.cpu_count()
    assert {fs['fstype'] for fs in machine['scratch']} == {
        subprocess.check_output(['findmnt', '-no', 'FSTYPE', '-T',
                                 str(tmp / 'scratch')], text=True).strip()}
    apt = dict(line.split('\t') for line in
               files['machine/apt.tsv'].decode().splitlines())
    assert apt['fio'].startswith('3.')

    names = [n for n in files if n.startswith('perflogs/')]
    assert 'perflogs/local/default/fio_cache_flags.log' in names
    assert files['python/requirements.txt'] == open(
        os.path.join(project.ROOT, 'requirements.txt'), 'rb').read()
    assert b'reframe-hpc==4.10.4' in files['python/installed.txt']


def test_the_night_has_its_weather_and_exports_what_it_can(night):
    '''The weather page of the night; its figures in node_exporter's
    textfile directory; the Pushgateway down: said, naming its URL, and
    the night goes on.'''
    tmp, _, proc = night
    weather = tmp / 'results' / 'reports' / 'latest-weather' / 'weather.html'
    text = weather.read_text()
    assert 'O_DIRECT writes' in text and 'unknown' in text
    proms = list((tmp / 'textfile').glob('*.prom'))
    assert len(proms) == 1
    assert 'microbench_figure{' in proms[0].read_text()
    assert re.search(r'the Pushgateway at http://127\.0\.0\.1:\d+',
                     proc.stderr), proc.stderr[-2000:]
    assert 'export to Prometheus failed' in proc.stderr
    assert 'the night goes on' in proc.stderr


def test_every_perflog_record_names_the_suites_commit(night):
    tmp, _, _ = night
    rows = perflog.load(tmp / 'results' / 'perflogs')
    assert len(rows) >= 16
    assert set(rows['suite_commit']) == {provenance.suite_commit()}


def test_a_corrupted_file_is_caught(night, tmp_path):
    _, archive, _ = night

    def corrupt(files):
        log = 'perflogs/local/default/fio_cache_flags.log'
        files[log] = files[log].replace(b'|pass|', b'|fail|', 1)

    proc = microbench('check-bundle', rewrite(archive, tmp_path / 'c.tgz',
                                              corrupt))
    assert proc.returncode == 1
    assert ('perflogs/local/default/fio_cache_flags.log: its sha256 '
            'differs from the manifest\'s') in proc.stdout
    assert ': FAILED: ' in proc.stdout


def test_a_removed_or_added_file_is_caught(night, tmp_path):
    _, archive, _ = night

    def remove(files):
        del files['session/report.json']

    proc = microbench('check-bundle', rewrite(archive, tmp_path / 'r.tgz',
                                              remove))
    assert proc.returncode == 1
    assert 'session/report.json: in the manifest, missing from the bundle' \
        in proc.stdout

    def add(files):
        files['perflogs/local/default/extra.log'] = b'x\n'

    proc = microbench('check-bundle', rewrite(archive, tmp_path / 'a.tgz',
                                              add))
    assert proc.returncode == 1
    assert 'extra.log: in the bundle, not in the manifest' in proc.stdout


def test_a_figure_whose_tool_version_the_bundle_lacks(night, tmp_path):
    _, archive, _ = night

    def other_fio(files):
        lines = files['machine/apt.tsv'].decode().splitlines()
        files['machine/apt.tsv'] = ''.join(
            (line if not line.startswith('fio\t') else 'fio\t3.35-1') + '\n'
            for line in lines).encode()

    proc = microbench('check-bundle', rewrite(
        archive, tmp_path / 'v.tgz', other_fio, manifest=True))
    assert proc.returncode == 1
    assert "no package of machine/apt.tsv has version 3.33" in proc.stdout


def test_not_a_bundle(tmp_path):
    path = tmp_path / 'garbage.tar.gz'
    path.write_bytes(b'not a tar file')
    proc = microbench('check-bundle', str(path))
    assert proc.returncode == 2
    assert 'not a readable bundle' in proc.stderr
    assert 'Traceback' not in proc.stderr


def test_replay_repeats_the_command_line_and_variables(night, tmp_path):
    _, archive, _ = night
    meta = json.loads(bundle.read(archive)['bundle.json'])
    printed = microbench('replay', archive)
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    assert f'git checkout {meta["suite_commit"][0][:40]}' in lines
    command = shlex.split(lines[-1])
    original = shlex.split(meta['cmdline'])
    # the same command line, its session tagged a replay (never a night)
    assert command[command.index(replay.reframe_command(meta)[0]):][1:] == \
        replay.retagged(original[1:])

    into = tmp_path / 'replay'
    proc = microbench('replay', archive, '--run', '--into', str(into))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    again = json.load(open(into / 'report.json'))

    def what(cmdline):
        out = shlex.split(cmdline)[1:]
        for name in replay.OUTPUT_OPTIONS:
            while name in out:
                del out[out.index(name):out.index(name) + 2]
        return out

    assert what(again['session_info']['cmdline']) == replay.retagged(
        what(meta['cmdline']))
    assert again['session_info']['kind'] == replay.REPLAY
    first = json.loads(bundle.read(archive)['session/report.json'])
    cases = {(c['display_name'], c['samples'])
             for c in first['runs'][-1]['testcases']}
    assert cases == {(c['display_name'], c['samples'])
                     for c in again['runs'][-1]['testcases']}
    assert {s for _, s in cases} == {2}


def test_replay_warns_about_another_machine(night, tmp_path):
    _, archive, _ = night

    def elsewhere(files):
        facts = json.loads(files['machine.json'])
        facts.update(kernel='4.18.0-553.el8_10.x86_64', cpus=128)
        files['machine.json'] = json.dumps(facts).encode()

    proc = microbench('replay', rewrite(archive, tmp_path / 'm.tgz',
                                        elsewhere, manifest=True))
    assert proc.returncode == 0
    assert "replay: warning: kernel: '4.18.0-553.el8_10.x86_64' in the " \
           f"bundle, '{platform.release()}' here" in proc.stderr
    assert 'replay: warning: cpus: 128 in the bundle' in proc.stderr


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_changed_byte_is_caught(night, data):
    _, archive, _ = night
    files = bundle.read(archive)
    name = data.draw(st.sampled_from(sorted(set(files) - {bundle.MANIFEST})))
    at = data.draw(st.integers(0, len(files[name]) - 1))
    byte = data.draw(st.integers(0, 255).filter(
        lambda b: b != files[name][at]))
    files[name] = files[name][:at] + bytes([byte]) + files[name][at + 1:]
    assert check.check_manifest(files) == [
        f"{name}: its sha256 differs from the manifest's (changed since it "
        f"was bundled)"]



@pytest.fixture
def recorded_dir():
    '''The bundled night's own directory, removed after the replay unless
    it was there before.'''
    existed = os.path.exists(OLD_RECORDED_DIR)
    yield OLD_RECORDED_DIR
    if not existed:
        shutil.rmtree(OLD_RECORDED_DIR, ignore_errors=True)


def test_the_old_bundle_replays_with_todays_suite(tmp_path, recorded_dir):
    into = tmp_path / 'replay'
    proc = microbench('replay', OLD_BUNDLE, '--run', '--into', str(into))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    again = json.load(open(into / 'report.json'))
    assert again['session_info']['kind'] == replay.REPLAY
    first = json.loads(bundle.read(OLD_BUNDLE)['session/report.json'])

    def cases(report):
        return {(c['display_name'], c['result'], bool(c['perfvalues']))
                for c in report['runs'][-1]['testcases']}

    assert cases(again) == cases(first)
    assert sum(1 for _, _, figures in cases(first) if figures) == 5
