'''One codec per record field (microbench/fields.py): every packed field's
codec gives back what it wrote, reads every value of the real records of
tests/data (perflogs and ReFrame reports) and writes it again as it was
(``cold_start``'s older ``<figure>: <words>`` in the new spelling), and
its decoder raises nothing but ValueError, whatever the text.'''

import csv
import glob
import json
import math
import os

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from microbench import fields

from fixtures import path

#: name -> codec of every packed field
PACKED = {name: field.codec for name, field in fields.FIELDS.items()
          if isinstance(field.codec, fields.Pairs)}

#: The one packed field of the job, not of a figure: shared by its checks
SHARED = {'machine_settings'}

#: The packed fields the real records of tests/data hold values of
#: (``too_spread``: no recorded gap was too spread to tell; the machine's
#: settings and the counted figures (one value per sample) only the
#: vetting nights' records, tests/data/vetting, hold; the per-node figures
#: only the multi-node runs', tests/data/multinode)
RECORDED = {'figure_samples', 'limit_name', 'limit_value', 'share_of_limit',
            'resident_share', 'cold_start', 'data_to_memory', 'counted',
            'node_figures', *SHARED}


def test_every_field_names_its_codec():
    assert set(PACKED) == RECORDED | {'too_spread'}
    for name, field in fields.FIELDS.items():
        kind, default, shared, doc = field
        assert field.codec is fields.PLAIN or field.codec.field == name
        if name in PACKED:
            # what the fields page says of it is what the codec writes
            assert kind is str and shared == (name in SHARED), name
            assert '=' in doc and ': <' not in doc.split('older')[0], name
    assert fields.FIELDS['cold_start'].codec is fields.COLD_START


# -- round trips --------------------------------------------------------------

#: A figure's name: what a codec can write and read back
NAMES = st.text(min_size=1, max_size=12).filter(
    lambda s: s == s.strip() and not any(c in s for c in ';='))

#: ... and of a codec that reads the older ``<figure>: <value>``
OLD_NAMES = NAMES.filter(lambda s: ': ' not in s)

TEXTS = st.text(min_size=1, max_size=30).filter(
    lambda s: s == s.strip() and ';' not in s)


def _written(spec):
    '''A float as a value written in ``spec`` reads back.'''
    return st.floats(allow_nan=False, width=64).map(
        lambda v: float(format(v, spec)))


def values_of(codec):
    value = codec.value
    if isinstance(value, fields.Text):
        return TEXTS
    if value.many:
        return st.lists(_written(value.spec), min_size=1,
                        max_size=5).map(tuple)
    return _written(value.spec)


@pytest.mark.parametrize('name', sorted(PACKED))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_codec_gives_back_what_it_wrote(name, data):
    codec = PACKED[name]
    pairs = data.draw(st.dictionaries(OLD_NAMES if codec.old else NAMES,
                                      values_of(codec), max_size=5))
    text = codec.encode(pairs)
    assert list(codec.decode(text).items()) == list(pairs.items())
    assert codec.read(text) == pairs
    # pairs given as a list, and a value of None left out
    assert codec.encode([*pairs.items(), ('left_out', None)]) == text


def test_the_old_spelling_reads_as_the_new():
    for codec in (fields.COLD_START, fields.TOO_SPREAD):
        new = codec.encode({'a': 'round 1 x2.4 slower', 'b_over_c': 'x: y'})
        assert new == 'a=round 1 x2.4 slower;b_over_c=x: y'
        old = 'a: round 1 x2.4 slower;b_over_c: x: y'
        assert codec.decode(old) == codec.decode(new) == {
            'a': 'round 1 x2.4 slower', 'b_over_c': 'x: y'}
    # the other fields never had it
    with pytest.raises(ValueError, match='data_to_memory: .* is not '
                                         '<figure>=<value>'):
        fields.DATA_TO_MEMORY.decode('a: 0.1x memory')


@pytest.mark.parametrize('codec, pairs, why', [
    (fields.FIGURE_SAMPLES, {'a;b': (1.0,)},
     "'a;b' cannot name a figure: it holds ';'"),
    (fields.FIGURE_SAMPLES, {'a=b': (1.0,)}, "'a=b' cannot name a figure"),
    (fields.FIGURE_SAMPLES, {' a': (1.0,)}, "' a' cannot name a figure: "
                                            'empty, or a space at an end'),
    (fields.FIGURE_SAMPLES, {'': (1.0,)}, "'' cannot name a figure"),
    (fields.COLD_START, {'a: b': 'x'}, "'a: b' cannot name a figure"),
    (fields.FIGURE_SAMPLES, {'a': ()}, 'a: no number'),
    (fields.FIGURE_SAMPLES, {'a': ('x',)}, 'a: .* is not numbers'),
    (fields.LIMIT_VALUE, {'a': 'x'}, 'a: .* is not a number'),
    (fields.COLD_START, {'a': 'slower; faster'}, "a: .* holds ';'"),
    (fields.COLD_START, {'a': 'slower '}, 'a: .* has a space at an end'),
    (fields.LIMIT_VALUE, {'a': 10 ** 400}, 'a: .* is not a number'),
    (fields.COLD_START, {'a': ''}, 'a: an empty value'),
    (fields.COLD_START, [('a', 'x'), ('a', 'y')], 'a named twice'),
])
def test_what_a_codec_cannot_write_is_refused(codec, pairs, why):
    with pytest.raises(ValueError, match=f'^{codec.field}: {why}'):
        codec.encode(pairs)


