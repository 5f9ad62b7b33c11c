'''microbench.tools.fio.parse on real fio outputs, and on broken copies of
them.'''

import json

import pytest

from microbench.tools import fio
from microbench.suite.output import OutputError

from fixtures import text

FIXTURES = {
    # name: (jobs, bytes written, longest write runtime in ms)
    'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default.json':
        (1, 1073741824, 2608),
    'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_none.json':
        (1, 1073741824, 9284),
}


@pytest.mark.parametrize('name', FIXTURES)
def test_real_outputs(name):
    jobs, written, runtime = FIXTURES[name]
    run = fio.parse(text(name))
    assert run.version == 'fio-3.33'
    assert len(run.jobs) == jobs
    assert run.io_bytes['write'] == written
    assert run.runtime_ms['write'] == runtime


def test_bandwidth_is_mib_per_second():
    run = fio.parse(text(
        'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default.json'
    ))
    # fio's own bw_bytes for this run is 411710822 B/s
    assert run.mib_s('write') == pytest.approx(411710822 / 2**20, rel=1e-6)


@pytest.mark.parametrize('name', ['fio/seqwrite-16j-32k-buffered.json',
                                  'fio/seqwrite-16j-32k-odirect.json'])
def test_group_reporting_is_the_aggregate(name):
    data = json.loads(text(name))
    run = fio.parse(text(name))
    assert run.mib_s('write') == pytest.approx(
        data['jobs'][0]['write']['bw_bytes'] / 2**20, rel=1e-3
    )


def test_buffered_is_faster_than_odirect_in_the_fixtures():
    buffered = fio.parse(text('fio/seqwrite-16j-32k-buffered.json'))
    direct = fio.parse(text('fio/seqwrite-16j-32k-odirect.json'))
    assert buffered.mib_s() > direct.mib_s()


@pytest.mark.parametrize('fraction', [0.0, 0.1, 0.5, 0.9, 0.999])
def test_truncated_output_is_rejected(fraction):
    full = text('fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_none.json')
    cut = full[:int(len(full.rstrip()) * fraction)]
    with pytest.raises(OutputError,
                       match='empty|not valid JSON|truncated'):
        fio.parse(cut)


def test_non_json_output_is_rejected():
    with pytest.raises(OutputError, match='not valid JSON'):
        fio.parse(text('fio/fio-version.txt'))


def test_error_output_is_rejected():
    with pytest.raises(OutputError,
                       match=r'error 22 \(Invalid argument\)'):
        fio.parse(text('fio/odirect-ramfs.json'))


def _corrupt(change):
    data = json.loads(text(
        'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default.json'
    ))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize('change,message', [
    (lambda d: d.pop('jobs'), 'has no "jobs"'),
    (lambda d: d['jobs'].clear(), 'lists no jobs'),
    (lambda d: d['jobs'][0].pop('write'), 'has no "write"'),
    (lambda d: d['jobs'][0]['write'].update(io_bytes='1g'),
     "io_bytes is '1g', not a number"),
    (lambda d: d['jobs'][0]['write'].update(io_bytes=0, bw_bytes=0),
     'nothing was written'),
    (lambda d: d['jobs'][0]['write'].update(bw_bytes=1),
     'bw_bytes 1 is not io_bytes'),
    (lambda d: d['jobs'][0]['write'].update(runtime=-5), 'runtime is -5'),
    (lambda d: d['jobs'].append(d['jobs'][0]), 'listed twice'),
    (lambda d: d['jobs'][0].update(error=5), r'error 5 \(Input/output'),
])
def test_corrupted_output_is_rejected(change, message):
    with pytest.raises(OutputError, match=message):
        fio.parse(_corrupt(change))


def test_odirect_rejection_is_recognised():
    assert fio.rejects_odirect(text('fio/odirect-ramfs-stderr.txt'))
    assert not fio.rejects_odirect('fio: failed parsing iodepth=0\n')


def test_command_line():
    argv = fio.command('fio', {'name': 'x', 'thread': None, 'bs': '32k'})
    assert argv == ['fio', '--name=x', '--thread', '--bs=32k']


def test_json_that_no_fio_writes_is_rejected():
    full = text(
        'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default.json')
    with pytest.raises(OutputError, match='holds NaN'):
        fio.parse(full.replace('"io_bytes" : 1073741824', '"io_bytes" : NaN'))

    with pytest.raises(OutputError, match='"io_bytes" is given twice'):
        fio.parse(full.replace('"io_bytes" : 1073741824',
                               '"io_bytes" : 1, "io_bytes" : 1073741824'))

    with pytest.raises(OutputError, match='more than one JSON document'):
        fio.parse(full + full)


def _asked_of(name, drop=(), **more):
    '''The options a real run was asked (its JSON's job options), less
    ``drop``, plus ``more``.'''
    options = json.loads(text(name))['jobs'][0]['job options']
    return {**{k: v for k, v in options.items() if k not in drop}, **more}


FALLOCATE = 'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_{}.json'


def test_each_fallocate_variant_reads_its_own_output():
    for variant in ('default', 'none'):
        name = FALLOCATE.format(variant)
        assert fio.parse(text(name), asked=_asked_of(name)).mib_s() > 0


def test_the_default_variant_rejects_the_none_variants_output():
    # fio_fallocate's default asks no fallocate option; a real run of the
    # none variant (fallocate=none, 110 MiB/s where default gave 393) says
    # it ran with one
    none = FALLOCATE.format('none')
    with pytest.raises(OutputError, match='ran with fallocate=none, which '
                                          'was not asked'):
        fio.parse(text(none), asked=_asked_of(none, drop=('fallocate',)))


def test_the_none_variant_rejects_the_default_variants_output():
    default = FALLOCATE.format('default')
    with pytest.raises(OutputError, match='ran with no fallocate, not the '
                                          'asked fallocate=none'):
        fio.parse(text(default),
                  asked=_asked_of(default, fallocate='none'))


def test_flags_fio_does_not_print_are_said():
    # zero_buffers is in no job's options of fio's JSON: the data
    # reduction's zeros and default outputs are told apart by the witness
    zeros = 'fio/suite-reduction-btrfs-zeros.json'
    options = json.loads(text(zeros)[text(zeros).index('{'):])[
        'jobs'][0]['job options']
    assert not set(fio.UNPRINTED) & set(options)
    fio.parse(text(zeros), asked={**options, 'zero_buffers': None,
                                  'group_reporting': None})
