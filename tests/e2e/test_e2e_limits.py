'''End to end: a partition's component limits measured with the real fio on
the local default, kept by ``microbench limits --write`` with this
machine's identity, then every fio figure of the next run as a share of
them; and the same file as another machine's (its identity changed): the
next run's figures carry no share but why, and the report and the
weather page say it.'''

import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys

import pytest
import yaml

import project
from microbench import components, limitsfile

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')


def cases(report):
    with open(report) as fp:
        found = json.load(fp)
    return {case['display_name']: case
            for case in found['runs'][-1]['testcases']}


def pairs(text):
    return dict(item.split('=', 1) for item in filter(None, text.split(';')))


#: The limits' samples: 2 of 1 s (the quick mode's are 3 of 2 s)
SHORT = project.short('component_limits')


@pytest.fixture(scope='module')
def measured(tmp_path_factory):
    '''The limits measured in a quick run, written by microbench limits
    into a limits directory of the test's own.'''
    tmp = tmp_path_factory.mktemp('limits')
    (tmp / 'scratch').mkdir()
    env = {'MICROBENCH_LIMITS_DIR': str(tmp / 'limits')}
    proc = project.run_checks(tmp, '--mode', 'quick',
                              '-n', '^component_limits', *SHORT,
                              '-S', f'scratch_dir={tmp}/scratch', env=env)
    write = subprocess.run(
        [MICROBENCH, '--db', str(tmp / 'results.db'), 'limits',
         '--partition', 'local:default', '--write'],
        capture_output=True, text=True, env={**os.environ, **env})
    return tmp, proc, write, env


def test_the_limits_are_measured(measured):
    tmp, proc, _, _ = measured
    project.assert_ran(proc)
    # the rounds job, six limits and the node; the network needs two nodes
    assert 'Ran 8/11 test case(s)' in proc.stdout, proc.stdout[-3000:]
    assert 'one node: two ranks would meet in shared memory' in proc.stdout
    found = cases(tmp / 'report.json')
    write = found['component_limits %component=write']['perfvalues']
    median, low, high = (write[f'local:default:write_{s}_mib_s'][0]
                         for s in ('median', 'min', 'max'))
    assert 0 < low <= median <= high
    # the node: this machine's cores and memory
    facts = found['component_limits_node']['perfvalues']
    assert facts['local:default:cores'][0] == os.cpu_count()
    assert facts['local:default:memory_gib'][0] > 0
    # every storage limit's data over the node's memory: quick mode's two
    # 256 MiB files (microbench/suite/memory.py); the memory limits have none
    # (each sample moves more than them: seconds at hundreds of MiB/s)
    ratio = 0.5 / facts['local:default:memory_gib'][0]
    for variant in ('write', 'read'):
        said = found[f'component_limits %component={variant}']
        assert said['data_to_memory'] == (f'{variant}_median_mib_s='
                                          f'{ratio:.3g}x memory')
        assert said['memory_floor'] == 5.0
    assert re.fullmatch(r'ops_median_iops=[\d.e-]+x memory', found[
        'component_limits %component=randread']['data_to_memory'])
    read = found['component_limits %component=read']
    assert 'the page cache can hold all of it' in read['note']
    assert found['component_limits %component=cached_read'][
        'data_to_memory'] == ''


def test_the_page_cache_before_every_read_sample(measured):
    '''The residency witness after every read sample's preparation: the
    O_DIRECT reads' files were written around the page cache, the cache
    limit's were read once into it.'''
    tmp, _, _, _ = measured
    found = cases(tmp / 'report.json')
    for variant, figure in (('read', 'read'), ('randread', 'ops')):
        said = found[f'component_limits %component={variant}']
        assert said['resident_share'] == f'{figure}=0.0,0.0'
        assert 'O_DIRECT: the read does not consult' in said['witness']
    cached = found['component_limits %component=cached_read']
    assert cached['resident_share'] == 'read=100.0,100.0'
    assert cached['measures'] == 'page cache'
    assert 'this cache figure read storage' not in cached['note']