@pytest.mark.parametrize('codec, text, why', [
    (fields.FIGURE_SAMPLES, 'a=1,x',
     r"a: '1,x' is not numbers \(comma-separated\)"),
    (fields.FIGURE_SAMPLES, 'a=', r"a: '' is not numbers \(comma-separated\)"),
    (fields.FIGURE_SAMPLES, 'a 1,2', "'a 1,2' is not <figure>=<value>"),
    (fields.LIMIT_VALUE, 'a=1,2', "a: '1,2' is not one number"),
    (fields.SHARE_OF_LIMIT, '=50', "'=50' names no figure"),
    (fields.COLD_START, 'a=', 'a: an empty value'),
    (fields.LIMIT_NAME, 'a=x;a=y', 'a named twice'),
    (fields.DATA_TO_MEMORY, 3.5, 'float 3.5 is not a text'),
])
def test_a_malformed_value_is_refused_saying_what_is_wrong(codec, text, why):
    with pytest.raises(ValueError, match=f'^{codec.field}: {why}$'):
        codec.decode(text)


def test_a_reader_leaves_a_malformed_pair_out():
    # as figures.parse_samples did: the pairs that read, the others left out
    assert fields.FIGURE_SAMPLES.read('a=1,2.5;b=x;;c;d=3') == {
        'a': (1.0, 2.5), 'd': (3.0,)}
    assert fields.FIGURE_SAMPLES.read(None) == {}
    assert fields.FIGURE_SAMPLES.read(float('nan')) == {}
    assert fields.FIGURE_SAMPLES.read('a=1;a=2') == {'a': (2.0,)}
    assert fields.COLD_START.read(' a : x ;b=') == {'a': 'x'}


def test_a_limit_label():
    label = fields.limit_label('storage_write_mib_s', 'measured')
    assert label == 'storage_write_mib_s (measured)'
    assert fields.limit_of(label) == 'storage_write_mib_s'
    assert fields.limit_of(None) == fields.limit_of('') == ''


# -- the real records ------------------------------------------------------

def _perflog_rows():
    for name in sorted(glob.glob(path('**/*.log'), recursive=True)):
        with open(name, newline='') as fp:
            rows = list(csv.reader(fp, delimiter='|'))
        if rows and 'perf_var' in rows[0]:
            for row in rows[1:]:
                yield name, dict(zip(rows[0], row))


def _report_cases():
    for name in sorted(glob.glob(path('**/*.json'), recursive=True)):
        try:
            with open(name) as fp:
                report = json.load(fp)
        except ValueError:
            continue
        if isinstance(report, dict) and 'runs' in report:
            for run in report['runs']:
                for case in run['testcases']:
                    yield name, case


def recorded_values():
    '''``[(file, field, value)]`` of every packed field's value of every
    perflog row and test case of tests/data.'''
    out = []
    for name, record in [*_perflog_rows(), *_report_cases()]:
        for field in PACKED:
            if record.get(field):
                out.append((os.path.relpath(name, path('')), field,
                            record[field]))
    return out


RECORDS = recorded_values()


def test_the_records_hold_every_recorded_field():
    assert {field for _, field, _ in RECORDS} == RECORDED
    files = {name for name, _, _ in RECORDS}
    assert any(name.endswith('.log') for name in files)
    assert any(name.endswith('.json') for name in files)


@pytest.mark.parametrize('name, field, text', sorted(set(RECORDS)))
def test_a_recorded_value_reads_and_writes_again(name, field, text):
    codec = PACKED[field]
    found = codec.decode(text)
    assert found and codec.read(text) == found
    again = codec.encode(found)
    assert codec.decode(again) == found
    if codec.old:
        # the older spelling written anew: each pair's first ': ' an '='
        assert again == ';'.join(item.replace(': ', '=', 1) if '=' not in
                                 item else item for item in text.split(';'))
    else:
        assert again == text
    for value in found.values():
        if isinstance(value, tuple):
            assert all(math.isfinite(v) for v in value)


def test_the_older_cold_start_of_a_real_perflog():
    said = {text for name, field, text in RECORDS
            if field == 'cold_start' and name.endswith('.log')}
    assert 'write_median_mib_s: round 1 x1.4 slower' in said
    assert fields.COLD_START.decode(
        'write_median_mib_s: round 1 x1.4 slower') == \
        fields.COLD_START.decode('write_median_mib_s=round 1 x1.4 slower') \
        == {'write_median_mib_s': 'round 1 x1.4 slower'}


# -- any text ------------------------------------------------------------

#: Text made of what the records are made of, and any text
SOUP = st.one_of(
    st.text(),
    st.lists(st.sampled_from(
        [';', '=', ': ', ':', ' ', ',', 'a', '1', '.5', 'e9', '-', 'nan',
         'inf', '\n', '\t', '\x1c', '_', '(', ')', 'x memory']),
        max_size=25).map(''.join))


@pytest.mark.parametrize('name', sorted(PACKED))
@settings(max_examples=300, deadline=None)
@given(text=SOUP)
@example(text='a=1,2;a=3')
@example(text='=;=;: ;a: ;a=  ')
def test_decode_raises_nothing_but_value_error(name, text):
    codec = PACKED[name]
    read = codec.read(text)
    try:
        found = codec.decode(text)
    except ValueError as err:
        assert str(err).startswith(f'{name}: ')
        return
    # where the text decodes, the reader reads the same, and it writes
    # back to a text that reads the same (a NaN as a NaN: by its repr)
    assert repr(read) == repr(found)
    assert repr(codec.decode(codec.encode(found))) == repr(found)