def test_microbench_limits_keeps_them(measured):
    tmp, proc, write, _ = measured
    assert write.returncode == 0, write.stderr
    assert 'storage_write_mib_s' in write.stdout
    assert '+    limits:' in write.stdout     # the diff
    assert f'+      machine: {components.identity()}' in write.stdout
    assert 'written:' in write.stderr
    with open(tmp / 'limits' / 'local.yaml') as fp:
        entry = limitsfile.parse(fp.read())['default']
    assert entry['measured']['nodes'] == socket.gethostname()
    assert entry['measured']['machine'] == components.identity()
    assert components.elsewhere(entry, components.this_machine()) is None
    found = cases(tmp / 'report.json')
    for name, (check, variant, figure, unit, *_) in \
            components.LIMITS.items():
        if check != 'component_limits':
            continue
        case = next(c for c in found.values() if c['name'].startswith(
            check) and c.get('variant') == variant)
        value = case['perfvalues'][f'local:default:{figure}'][0]
        assert entry['limits'][name]['median'] == pytest.approx(
            value, rel=1e-3), name
        assert entry['limits'][name]['unit'] == unit


def test_every_fio_figure_is_a_share_of_its_limit(measured, tmp_path):
    _, _, write, env = measured
    assert write.returncode == 0, write.stderr
    (tmp_path / 'scratch').mkdir()
    proc = project.run_checks(tmp_path, '--mode', 'quick', '-n',
                              '^fio_cache_flags', *project.SHORT_FIO, '-S',
                              f'scratch_dir={tmp_path}/scratch', env=env)
    project.assert_ran(proc)
    with open(os.path.join(env['MICROBENCH_LIMITS_DIR'], 'local.yaml')) \
            as fp:
        peak = limitsfile.parse(fp.read())['default']['limits'][
            'storage_write_mib_s']['median']
    found = cases(tmp_path / 'report.json')
    for mode in ('buffered', 'direct', 'sync', 'both'):
        case = found[f'fio_cache_flags %mode={mode}']
        figure = 'write_median_mib_s'
        median = case['perfvalues'][f'local:default:{figure}'][0]
        assert pairs(case['limit_name']) == {
            figure: 'storage_write_mib_s (measured)'}
        assert float(pairs(case['limit_value'])[figure]) == pytest.approx(
            peak, rel=1e-5)
        assert float(pairs(case['share_of_limit'])[figure]) == \
            pytest.approx(100 * median / peak, rel=1e-3)


def test_another_machines_limits_are_withheld(measured, tmp_path):
    '''The file just written, as if made on another machine: the run
    holds no figure against it, each record says why, and so do the
    report and the weather page.'''
    _, _, write, env = measured
    assert write.returncode == 0, write.stderr
    with open(os.path.join(env['MICROBENCH_LIMITS_DIR'], 'local.yaml')) \
            as fp:
        data = yaml.safe_load(fp)
    data['partitions']['default']['measured']['machine'] = \
        'ffffffffffffffff'
    (tmp_path / 'limits').mkdir()
    (tmp_path / 'limits' / 'local.yaml').write_text(yaml.safe_dump(data))
    (tmp_path / 'scratch').mkdir()
    proc = project.run_checks(
        tmp_path, '--mode', 'quick', '-n', '^fio_cache_flags',
        *project.SHORT_FIO, '-S', f'scratch_dir={tmp_path}/scratch',
        env={'MICROBENCH_LIMITS_DIR': str(tmp_path / 'limits')})
    project.assert_ran(proc)
    why = components.ELSEWHERE
    found = cases(tmp_path / 'report.json')
    for mode in ('buffered', 'direct', 'sync', 'both'):
        case = found[f'fio_cache_flags %mode={mode}']
        assert pairs(case['limit_name']) == {
            'write_median_mib_s': f'storage_write_mib_s (withheld: {why})'}
        assert case['limit_value'] == case['share_of_limit'] == ''
    said = f'{why}; {components.fix(why, "local:default")}'
    db = str(tmp_path / 'results.db')
    for command, page in (('report', 'report.html'),
                          ('weather', 'weather.html')):
        out = tmp_path / command
        done = subprocess.run([MICROBENCH, '--db', db, command, '-o',
                               str(out)], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        text = html.unescape((out / page).read_text())
        assert 'No share of a measured limit on local:default' in text
        assert said in text, command
        assert "% of the partition's limit" not in text
